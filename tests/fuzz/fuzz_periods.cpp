// A per-period unit id list (SOURCE_PERIOD.txt, `agreement --periods`), counted against a small label table
// of the fieldwork taxonomy: every unit lands in exactly one period column or in "no period".
#include "fuzz_target.h"
#include "qualrank/analysis/corpus/corpus_table.h"

#include <cstdlib>

QUALRANK_FUZZ_TARGET(periods) {
  using namespace qualrank;
  static const LabelTable table = [] {
    Diagnostics d;
    return read_label_tables({{"forum.csv", "forum", "unit,coder_a,coder_b,final\nf1,COM.1,COM.1,COM.1\nf2,COM.2,TOOL.1,COM.2\n"
                                                   "f3,TOOL.2,TOOL.2,TOOL.2\nf4,WELL.1,WELL.1,\n"}},
                             {}, {}, d);
  }();
  Diagnostics diags;
  auto list = parse_period_list(std::string(reinterpret_cast<const char*>(data), size), "lists/forum_2024-H1.txt", diags);
  fuzz::check_located(diags);
  if (!list) return 0;
  for (const auto& [id, line] : list->ids) fuzz::check_utf8(id, "a listed unit id");
  Diagnostics counted;
  std::vector<PeriodList> lists;
  lists.push_back(std::move(*list));  // (not {*list}: a copy of a million ids)
  auto t = corpus_table(table, fuzz::taxonomy(), 1, lists, counted);
  fuzz::check_located(counted);
  for (const auto& row : t.rows) {
    std::int64_t sum = row.no_period;
    for (auto n : row.by_period) sum += n;
    std::int64_t groups = row.open + row.ungrouped;
    for (auto n : row.by_group) groups += n;
    if (sum != row.units || groups != row.units) std::abort();  // every unit counted once per dimension
  }
  return 0;
}
