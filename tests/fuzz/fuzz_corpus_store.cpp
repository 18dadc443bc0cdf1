// A stored corpus source (corpus/<source>.jsonl, read by corpus retrieve's one-pass reader), keyword files
// (corpus/keywords.yaml and the Python-like lists of corpus keywords import), a screening file, and a sample's
// files: its list, a coder's labels and decisions.csv (each read back from what it writes), and a decision's
// labels cell.
#include <cstdlib>

#include "fuzz_target.h"
#include "qualrank/analysis/corpus/corpus_retrieve.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_keywords.h"
#include "qualrank/model/corpus/corpus_labels.h"
#include "qualrank/model/corpus/corpus_screening.h"

QUALRANK_FUZZ_TARGET(corpus_store) {
  using namespace qualrank;
  const std::string text(reinterpret_cast<const char*>(data), size);
  {
    Diagnostics diags;
    std::vector<corpus::KeywordTerm> terms{{"cache miss", true, false, {}}, {"QKV", true, true, {}}, {"shard", false, false, {}}};
    corpus::retrieve_source(text, "corpus/atlas.jsonl", "atlas", &terms, "2023-01", "2025-04", diags);
    fuzz::check_located(diags);
    Diagnostics d2;
    corpus::read_store(text, "corpus/atlas.jsonl", d2);
    fuzz::check_located(d2);
  }
  {
    Diagnostics diags;
    corpus::read_keywords(text, "corpus/keywords.yaml", diags);
    fuzz::check_located(diags);
  }
  {
    Diagnostics diags;
    auto lists = corpus::read_keyword_lists(text, "keyword-lists.txt", diags);
    fuzz::check_located(diags);
    if (!diags.has_errors()) corpus::keywords_yaml(lists, "keyword-lists.txt");
  }
  {
    Diagnostics diags;
    corpus::read_screening(text, "corpus/screening/ann.csv", diags);
    fuzz::check_located(diags);
  }
  {
    Diagnostics diags;
    corpus::read_sample(text, "corpus/samples/pilot.txt", diags);
    fuzz::check_located(diags);
    // What a file reads as, written and read again, reads the same (the files are rewritten on every label).
    auto reads_back = [&](auto read, auto write, auto same, const char* file) {
      Diagnostics first;
      auto rows = read(text, file, first);
      fuzz::check_located(first);
      if (first.has_errors()) return;
      Diagnostics again;
      auto back = read(write(rows), "again.csv", again);
      if (again.has_errors() || back.size() != rows.size()) std::abort();
      for (std::size_t k = 0; k < back.size(); ++k)
        if (!same(back[k], rows[k])) std::abort();
    };
    reads_back(corpus::read_labels, corpus::labels_text, [](const auto& a, const auto& b) {
      return a.doc == b.doc && a.nodes == b.nodes && a.note == b.note && a.sample == b.sample;
    }, "corpus/labels/pilot/ann.csv");
    reads_back(corpus::read_decisions, corpus::decisions_text, [](const auto& a, const auto& b) {
      return a.doc == b.doc && a.nodes == b.nodes && a.how == b.how && a.decider == b.decider && a.date == b.date &&
             a.note == b.note && a.labels == b.labels && a.sample == b.sample;
    }, "corpus/labels/pilot/decisions.csv");
    // A labels cell that reads reads back the same from what labels_cell writes of it.
    if (auto cell = corpus::parse_labels_cell(text)) {
      auto back = corpus::parse_labels_cell(corpus::labels_cell(*cell));
      if (!back || *back != *cell) std::abort();
    }
  }
  return 0;
}
