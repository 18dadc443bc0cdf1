// Labelling a sample of the corpus: each coder's labels in corpus/labels/<sample>/<coder>.csv (one row per
// document: the taxonomy nodes chosen, a note), the reconciliation's decisions in
// corpus/labels/<sample>/decisions.csv (who decided what, when, how, why), and the sample lists they refer to
// (corpus/samples/<sample>.txt). Files only: what the labels mean (agreement, majority, the exported label
// table) is analysis/corpus/corpus_labels.h. Formats in docs/corpus.md.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank::corpus {

// One coder's label of one document: node ids (no two alike; as written in the file, resolved by the caller).
struct DocumentLabel {
  std::string doc;                 // "SOURCE#ID"
  std::vector<std::string> nodes;  // one or more node ids
  std::string note;
  int line = 0;                    // where it was read (0: made here)
  std::string sample{};            // the draw it was made on: sample_stamp of the sample list then ("" when not recorded)
};

struct CoderLabels {
  std::string coder;
  std::vector<DocumentLabel> labels;  // sorted by doc_less, one per document
};

// The coders' labels a decision was made on: by coder name, each coder's node ids root first; a coder who had
// not labelled the document is left out.
using CodersLabels = std::vector<std::pair<std::string, std::vector<std::string>>>;

// The reconciliation's decision on one document.
struct LabelDecision {
  std::string doc;
  std::vector<std::string> nodes;  // the final label
  std::string how;                 // "coder:NAME" (kept that coder's), "majority", or "other"
  std::string decider;
  std::string date;                // YYYY-MM-DD
  std::string note;                // may hold line breaks (CSV-quoted)
  int line = 0;
  CodersLabels labels{};           // the coders' labels it was made on (its `labels` cell); empty when not recorded
  std::string sample{};            // the draw it was made on: sample_stamp of the sample list then ("" when not recorded)
};

// Relative paths in the workspace.
std::string sample_path(std::string_view sample);                            // corpus/samples/<sample>.txt
std::string labels_dir(std::string_view sample);                             // corpus/labels/<sample>
std::string labels_path(std::string_view sample, std::string_view coder);    // corpus/labels/<sample>/<coder>.csv
std::string decisions_path(std::string_view sample);                         // corpus/labels/<sample>/decisions.csv

// A sample list: one "SOURCE#ID" per line (blank lines and lines starting with '#' skipped), in file order.
// A line without '#' or a document listed twice is a located error.
std::vector<std::string> read_sample(std::string_view text, const std::string& file, Diagnostics& diags);

// The sample list corpus/samples/<sample>.txt read from the workspace: its documents (read_sample: its problems
// are located errors in `diags`, the documents read so far still returned) and its sample_stamp. nullopt when
// the list is missing (the error says how to draw it) or cannot be read.
struct SampleList {
  std::vector<std::string> docs;
  std::string stamp;
};
std::optional<SampleList> load_sample_list(const std::filesystem::path& workspace, std::string_view sample, Diagnostics& diags);

// What a label or decision records of the draw it was made on: the first 16 hex digits of the SHA-256 of the
// sample list's text (corpus/samples/<sample>.txt as it was then).
std::string sample_stamp(std::string_view sample_text);

// A decision's `labels` cell: "alice=COM COM.1; bob=TOOL.1", and back (nullopt when the cell is not of that
// form).
std::string labels_cell(const CodersLabels& labels);
std::optional<CodersLabels> parse_labels_cell(std::string_view cell);

// Node ids as stored in one cell: separated by single spaces ("COM COM.1"); split_nodes is its inverse
// (any run of blanks separates).
std::string join_nodes(const std::vector<std::string>& nodes);
std::vector<std::string> split_nodes(std::string_view cell);

// Reads one coder's file: header "doc,nodes,note,sample" (note and sample optional); a row without nodes, a doc that is not
// SOURCE#ID, or a document labelled twice (naming both lines) are located errors. Sorted by doc_less.
std::vector<DocumentLabel> read_labels(std::string_view text, const std::string& file, Diagnostics& diags);
// The file's text (with the header) for labels sorted by doc_less. RFC 4180: notes with commas, quotes or
// line breaks are quoted and read back as written; cells are never altered (no formula neutralising).
std::string labels_text(const std::vector<DocumentLabel>& labels);

// Sets (or replaces) `label` in `labels`, kept sorted; returns the label it replaced, if any.
std::optional<DocumentLabel> set_label(std::vector<DocumentLabel>& labels, DocumentLabel label);
// Removes the label of `doc`; returns it, if there was one.
std::optional<DocumentLabel> remove_label(std::vector<DocumentLabel>& labels, std::string_view doc);
// The label of `doc`, or null.
const DocumentLabel* find_label(const std::vector<DocumentLabel>& labels, std::string_view doc);

// Every coder's file in corpus/labels/<sample>/ (decisions.csv is not a coder), by coder name. A file that
// cannot be read is an error; a file without a label (the labeller opened and quit, every label removed) is
// not a coder: a warning names it.
std::vector<CoderLabels> read_all_labels(const std::filesystem::path& workspace, std::string_view sample, Diagnostics& diags);

// decisions.csv: header "doc,nodes,how,decider,date,note,labels,sample" (note, labels and sample optional);
// one row per document; the same checks as read_labels plus: how is coder:NAME, majority or other; date is
// YYYY-MM-DD; labels, when given, of labels_cell's form; sample, when given, 16 hex digits.
std::vector<LabelDecision> read_decisions(std::string_view text, const std::string& file, Diagnostics& diags);
std::string decisions_text(const std::vector<LabelDecision>& decisions);
// Sets (or replaces) the decision on d.doc, kept sorted; true when it replaced one.
bool set_decision(std::vector<LabelDecision>& decisions, LabelDecision d);

// "coder" is a coder name: 1-64 of [A-Za-z0-9._-], not first '.' or '-', and not "decisions".
std::string coder_name_problem(std::string_view name);

}  // namespace qualrank::corpus
