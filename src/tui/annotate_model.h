// The terminal coder's state, apart from any terminal: the coding document, the current turn, the word
// selection, the highlighted coding and the undo/redo stacks of CodingEdit. Every change goes through the
// same library calls `qualrank code add/remove` make (model/coding_edit.h), so tests drive it directly.
#pragma once
#include <cstddef>
#include <functional>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/analysis/autocode.h"
#include "qualrank/analysis/suggest/suggest.h"
#include "qualrank/model/coding_edit.h"
#include "qualrank/model/guideline.h"
#include "qualrank/model/taxonomy.h"
#include "text_cells.h"

namespace qualrank::tui {

// A row of the code picker: a suggestion or a taxonomy node (its depth for indenting).
struct PickerRow {
  std::string id;
  std::string name;
  int depth = 0;
  bool suggested = false;
  bool match = true;   // false: shown only as the parent of a match
};
// The row the picker highlights first: an exact id match, else the first match.
std::size_t first_pick(const std::vector<PickerRow>& rows, const std::string& query);
// The picker's highlight moved by `delta` rows among the rows that match (a parent shown only for context is
// skipped); stays at `from` when no match lies that way.
std::size_t step_pick(const std::vector<PickerRow>& rows, std::size_t from, int delta);

class AnnotateModel {
 public:
  // `taxonomy` (the version in use, `resolve` its resolver) and `guideline` must outlive the model.
  AnnotateModel(CodingDocument doc, const Taxonomy& taxonomy, NodeResolver resolve, const Guideline* guideline);

  const CodingDocument& document() const { return doc_; }
  const Taxonomy& taxonomy() const { return taxonomy_; }
  const Guideline* guideline() const { return guideline_; }

  // Participant turns, in file order (indexes into transcript().turns).
  const std::vector<std::size_t>& participant_turns() const { return participants_; }
  std::size_t current_index() const { return current_; }     // position in participant_turns()
  const Turn* current_turn() const;                          // nullptr when the transcript has none
  int current_number() const;                                // its tN number (0 when none)
  bool move(int delta);                                      // by participant turns; false at an end
  bool go_to_turn(int number);                               // tN
  bool next_uncoded();                                       // next participant turn without a coding (wraps)
  bool go_first();                                           // the first participant turn
  bool go_last();                                            // the last participant turn
  // Finds `query` (case-insensitive) from the selection on (`delta` 1: the next match after the selection's
  // start in the current turn, then the turns after it) or back (-1), wrapping through every participant turn
  // to the current one; moves there and selects the words of the match (without the punctuation around them).
  // Empty query: repeats the last one.
  bool search(const std::string& query, int delta);
  const std::string& last_search() const { return search_; }
  // Every memo of this coder's codings in the transcript, one line each: "t3 COM.2 Meetings: TEXT".
  std::vector<std::string> memo_lines() const;

  // Word selection inside the current turn: words [first, last] of split_words(turn text).
  const std::vector<Word>& words() const { return words_; }
  std::optional<std::pair<std::size_t, std::size_t>> selection() const { return selection_; }
  void select_start();                  // selects the turn's first word
  void select_move(int delta);          // slides the selection by words (starts one when none)
  void select_extend(int delta);        // moves the selection's last word (never before its first)
  void clear_selection();
  // The selection's bytes in the turn's text: from its first word's start to its last word's end, without the
  // punctuation before the first word or after the last (a quote mark, a full stop) unless that is all there is.
  std::optional<std::pair<std::size_t, std::size_t>> selection_bytes() const;
  std::optional<std::string> selected_text() const;  // none = the whole turn
  std::optional<int> selection_line() const;          // the transcript line the selection starts on
  int selected_occurrence() const;                    // which occurrence of selected_text() the selection is (1-based)

  // The codings of the current turn and the highlighted one (Tab cycles).
  std::vector<CodingView> codings() const;
  std::size_t highlighted() const { return highlight_; }
  void cycle_coding(int delta = 1);

  // Suggestions for the current turn's text (or the selection), without the codes already there: the keyword
  // rules' first, then the codes learned from the researcher's own codings (set_learned) with confidence >= 0.3.
  std::vector<std::string> suggestions() const;
  // The classifier learned from the workspace's codings (qualrank suggest); nullopt: keyword rules only.
  void set_learned(std::optional<suggest::CodeSuggester> learned) { learned_ = std::move(learned); }
  // The picker's rows for a query: suggestions first (when they match), then the taxonomy in its order with
  // every node whose id, name or alias contains the query (case-insensitive) and the parents of those.
  // Without `suggestions`, the taxonomy rows only (picking a new code's parent).
  std::vector<PickerRow> picker_rows(const std::string& query, bool suggestions = true) const;

  // Edits: each applies a planned CodingEdit and pushes its undo; false with message() saying why.
  bool add_code(const std::string& node, const std::string& memo = "");  // to the selection or the whole turn
  bool accept_suggestion(std::size_t n);                                   // 0-based
  bool set_memo(const std::string& memo);                                  // of the highlighted coding
  std::optional<std::string> highlighted_memo() const;
  bool remove_highlighted();
  bool undo();
  bool redo();
  std::size_t undo_levels() const { return undo_.size(); }
  std::size_t redo_levels() const { return redo_.size(); }
  // Saves through CodingDocument::save_checked. False when nothing could be written; conflict() then tells
  // whether it was because the file changed on disk since it was read (reload() offers the way out).
  bool save();
  bool conflict() const { return conflict_; }
  // Reads the file again and re-applies the unsaved changes (CodingDocument::reload). The undo history stays
  // where the reload changed none of the text a step undoes (steps are moved past the change); the steps from
  // the first that touches it on are cleared, and the message says so. The message says what was re-applied
  // and names what was not (codings, memo text, exemplar marks); when everything was, and `then_save`, saves.
  bool reload(bool then_save);
  // Takes unsaved changes kept in a recovery file (recovery.h: `base` the edited file then, `edited` with the
  // changes, `when` they were kept) and re-applies them on the files as they are now, as reload() does; the
  // message says what was recovered and names what was not.
  // `kept`: changes an earlier session could not re-apply (its recovery file's not_reapplied), kept again.
  // The recovered changes are one step on the undo stack ('u' takes them back off, 'r' puts them back).
  bool recover(const std::string& base, const std::string& edited, const std::string& when,
               const std::vector<CodingDocument::Reloaded::Change>& kept = {});
  // The changes a reload or a recovery could not re-apply, kept on the undo (and redo) stack so that nothing
  // typed is lost: 'u' on one shows it (with its memo's text) and moves it to the redo stack, 'r' plans it
  // again on the text as it is now (applied when it can be, else it stays with the reason in the message). A new
  // edit does not clear them. Oldest first; annotate keeps them in the recovery file (recovery.h).
  std::vector<CodingDocument::Reloaded::Change> unapplied() const;
  bool dirty() const { return doc_.dirty(); }
  // Counts the changes to the document (edits, undo, redo, saves, reloads): the key loop keeps the unsaved
  // work for recovery when it moves.
  std::uint64_t changes() const { return changes_; }

  const std::string& message() const { return message_; }
  // Every message shown goes to the history too (the last 200), so a message cut at the screen's width can
  // be read whole (the `messages` action).
  void set_message(std::string m) {
    if (!m.empty() && (history_.empty() || history_.back() != m)) {
      history_.push_back(m);
      if (history_.size() > 200) history_.erase(history_.begin());
    }
    message_ = std::move(m);
  }
  const std::vector<std::string>& message_history() const { return history_; }
  // Picks (drops) the highlighted coding as an exemplar quote; the coding stays (CodingDocument::plan_exemplar).
  bool toggle_exemplar();
  // Whether the view follows the highlighted coding (after Tab) rather than the turn's text.
  bool focus_on_codes() const { return focus_codes_; }

  // Other coders' codes of this transcript, per participant turn ("bob: COM.2"), shown dimmed in the margin;
  // never set when coding blind (`annotate --blind`, the default for a coder who is not the transcript's own).
  void set_other_codings(std::map<int, std::vector<std::string>> others) { others_ = std::move(others); }
  const std::vector<std::string>& other_codings(int turn) const {
    static const std::vector<std::string> none;
    auto it = others_.find(turn);
    return it == others_.end() ? none : it->second;
  }
  // The segments coded `node` across the study, one line each (annotate_main sets it to the call `query` makes).
  using SegmentLister = std::function<std::vector<std::string>(const std::string& node)>;
  void set_segment_lister(SegmentLister f) { segment_lister_ = std::move(f); }
  std::vector<std::string> segments_of(const std::string& node) const {
    return segment_lister_ ? segment_lister_(node) : std::vector<std::string>{};
  }
  // Records a new code as a proposed taxonomy edit (annotate_main sets it to the call `taxonomy propose`
  // makes): (name, parent id, quote) -> the message to show.
  using CodeProposer = std::function<std::string(const std::string& name, const std::string& parent)>;
  void set_code_proposer(CodeProposer f) { proposer_ = std::move(f); }
  bool propose_code(const std::string& name, const std::string& parent) {
    if (!proposer_) return false;
    set_message(proposer_(name, parent));
    return true;
  }
  bool blind() const { return blind_; }
  void set_blind(bool b) { blind_ = b; }

 private:
  struct Step {
    CodingEdit edit;
    std::size_t turn = 0;  // position in participant_turns() to return to
    // A change a reload could not re-apply (edit then has no splices): undo shows it, redo applies it again.
    std::optional<CodingDocument::Reloaded::Change> lost;
  };
  // Clears the redo stack but for the changes kept there that a reload could not re-apply.
  void clear_redo();
  // Redo of a kept change: plans it again; false (it stays on the redo stack) when it cannot be applied.
  bool reapply(Step s);
  bool apply(const CodingEdit& edit);
  bool replay(std::vector<Step>& from, std::vector<Step>& to, const char* nothing, const char* done);
  // The highlighted coding's target and node; nullopt with `none` as the message when the turn has none.
  std::optional<std::pair<CodingTarget, std::string>> highlighted_target(const char* none);
  void turn_changed();
  void error_message(const Diagnostics& diags);
  // After the document was read again (reload, recover): the turns anew, back at turn `at`; the message says
  // what was re-applied (`what`), names what was not, then `last`. False when something was not.
  bool after_reread(const CodingDocument::Reloaded& r, int at, const std::string& what, const std::string& last = "");

 public:
  // "A.1 Name" for a node as written (resolved to the version in use).
  std::string node_label(const std::string& written) const;
  std::string node_id(const std::string& written) const;

 private:
  CodingDocument doc_;
  const Taxonomy& taxonomy_;
  NodeResolver resolve_;
  const Guideline* guideline_;
  KeywordMatcher matcher_;
  std::optional<suggest::CodeSuggester> learned_;
  std::vector<std::size_t> participants_;
  std::size_t current_ = 0;
  std::vector<Word> words_;
  std::optional<std::pair<std::size_t, std::size_t>> selection_;
  std::size_t highlight_ = 0;
  std::vector<Step> undo_, redo_;
  std::string message_;
  std::vector<std::string> history_;
  bool conflict_ = false;
  bool focus_codes_ = false;
  bool blind_ = false;
  SegmentLister segment_lister_;
  CodeProposer proposer_;
  std::string search_;
  // The last match: its participant turn (position), byte offset and the selection it made; `n` goes on after it.
  struct Match {
    std::size_t turn = 0, pos = 0;
    std::optional<std::pair<std::size_t, std::size_t>> selection;
  };
  std::optional<Match> match_;
  std::uint64_t changes_ = 0;
  std::map<int, std::vector<std::string>> others_;
};

}  // namespace qualrank::tui
