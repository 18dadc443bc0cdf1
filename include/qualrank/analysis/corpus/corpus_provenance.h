// What the corpus's derived files were made from, and whether that is still what the workspace holds
// (docs/formats.md, "Provenance"). corpus/retrieved.jsonl starts with a line {"retrieval": {...}} that records
// the window (and whether options or the keywords file gave it), each keyword file's SHA-256 and each source's
// stored SHA-256; a sample list (corpus/samples/NAME.txt) starts with "# key: value" lines that record its rule,
// seed, sizes and the population it was drawn from. The readers ask these functions and say what changed and
// which command brings the file up to date; where counting would be wrong they refuse.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::corpus {

struct RetrievalProvenance {
  std::string from, to;             // the window ("" = open)
  bool window_from_options = false; // --from/--to gave it (a plain re-run keeps it), else the keywords file
  std::vector<std::pair<std::string, std::string>> keyword_files;  // workspace path as given -> SHA-256
  std::map<std::string, std::string> sources;                      // source -> SHA-256 of corpus/<source>.jsonl
};

// The first line of corpus/retrieved.jsonl (with its "\n").
std::string retrieval_provenance_line(const RetrievalProvenance& p);
// Reads the provenance line if `line` is one (nullopt otherwise; a malformed one is a located error).
std::optional<RetrievalProvenance> read_retrieval_provenance(std::string_view line, const std::string& file, int line_no,
                                                             Diagnostics& diags);
// The provenance of corpus/retrieved.jsonl as stored (nullopt: no file, or one written before provenance).
std::optional<RetrievalProvenance> stored_retrieval_provenance(const std::filesystem::path& workspace, Diagnostics& diags);

// "2023-01 to 2025-04", "any date", "2023-01 to ...".
std::string window_text(std::string_view from, std::string_view to);

// What changed since the retrieval `p`, one sentence each ("corpus/atlas.jsonl changed (re-imported or edited)",
// "source wasmer was imported after the retrieval", "corpus/keywords.yaml changed"), from the manifest and the
// files as they are now. Empty: the retrieval is current.
std::vector<std::string> retrieval_changes(const std::filesystem::path& workspace, const RetrievalProvenance& p,
                                           const Manifest& manifest);

// The check every reader of corpus/retrieved.jsonl makes on the text it has read (`retrieved`): when it is
// stale (or records no provenance), one diagnostic located at corpus/retrieved.jsonl:1 saying what changed and
// "run 'qualrank corpus retrieve'"; an error when `refuse` (counting from it would be wrong), else a warning.
// True when current.
bool check_retrieval_current(const std::filesystem::path& workspace, std::string_view retrieved, Diagnostics& diags,
                             bool refuse);

// What a sample was drawn from and how: the "# key: value" lines at the top of corpus/samples/NAME.txt.
struct SampleProvenance {
  std::string rule;                  // screening's exclusion rule: unanimous or majority
  std::string seed, confidence, margin, proportion;  // as given (text, so that they read back exactly)
  std::string size;                  // "cochran" or the --size given
  std::string stratify;              // "source" or "none"
  std::size_t population = 0;        // N
  std::string population_sha256;     // of the population's SOURCE#ID list, one per line, in drawing order
  std::vector<std::pair<std::string, std::string>> excluded;  // --exclude samples -> SHA-256 of their file
};
std::string sample_provenance_lines(const SampleProvenance& p);
// Reads the provenance lines of a sample's text (nullopt: none, a sample drawn before provenance).
std::optional<SampleProvenance> read_sample_provenance(std::string_view text);

// The screening rule the workspace's samples were drawn under: "majority" when every sample that records one
// says so, else "unanimous" (the default of `corpus sample` and `corpus table`).
std::string samples_rule(const std::filesystem::path& workspace);

// Why the stored file of `source`, whose SHA-256 is `sha256` (worked out once, or remembered:
// util/hash_cache.h), is not the one the manifest records ("" when it is).
std::string stored_hash_mismatch(const std::string& source, const std::string& sha256, const Manifest& manifest);

// Sources whose stored file is not what the manifest records (edited by hand, or corrupted): one sentence each.
std::vector<std::string> manifest_mismatches(const std::filesystem::path& workspace, const Manifest& manifest);

}  // namespace qualrank::corpus
