// Thematic saturation after Guest, Namey & Chen (2020), PLoS ONE 15(5): e0232076; the method and the
// conventions chosen are described in include/qualrank/analysis/saturation.h.
#include "qualrank/analysis/saturation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace qualrank::saturation {

Result assess(const std::vector<Interview>& interviews, const Parameters& parameters) {
  if (parameters.base < 1) throw std::invalid_argument("saturation: base size must be at least 1");
  if (parameters.run < 1) throw std::invalid_argument("saturation: run length must be at least 1");
  if (!(parameters.threshold >= 0 && parameters.threshold <= 1))
    throw std::invalid_argument("saturation: threshold must lie in [0, 1]");

  Result result;
  result.parameters = parameters;
  // first[code] = 1-based number of the interview where the code first occurs (views of the interviews' codes)
  std::unordered_map<std::string_view, int> first;
  std::vector<std::string_view> distinct;  // one interview's codes, sorted and distinct (reused)
  int cumulative = 0;
  for (std::size_t i = 0; i < interviews.size(); ++i) {
    const auto& interview = interviews[i];
    Step step;
    step.number = static_cast<int>(i) + 1;
    step.id = interview.id;
    step.role = interview.role;
    distinct.assign(interview.codes.begin(), interview.codes.end());
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    for (std::string_view code : distinct)  // (in sorted order: first_seen comes out sorted)
      if (first.emplace(code, step.number).second) step.first_seen.emplace_back(code);
    step.codes = static_cast<int>(distinct.size());
    step.new_codes = static_cast<int>(step.first_seen.size());
    cumulative += step.new_codes;
    step.cumulative = cumulative;
    result.steps.push_back(std::move(step));
  }

  const int n = static_cast<int>(interviews.size());
  if (n < parameters.base + parameters.run) return result;
  result.base_codes = result.steps[static_cast<std::size_t>(parameters.base) - 1].cumulative;
  if (result.base_codes == 0) return result;

  for (int start = parameters.base + 1; start + parameters.run - 1 <= n; ++start) {
    Run run;
    run.first = start;
    run.last = start + parameters.run - 1;
    // Codes first seen inside [first, last] are exactly the run's codes unseen before it.
    for (int k = run.first; k <= run.last; ++k)
      run.new_codes += result.steps[static_cast<std::size_t>(k) - 1].new_codes;
    run.ratio = static_cast<double>(run.new_codes) / result.base_codes;
    result.runs.push_back(run);
    // Compare exact integers: new * 1 <= threshold * base, so 0.05 * 20 = 1 counts as "at or below".
    if (run.new_codes <= parameters.threshold * result.base_codes + 1e-9) {
      result.saturated_at = run.first - 1;
      break;
    }
  }
  return result;
}

}  // namespace qualrank::saturation
