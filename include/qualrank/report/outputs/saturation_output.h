// Saturation outputs: the JSON of `qualrank saturation --format json` (and report.json's "saturation") and a
// plain-text table. The assessment itself is analysis/saturation.h (Guest, Namey & Chen 2020).
#pragma once
#include <nlohmann/json.hpp>

#include <map>
#include <string>

#include "qualrank/analysis/saturation.h"

namespace qualrank {

// The whole study and each role, assessed with the same parameters.
struct SaturationAnalysis {
  int level = 0;                                     // 0 = codes as applied; L = ancestors at level L
  saturation::Result all;
  std::map<std::string, saturation::Result> roles;   // by role name
};

// Assesses `study`: all its interviews, then each role's interviews (roles sorted by name), at `level`.
// Throws std::invalid_argument on parameters outside their range (analysis/saturation.h).
SaturationAnalysis analyse_saturation(const Study& study, const saturation::Parameters& parameters, int level);

// {"method","reference","parameters":{"base","run","threshold"},"level","order",
//  "all":RESULT,"roles":{ROLE:RESULT}}, RESULT = {"interviews":[{"number","participant","role","codes",
//  "new_codes","cumulative","first_seen":[...]}],"base_codes","runs":[{"first","last","new_codes","ratio"}],
//  "saturated_at": n | null, "statement": "..."}.
nlohmann::ordered_json saturation_json(const SaturationAnalysis& analysis);

// One sentence stating the result and the parameters, e.g. "Saturation (base 4, run 2, new information
// <= 5%) was reached after 5 of 10 interviews: interviews 6-7 added 1 new code to the base's 20 (5.0%)."
std::string saturation_statement(const saturation::Result& result);

// The curve as a plain-text table, then the runs and the statement; one block per role after the whole study.
std::string saturation_table(const SaturationAnalysis& analysis);

}  // namespace qualrank
