// Private helpers shared by the history sources (file format, appending, provenance checks).
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "qualrank/model/history/history.h"
#include "qualrank/model/transcripts/transcript.h"

namespace qualrank::history_detail {

// The proposal entry of an edit as JSON (every scalar a string, empty optional fields left out), no hash.
nlohmann::json proposal_entry(const TaxonomyEdit& edit);
// A decision entry, no hash.
nlohmann::json decision_entry(const std::string& edit_id, const HistoryDecision& decision, int version);
// An entry (with its hash) as a YAML sequence item of `entries:`, ending in a newline.
std::string render_entry(const nlohmann::json& entry);
// The lines before the first entry of a new history file.
std::string file_header(const std::string& taxonomy_name, const std::string& taxonomy_path);

// Source files named by provenance, by workspace-relative path, read once per check.
struct SourceFile {
  bool exists = false;
  int lines = 0;
  std::optional<Transcript> transcript;  // when the file parses as a transcript
};
using SourceCache = std::map<std::string, SourceFile>;

// What is wrong with a provenance source, or "" when it names a participant turn of that participant.
// `outside` is set when the path is absolute or leaves the workspace.
std::string provenance_problem(const std::filesystem::path& root, const Provenance& p, bool& outside,
                               SourceCache& cache);

// The participant's words on `line` of the transcript in `f` (markup removed, at most 200 bytes, cut at a
// character boundary); "" when the line is not in a participant turn or `f` is not a transcript.
std::string quote_at(const SourceFile& f, int line);

// Where `p.quote` is now: nullopt when the turn at p.line still holds it (or p has no quote, or its file is
// not a transcript). Otherwise `count` is how many times the participant turns hold it, and the line of the
// only one when count == 1.
std::optional<int> moved_quote(const Provenance& p, const SourceFile& f, int& count);

}  // namespace qualrank::history_detail
