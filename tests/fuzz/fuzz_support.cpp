#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>

#include "fuzz_target.h"
#include "qualrank/model/transcript_import.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::fuzz {

namespace {

[[noreturn]] void fail(const std::string& why) {
  std::cerr << "fuzz check failed: " << why << "\n";
  std::abort();
}

std::string fixture(const std::string& rel) {
  auto text = files::read(std::filesystem::path(QUALRANK_FUZZ_FIXTURES) / rel);
  if (!text) fail("cannot read fixture " + rel);
  return *text;
}

}  // namespace

const Taxonomy& taxonomy() {
  static const Taxonomy t = [] {
    Diagnostics d;
    auto tax = load_taxonomy(fixture("fieldwork/codebooks/remote-work.yaml"), "codebooks/remote-work.yaml", d);
    if (!tax) fail("fixture taxonomy does not load");
    return *tax;
  }();
  return t;
}

const Guideline& guideline() {
  static const Guideline g = [] {
    Diagnostics d;
    auto gl = load_guideline(fixture("fieldwork/guidelines/remote-work-interview.yaml"),
                             "guidelines/remote-work-interview.yaml", taxonomy(), d);
    if (!gl) fail("fixture guideline does not load");
    return *gl;
  }();
  return g;
}

std::filesystem::path temp_file(std::string_view data, const std::string& ext) {
  static const std::filesystem::path dir = [] {
    const char* t = std::getenv("TMPDIR");
    return std::filesystem::path(t && *t ? t : "/tmp");
  }();
  auto path = dir / ("qualrank-fuzz-" + std::to_string(::getpid()) + ext);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  out.close();
  if (!out) fail("cannot write " + path.string());
  return path;
}

void check_located(const Diagnostics& diags) {
  for (const auto& d : diags.items()) {
    if (d.severity == Severity::note) continue;
    if (d.where.file.empty()) fail("diagnostic without a file: " + d.message);
    if (d.message.size() > Diagnostics::kMessageBytes + 32) fail("diagnostic message not capped");
  }
}

void check_utf8(std::string_view s, const char* what) {
  if (text::find_invalid_utf8(s)) fail(std::string("invalid UTF-8 accepted in ") + what);
}

int transcript_source(const std::uint8_t* data, std::size_t size, const std::string& ext) {
  auto path = temp_file(std::string_view(reinterpret_cast<const char*>(data), size), ext);
  Diagnostics diags;
  auto utterances = read_transcript_source(path, "interview" + ext, diags);
  check_located(diags);
  if (utterances && !diags.has_errors())
    for (const auto& u : *utterances) {
      check_utf8(u.speaker, "a speaker");
      check_utf8(u.text, "an utterance");
    }
  return 0;
}

}  // namespace qualrank::fuzz
