// Agreement per coding round (agreement_rounds.h).
#include "qualrank/analysis/agreement/agreement_rounds.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <unordered_map>

#include "qualrank/analysis/coder_selection.h"

namespace qualrank {

namespace {

// The span of a unit written `tN "span"` or `tN "span"#K` (its `\"` and `\\` escapes undone); nullopt for `tN`.
std::optional<std::string> unit_span(const std::string& unit) {
  const auto q = unit.find('"');
  if (q == std::string::npos) return std::nullopt;
  std::string out;
  for (std::size_t i = q + 1; i < unit.size() && unit[i] != '"'; ++i) {
    if (unit[i] == '\\' && i + 1 < unit.size()) ++i;
    out += unit[i];
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> reconciliation_rounds(const std::vector<ConsensusRecord>& records) {
  std::map<std::string, std::string> round_of;
  for (const auto& record : records) {
    std::string first;
    for (const auto& u : record.units)
      if (u.decided && (first.empty() || u.date < first)) first = u.date;
    if (!first.empty() && !record.transcript.empty()) round_of[record.transcript] = first;
  }
  return round_of;
}

std::vector<CodedSegment> recorded_codings(const ConsensusRecord& record, const std::vector<CodedSegment>& segments) {
  // Where each turn is (participant, line), and the consensus's codings of each turn, from the segments.
  struct TurnRecord {
    std::string participant;
    Location where;
    std::vector<std::pair<const CodedSegment*, std::vector<std::string>>> consensus;  // segment, its nodes
  };
  std::map<int, TurnRecord> turns;
  for (const auto& s : segments) {
    if (s.source.file != record.transcript) continue;
    auto [it, fresh] = turns.try_emplace(s.turn);
    if (fresh || it->second.participant.empty()) {
      it->second.participant = s.participant;
      it->second.where = s.source;
    }
    std::vector<std::string> nodes;
    for (const auto& c : s.codes)
      if (is_consensus_coder(c.coder)) nodes.push_back(c.node);
    if (!nodes.empty()) it->second.consensus.emplace_back(&s, std::move(nodes));
  }
  // The disputed units of each turn, and each coder's codes on them when the line was written.
  std::map<int, std::vector<const ConsensusUnit*>> disputed;
  for (const auto& u : record.units) {
    disputed[u.turn].push_back(&u);
    turns.try_emplace(u.turn);
  }
  const bool segment_units = record.unit == "segment";
  std::vector<CodedSegment> out;
  for (const auto& [turn, where] : turns) {
    std::vector<std::set<std::string>> sets(record.coders.size());
    auto d = disputed.find(turn);
    // A consensus coding of a disputed unit is the decision's outcome, not what the coders had.
    auto of_disputed_unit = [&](const CodedSegment& s) {
      if (d == disputed.end()) return false;
      if (!segment_units) return true;
      for (const ConsensusUnit* u : d->second) {
        const auto span = unit_span(u->unit);
        if (s.whole_turn ? !span : (span && *span == s.text)) return true;
      }
      return false;
    };
    for (const auto& [seg, nodes] : where.consensus)
      if (!of_disputed_unit(*seg))
        for (auto& set : sets) set.insert(nodes.begin(), nodes.end());  // agreed: every coder had them
    if (d != disputed.end())
      for (const ConsensusUnit* u : d->second)
        for (const auto& [coder, codes] : u->before)
          for (std::size_t c = 0; c < record.coders.size(); ++c)
            if (record.coders[c] == coder) sets[c].insert(codes.begin(), codes.end());
    for (std::size_t c = 0; c < record.coders.size(); ++c) {
      if (sets[c].empty()) continue;
      CodedSegment seg;
      seg.participant = where.participant;
      seg.id = where.participant + "#t" + std::to_string(turn);
      seg.turn = turn;
      seg.source = where.where;
      seg.source.file = record.transcript;
      for (const auto& node : sets[c]) {
        AppliedCode code;
        code.node = node;
        code.coder = record.coders[c];
        seg.codes.push_back(std::move(code));
      }
      out.push_back(std::move(seg));
    }
  }
  return out;
}

std::vector<AgreementRound> agreement_rounds(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy,
                                             const std::vector<ConsensusRecord>& records,
                                             const TranscriptAgreementOptions& options) {
  const std::string open = "not reconciled yet";
  const auto round_of = reconciliation_rounds(records);
  std::unordered_map<std::string, const ConsensusRecord*> record_of;
  for (const auto& r : records)
    if (round_of.count(r.transcript) && !r.coders.empty()) record_of.emplace(r.transcript, &r);
  // The transcripts compared at all (two or more individual coders), grouped by round.
  const TranscriptAgreement all = transcript_agreement(segments, taxonomy, options);
  std::map<std::string, std::vector<std::string>> files;  // round -> transcripts
  for (const auto& f : all.transcripts) {
    auto it = round_of.find(f);
    files[it == round_of.end() ? open : it->second].push_back(f);
  }
  // A reconciled transcript that only the record still holds two coders of (a coder removed their file since).
  for (const auto& [file, record] : record_of)
    if (std::find(all.transcripts.begin(), all.transcripts.end(), file) == all.transcripts.end())
      files[round_of.at(file)].push_back(file);
  std::vector<AgreementRound> out;
  auto add = [&](const std::string& round) {
    auto it = files.find(round);
    if (it == files.end()) return;
    std::set<std::string> in(it->second.begin(), it->second.end());
    std::vector<CodedSegment> mine;
    for (const auto& f : it->second) {
      auto r = record_of.find(f);
      if (r == record_of.end()) {  // the open round: the codings as they are now
        for (const auto& s : segments)
          if (s.source.file == f) mine.push_back(s);
      } else {  // a finished round: what the coders had when they met
        auto recorded = recorded_codings(*r->second, segments);
        mine.insert(mine.end(), std::make_move_iterator(recorded.begin()), std::make_move_iterator(recorded.end()));
      }
    }
    TranscriptAgreement agreement = transcript_agreement(mine, taxonomy, options);
    out.push_back({round, agreement.transcripts, std::move(agreement)});
  };
  for (const auto& [round, list] : files)
    if (round != open) add(round);
  add(open);
  return out;
}

}  // namespace qualrank
