// Findings as data: the optional `findings.yaml` at the workspace root lists the study's claims and the
// codes each rests on, so the report can show every claim with its supporting quotes, the participants
// behind it per role, and its counter-evidence (a chain of evidence; docs/findings.md).
//
//   findings:
//     - id: F1
//       claim: Contractors trade company for efficiency.
//       codes: [COM.1, WELL.1]      # the codes the claim rests on (a node counts its descendants)
//       counter: [WELL.2]           # optional: codes whose segments speak against it
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct CitedCode {
  std::string written;  // as written in findings.yaml
  Location where;
};

struct Finding {
  std::string id;
  std::string claim;
  std::vector<CitedCode> codes;
  std::vector<CitedCode> counter;
  Location where;
};

inline constexpr const char* kFindingsFile = "findings.yaml";
inline constexpr std::size_t kMaxFindings = 1000;

// Parses findings.yaml's text (reported as `file`): every problem located (a finding without id, claim or
// codes; an id used twice; more than kMaxFindings findings). Codes are checked against the taxonomy by
// check_findings (analysis/findings.h), once the taxonomy version is known.
std::vector<Finding> parse_findings(const std::string& text, const std::string& file, Diagnostics& diags);

// The workspace's findings: empty when there is no findings.yaml; read under the workspace's one symlink
// policy (files::read_inside).
std::vector<Finding> load_findings(const std::filesystem::path& root, Diagnostics& diags);

}  // namespace qualrank
