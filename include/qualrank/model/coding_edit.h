// Editing codings: one transcript and one coder's codings, in memory, changed by small text splices.
// The transcript's own coder (its front matter's `coder:`) writes the inline markup (`@code` lines, `[span]{ID}`);
// any other coder writes `transcripts/<stem>.<coder>.codes`. Every edit keeps every other byte of the file,
// is checked by parsing the result (the coding must appear, nothing else may change, no new problem), and
// can be undone by the splices it returns. `qualrank code add/remove` and `qualrank annotate` both use it.
#pragma once
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "qualrank/model/node_resolver.h"
#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

class Taxonomy;

// Replace `erase` bytes at `offset` by `insert`.
struct TextSplice {
  std::size_t offset = 0;
  std::size_t erase = 0;
  std::string insert;
};

// Applies splices (sorted by offset, not overlapping) to `text`; returns the splices that undo them.
std::vector<TextSplice> apply_splices(std::string& text, const std::vector<TextSplice>& splices);

// Which part of a transcript a coding is about.
struct CodingTarget {
  std::optional<int> turn;          // participant turn number (tN)
  std::optional<int> line;          // or a transcript line inside the turn
  std::optional<std::string> span;  // exact text inside the turn (markup removed); none = the whole turn
  std::optional<int> occurrence;    // which occurrence of `span` in the turn (1-based), needed when it repeats
};

// A planned change: splices to the transcript or to the coder's .codes file.
struct CodingEdit {
  bool codes_file = false;          // false: the transcript
  std::vector<TextSplice> splices;
  std::string summary;              // "added A.1 to U01#t3", for messages and undo lists
};

// A coding of the document's coder, as the editor shows it.
struct CodingView {
  int turn = 0;
  std::optional<std::string> span;  // span text; none = whole turn
  std::string written;              // the node as written
  std::string memo;
  bool exemplar = false;
  Location where;                   // where it is written (transcript or .codes)
  int occurrence = 1;               // which occurrence of the span text in the turn it codes (1-based)
};

class CodingDocument {
 public:
  // Reads `transcript` (workspace-relative) and, when `coder` is not the transcript's own coder (compared
  // case-insensitively; empty = the own coder), `transcripts/<stem>.<coder>.codes` if it exists. `resolve`
  // maps written nodes to ids (to find a coding by node and refuse duplicates). Problems go to `diags`;
  // nullopt when the transcript cannot be read or parsed, or the coder name cannot be a file name.
  static std::optional<CodingDocument> open(const std::filesystem::path& root, const std::string& transcript,
                                            const std::string& coder, NodeResolver resolve, Diagnostics& diags);

  const Transcript& transcript() const { return view_; }    // turns with this coder's codings only
  const std::string& coder() const { return coder_; }
  bool inline_coder() const { return inline_; }            // writes the transcript's markup
  std::string target_file() const;                         // workspace-relative file that edits change
  const std::string& transcript_text() const { return transcript_text_; }
  const std::string& codes_text() const { return codes_text_; }
  bool dirty() const;                                      // differs from what was read or last saved

  // The coder's codings of participant turn `turn`, whole-turn ones first, then spans in text order.
  std::vector<CodingView> codings(int turn) const;
  // The same for a participant turn of transcript() itself (no search for its number: listing every turn's
  // codings stays linear in the turns).
  std::vector<CodingView> codings(const Turn& turn) const;

  // The participant turn a target names (by number, or by a line inside it). Located errors for an unknown
  // turn, an interviewer turn, a span that is not in the turn or occurs more than once.
  const Turn* find_turn(const CodingTarget& target, Diagnostics& diags) const;
  // `given` with its span spelled as the turn's text spells it when the two differ only in normalisation form
  // (a decomposed "Zoë" typed for a composed one, or the reverse: compared under NFC, text::find_canonical);
  // otherwise `given` itself.
  CodingTarget as_written(const CodingTarget& given) const;

  // Plans adding `nodes` (ids of the version in use) with an optional memo; nullopt with located errors
  // (duplicates, overlapping inline spans, ...). Nothing changes until apply().
  std::optional<CodingEdit> plan_add(const CodingTarget& target, const std::vector<std::string>& nodes,
                                     const std::string& memo, Diagnostics& diags) const;
  // Plans removing `nodes` from the target's codings (the span's, or the whole turn's).
  std::optional<CodingEdit> plan_remove(const CodingTarget& target, const std::vector<std::string>& nodes,
                                        Diagnostics& diags) const;
  // Plans setting the memo of the coding of `node` at the target (empty memo removes it). A memo belongs to
  // the codes written together (one @code line, one span, one .codes line): all of them share it.
  std::optional<CodingEdit> plan_memo(const CodingTarget& target, const std::string& node, const std::string& memo,
                                      Diagnostics& diags) const;

  // Plans picking (`on`) or dropping the coding of `node` at the target as an exemplar quote; the coding stays.
  // On a @code line: an `@exemplar ID` line (bare when the line has one code) is added, or the group's
  // @exemplar lines rewritten to name only the codes that stay exemplars. A span's or a .codes line's
  // `| exemplar` belongs to all the codes written with it and is set or dropped for all of them.
  std::optional<CodingEdit> plan_exemplar(const CodingTarget& target, const std::string& node, bool on,
                                          Diagnostics& diags) const;

  // Applies a planned edit and re-parses; returns the edit that undoes it.
  CodingEdit apply(const CodingEdit& edit);

  // What save_checked() did.
  enum class SaveResult { saved, changed_on_disk, failed };
  // Writes the changed file atomically (a .codes file left empty is removed), holding the workspace lock
  // (util/workspace_lock.h) and only when the transcript and the .codes file on disk are still byte for byte
  // what was read or last saved: else changed_on_disk, nothing written, and `error` saying which file
  // ("transcripts/X.md changed on disk since read"). failed (with `error`) when a file cannot be written.
  SaveResult save_checked(std::string* error);
  // save_checked() == saved.
  bool save(std::string* error) { return save_checked(error) == SaveResult::saved; }
  // The files it reads (the transcript; the .codes file for another coder), workspace-relative, of which those
  // that now differ on disk from what was read or last saved.
  std::vector<std::string> changed_on_disk() const;

  // What reload() did with the unsaved changes.
  struct Reloaded {
    int reapplied = 0;                       // changed places re-applied
    // What was not re-applied: "t3 \"span\" A.1: your addition", "...: your removal", "t2 A.1: your memo
    // \"TEXT\"", "...: your removal of its memo", "...: your exemplar mark", "...: your dropping of its exemplar mark".
    // An addition that carried a memo or an exemplar mark names them too: "...: your addition with its memo
    // \"TEXT\"" (the memo typed is never lost unseen).
    std::vector<std::string> not_reapplied;
    // The same, one a line, as what to plan again (CodingDocument::plan_add/remove/memo/exemplar).
    struct Change {
      enum class Kind { addition, removal, memo, exemplar };
      Kind kind = Kind::addition;
      int turn = 0;
      std::optional<std::string> span;  // none: the whole turn
      std::string node;                 // the node id
      std::string memo;                 // addition: its memo; memo: the memo wanted (empty: none)
      bool exemplar = false;            // addition: marked an exemplar; exemplar: the mark wanted
      std::string label;                // its not_reapplied line
    };
    std::vector<Change> changes;
  };
  // Reads the files again from disk (under the workspace lock) and re-applies the unsaved changes on top of
  // them: the changes since the last save are lines of the edited file, re-applied as a three-way merge
  // (util/line_merge.h) wherever the other writer did not change the same lines, then checked by parsing (no
  // new problem; every coding added or removed since the last save added or removed again). What cannot be
  // re-applied is listed and left out; the result is unsaved (dirty when anything was re-applied). nullopt
  // with a located error when the files can no longer be read or parsed (the document is then unchanged).
  std::optional<Reloaded> reload(Diagnostics& diags);
  // Takes `edited`, changes made to the edited file (the transcript for its own coder, else the .codes file)
  // when it read `base` and never saved (a recovery file), as this document's unsaved changes and re-applies
  // them on the files as they are now, as reload() does. nullopt with a located error when they cannot be
  // read (the document is then unchanged).
  std::optional<Reloaded> restore_unsaved(const std::string& base, const std::string& edited, Diagnostics& diags);
  // The edited file's text as read or last saved (what unsaved changes are changes to).
  const std::string& saved_text() const { return inline_ ? saved_transcript_ : saved_codes_; }
  const std::string& edited_text() const { return inline_ ? transcript_text_ : codes_text_; }

 private:
  std::optional<Transcript> parse_view(const std::string& transcript_text, const std::string& codes_text,
                                       std::optional<StandoffFile>* standoff, Diagnostics& diags) const;
  bool reparse(Diagnostics& diags);
  // The edit when the edited text parses with no new error and its codings are the current ones with
  // `added` added and `removed` removed ("tN|span|node" keys); else nullopt with a located error.
  std::optional<CodingEdit> checked(CodingEdit edit, const std::vector<std::string>& added,
                                    const std::vector<std::string>& removed, Diagnostics& diags) const;
  // The coding of `node` among `codes` (the target's group); nullptr with a located error when there is none.
  const Coding* find_coding(const Turn& turn, const CodingTarget& target, const std::vector<const Coding*>& codes,
                            const std::string& node, Diagnostics& diags) const;
  // The last line of the @memo/@exemplar lines right after the @code line `line` (`line` when none); the @memo
  // ones are appended to `memo_lines` when given.
  int attached_lines(int line, std::vector<int>* memo_lines) const;
  // Splices that take the codes `gone` (case-folded) out of the `@exemplar ID, ID` lines attached to the @code
  // line `code_line` (a line left naming none is erased; a bare @exemplar stays).
  std::vector<TextSplice> exemplar_lines_without(int code_line, const std::vector<std::string>& gone) const;
  // The .codes line written at `line` (the codes file's line number); nullptr when none.
  const StandoffCoding* codes_line(int line) const;
  // The splice writing a .codes line's tail, or an inline span's braces from its node ids on, anew: ` | exemplar`,
  // each code's own ` | memo ID: TEXT` from `own`, then the shared memo as written.
  TextSplice tail_splice(const StandoffCoding& line, bool exemplar, const std::vector<OwnMemo>& own) const;
  TextSplice tail_splice(const SpanMarkup& mk, bool exemplar, const std::vector<OwnMemo>& own) const;
  std::size_t line_start(int line) const;  // byte offset where a line of the edited file starts (size at the end)
  // Splice inserting whole lines after line `after` of the edited file (`lines` end with the newline).
  TextSplice insert_lines_after(int after, const std::string& lines) const;
  // Splice erasing lines first..last of the edited file.
  TextSplice erase_lines(int first, int last) const;

  std::filesystem::path root_;
  std::string transcript_file_;     // workspace-relative
  std::string codes_file_;          // workspace-relative (other coders)
  std::string coder_;
  bool inline_ = true;
  NodeResolver resolve_;
  std::string transcript_text_, codes_text_;
  std::string saved_transcript_, saved_codes_;
  Transcript view_;
  std::optional<StandoffFile> standoff_;
  std::vector<std::size_t> line_starts_;  // byte offset of each line of the file being edited (1-based index - 1)
  // What checked() needs of the current text, kept from the last parse so an edit parses only the new text.
  int view_errors_ = 0;
  std::multiset<std::string> view_keys_;
  // The parse of the last checked edit's result, reused by apply() when it applies that very edit.
  struct Checked {
    const CodingDocument* owner = nullptr;  // copies and moves do not reuse it
    std::uint64_t revision = 0;
    bool codes_file = false;
    std::vector<TextSplice> splices;
    Transcript view;
    std::optional<StandoffFile> standoff;
    int errors = 0;
    std::multiset<std::string> keys;
  };
  mutable std::shared_ptr<Checked> last_checked_;
  std::uint64_t revision_ = 0;  // counts applied edits
};

// Resolves node ids written on the command line or in a picker against the taxonomy version in use: an
// unknown one is an error at `where` with a "did you mean" hint. nullopt when any is unknown.
std::optional<std::vector<std::string>> resolve_node_ids(const std::vector<std::string>& written, const Taxonomy& taxonomy,
                                                         const NodeResolver& resolve, const Location& where,
                                                         Diagnostics& diags);

}  // namespace qualrank
