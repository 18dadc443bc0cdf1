// Saturation outputs (include/qualrank/report/outputs/saturation_output.h).
#include "qualrank/report/outputs/saturation_output.h"

#include <cstdio>
#include <set>
#include <sstream>

#include "qualrank/analysis/study.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

std::string percent(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", ratio * 100);
  return buf;
}

std::string threshold_text(double threshold) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", threshold * 100);
  return buf;
}

using text::plural;

nlohmann::ordered_json result_json(const saturation::Result& r) {
  nlohmann::ordered_json out;
  auto interviews = nlohmann::ordered_json::array();
  for (const auto& s : r.steps)
    interviews.push_back({{"number", s.number}, {"participant", s.id}, {"role", s.role}, {"codes", s.codes},
                          {"new_codes", s.new_codes}, {"cumulative", s.cumulative}, {"first_seen", s.first_seen}});
  out["interviews"] = interviews;
  out["base_codes"] = r.base_codes;
  auto runs = nlohmann::ordered_json::array();
  for (const auto& run : r.runs)
    runs.push_back({{"first", run.first}, {"last", run.last}, {"new_codes", run.new_codes}, {"ratio", run.ratio}});
  out["runs"] = runs;
  out["saturated_at"] = r.saturated_at ? nlohmann::ordered_json(*r.saturated_at) : nlohmann::ordered_json(nullptr);
  out["statement"] = saturation_statement(r);
  return out;
}

}  // namespace

SaturationAnalysis analyse_saturation(const Study& study, const saturation::Parameters& parameters, int level) {
  SaturationAnalysis a;
  a.level = level;
  const auto codes = saturation::participant_codes(study, level);  // once, for every curve
  a.all = saturation::assess(saturation::interviews_of(study, codes), parameters);
  std::set<std::string> roles;
  for (const auto& t : study.workspace.transcripts) roles.insert(t.role);
  for (const auto& role : roles) a.roles[role] = saturation::assess(saturation::interviews_of(study, codes, role), parameters);
  return a;
}

std::string saturation_statement(const saturation::Result& r) {
  const auto& p = r.parameters;
  std::string params = "base " + std::to_string(p.base) + ", run " + std::to_string(p.run) + ", new information <= " +
                       threshold_text(p.threshold);
  const int n = static_cast<int>(r.steps.size());
  if (n < p.base + p.run)
    return "Saturation (" + params + ") cannot be assessed: " + plural(n, "interview", "interviews") + ", fewer than base + run = " +
           std::to_string(p.base + p.run) + ".";
  if (r.base_codes == 0)
    return "Saturation (" + params + ") cannot be assessed: the first " + plural(p.base, "interview holds", "interviews hold") + " no code.";
  if (!r.saturated_at) {
    const auto& last = r.runs.back();
    return "Saturation (" + params + ") was not reached in " + plural(n, "interview", "interviews") + ": the last run, interviews " +
           std::to_string(last.first) + "-" + std::to_string(last.last) + ", added " + plural(last.new_codes, "new code", "new codes") +
           " to the base's " + std::to_string(r.base_codes) + " (" + percent(last.ratio) + ").";
  }
  const auto& run = r.runs.back();
  return "Saturation (" + params + ") was reached after " + std::to_string(*r.saturated_at) + " of " + std::to_string(n) +
         " interviews: interviews " + std::to_string(run.first) + "-" + std::to_string(run.last) + " added " +
         plural(run.new_codes, "new code", "new codes") + " to the base's " + std::to_string(r.base_codes) + " (" + percent(run.ratio) + ").";
}

nlohmann::ordered_json saturation_json(const SaturationAnalysis& a) {
  nlohmann::ordered_json out;
  out["method"] = "base size, run length and new-information threshold";
  out["reference"] = "Guest, Namey & Chen (2020). A simple method to assess and report thematic saturation in qualitative research. PLoS ONE 15(5): e0232076";
  out["parameters"] = {{"base", a.all.parameters.base}, {"run", a.all.parameters.run}, {"threshold", a.all.parameters.threshold}};
  out["level"] = a.level;
  out["order"] = "front-matter date, then file order";
  out["all"] = result_json(a.all);
  nlohmann::ordered_json roles = nlohmann::ordered_json::object();
  for (const auto& [role, r] : a.roles) roles[role] = result_json(r);
  out["roles"] = roles;
  return out;
}

std::string saturation_table(const SaturationAnalysis& a) {
  std::ostringstream out;
  auto block = [&](const std::string& title, const saturation::Result& r) {
    out << title << "\n";
    out << "  #  participant  role          codes  new  cumulative\n";
    for (const auto& s : r.steps) {
      char line[256];
      std::snprintf(line, sizeof line, "%3d  %-11s  %-12s  %5d  %3d  %10d\n", s.number, s.id.c_str(), s.role.c_str(), s.codes,
                    s.new_codes, s.cumulative);
      out << line;
    }
    for (const auto& run : r.runs)
      out << "  run " << run.first << "-" << run.last << ": " << run.new_codes << " new / " << r.base_codes << " in base = "
          << percent(run.ratio) << "\n";
    out << "  " << saturation_statement(r) << "\n";
  };
  block(std::string("All interviews") + (a.level > 0 ? " (codes at level " + std::to_string(a.level) + ")" : ""), a.all);
  for (const auto& [role, r] : a.roles) {
    out << "\n";
    block("Role " + role, r);
  }
  return out.str();
}

}  // namespace qualrank
