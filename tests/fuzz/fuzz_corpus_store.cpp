// A stored corpus source (corpus/<source>.jsonl, read by corpus retrieve's one-pass reader), keyword files
// (corpus/keywords.yaml and the Python-like lists of corpus keywords import) and a screening file.
#include "fuzz_target.h"
#include "qualrank/analysis/corpus/corpus_retrieve.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_keywords.h"
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
  return 0;
}
