// Node usage, matrix coding and co-occurrence counts (see crosstab.h for the counting rule).
//
// Each segment is reduced once to the set of taxonomy positions it counts for (its codes' nodes and all
// their ancestors, as indexes into the taxonomy order), so a node is counted at most once per segment
// however many of its descendants were applied. Participants are marked per node in a bitmap.
#include "qualrank/analysis/crosstab.h"

#include <algorithm>
#include <limits>
#include <set>
#include <string_view>
#include <unordered_map>

namespace qualrank {

namespace {

// Taxonomy-order positions of the nodes a segment counts for: its codes' nodes and their ancestors, into
// `out` (a buffer reused from segment to segment). Each node's own list is worked out once, in `cache`.
using PositionCache = std::unordered_map<std::string_view, std::vector<std::size_t>>;
void counted_positions(const Taxonomy& taxonomy, const CodedSegment& segment, PositionCache& cache,
                       std::vector<std::size_t>& out) {
  out.clear();
  for (const auto& code : segment.codes) {
    auto [it, fresh] = cache.try_emplace(code.node);
    if (fresh)
      for (const TaxonomyNode* n = taxonomy.find(code.node); n; n = n->parent.empty() ? nullptr : taxonomy.find(n->parent))
        it->second.push_back(taxonomy.rank_of(n->id));
    out.insert(out.end(), it->second.begin(), it->second.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

}  // namespace

const std::string& CrosstabParticipant::value(const std::string& attribute) const {
  static const std::string empty;
  auto it = attributes.find(attribute);
  return it == attributes.end() ? empty : it->second;
}

double NodeCrosstab::share(std::size_t node_index, std::size_t group) const {
  if (groups[group].size == 0) return std::numeric_limits<double>::quiet_NaN();
  return static_cast<double>(nodes[node_index].by_group[group]) / static_cast<double>(groups[group].size);
}

NodeCrosstab node_crosstab(const Taxonomy& taxonomy, const std::vector<CodedSegment>& segments,
                           const std::vector<CrosstabParticipant>& participants, std::vector<ParticipantGroup> groups) {
  NodeCrosstab out;
  out.participants = participants.size();
  // Participant index; segments of unlisted participants get indexes after the listed ones.
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < participants.size(); ++i) index.emplace(participants[i].id, i);
  for (const auto& s : segments)
    if (!index.count(s.participant)) index.emplace(s.participant, index.size());
  // Group membership of each listed participant.
  std::vector<std::vector<std::size_t>> member_of(index.size());
  for (auto& g : groups) g.size = 0;
  for (std::size_t p = 0; p < participants.size(); ++p)
    for (std::size_t g = 0; g < groups.size(); ++g)
      if (participants[p].value(groups[g].attribute) == groups[g].value) {
        member_of[p].push_back(g);
        ++groups[g].size;
      }

  const auto& order = taxonomy.order();
  std::vector<std::size_t> segment_count(order.size(), 0);
  std::vector<std::vector<bool>> mentioned(order.size(), std::vector<bool>(index.size(), false));
  std::vector<std::size_t> positions;
  PositionCache cache;
  const std::string* last_participant = nullptr;  // a participant's segments come one after another
  std::size_t person = 0;
  for (const auto& s : segments) {
    if (!last_participant || s.participant != *last_participant) {
      person = index.at(s.participant);
      last_participant = &s.participant.str();
    }
    counted_positions(taxonomy, s, cache, positions);
    for (std::size_t pos : positions) {
      if (pos >= order.size()) continue;
      ++segment_count[pos];
      mentioned[pos][person] = true;
    }
  }
  out.nodes.reserve(order.size());
  for (std::size_t pos = 0; pos < order.size(); ++pos) {
    NodeCount c;
    c.node = order[pos];
    c.segments = segment_count[pos];
    c.by_group.assign(groups.size(), 0);
    for (std::size_t p = 0; p < index.size(); ++p) {
      if (!mentioned[pos][p]) continue;
      ++c.participants;
      for (std::size_t g : member_of[p]) ++c.by_group[g];
    }
    out.nodes.push_back(std::move(c));
  }
  out.groups = std::move(groups);
  return out;
}

Cooccurrence cooccurrence(const Taxonomy& taxonomy, const std::vector<CodedSegment>& segments, int level) {
  Cooccurrence out;
  out.level = level;
  out.nodes = taxonomy.at_level(level);
  std::unordered_map<std::string, std::size_t> column;
  for (std::size_t i = 0; i < out.nodes.size(); ++i) column.emplace(out.nodes[i], i);
  out.counts.assign(out.nodes.size(), std::vector<std::size_t>(out.nodes.size(), 0));
  std::vector<std::size_t> hit;  // the segment's columns, sorted and distinct (reused from segment to segment)
  constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
  std::unordered_map<std::string_view, std::size_t> column_of;  // node -> its ancestor's column (worked out once)
  for (const auto& s : segments) {
    if (s.codes.empty()) continue;
    hit.clear();
    for (const auto& code : s.codes) {
      auto [at, fresh] = column_of.try_emplace(code.node, kNone);
      if (fresh)
        if (auto a = taxonomy.ancestor_at(code.node, level))
          if (auto it = column.find(*a); it != column.end()) at->second = it->second;
      if (at->second != kNone) hit.push_back(at->second);
    }
    std::sort(hit.begin(), hit.end());
    hit.erase(std::unique(hit.begin(), hit.end()), hit.end());
    if (hit.empty()) {
      ++out.segments_above_level;
      continue;
    }
    for (std::size_t a : hit)
      for (std::size_t b : hit) ++out.counts[a][b];
  }
  return out;
}

std::vector<CrosstabParticipant> participants_of(const Workspace& ws) {
  std::vector<CrosstabParticipant> out;
  for (const auto& t : ws.transcripts) {
    CrosstabParticipant p;
    p.id = t.participant;
    p.attributes = t.attributes;
    p.attributes["role"] = t.role;
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<ParticipantGroup> groups_of(const std::vector<CrosstabParticipant>& participants,
                                        const std::string& attribute, const std::vector<std::string>& preferred) {
  std::set<std::string> present;
  bool missing = false;
  for (const auto& p : participants) {
    const auto& v = p.value(attribute);
    if (v.empty()) missing = true;
    else present.insert(v);
  }
  std::vector<ParticipantGroup> out;
  for (const auto& v : preferred)
    if (present.erase(v)) out.push_back({attribute, v, 0});
  for (const auto& v : present) out.push_back({attribute, v, 0});
  if (missing) out.push_back({attribute, "", 0});
  return out;
}

std::vector<ParticipantGroup> study_groups(const std::vector<CrosstabParticipant>& participants,
                                           const Guideline& guideline) {
  auto out = groups_of(participants, "role", guideline.roles);
  if (guideline.experience) {
    auto levels = groups_of(participants, guideline.experience->attribute, guideline.experience->levels);
    out.insert(out.end(), levels.begin(), levels.end());
  }
  return out;
}

}  // namespace qualrank
