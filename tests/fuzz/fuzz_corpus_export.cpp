// An issue export (qualrank corpus import FILE): read as gh's JSON array, as JSON Lines and as CSV; what is
// accepted must be valid UTF-8 and store as lines that read back to the same documents.
#include "fuzz_target.h"
#include "qualrank/model/corpus/corpus.h"

#include <cstdlib>

QUALRANK_FUZZ_TARGET(corpus_export) {
  using namespace qualrank;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const char* name : {"export.json", "export.jsonl", "export.csv"}) {
    Diagnostics diags;
    auto parsed = corpus::parse_export(text, name, diags);
    fuzz::check_located(diags);
    if (diags.has_errors()) continue;
    for (const auto& d : parsed.documents) {
      fuzz::check_utf8(d.id, "a document id");
      fuzz::check_utf8(d.title, "a title");
      fuzz::check_utf8(d.body, "a body");
    }
    corpus::MergeCounts counts;
    auto merged = corpus::merge_documents({}, parsed.documents, counts);
    if (counts.added != merged.size()) std::abort();  // ids are unique once the import has no error
    Diagnostics again;
    auto back = corpus::read_store(corpus::store_text(merged), "corpus/x.jsonl", again);
    if (again.has_errors() || back.size() != merged.size()) std::abort();
    for (std::size_t k = 0; k < back.size(); ++k)
      if (back[k].id != merged[k].id || back[k].body != merged[k].body || back[k].comments != merged[k].comments) std::abort();
  }
  return 0;
}
