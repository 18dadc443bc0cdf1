// REFI-QDA export: the taxonomy as a codebook (.qdc) and the whole project (.qdpx) for NVivo, ATLAS.ti,
// MAXQDA, QualCoder and other tools that read QDA-XML 1.0. See docs/refi-qda.md for the mapping.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "qualrank/analysis/study.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

// The codebook (urn:QDA-XML:codebook:1.0): one nested Code per node in taxonomy order, named "ID NAME",
// GUID refi::code_guid(taxonomy.name, id), isCodable (false for deprecated nodes), a colour per root,
// Description = refi::code_description. Same taxonomy -> same bytes.
std::string refi_codebook_xml(const Taxonomy& taxonomy);

// A transcript as the plain text of a REFI source: its sections ("## QID title"), turns ("SPEAKER: text",
// span markup removed), @rank and @answer lines, in file order, separated by blank lines; no front matter,
// no @code/@memo lines, no comments or free prose. `turn_offsets` maps each participant turn number to the
// code-point offset of its text. A turn whose text cannot be written so that it parses back the same is
// reported as a warning. With a taxonomy version, @rank items that only resolve through the edit history
// (an old id, name or alias) are written as the node id they resolve to, so that the text reads back
// without the history.
struct RefiPlainText {
  std::string text;
  std::map<int, std::size_t> turn_offsets;
};
RefiPlainText refi_plain_text(const Transcript& transcript, Diagnostics& diags, const Taxonomy* taxonomy = nullptr,
                              const NodeResolver* resolve = nullptr);

// The files of a .qdpx: "project.qde" (urn:QDA-XML:project:1.0) and "sources/GUID.txt" per transcript.
// Coded segments become PlainTextSelections with one Coding per applied code, memos become Notes, participants
// Cases with their role and attributes as Variables, coders Users. `epoch` stamps creationDateTime.
std::map<std::string, std::string> qdpx_entries(const Study& study, long long epoch, Diagnostics& diags);

// Writes qdpx_entries as a zip to `path` (atomically, every entry stamped with `epoch`). Returns false with
// `error` set when the file cannot be written.
bool write_qdpx(const Study& study, const std::filesystem::path& path, long long epoch, Diagnostics& diags,
                std::string* error);

}  // namespace qualrank
