// Keyword retrieval over a stored corpus source: which documents in the date window a source's keywords match,
// and where (title, body, comment N), for corpus/retrieved.jsonl (docs/corpus.md).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/model/corpus/corpus_keywords.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::corpus {

struct KeywordHit {
  std::size_t term = 0;     // index into the source's terms
  std::size_t comment = 0;  // 0: not a comment; N: the Nth comment (1-based)
  enum Field { title, body, comment_body } field = title;
  std::size_t at = 0;       // byte offset of the first occurrence in that field
  std::size_t count = 0;    // occurrences in that field
};

struct RetrievedDocument {
  std::string id;
  std::vector<KeywordHit> hits;  // by term, then title, body, comments in order; empty when taken whole
};

struct SourceRetrieval {
  std::string source;
  bool whole = false;              // no keyword list: every document in the window is retrieved
  std::size_t documents = 0;       // stored
  std::size_t in_window = 0;       // created within [from, to]
  std::vector<RetrievedDocument> retrieved;  // in stored order
  std::vector<std::size_t> term_documents;   // per term: retrieved documents it matched
  // retrieved's lines of corpus/retrieved.jsonl: each {"doc","source","id","whole","matches":[{"term","in",
  // "at","count"}]} then "\n" (written on the worker threads, beside the scan)
  std::string jsonl;
};

// Retrieves from one stored source (`stored`: the text of corpus/<source>.jsonl, named `file`). `terms` null:
// the source is taken whole. A document is retrieved when any term matches its title, body or a comment's body
// (Aho-Corasick, one pass per field: analysis/autocode.h; whitespace runs collapsed so phrases match across
// line breaks). Errors reading the store are located in `diags`.
SourceRetrieval retrieve_source(std::string_view stored, const std::string& file, const std::string& source,
                                const std::vector<KeywordTerm>* terms, std::string_view from, std::string_view to,
                                Diagnostics& diags);

// "title", "body" or "comment N".
std::string hit_field(const KeywordHit& h);

// Reads corpus/retrieved.jsonl: the document refs "SOURCE#ID" in file order, with each one's source (the first
// line, the retrieval's provenance, is skipped: analysis/corpus/corpus_provenance.h).
struct RetrievedRef {
  std::string doc, source;
};
std::vector<RetrievedRef> read_retrieved(std::string_view text, const std::string& file, Diagnostics& diags);

}  // namespace qualrank::corpus
