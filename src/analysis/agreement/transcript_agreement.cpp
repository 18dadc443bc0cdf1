// Agreement between the coders of the same transcripts (contract in transcript_agreement.h).
//
// 1. The coders of a transcript are the coders named on its codes (the front matter's `coder` for inline
//    codes, the coder of each `<stem>.<coder>.codes` file). Transcripts with codes from one coder only are
//    left out (counted).
// 2. A unit is a participant turn (or a segment) of a kept transcript with at least one code; a coder's
//    value on a unit is the set of nodes it applied there (optionally each mapped to its level-N ancestor).
// 3. For node n, coder c gives unit u the code 1 if n is in c's set and 0 if not; -1 (missing) when c did
//    not code u's transcript. One such binary units x coders table per node gives the per-node figures
//    (Fleiss, alpha, percent agreement, as for label tables: over every unit, so agreement that the node is
//    absent counts too), and, beside them, the units any coder applied the node to and the positive (specific)
//    agreement on its presence (stats::specific_agreement). Stacking them (unit-major: unit u's rows for
//    every node together) gives the pooled figures; its bootstrap resamples units, each with all its node
//    rows (a cluster bootstrap), since a unit's node rows are not independent.
#include "qualrank/analysis/agreement/transcript_agreement.h"

#include "qualrank/analysis/coder_selection.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "qualrank/analysis/agreement/agreement_jackknife.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

struct Unit {
  std::string id;
  Location where;
  std::size_t file = 0;
  std::vector<std::set<std::string>> sets;  // per global coder
};

std::size_t index_of(std::vector<std::string>& list, const std::string& value) {
  auto it = std::find(list.begin(), list.end(), value);
  if (it != list.end()) return static_cast<std::size_t>(it - list.begin());
  list.push_back(value);
  return list.size() - 1;
}

}  // namespace

TranscriptAgreement transcript_agreement(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy,
                                         const TranscriptAgreementOptions& options) {
  TranscriptAgreement out;
  out.unit = options.unit;
  out.compare_level = options.compare_level;
  const double nan = std::numeric_limits<double>::quiet_NaN();

  // 1. Coders per transcript.
  std::vector<std::string> files;
  std::vector<std::vector<std::string>> file_coders;
  std::unordered_map<std::string, std::size_t> file_index;  // files in order of first appearance
  const CodedSegment* last = nullptr;  // a transcript's segments come one after another: its index is looked up once
  std::size_t file = 0;
  for (const auto& seg : segments) {
    if (seg.codes.empty()) continue;
    if (!last || seg.source.file != last->source.file) {
      file = file_index.try_emplace(seg.source.file, files.size()).first->second;
      if (file == files.size()) files.push_back(seg.source.file);
      if (file_coders.size() <= file) file_coders.resize(file + 1);
      last = &seg;
    }
    for (const auto& code : seg.codes)
      if (!is_consensus_coder(code.coder)) index_of(file_coders[file], code.coder);  // agreement is before reconciliation
  }
  std::vector<bool> kept(files.size(), false);
  for (std::size_t f = 0; f < files.size(); ++f) {
    kept[f] = file_coders[f].size() >= 2;
    if (!kept[f]) {
      ++out.single_coder_transcripts;
      continue;
    }
    out.transcripts.push_back(files[f]);
    for (const auto& c : file_coders[f]) index_of(out.coders, c);
  }
  const std::size_t coders = out.coders.size();

  // 2. Units and each coder's node set on them.
  auto compared_node = [&](const std::string& node) {
    if (options.compare_level <= 0) return node;
    return taxonomy.ancestor_at(node, options.compare_level).value_or(node);
  };
  std::vector<Unit> units;
  std::unordered_map<std::string, std::size_t> unit_index;  // lookup only; units keep their order
  std::set<std::string> node_set;
  for (const auto& seg : segments) {
    if (std::all_of(seg.codes.begin(), seg.codes.end(), [](const AppliedCode& c) { return is_consensus_coder(c.coder); })) continue;
    const auto f = file_index.at(seg.source.file);  // listed above: the segment has codes
    if (!kept[f]) continue;
    const std::string id = options.unit == TranscriptUnit::turn ? seg.participant + "#t" + std::to_string(seg.turn) : seg.id;
    auto [it, fresh] = unit_index.try_emplace(seg.source.file + '\n' + id, units.size());
    if (fresh) units.push_back({id, seg.source, f, std::vector<std::set<std::string>>(coders)});
    Unit& unit = units[it->second];
    if (seg.source.line > 0 && seg.source.line < unit.where.line) unit.where.line = seg.source.line;
    for (const auto& code : seg.codes) {
      if (is_consensus_coder(code.coder)) continue;
      const auto c = index_of(out.coders, code.coder);
      const std::string node = compared_node(code.node);
      unit.sets[c].insert(node);
      node_set.insert(node);
    }
  }
  out.nodes.assign(node_set.begin(), node_set.end());
  std::sort(out.nodes.begin(), out.nodes.end(), [&](const std::string& a, const std::string& b) {
    const auto ra = taxonomy.rank_of(a), rb = taxonomy.rank_of(b);
    return ra != rb ? ra < rb : text::natural_less(a, b);
  });
  out.units = static_cast<std::int64_t>(units.size());
  const std::size_t nodes = out.nodes.size();

  // 3. The pooled binary table, unit-major, and one table per node.
  stats::RatingTable pooled{static_cast<int>(units.size() * nodes), static_cast<int>(coders), 2, {}};
  pooled.codes.reserve(units.size() * nodes * coders);
  std::vector<std::int64_t> offsets{0};
  std::int64_t identical = 0;
  for (const auto& unit : units) {
    std::vector<bool> coded(coders);
    for (std::size_t c = 0; c < coders; ++c)
      coded[c] = std::find(file_coders[unit.file].begin(), file_coders[unit.file].end(), out.coders[c]) !=
                 file_coders[unit.file].end();
    TranscriptDisputedUnit dispute{unit.id, unit.where, coded, std::vector<std::vector<std::string>>(coders), 0};
    for (const auto& node : out.nodes) {
      int present = 0, coding = 0;
      for (std::size_t c = 0; c < coders; ++c) {
        const bool has = unit.sets[c].count(node) > 0;
        pooled.codes.push_back(coded[c] ? (has ? 1 : 0) : -1);
        if (coded[c]) {
          ++coding;
          present += has;
          if (has) dispute.nodes[c].push_back(node);
        }
      }
      dispute.differing_nodes += present > 0 && present < coding;
    }
    offsets.push_back(offsets.back() + static_cast<std::int64_t>(nodes));
    identical += dispute.differing_nodes == 0;
    if (dispute.differing_nodes > 0 && options.disagreements > 0) out.disagreements.push_back(std::move(dispute));
  }
  out.identical_units = identical;
  out.exact_agreement = units.empty() ? nan : static_cast<double>(identical) / static_cast<double>(units.size());
  out.pooled = agreement_figures(pooled);

  for (std::size_t n = 0; n < nodes; ++n) {
    stats::RatingTable table{static_cast<int>(units.size()), static_cast<int>(coders), 2, {}};
    table.codes.reserve(units.size() * coders);
    NodeAgreement node{out.nodes[n], 0, nan, {}};
    for (std::size_t u = 0; u < units.size(); ++u) {
      const int* row = pooled.codes.data() + (u * nodes + n) * coders;
      table.codes.insert(table.codes.end(), row, row + coders);
      node.units_coded += std::any_of(row, row + coders, [](int v) { return v == 1; });
    }
    node.figures = agreement_figures(table);
    node.positive_agreement = stats::specific_agreement(table)[1];
    out.per_node.push_back(std::move(node));
  }

  for (std::size_t a = 0; a < coders; ++a)
    for (std::size_t b = a + 1; b < coders; ++b) {
      std::vector<int> ca, cb;
      std::int64_t both = 0;
      for (std::size_t r = 0; r < static_cast<std::size_t>(pooled.units); ++r) {
        ca.push_back(pooled.codes[r * coders + a]);
        cb.push_back(pooled.codes[r * coders + b]);
        both += ca.back() >= 0 && cb.back() >= 0;
      }
      const auto per_unit = static_cast<std::int64_t>(std::max<std::size_t>(nodes, 1));
      out.pairs.push_back({out.coders[a], out.coders[b], stats::cohen_kappa(ca, cb, 2), both / per_unit});
    }

  out.resamples = options.resamples;
  out.seed = options.seed;
  out.level = options.level;
  out.fleiss_ci = out.alpha_ci = {nan, nan};
  if (options.resamples > 0 && !units.empty() && nodes > 0) {
    out.ci_method = stats::interval_method(static_cast<std::int64_t>(units.size()));
    const auto ci = stats::agreement_intervals(pooled, out.ci_method, options.resamples, options.seed, options.level, offsets);
    out.fleiss_ci = ci.fleiss_kappa;
    out.alpha_ci = ci.krippendorff_alpha;
    out.ci_warning = stats::small_sample_ci_warning(static_cast<std::int64_t>(units.size()),
                                                    options.unit == TranscriptUnit::turn ? "turns" : "segments", options.level);
  }

  std::stable_sort(out.disagreements.begin(), out.disagreements.end(),
                   [](const TranscriptDisputedUnit& a, const TranscriptDisputedUnit& b) {
                     return a.differing_nodes > b.differing_nodes;
                   });
  if (out.disagreements.size() > static_cast<std::size_t>(std::max(0, options.disagreements)))
    out.disagreements.resize(static_cast<std::size_t>(std::max(0, options.disagreements)));
  return out;
}

}  // namespace qualrank
