// Property: no coding is ever lost without a word. For every bundled transcript and coder file, delete or
// insert one markup character at many seeded random places; after each mutation, either the set of codings
// (participant, turn, whole turn or span, node, coder) is unchanged, or the parse and the code resolution
// report a problem (error or warning) located in the mutated file within a few lines of the mutation.
#include "catch.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <set>

#include "qualrank/analysis/coding.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/files.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

constexpr int kLinesAround = 5;

struct Files {
  std::string transcript_name, transcript;
  std::vector<std::pair<std::string, std::string>> codes;  // name, content
};

// The codings of one transcript (with its coders' files) as resolved at the version in use.
std::multiset<std::string> codings(const Files& f, Workspace& one, const TaxonomyVersion& v, Diagnostics& d) {
  std::multiset<std::string> keys;
  auto t = parse_transcript(f.transcript, f.transcript_name, d);
  if (!t) return keys;
  for (const auto& [name, content] : f.codes)
    if (auto s = parse_standoff(content, name, d)) apply_standoff(*t, *s, d);
  one.transcripts = {std::move(*t)};
  CodingOptions opts;
  opts.suggestions = false;
  for (const auto& seg : coded_segments(one, v.taxonomy, v.resolve, d, opts))
    for (const auto& c : seg.codes)
      keys.insert(seg.participant + "#t" + std::to_string(seg.turn) + (seg.whole_turn ? "|turn|" : "|span|") + c.node +
                  "|" + c.coder);
  return keys;
}

int line_at(const std::string& s, std::size_t pos) {
  return 1 + static_cast<int>(std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

}  // namespace

TEST_CASE("model::parse_transcript never loses a coding silently under one-character markup mutations", "[model][property]") {
  // The bundled study, then the fieldwork fixture (other roles, coders and taxonomy).
  const std::string root = GENERATE(std::string(QUALRANK_SOURCE_DIR), std::string(QUALRANK_FIXTURES_DIR) + "/fieldwork");
  Diagnostics load;
  auto ws = load_workspace(root, load);
  REQUIRE(ws);
  REQUIRE_FALSE(load.has_errors());
  auto version = taxonomy_at(*ws, std::nullopt, load);
  REQUIRE(version);
  Workspace one;
  one.root = ws->root;
  one.taxonomy = ws->taxonomy;
  one.guideline = ws->guideline;

  // Seeded: the same mutations every run (QUALRANK_MUTATION_SEED tries others).
  const char* seed_env = std::getenv("QUALRANK_MUTATION_SEED");
  std::mt19937_64 rng(seed_env ? std::strtoull(seed_env, nullptr, 10) : 20261122);
  const std::string transcript_marks = "[]{},@\\|";
  const std::string codes_marks = "\":,|#\\";
  int tried = 0, changed = 0, files_checked = 0;
  for (const auto& t : ws->transcripts) {
    Files base;
    base.transcript_name = t.file;
    base.transcript = *files::read(ws->path(t.file));
    auto stem = fs::path(t.file).stem().string();
    for (const auto& p : files::list_files(ws->path("transcripts"), ".codes"))
      if (p.filename().string().rfind(stem + ".", 0) == 0)
        base.codes.emplace_back("transcripts/" + p.filename().string(), *files::read(p));
    Diagnostics clean;
    auto original = codings(base, one, *version, clean);
    REQUIRE_FALSE(clean.has_errors());
    REQUIRE_FALSE(original.empty());

    // The transcript, then each coder file: mutate one of them at a time.
    for (int which = -1; which < static_cast<int>(base.codes.size()); ++which) {
      ++files_checked;
      const std::string& name = which < 0 ? base.transcript_name : base.codes[static_cast<std::size_t>(which)].first;
      const std::string& content = which < 0 ? base.transcript : base.codes[static_cast<std::size_t>(which)].second;
      const std::string& marks = which < 0 ? transcript_marks : codes_marks;
      std::vector<std::size_t> mark_positions;
      for (std::size_t i = 0; i < content.size(); ++i)
        if (marks.find(content[i]) != std::string::npos) mark_positions.push_back(i);
      const int rounds = which < 0 ? 400 : 200;
      for (int r = 0; r < rounds; ++r) {
        std::string mutated = content;
        std::size_t pos;
        std::string what;
        if (r % 2 == 0 && !mark_positions.empty()) {
          pos = mark_positions[rng() % mark_positions.size()];
          what = std::string("delete '") + mutated[pos] + "'";
          mutated.erase(pos, 1);
        } else {
          pos = rng() % (mutated.size() + 1);
          char c = marks[rng() % marks.size()];
          what = std::string("insert '") + c + "'";
          mutated.insert(pos, 1, c);
        }
        ++tried;
        Files f = base;
        (which < 0 ? f.transcript : f.codes[static_cast<std::size_t>(which)].second) = mutated;
        Diagnostics d;
        auto now = codings(f, one, *version, d);
        if (now == original) continue;
        ++changed;
        int line = line_at(mutated, std::min(pos, mutated.size()));
        bool located = std::any_of(d.items().begin(), d.items().end(), [&](const Diagnostic& x) {
          return x.where.file == name && std::abs(x.where.line - line) <= kLinesAround;
        });
        INFO(name << ": " << what << " at line " << line << " (byte " << pos << ") changed the codings");
        for (const auto& x : d.items()) UNSCOPED_INFO(format_diagnostic(x));
        REQUIRE(located);
      }
    }
  }
  std::cout << "mutation property: " << tried << " one-character mutations of " << files_checked << " files of "
            << root << "; " << changed << " changed the codings, every one reported within " << kLinesAround
            << " lines\n";
  CHECK(tried >= (ws->transcripts.size() > 10 ? 7000 : 2000));
  CHECK(changed > 0);
}
