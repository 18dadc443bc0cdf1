// Crosstabs of coded segments: how often each taxonomy node was applied (segments, participants, participants
// per group: the "matrix coding query" of QDA tools) and which nodes were applied to the same segment
// (co-occurrence). Pure functions: segments and participants in, counts out.
//
// Counting rule (aggregate, like NVivo's and MAXQDA's "aggregate"/"include sub-codes" option): a node's counts
// include the codes applied to any of its descendants. A segment coded A.1.i counts once for A.1.i, once for
// A.1 and once for A; a segment coded both A.1 and A.1.i still counts once for A.1. A participant "mentioned"
// a node when at least one of their segments counts for it.
//
// Co-occurrence works at one taxonomy level (2 by default): each code rolls up to its ancestor at
// that level, and two level-N nodes co-occur in a segment when both are among the segment's rolled-up nodes.
// Codes on nodes above the level (e.g. a bare "A" at level 2) have no level-N node and are left out.
#pragma once
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "qualrank/analysis/coding.h"
#include "qualrank/model/guideline.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/model/workspace.h"

namespace qualrank {

// A participant as the crosstabs see it: an id and attribute values. The role is the attribute "role".
struct CrosstabParticipant {
  std::string id;
  std::map<std::string, std::string> attributes;
  const std::string& value(const std::string& attribute) const;  // "" when absent
};

// A group of participants: those whose `attribute` equals `value`; value "" = those without a value.
struct ParticipantGroup {
  std::string attribute;
  std::string value;
  std::size_t size = 0;  // filled by node_crosstab
};

struct NodeCount {
  std::string node;
  std::size_t segments = 0;               // segments that count for the node (aggregate rule)
  std::size_t participants = 0;           // participants with at least one such segment
  std::vector<std::size_t> by_group;      // participants per group, aligned with NodeCrosstab::groups
};

struct NodeCrosstab {
  std::vector<ParticipantGroup> groups;
  std::vector<NodeCount> nodes;           // every node of the taxonomy, in taxonomy order
  std::size_t participants = 0;           // participants listed (the denominator of "all")
  // by_group[g] / groups[g].size, or NaN for an empty group.
  double share(std::size_t node_index, std::size_t group) const;
};

// Counts every node of `taxonomy` over `segments` (the aggregate rule above), per group of `participants`.
// Segments whose participant is not listed count for `segments` and `participants` but for no group; codes
// whose node the taxonomy lacks are ignored (coded_segments has resolved and reported them already).
NodeCrosstab node_crosstab(const Taxonomy& taxonomy, const std::vector<CodedSegment>& segments,
                           const std::vector<CrosstabParticipant>& participants, std::vector<ParticipantGroup> groups);

struct Cooccurrence {
  int level = 2;
  std::vector<std::string> nodes;                 // the taxonomy's nodes at `level`, taxonomy order
  std::vector<std::vector<std::size_t>> counts;   // symmetric; counts[i][i] = segments that count for nodes[i]
  std::size_t segments_above_level = 0;           // coded segments whose codes all lie above `level`
};

// Node x node counts of segments coded with both, at `level` (1 ... taxonomy.max_level()).
Cooccurrence cooccurrence(const Taxonomy& taxonomy, const std::vector<CodedSegment>& segments, int level);

// Every participant of the workspace (one per transcript, file order): its attributes plus "role".
std::vector<CrosstabParticipant> participants_of(const Workspace& ws);

// The values of `attribute` among `participants`, as group columns: the values in `preferred` order first
// (those present), then the others sorted, then "" when some participant has no value.
std::vector<ParticipantGroup> groups_of(const std::vector<CrosstabParticipant>& participants,
                                        const std::string& attribute, const std::vector<std::string>& preferred);

// The usual comparison groups of a study: each role (guideline order), then each experience level (the
// guideline's experience scheme, when it has one).
std::vector<ParticipantGroup> study_groups(const std::vector<CrosstabParticipant>& participants,
                                           const Guideline& guideline);

}  // namespace qualrank
