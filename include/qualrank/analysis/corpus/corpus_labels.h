// What the labels of a corpus sample say: each document's label as one category (its deepest node), where the
// coders agree and where they differ, their agreement before reconciliation (Fleiss' kappa, Fleiss 1971:
// analysis/agreement/agreement_stats.h), the majority label, and the label table `agreement --labels` reads (a unit
// column, one column per coder, Final_Label). Pure functions: the files are model/corpus/corpus_labels.h.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "qualrank/model/corpus/corpus_labels.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::corpus {

// A label's nodes lie on one path from the root (a node and, optionally, some of its ancestors): returns them
// in taxonomy order (root first) and the deepest as the category; else `problem` says which two do not.
struct LabelNodes {
  std::vector<std::string> nodes;  // root first
  std::string category;            // the deepest node
  std::string problem;             // "" when fine
};
LabelNodes label_nodes(const std::vector<std::string>& nodes, const Taxonomy& taxonomy);

// Every label of a sample, resolved: a node id of the files that no longer resolves (or a label whose nodes
// are not on one path) is an error located at its file and line.
struct SampleLabels {
  std::vector<std::string> docs;     // the sample, sorted by doc_less
  std::vector<std::string> coders;   // by name
  // categories[d][c]: the category coder c gave docs[d] ("" when none); nodes[d][c] its nodes.
  std::vector<std::vector<std::string>> categories;
  std::vector<std::vector<std::vector<std::string>>> nodes;
  std::vector<std::vector<std::string>> notes;          // notes[d][c]: coder c's note on docs[d] ("" when none)
  std::vector<std::optional<LabelDecision>> decisions;  // per doc (nodes resolved and ordered root first)
  std::vector<std::string> decided_category;            // per doc: the decision's category, "" when none
  // Labels or decisions of documents outside the sample: where each is (file, line) and its document.
  struct Outside {
    std::string file;
    int line = 0;
    std::string doc;
    std::string text() const { return file + ":" + std::to_string(line) + ": " + doc; }  // "FILE:LINE: DOC"
    std::string stamp;  // the draw the row records it was made on ("" when none)
  };
  std::vector<Outside> not_in_sample;
  std::string sample_stamp;  // the sample list's sample_stamp now (load_sample_labels; "" when not set)
  // A decision made on coders' labels that have changed since (its `labels` cell against the files now): one
  // change per coder whose label differs, in coder order. A decision that records no labels (an older qualrank)
  // is never stale.
  struct LabelChange {
    std::string coder;
    std::vector<std::string> then, now;  // node ids, root first; empty: no label
    // "bob's label changed", "carol labelled it", "bob's label was removed": what changed, not the labels
    // (a coder's label is not shown to other coders).
    std::string what() const;
  };
  struct StaleDecision {
    std::size_t doc = 0;  // index into docs
    int line = 0;         // the decision's line in decisions.csv
    std::vector<LabelChange> changes;
    std::string what() const;  // the changes' what(), joined with ", "
  };
  std::vector<StaleDecision> stale_decisions;
  // The round's labels (frozen): per document and coder, the category the agreement before reconciliation and
  // the label table count. A decided document that records the labels it was decided on counts those (what the
  // coders had when they met), so a coder's edit after the decision changes the round's figures only through a
  // new decision; every other document counts categories as they are now.
  std::vector<std::vector<std::string>> round_categories;
};
// Why a label or decision of a document the sample does not hold is there: " (made on an earlier draw: the
// sample was drawn again since)" when its row records another draw than today's, " (drawn again since?)" when it
// records none, " (not a document of this draw)" when it records today's (the file was edited).
std::string outside_reason(const SampleLabels& s, const SampleLabels::Outside& o);
// One warning per decision made on labels that changed since, located at its line of decisions.csv: it still
// counts as decided, and the reconcile walk shows it again. Says what changed, never a coder's label.
void warn_stale_decisions(const SampleLabels& s, const std::string& sample, Diagnostics& diags);

SampleLabels resolve_sample_labels(const std::vector<std::string>& sample, const std::vector<CoderLabels>& coders,
                                   const std::vector<LabelDecision>& decisions, const std::string& decisions_file,
                                   const std::string& sample_name, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                   Diagnostics& diags);

// Per document: how many coders labelled it, whether they differ.
enum class DocState { unlabelled, partial, agreed, disagreed };
// unlabelled: nobody; partial: some coders, not all, and those alike; agreed: every coder, alike;
// disagreed: two or more coders with different categories.
DocState doc_state(const SampleLabels& s, std::size_t d);
// The same over one document's categories (one per coder, "" when none).
DocState categories_state(const std::vector<std::string>& categories);

// The majority label of docs[d]: the category more than half of the coders who labelled it gave (nullopt: a
// tie or no majority), with the nodes of the first coder (by name) who gave it.
std::optional<std::vector<std::string>> majority_nodes(const SampleLabels& s, std::size_t d);

// The final label of docs[d]: the decision when there is one, else the coders' category when every coder
// gave the same one (agreed), else "".
std::string final_category(const SampleLabels& s, std::size_t d);

struct LabelAgreement {
  std::size_t coders = 0;
  std::size_t labelled_by_all = 0;  // the units of the kappas and of all_agree
  std::size_t agreeing = 0;         // of those, labelled alike by all
  double all_agree = 0;             // agreeing / labelled_by_all; NaN when none
  std::size_t labelled_by_two = 0;  // documents two or more coders labelled: the units of percent_agreement
  double percent_agreement = 0;     // mean share of agreeing coder pairs per document, over labelled_by_two
                                    // (stats::percent_agreement, as `qualrank agreement --labels`); NaN when none
  double fleiss_kappa = 0;          // NaN when undefined (fewer than two coders, one category only ...)
  double cohen_kappa = 0;           // two coders only, else NaN
  std::size_t disagreements = 0;    // docs in state disagreed
  std::size_t decided = 0;          // of those, with a decision
  // Fleiss' (1971) per-category kappa over the same units (agreement_stats.h), per category that occurs there,
  // by id; NaN when undefined.
  std::vector<std::pair<std::string, double>> per_category;
};
// Agreement on the sample's labels, categories = the deepest node, computed from the coders' labels only (before
// reconciliation: decisions do not count): the kappas and all_agree over the documents every coder labelled,
// percent agreement over those two or more coders labelled (the units `qualrank agreement --labels` counts it
// over, on the exported label table).
LabelAgreement sample_agreement(const SampleLabels& s);

// The label table: header "unit,Label_<coder>...,Final_Label"; one row per document of the sample, sorted by
// doc_less; unit = SOURCE#ID; each coder's cell its category, Final_Label final_category (empty when none).
std::string label_table_text(const SampleLabels& s);

// The published layout of a study's labels (docs/corpus.md, "The published layout"): per source, a label table
// <source>/<source>.csv with header "Issue_URL,Label1,...,LabelN,Final_Label" (Label1.. = the coders sorted by
// name, over all the samples given; RFC 4180, LF, no byte order mark) and one row per document of the samples
// (sample order, then doc_less), unit = the document's url; and <source>/<source>_<year>.txt, the urls of those
// rows whose document was created in that year, one per line in the table's order, for every year from the
// earliest to the latest of any row (a year without rows: an empty file). A document without a date is in no
// year list (counted in `undated`). Errors (a document not in the store, without a url, a url on two rows of a
// source, a document in two samples) are located; nullopt after errors.
struct PublishedFile {
  std::string path;  // relative to the output folder: SOURCE/SOURCE.csv, SOURCE/SOURCE_YEAR.txt
  std::string text;
};
struct PublishedLayout {
  std::vector<PublishedFile> files;  // sources by name; each its table, then its years ascending
  std::vector<std::string> coders;   // coders[i] is the column Label<i+1>
  std::vector<std::string> sources;
  std::size_t units = 0;
  std::size_t undated = 0;
};
// `documents`: per SOURCE#ID of the samples, its url and created date (as stored).
struct PublishedDocument {
  std::string url, created;
};
std::optional<PublishedLayout> published_layout(const std::vector<const SampleLabels*>& samples,
                                                const std::map<std::string, PublishedDocument>& documents, Diagnostics& diags);
// Reads the url and created date of every document of the samples from corpus/<source>.jsonl and calls the
// above.
std::optional<PublishedLayout> load_published_layout(const std::filesystem::path& workspace,
                                                     const std::vector<const SampleLabels*>& samples, Diagnostics& diags);

// "1,234 of 3,437 labelled": progress with thousands separated by commas.
std::string progress_text(std::size_t done, std::size_t total);
// n with its thousands separated by commas ("3,437").
std::string grouped(std::size_t n);

// Reads the sample list corpus/samples/<sample>.txt (an error when missing: "no sample 'NAME'"), every
// coder's labels and the decisions of the sample, and resolves them (resolve_sample_labels). nullopt after
// errors.
std::optional<SampleLabels> load_sample_labels(const std::filesystem::path& workspace, const std::string& sample,
                                               const Taxonomy& taxonomy, const NodeResolver& resolve, Diagnostics& diags);

}  // namespace qualrank::corpus
