#include "qualrank/analysis/findings.h"

#include <algorithm>
#include <set>

#include "qualrank/util/text.h"

namespace qualrank {

namespace {

std::vector<std::string> resolved(const std::vector<CitedCode>& codes, const NodeResolver& resolve) {
  std::vector<std::string> out;
  for (const auto& c : codes)
    if (auto r = resolve(c.written); r.node && std::find(out.begin(), out.end(), *r.node) == out.end()) out.push_back(*r.node);
  return out;
}

std::string shorten(const std::string& s) {
  if (text::count_code_points(s) <= kMaxQuoteChars) return s;
  std::size_t count = 0, pos = 0;
  while (pos < s.size() && count < kMaxQuoteChars - 1) {
    ++pos;
    while (pos < s.size() && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) ++pos;
    ++count;
  }
  return s.substr(0, pos) + "…";
}

EvidenceSide side_of(const std::vector<std::string>& nodes, const Taxonomy& taxonomy, const std::vector<CodedSegment>& segments) {
  EvidenceSide side;
  side.nodes = nodes;
  std::map<std::string, std::set<std::string>> who;
  std::vector<EvidenceQuote> exemplars, others;
  for (const auto& s : segments) {
    const AppliedCode* hit = nullptr;
    for (const auto& c : s.codes)
      for (const auto& n : nodes)
        if (taxonomy.is_within(c.node, n) && (!hit || (c.exemplar && !hit->exemplar))) hit = &c;
    if (!hit) continue;
    ++side.segments;
    who[s.role].insert(s.participant);
    EvidenceQuote q{shorten(s.text), s.participant, s.role, hit->node, s.source.file + ":" + std::to_string(s.source.line), hit->exemplar};
    auto& list = hit->exemplar ? exemplars : others;
    if (list.size() < kQuotesPerFinding) list.push_back(std::move(q));
  }
  for (const auto& [role, ids] : who) side.participants_by_role[role] = static_cast<int>(ids.size());
  for (auto* list : {&exemplars, &others})
    for (auto& q : *list)
      if (side.quotes.size() < kQuotesPerFinding) side.quotes.push_back(std::move(q));
  return side;
}

}  // namespace

void check_findings(const std::vector<Finding>& findings, const Taxonomy& taxonomy, const NodeResolver& resolve,
                    const std::vector<CodedSegment>& segments, Diagnostics& diags) {
  if (findings.empty()) return;  // (no pass over the segments for nothing)
  std::set<std::string> used;  // nodes applied, and their ancestors
  for (const auto& s : segments)
    for (const auto& c : s.codes)
      for (const TaxonomyNode* n = taxonomy.find(c.node); n && used.insert(n->id).second;
           n = n->parent.empty() ? nullptr : taxonomy.find(n->parent)) {
      }
  for (const auto& f : findings) {
    for (const auto* list : {&f.codes, &f.counter})
      for (const auto& c : *list) {
        auto r = resolve(c.written);
        if (!r.node) {
          diags.error(c.where, "finding '" + f.id + "': " + (r.problem.empty() ? "unknown taxonomy node '" + c.written + "'" : r.problem) +
                                   did_you_mean(taxonomy, c.written));
        } else if (list == &f.codes && !used.count(*r.node)) {
          diags.error(c.where, "finding '" + f.id + "' rests on '" + c.written + "', but no segment is coded with it or below it " +
                                   "(a claim rests on coded data: code the quotes, or cite the codes they carry)");
        }
      }
  }
}

std::vector<FindingEvidence> finding_evidence(const std::vector<Finding>& findings, const Taxonomy& taxonomy,
                                              const NodeResolver& resolve, const std::vector<CodedSegment>& segments) {
  std::vector<FindingEvidence> out;
  for (const auto& f : findings)
    out.push_back({f.id, f.claim, side_of(resolved(f.codes, resolve), taxonomy, segments),
                   side_of(resolved(f.counter, resolve), taxonomy, segments)});
  return out;
}

}  // namespace qualrank
