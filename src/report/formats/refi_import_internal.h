// Private to the REFI-QDA importer (refi_import*.cpp): the steps plan_refi_import is made of.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "qualrank/model/guideline.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/report/formats/refi.h"
#include "qualrank/report/formats/refi_import.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::refi_import {

// The codebook in preorder, each code with its normalised GUID and its parent's.
struct FlatCode {
  const refi::Code* code = nullptr;
  std::string guid;         // normalised (lower case, no braces); the GUID as written when not a UUID
  std::string parent_guid;  // "" for a top-level code
  int depth = 1;
};
std::vector<FlatCode> flatten(const std::vector<refi::Code>& codes);

// Normalised GUID (refi GUIDs compare case-insensitively, braces optional).
std::string norm_guid(const std::string& guid);

// Which taxonomy node each code stands for.
struct CodeMap {
  std::map<std::string, std::string> node_of;  // normalised code GUID -> node id
  std::set<std::string> second_to_node;        // codes mapped to a node an earlier code maps to (GUIDs)
  int unmatched = 0;                           // codes that map to no node
};

// An explicit mapping file entry: the other tool's code name or GUID -> a node id, name or alias.
struct MapEntry {
  std::string key, value;
  Location where;
};
std::optional<std::vector<MapEntry>> read_map_file(const std::filesystem::path& path, Diagnostics& diags);

// A taxonomy made from the project's codebook (the workspace has none): ids from the codes' id prefixes when
// every code has a distinct one, else assigned by position (A, A.1, A.1.i, ...). `yaml` is the file text.
struct CreatedTaxonomy {
  std::set<std::string> positional;  // ids given by position (no mapping entry, no distinct id prefixes)
  std::string yaml;
  Taxonomy taxonomy;
  CodeMap map;
};
// A mapping file's entries give the ids of the codes they name.
std::optional<CreatedTaxonomy> taxonomy_from_codebook(const refi::Project& project, const std::string& name,
                                                      const std::string& title, const std::string& file,
                                                      const std::vector<MapEntry>& explicit_map, Diagnostics& diags);

// Maps codes onto an existing taxonomy (mapping file, qualrank GUID, id prefix, name or alias). A code that
// does not map is an error when `used` holds its GUID (codings need it), else a warning (unless
// `report_unused` is false: a codebook's new codes are proposals, not problems).
CodeMap map_codes(const refi::Project& project, const Taxonomy& taxonomy, const std::vector<MapEntry>& explicit_map,
                  const std::set<std::string>& used, bool report_unused, Diagnostics& diags);

// The differences between a codebook and the taxonomy, given the mapping (codes that did not map are new).
// Codes at the codebook's top level on nested nodes are not moves, and a node whose subtree keeps a mapped node
// is not deprecated (one note each); removals come children first.
std::vector<CodebookDifference> codebook_differences(const refi::Project& project, const Taxonomy& taxonomy,
                                                     const CodeMap& map, Diagnostics& diags);

// One coding to place in a transcript: code-point offsets into the source text.
struct PlacedCoding {
  long long start = 0, end = 0;
  std::string node, coder, memo;
  Location where;  // the selection in project.qde
  bool exemplar = false;
};

struct TranscriptSpec {
  std::string participant, role, coder, stem;
  std::vector<std::string> interviewer_labels;  // empty: the default (I, Interviewer)
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<std::string> interviewer_names;   // other speaker names (case-insensitive) written as `I`
};

// How the source text becomes turns (refi_import_turns.cpp).
struct Piece {
  std::size_t src = 0, turn = 0, len = 0;  // code points: source offset, turn-text offset, length
};

struct BuiltTurn {
  std::string speaker;                 // the label written: the participant id or an interviewer label
  bool interviewer = false;
  int number = 0;                      // participant turns: 1, 2, ...
  std::vector<std::string> lines;      // the turn text's physical lines
  std::vector<std::size_t> line_cp;    // code-point offset of each line in the turn text
  std::vector<Piece> pieces;           // where the turn text came from in the source
  std::size_t cp_length = 0;
  std::size_t last_out_line = 0;
  std::string text() const;            // lines joined as the transcript parser joins them
  void append(std::string_view line, std::size_t src_cp);
};

struct OutLine {
  std::string text;      // the line as written (when not turn text)
  int turn = -1;         // index into turns when the line holds turn text
  std::size_t part = 0;  // which of the turn's lines
};

struct SourceLayout {
  std::vector<BuiltTurn> turns;
  std::vector<OutLine> out;
  std::size_t total_cp = 0;  // code points in the source text
};

// Reads the source text like a transcript body when some lines start with a speaker label (the participant
// id, an interviewer label, a name in `interviewer_names`, or, when the participant id is never a label, a
// "Name:" that starts two or more lines, taken as the participant); otherwise every non-blank line is a
// participant turn.
SourceLayout lay_out_source(const refi::Source& source, const TranscriptSpec& spec, Diagnostics& diags);

struct BuiltTranscript {
  std::string markdown;
  std::map<std::string, std::string> standoff;  // coder -> <stem>.<coder>.codes content
  int codings = 0;                              // codings placed
};

// Turns a source's plain text and codings into a transcript (and codings files), then parses them back and
// checks that every turn and coding reads back as placed. Returns nullopt (with a located error) when the
// text cannot be represented; codings that cannot be placed exactly are warnings.
std::optional<BuiltTranscript> build_transcript(const refi::Source& source, const TranscriptSpec& spec,
                                                const std::vector<PlacedCoding>& codings, Diagnostics& diags);

// When the .qdpx carried the transcript `md_rel` ("transcripts/NAME.md") and its .codes files, and they say
// exactly what `built` says (turns, front-matter values, codings with nodes resolved by `resolve`, coders,
// memos, exemplar marks; the same coders' .codes files), replaces `built`'s texts by the carried bytes and
// returns true: an export -> import round trip keeps every line where it was (refi_import_carried.cpp).
// Attributes are compared as loaded (complete_attributes against `guideline`), as the export wrote them;
// without a guideline, as written.
bool keep_carried_transcript(BuiltTranscript& built, const std::string& md_rel, const refi::Project& project,
                             const NodeResolver& resolve, const Guideline* guideline);

}  // namespace qualrank::refi_import
