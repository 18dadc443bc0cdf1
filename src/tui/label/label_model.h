// The corpus labeller's state, apart from any terminal: one coder labelling the documents of one sample, one
// document at a time. The documents are read lazily: opening indexes the sample's documents by id (the byte
// range of each one's line in corpus/<source>.jsonl, and the keywords retrieval matched in it), and a
// document is parsed only when shown (a few are cached). Each label is saved as made (under the workspace
// lock, the coder's file re-read and written atomically, so nothing another process saved is lost); undo and
// redo are labels too. The coder's file is re-read whenever it changed on disk (reload_labels: a label made by
// command, from CSV or in a second labeller shows, and "next unlabelled" skips it), and a label is not saved
// over one made elsewhere since the document's label was shown. Blind: the model holds only this coder's
// labels. Tests and bench/ drive it directly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "annotate_model.h"  // PickerRow, first_pick, step_pick
#include "text_cells.h"      // clusters
#include "qualrank/model/corpus/corpus_labels.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::tui {

// What the labeller shows of a document.
struct LabelDocument {
  std::string doc;    // SOURCE#ID
  std::string url, created, title, body;
  std::vector<std::pair<std::string, std::string>> comments;  // author, body
  std::vector<std::string> terms;  // the keywords retrieval matched in it (retrieved.jsonl's provenance)
  bool missing = false;            // not in the stored corpus (any more)
};

// One line of the document view: text and the byte ranges of it to highlight (matched keywords).
struct ViewLine {
  std::string text;
  std::vector<std::pair<std::size_t, std::size_t>> marks;  // [begin, end) byte ranges, sorted
  std::vector<std::pair<std::size_t, std::size_t>> found;  // the last search's occurrences, likewise
  enum Kind { heading, body, comment_head, plain } kind = body;
  // Where the line starts in the document, whatever the width: the part of it (0 the title, then the lines
  // under it, the body, each comment's head and body, numbered in order) and the byte offset in that part's
  // text. A resize keeps the first line shown at the same place (layout()).
  std::size_t part = 0, offset = 0;
};

class LabelModel {
 public:
  // Opens the labeller: the sample list, the coder's labels so far, the sample's documents indexed in the
  // stored sources, their matched keywords. Starts at the first document the coder has not labelled (the
  // last one when all are). nullopt with located errors in `diags` (no such sample, unreadable files, labels
  // that do not resolve). `taxonomy` must outlive the model.
  static std::optional<LabelModel> open(const std::filesystem::path& workspace, const std::string& coder,
                                        const std::string& sample, const Taxonomy& taxonomy, NodeResolver resolve,
                                        Diagnostics& diags);

  const std::string& coder() const { return coder_; }
  const std::string& sample() const { return sample_; }
  const Taxonomy& taxonomy() const { return *taxonomy_; }
  std::size_t size() const { return docs_.size(); }
  std::size_t current() const { return current_; }
  const std::string& doc_ref(std::size_t i) const { return docs_[i]; }
  // The document at i, parsed from its stored line on first use (kept among the last few shown).
  const LabelDocument& document(std::size_t i);
  // This coder's label of document i (nodes root first), or null.
  const corpus::DocumentLabel* label(std::size_t i) const;
  std::size_t labelled() const { return labelled_; }
  std::string progress() const;  // "1,234 of 3,437 labelled"
  // Re-reads the coder's label file when it changed on disk since it was last read or written here (its size
  // or modification time differ): the labels shown are then the file's. true when they changed. The front
  // end calls it before each draw, next_unlabelled before it looks; label, clear, undo and redo compare the
  // file's label of their document with the one held (shown) before they save.
  bool reload_labels();

  // Moving: to i (clamped), one on or back, the next document without a label after the current one
  // (wrapping; the labels re-read first when the file changed; false when every document has one).
  void go(std::size_t i);
  void next();
  void previous();
  bool next_unlabelled();

  // Labels the current document with `nodes` (ids of the taxonomy; one node and its ancestors), replacing
  // its label; saved at once. With `add`, the nodes are added to its label. false (and message()) when the
  // nodes are not on one path or the file cannot be written. Moves on to the next unlabelled document.
  // When the document's label in the file is no longer the one shown (labelled or cleared elsewhere since),
  // nothing is saved: the file's label is shown with a message, and the same call again replaces it.
  bool label_current(const std::vector<std::string>& nodes, bool add = false);
  // Removes the current document's label (saved at once).
  bool clear_current();
  // Undo / redo the last label change (and go to its document); false when there is none.
  bool undo();
  bool redo();

  // The next document after the current one (wrapping) whose title, body or a comment holds `query`
  // (case-insensitive, Unicode simple case folding, and compared under NFC: "Zoë" finds "Zoe" + U+0308 and
  // the reverse, a match on whole characters only); goes there and returns true, else false. The query's occurrences in the
  // document are marked in layout() (ViewLine::found) and the view scrolls to the first one.
  bool search(const std::string& query, bool forward = true);
  const std::string& found_query() const { return found_; }

  // The picker's rows for a query: the taxonomy in its order, nodes whose id, name or alias holds the
  // query (case-folded) with their ancestors shown for context; deprecated nodes left out.
  std::vector<PickerRow> picker_rows(const std::string& query) const;

  // The current document laid out in lines of at most `width` columns: title, url and date, the label, the
  // matched keywords, the body, the comments; keywords marked where they occur (as search compares).
  // Text is laid out as the terminal shows it (text::terminal_safe's rule): a tab as spaces to the next
  // multiple of 8 columns of its line, a control character in caret notation ("^["), a C1 control as
  // "<U+009B>"; the marks are byte ranges of the text shown.
  // `scroll` is a line of the layout last made; when the width changes (a resize) on the same document, it
  // becomes the line of the new layout that holds the place of the text (ViewLine::part, offset) the old
  // first line shown began with, so the same text stays at the top.
  std::vector<ViewLine> layout(int width);
  int scroll = 0;  // first line of the layout shown

  const std::string& message() const { return message_; }
  void set_message(std::string m) { message_ = std::move(m); }

 private:
  LabelModel() = default;
  struct Where {
    std::size_t source = 0;            // index into sources_
    std::uint64_t offset = 0, length = 0;  // the stored line
    bool found = false;
  };
  struct Change {
    std::size_t doc = 0;
    std::optional<corpus::DocumentLabel> before, after;
  };
  enum class Applied { saved, failed, elsewhere };
  // Saves `to` as doc's label unless the file's label of doc is no longer `shown` (elsewhere: the file's labels
  // taken, nothing written). The labels held are the file's after it.
  Applied apply(std::size_t doc, const std::optional<corpus::DocumentLabel>& to, const std::optional<corpus::DocumentLabel>& shown);
  void take_labels(std::vector<corpus::DocumentLabel> all);
  std::string elsewhere(std::size_t doc) const;  // "atlas#3: labelled elsewhere since: COM.2"
  struct Stamp {
    bool exists = false;
    std::uintmax_t size = 0;
    std::filesystem::file_time_type time{};
    bool operator==(const Stamp& o) const { return exists == o.exists && size == o.size && time == o.time; }
  };
  Stamp stamp() const;
  void rebuild_index(std::size_t source);

  std::filesystem::path workspace_;
  std::string coder_, sample_;
  std::string sample_stamp_;  // the draw's corpus::sample_stamp, recorded with each label made here
  const Taxonomy* taxonomy_ = nullptr;
  NodeResolver resolve_;
  std::vector<std::string> docs_;                  // the sample, sorted by doc_less
  std::unordered_map<std::string, std::size_t> index_;  // doc -> position
  std::vector<std::optional<corpus::DocumentLabel>> labels_;  // per doc: this coder's
  std::size_t labelled_ = 0;
  Stamp stamp_;                                   // the label file's when last read or written
  std::string found_;                             // the last search's query, while its document is shown
  std::size_t found_doc_ = 0;
  bool scroll_to_found_ = false;
  // The layout last made (its document, width and each line's place), to keep the place on a resize.
  std::size_t laid_doc_ = 0;
  int laid_width_ = 0;
  std::vector<std::pair<std::size_t, std::size_t>> laid_;
  std::vector<std::string> sources_;
  std::vector<Where> where_;
  std::vector<std::vector<std::string>> terms_;   // per doc: matched keywords
  std::list<std::pair<std::size_t, LabelDocument>> cache_;  // most recent first
  std::size_t current_ = 0;
  std::vector<Change> undo_, redo_;
  std::string message_;
};

}  // namespace qualrank::tui
