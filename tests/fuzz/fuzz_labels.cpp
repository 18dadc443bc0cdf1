// A label table (qualrank agreement --labels FILE.csv), read with free categories and with the taxonomy.
#include "fuzz_target.h"
#include "qualrank/analysis/label_table.h"

QUALRANK_FUZZ_TARGET(labels) {
  using namespace qualrank;
  static const NodeResolver resolve = direct_resolver(fuzz::taxonomy());
  std::string_view text(reinterpret_cast<const char*>(data), size);
  for (int with_taxonomy = 0; with_taxonomy < 2; ++with_taxonomy) {
    LabelVocabulary vocab;
    if (with_taxonomy) {
      vocab.taxonomy = &fuzz::taxonomy();
      vocab.resolve = &resolve;
    }
    Diagnostics diags;
    auto table = read_label_tables({LabelInput{"labels/fuzz.csv", "fuzz", text}}, LabelColumns{}, vocab, diags);
    fuzz::check_located(diags);
    if (!diags.has_errors())
      for (std::int64_t u = 0; u < table.units(); ++u) fuzz::check_utf8(table.unit_id(u), "a unit id");
  }
  return 0;
}
