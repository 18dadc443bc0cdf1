// A ranking table (qualrank rank --table FILE.csv) against the fieldwork taxonomy.
#include "fuzz_target.h"
#include "qualrank/analysis/rankings/ranking.h"

QUALRANK_FUZZ_TARGET(ranking) {
  using namespace qualrank;
  static const NodeResolver resolve = direct_resolver(fuzz::taxonomy());
  Diagnostics diags;
  auto questions = read_ranking_table(std::string(reinterpret_cast<const char*>(data), size), "rankings.csv",
                                      fuzz::taxonomy(), resolve, {}, diags);
  fuzz::check_located(diags);
  if (!diags.has_errors())
    for (const auto& q : questions)
      for (const auto& a : q.answers) {
        fuzz::check_utf8(a.participant, "a participant id");
        for (const auto& [key, value] : a.attributes) fuzz::check_utf8(value, "an attribute value");
      }
  return 0;
}
