// A label table (qualrank agreement --labels FILE.csv), read with free categories and with the taxonomy.
#include "fuzz_target.h"
#include "qualrank/analysis/agreement/label_table.h"

QUALRANK_FUZZ_TARGET(labels) {
  using namespace qualrank;
  static const NodeResolver resolve = direct_resolver(fuzz::taxonomy());
  // Through the file reader, as qualrank agreement reads --labels (it checks UTF-8 before parsing).
  auto path = fuzz::temp_file(std::string_view(reinterpret_cast<const char*>(data), size), ".csv");
  for (int with_taxonomy = 0; with_taxonomy < 2; ++with_taxonomy) {
    LabelVocabulary vocab;
    if (with_taxonomy) {
      vocab.taxonomy = &fuzz::taxonomy();
      vocab.resolve = &resolve;
    }
    Diagnostics diags;
    auto table = read_label_files({path}, path.parent_path(), LabelColumns{}, vocab, diags);
    fuzz::check_located(diags);
    if (!diags.has_errors())
      for (std::int64_t u = 0; u < table.units(); ++u) fuzz::check_utf8(table.unit_id(u), "a unit id");
  }
  return 0;
}
