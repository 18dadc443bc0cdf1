#include <unistd.h>
#include <zip.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "fuzz_target.h"
#include "qualrank/report/formats/refi.h"
#include "qualrank/report/formats/transcript_import.h"
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
    if (text::find_invalid_utf8(d.message)) fail("invalid UTF-8 in a diagnostic");
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

int refi_file(const std::uint8_t* data, std::size_t size, const std::string& ext) {
  auto path = temp_file(std::string_view(reinterpret_cast<const char*>(data), size), ext);
  Diagnostics diags;
  refi::read_file(path, "import" + ext, diags);
  check_located(diags);
  return 0;
}

std::size_t mutate_zip(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed, const char* prefer,
                       std::size_t (*mutate)(std::uint8_t*, std::size_t, std::size_t)) {
  std::minstd_rand rng(seed);
  auto whole = [&] { return mutate(data, size, max_size); };
  if (size > (1u << 20) || rng() % 8 == 0) return whole();
  // Read every entry.
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* in = zip_source_buffer_create(data, size, 0, &error);
  zip_t* archive = in ? zip_open_from_source(in, ZIP_RDONLY, &error) : nullptr;
  if (!archive) {
    if (in) zip_source_free(in);
    zip_error_fini(&error);
    return whole();
  }
  std::vector<std::pair<std::string, std::string>> entries;
  std::size_t total = 0;
  bool ok = true;
  for (zip_int64_t i = 0, n = zip_get_num_entries(archive, 0); ok && i < n && i < 64; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &st) != 0 || !st.name ||
        !(st.valid & ZIP_STAT_SIZE) || (total += st.size) > (1u << 20)) {
      ok = false;
      break;
    }
    std::string content(st.size, '\0');
    zip_file_t* f = zip_fopen_index(archive, static_cast<zip_uint64_t>(i), 0);
    ok = f && zip_fread(f, content.data(), st.size) == static_cast<zip_int64_t>(st.size);
    if (f) zip_fclose(f);
    entries.emplace_back(st.name, std::move(content));
  }
  zip_discard(archive);  // (frees `in`)
  zip_error_fini(&error);
  if (!ok || entries.empty()) return whole();
  // Mutate one entry.
  std::size_t pick = rng() % entries.size();
  if (rng() % 4 != 0)
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (entries[i].first == prefer) pick = i;
  std::string& content = entries[pick].second;
  const std::size_t room = std::max<std::size_t>(max_size, content.size() + 64);
  const std::size_t before = content.size();
  content.resize(room);
  content.resize(mutate(reinterpret_cast<std::uint8_t*>(content.data()), before, room));
  // Write the archive again, in memory.
  zip_error_init(&error);
  zip_source_t* out = zip_source_buffer_create(nullptr, 0, 0, &error);
  if (!out) return whole();
  zip_source_keep(out);
  zip_t* writer = zip_open_from_source(out, ZIP_TRUNCATE, &error);
  ok = writer != nullptr;
  for (std::size_t i = 0; ok && i < entries.size(); ++i) {
    zip_source_t* s = zip_source_buffer(writer, entries[i].second.data(), entries[i].second.size(), 0);
    zip_int64_t index = s ? zip_file_add(writer, entries[i].first.c_str(), s, ZIP_FL_ENC_UTF_8) : -1;
    if (index < 0) {
      if (s) zip_source_free(s);
      ok = false;
    } else {
      zip_set_file_compression(writer, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0);
    }
  }
  if (writer && (ok ? zip_close(writer) != 0 : (zip_discard(writer), true))) ok = false;
  std::size_t written = 0;
  if (ok && zip_source_open(out) == 0) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_source_stat(out, &st) == 0 && (st.valid & ZIP_STAT_SIZE) && st.size <= max_size) {
      zip_int64_t n = zip_source_read(out, data, st.size);
      if (n == static_cast<zip_int64_t>(st.size)) written = st.size;
    }
    zip_source_close(out);
  }
  zip_source_free(out);
  zip_error_fini(&error);
  return written > 0 ? written : whole();
}

}  // namespace qualrank::fuzz
