// The chain of evidence of the study's findings (model/findings.h): for each claim, the coded segments that
// support it (coded with one of its codes or a descendant, as the codebook counts), the participants behind
// it per role, and the counter-evidence (segments coded with its `counter` codes). Pure functions.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "qualrank/analysis/coding.h"
#include "qualrank/model/findings.h"
#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"

namespace qualrank {

struct EvidenceQuote {
  std::string quote;        // the segment's text, shortened to kMaxQuoteChars code points
  std::string participant;
  std::string role;
  std::string node;         // the node it is coded with (of the finding's codes, or below one)
  std::string source;       // FILE:LINE
  bool exemplar = false;    // picked as an exemplar for that node
};
inline constexpr std::size_t kMaxQuoteChars = 300;
inline constexpr std::size_t kQuotesPerFinding = 5;

struct EvidenceSide {
  std::vector<std::string> nodes;                  // the resolved node ids cited
  int segments = 0;                                // segments coded with them (or below)
  std::map<std::string, int> participants_by_role; // distinct participants among those segments, per role
  std::vector<EvidenceQuote> quotes;               // exemplars first, then file order; at most kQuotesPerFinding
};

struct FindingEvidence {
  std::string id;
  std::string claim;
  EvidenceSide support;
  EvidenceSide counter;
};

// Checks the cited codes at the taxonomy version in use: a code that resolves to no node is a located error
// (with "did you mean"); so is a supporting code that no segment in `segments` is coded with (or below):
// a claim must rest on coded data. Counter codes must resolve; unused, they mean "none found".
void check_findings(const std::vector<Finding>& findings, const Taxonomy& taxonomy, const NodeResolver& resolve,
                    const std::vector<CodedSegment>& segments, Diagnostics& diags);

// The evidence of each finding in `segments` (the coding the caller counts). Codes that do not resolve are
// left out (check_findings reports them).
std::vector<FindingEvidence> finding_evidence(const std::vector<Finding>& findings, const Taxonomy& taxonomy,
                                              const NodeResolver& resolve, const std::vector<CodedSegment>& segments);

}  // namespace qualrank
