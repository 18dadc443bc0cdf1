// The methods evidence a paper's reviewers ask for (ACM SIGSOFT Empirical Standard, qualitative surveys):
// report.json's "methods" block (participants, the guideline question x code matrix, the codebook with
// definitions, decision rules and exemplars, the chain of evidence of findings.yaml, and a checklist of the
// standard's items), and methods.md, a Markdown draft rendered from report.json to paste and edit.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "qualrank/analysis/findings.h"
#include "qualrank/analysis/suggest/query.h"
#include "qualrank/analysis/study.h"
#include "qualrank/report/outputs/codebook_data.h"

namespace qualrank {

// {"participants":{"attributes":[..],"rows":[{"participant","role","values":{ATTR:VALUE}}]},
//  "guide_matrix":{"nodes":[{"id","name"}],"rows":[{"question","part","text","segments","counts":[..]}]},
//  "codebook":[{"id","name","level","definition","inclusion","exclusion","decision_rules","segments","exemplar":{..}|null}],
//  "findings":[{"id","claim","support":SIDE,"counter":SIDE}] | null (no findings.yaml),
//  SIDE = {"nodes":[..],"segments","participants_by_role":{ROLE:n},"quotes":[{"quote","participant","role","node","source","exemplar"}]}}
// `segments` is the coding the report counts; `tables` its codebook tables (report/outputs/codebook_data.h), whose
// matrix gives each node's segments (the aggregate rule) and whose exemplars give the codebook's quote.
nlohmann::ordered_json methods_json(const Study& study, const std::vector<CodedSegment>& segments, const CodebookTables& tables);

// The checklist, from a report.json that holds "methods", "saturation" and "agreement":
// [{"item","level":"essential|desirable|extraordinary","supported":true|false,"evidence":"..."}].
nlohmann::ordered_json reporting_checklist(const nlohmann::ordered_json& report);

// methods.md from report.json (every number read from it; text escaped for Markdown).
std::string methods_markdown(const nlohmann::ordered_json& report);

// The "Methods evidence" section of index.html from report.json: the participants, the chain of evidence
// (each claim, its support per role, its quotes and counter-evidence) and the reporting checklist; escaped
// HTML, no script. Empty when report.json has no "methods".
std::string methods_html(const nlohmann::ordered_json& report);

}  // namespace qualrank
