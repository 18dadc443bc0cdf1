// REFI-QDA (QDA-XML 1.0) exchange: what qualrank's export and import agree on, and a tool-neutral reading of
// a project (.qdpx: a zip with project.qde and sources/) or codebook (.qdc). See docs/refi-qda.md.
//
// GUIDs: every GUID qualrank writes is a name-based UUID (version 5) in qualrank's namespace, so the same
// workspace always exports the same GUIDs; a code's GUID depends only on the taxonomy name and the node id.
// Codes: named "ID NAME"; the Description holds the definition, then "Inclusion:", "Exclusion:",
// "Aliases:" and "Keywords:" paragraphs, which the importer reads back.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::refi {

// The GUID of a name in qualrank's namespace (uuid5(uuid5(URL, "https://qualrank.invalid/refi-qda"), name)).
std::string name_guid(const std::string& name);
// The GUID of taxonomy node `node_id` of taxonomy `taxonomy_name`: name_guid("code/" + taxonomy + "/" + id).
std::string code_guid(const std::string& taxonomy_name, const std::string& node_id);

// "A.1 Unclear Installation Guidance".
std::string code_name(const TaxonomyNode& node);
// The Description text of a node (definition, criteria, aliases, keywords); "" when it has none of them.
std::string code_description(const TaxonomyNode& node);

struct DescriptionFields {
  std::string definition, inclusion, exclusion;
  std::vector<std::string> aliases, keywords;
};
// Reads back what code_description wrote; other tools' descriptions become the definition.
DescriptionFields parse_code_description(const std::string& description);

// If `name` starts with something shaped like a taxonomy id ("A", "A.1", "C.10.iv", "B2", "TOOL.2.a": one
// upper-case letter or letters then digits alone; else dot-separated segments of letters and digits, the first
// of at most 3 characters or upper-case letters only) followed by a space and more text, returns {id, rest}.
// "GPU memory" has no id.
std::optional<std::pair<std::string, std::string>> split_id_prefix(const std::string& name);

// ---------------------------------------------------------------------------------------------------------
// A project as read from QDA-XML. `line` is the element's line in the XML file (0 when unknown).

struct Code {
  std::string guid;  // as written
  std::string name, description, color;
  bool codable = true;
  int line = 0;
  std::vector<Code> children;
};

struct User {
  std::string guid, name;
  int line = 0;
};

struct Variable {
  std::string guid, name, type;
  int line = 0;
};

struct Case {
  std::string guid, name;
  std::vector<std::pair<std::string, std::string>> values;  // variable GUID -> value, in file order
  std::vector<std::pair<std::string, int>> source_refs;     // source GUID, line
  int line = 0;
};

struct CodingRef {
  std::string guid, code_guid, user_guid;
  std::vector<std::pair<std::string, int>> note_refs;  // note GUID, line
  int line = 0;
};

struct Selection {
  std::string guid, name, user_guid;
  long long start = 0, end = 0;  // code points into the source's plain text, end exclusive
  std::vector<CodingRef> codings;
  std::vector<std::pair<std::string, int>> note_refs;
  int line = 0;
};

struct Source {
  std::string guid, name, user_guid;
  std::string text;          // UTF-8 plain text, byte-order mark removed
  std::string text_file;     // where the text came from, for diagnostics ("F.qdpx:sources/X.txt")
  bool has_text = false;
  std::vector<Selection> selections;
  std::vector<CodingRef> whole_source_codings;  // Coding directly on the source (not supported)
  int line = 0;
};

struct Note {
  std::string guid, name, text;
  int line = 0;
};
// The name of the note qualrank attaches to a Coding picked as an exemplar quote (`@exemplar`); on import such
// a note sets the pick instead of becoming a memo.
inline constexpr const char* kExemplarNote = "qualrank:exemplar";

struct Project {
  std::string name, origin, creating_user, description;
  std::string xml_file;  // display name of the XML for locations ("F.qdpx:project.qde" or "F.qdc")
  bool is_codebook = false;  // read from a .qdc
  std::vector<User> users;
  std::vector<Code> codes;
  std::vector<Variable> variables;
  std::vector<Case> cases;
  std::vector<Source> sources;
  std::vector<Note> notes;
  std::vector<std::string> ignored;  // element kinds present but not imported (Sets, Links, Graphs, ...)
  // qualrank's own design files carried in a .qdpx under "qualrank/" (path without that prefix -> bytes):
  // codebooks/NAME.yaml, codebooks/NAME.history.yaml, guidelines/NAME.yaml. Other tools ignore them.
  std::map<std::string, std::string> workspace_files;
  // The transcripts and .codes files carried the same way (transcripts/NAME.md, transcripts/NAME.codes), as
  // written: an import keeps them when they say what the sources say (a round trip keeps line numbers).
  std::map<std::string, std::string> carried_transcripts;
};

// Whether `path` (relative, '/'-separated) is one of the design files a .qdpx may carry: a single file name
// ending in .yaml directly in codebooks/ or guidelines/.
bool is_carried_design_file(const std::string& path);
// Whether `path` is a transcript file a .qdpx may carry: transcripts/NAME.md or transcripts/NAME.codes (a
// single file name, not starting with '.').
bool is_carried_transcript_file(const std::string& path);

// Reads a .qdpx (zip: project.qde + sources/) or a .qdc, by extension. `display` is how the file is named
// in diagnostics. Reports XML syntax errors, a wrong root element or namespace, missing required attributes,
// unreadable or non-UTF-8 sources, located (FILE.qdpx:project.qde:LINE); returns nullopt when nothing
// usable was read.
std::optional<Project> read_file(const std::filesystem::path& path, const std::string& display, Diagnostics& diags);
// Parses QDA-XML text (a Project or a CodeBook). Sources with plainTextPath "internal://X" are looked up with
// `read_source` (nullopt = missing).
std::optional<Project> parse_xml(const std::string& xml, const std::string& xml_file, Diagnostics& diags,
                                 const std::function<std::optional<std::string>(const std::string&)>& read_source = {});

}  // namespace qualrank::refi
