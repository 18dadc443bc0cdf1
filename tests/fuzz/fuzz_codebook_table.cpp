// A coded-quote table (qualrank codebook --import-table FILE.csv) against the fieldwork design.
#include "fuzz_target.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/report/formats/codebook_import.h"

QUALRANK_FUZZ_TARGET(codebook_table) {
  using namespace qualrank;
  static const TaxonomyVersion version = [] {
    TaxonomyVersion v;
    v.taxonomy = fuzz::taxonomy();
    return v;
  }();
  static const NodeResolver resolve = direct_resolver(version.taxonomy);
  static const TaxonomyVersion* bound = [] {
    const_cast<TaxonomyVersion&>(version).resolve = resolve;
    return &version;
  }();
  Diagnostics diags;
  auto book = import_coded_table(std::string(reinterpret_cast<const char*>(data), size), "coded.csv", *bound,
                                 fuzz::guideline(), CodebookOptions{}, diags);
  fuzz::check_located(diags);
  return 0;
}
