// The units of a multi-coder transcript, the consensus planned from them and the recorded decisions, and the
// check of a consensus file against the coders' files (consensus_plan.h).
#include "qualrank/analysis/consensus_plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "qualrank/analysis/coder_selection.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

// The 1-based occurrence of the span [begin, end) of `text` among the occurrences of its words (overlapping
// ones count, as apply_standoff counts them), and how many there are.
std::pair<int, int> occurrence_of(std::string_view text, std::size_t begin, std::size_t end) {
  std::string_view span = text.substr(begin, end - begin);
  int n = 0, at = 0;
  for (auto p = text.find(span); p != std::string_view::npos; p = text.find(span, p + 1)) {
    ++n;
    if (p == begin) at = n;
  }
  return {at, n};
}

// `tN "span"#K` (#K only when the span's words occur more than once in the turn).
std::string span_key(const Turn& turn, std::size_t begin, std::size_t end) {
  auto [at, n] = occurrence_of(turn.text, begin, end);
  std::string key = "t" + std::to_string(turn.number) + " " + quote_span(std::string_view(turn.text).substr(begin, end - begin));
  if (n > 1) key += "#" + std::to_string(at);
  return key;
}

ConsensusCoding to_consensus(const Turn& turn, const UnitCoding& c) {
  ConsensusCoding out;
  out.node = c.node;
  out.memo = c.memo;
  out.exemplar = c.exemplar;
  if (!c.whole_turn) {
    out.span = turn.text.substr(c.begin, c.end - c.begin);
    auto [at, n] = occurrence_of(turn.text, c.begin, c.end);
    out.occurrence = n > 1 ? at : 0;
  }
  return out;
}

// Codings in a canonical order (whole turn first, then spans by text and occurrence, then node), for comparing.
std::vector<ConsensusCoding> normalised(std::vector<ConsensusCoding> v) {
  std::sort(v.begin(), v.end(), [](const ConsensusCoding& a, const ConsensusCoding& b) {
    return std::tie(a.span, a.occurrence, a.node, a.memo, a.exemplar) < std::tie(b.span, b.occurrence, b.node, b.memo, b.exemplar);
  });
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

std::string folded(const std::string& s) { return text::fold_case(s); }

// The codings of the coders `who` (indexes into u.coders) for the nodes `keep`, merged per node: the same extent
// once, overlapping or touching spans as one covering span, a whole-turn coding over all of them, disjoint spans
// apart; memos joined, an exemplar mark kept. In order: whole turn first, then spans by position; nodes in
// taxonomy order within each.
std::vector<ConsensusCoding> merged(const ReconcileUnit& u, const std::vector<std::size_t>& who, const std::vector<std::string>& keep,
                                    const Taxonomy& taxonomy) {
  struct Item {
    std::size_t coder;
    const UnitCoding* c;
  };
  struct Out {
    bool whole;
    std::size_t begin, end;
    std::size_t rank;
    UnitCoding merged;
  };
  std::vector<Out> outs;
  for (const auto& node : keep) {
    std::vector<Item> items;
    for (std::size_t k : who)
      for (const auto& c : u.coders[k].codings)
        if (c.node == node) items.push_back({k, &c});
    if (items.empty()) continue;
    auto finish = [&](const std::vector<Item>& group, bool whole, std::size_t b, std::size_t e) {
      UnitCoding m;
      m.node = node;
      m.whole_turn = whole;
      m.begin = b;
      m.end = e;
      std::vector<std::pair<std::size_t, std::string>> memos;  // (coder, memo), coder order, distinct
      for (const auto& it : group) {
        m.exemplar = m.exemplar || it.c->exemplar;
        if (!it.c->memo.empty() && std::find(memos.begin(), memos.end(), std::make_pair(it.coder, it.c->memo)) == memos.end())
          memos.push_back({it.coder, it.c->memo});
      }
      std::sort(memos.begin(), memos.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
      std::set<std::string> distinct;
      for (const auto& mm : memos) distinct.insert(mm.second);
      if (distinct.size() == 1) {
        m.memo = *distinct.begin();
      } else {
        for (const auto& [coder, memo] : memos) m.memo += (m.memo.empty() ? "" : "; ") + u.coders[coder].coder + ": " + memo;
      }
      outs.push_back({whole, b, e, taxonomy.find(node) ? taxonomy.rank_of(node) : 0, std::move(m)});
    };
    const bool whole = std::any_of(items.begin(), items.end(), [](const Item& it) { return it.c->whole_turn; });
    if (whole) {
      finish(items, true, 0, 0);
      continue;
    }
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      return std::tie(a.c->begin, a.c->end) < std::tie(b.c->begin, b.c->end);
    });
    std::vector<Item> group;
    std::size_t b = 0, e = 0;
    for (const auto& it : items) {
      if (!group.empty() && it.c->begin > e) {
        finish(group, false, b, e);
        group.clear();
      }
      if (group.empty()) b = it.c->begin, e = it.c->end;
      else e = std::max(e, it.c->end);
      group.push_back(it);
    }
    finish(group, false, b, e);
  }
  std::stable_sort(outs.begin(), outs.end(), [](const Out& a, const Out& b) {
    return std::make_tuple(!a.whole, a.begin, a.end, a.rank) < std::make_tuple(!b.whole, b.begin, b.end, b.rank);
  });
  std::vector<ConsensusCoding> result;
  for (const auto& o : outs) result.push_back(to_consensus(*u.turn_ref, o.merged));
  return result;
}

std::vector<std::size_t> all_coders(const ReconcileUnit& u) {
  std::vector<std::size_t> who(u.coders.size());
  for (std::size_t k = 0; k < who.size(); ++k) who[k] = k;
  return who;
}

std::vector<std::string> ordered(std::set<std::string> nodes, const Taxonomy& taxonomy) {
  std::vector<std::string> out(nodes.begin(), nodes.end());
  std::stable_sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) {
    return taxonomy.find(a) && taxonomy.find(b) ? taxonomy.rank_of(a) < taxonomy.rank_of(b) : a < b;
  });
  return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> before_of(const ReconcileUnit& u) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const auto& c : u.coders) out.push_back({c.coder, c.nodes});
  return out;
}

// The codings a decision gives the unit; nullopt when `decision` names no coder of it.
std::optional<std::vector<ConsensusCoding>> derive(const ReconcileUnit& u, const std::string& decision, const Taxonomy& taxonomy) {
  if (decision == "neither") return std::vector<ConsensusCoding>{};
  if (decision == "union") {
    std::set<std::string> all;
    for (const auto& c : u.coders) all.insert(c.nodes.begin(), c.nodes.end());
    return merged(u, all_coders(u), ordered(all, taxonomy), taxonomy);
  }
  if (decision.rfind("codes:", 0) == 0) {
    std::vector<ConsensusCoding> out;
    for (const auto& id : text::split_nonempty(decision.substr(6), ',')) {
      auto of = merged(u, all_coders(u), {id}, taxonomy);
      if (of.empty()) {  // no coder applied it: on the unit's own extent
        ConsensusCoding c;
        c.node = id;
        if (u.extent) {
          UnitCoding uc;
          uc.whole_turn = false;
          uc.begin = u.extent->first;
          uc.end = u.extent->second;
          uc.node = id;
          c = to_consensus(*u.turn_ref, uc);
        }
        of.push_back(c);
      }
      out.insert(out.end(), of.begin(), of.end());
    }
    return out;
  }
  for (std::size_t k = 0; k < u.coders.size(); ++k)
    if (folded(u.coders[k].coder) == folded(decision)) return merged(u, {k}, u.coders[k].nodes, taxonomy);
  return std::nullopt;
}

// Whether a recorded decision was made on the codings as they are now, and if not, what changed.
std::string what_changed(const ConsensusUnit& rec, const ReconcileUnit& u) {
  std::vector<std::string> changes;
  std::map<std::string, std::vector<std::string>> then;
  for (const auto& [coder, codes] : rec.before) then[folded(coder)] = codes;
  for (const auto& c : u.coders) {
    auto it = then.find(folded(c.coder));
    if (it == then.end()) {
      changes.push_back(c.coder + " had not coded it (now " + (c.nodes.empty() ? "-" : text::join(c.nodes, ", ")) + ")");
      continue;
    }
    if (it->second != c.nodes)
      changes.push_back(c.coder + ": " + (it->second.empty() ? "-" : text::join(it->second, ", ")) + " -> " +
                        (c.nodes.empty() ? "-" : text::join(c.nodes, ", ")));
    then.erase(it);
  }
  for (const auto& [coder, codes] : then) changes.push_back(coder + " no longer codes the transcript");
  if (!changes.empty()) return text::join(changes, "; ");
  if (!rec.hash.empty() && rec.hash != u.hash) return "their spans, memos or exemplar marks changed";
  return "";
}

}  // namespace

bool ReconcileUnit::disputed() const {
  for (const auto& c : coders)
    if (c.nodes != coders.front().nodes) return true;
  return false;
}

std::string ReconcileUnit::text() const {
  if (!turn_ref) return "";
  if (extent) return turn_ref->text.substr(extent->first, extent->second - extent->first);
  return turn_ref->text;
}

std::string TranscriptUnits::question_of(const ReconcileUnit& u) const { return u.turn_ref ? u.turn_ref->section : ""; }

const char* unit_state_name(UnitState s) {
  switch (s) {
    case UnitState::agreed: return "agreed";
    case UnitState::decided: return "decided";
    case UnitState::stale: return "stale";
    case UnitState::open: return "open";
    case UnitState::orphan: return "orphan";
  }
  return "";
}

TranscriptUnits reconcile_units(const Transcript& t, const Taxonomy& taxonomy, const NodeResolver& resolve, bool segment_units) {
  TranscriptUnits out;
  out.transcript = &t;
  out.unit_kind = segment_units ? "segment" : "turn";
  std::map<std::string, std::optional<std::string>> resolved;
  auto node_of = [&](const std::string& written) -> const std::optional<std::string>& {
    auto it = resolved.find(written);
    if (it == resolved.end()) it = resolved.emplace(written, resolve(written).node).first;
    return it->second;
  };
  // The individual coders, first met first.
  std::map<std::string, std::size_t> coder_index;  // folded -> position
  auto note_coder = [&](const std::string& coder) {
    if (is_consensus_coder(coder)) return;
    if (coder_index.emplace(folded(coder), out.coders.size()).second) out.coders.push_back(coder);
  };
  for (const auto& turn : t.turns) {
    if (turn.interviewer) continue;
    for (const auto& c : turn.codes) note_coder(c.coder);
    for (const auto& s : turn.spans)
      for (const auto& c : s.codes) note_coder(c.coder);
  }
  for (const auto& turn : t.turns) {
    if (turn.interviewer) continue;
    // (unit key, codings) in the order the units come; a turn unit takes every coding of the turn.
    std::vector<ReconcileUnit> units;
    std::map<std::string, std::size_t> index;
    auto unit_for = [&](bool whole, const Span* s) -> ReconcileUnit& {
      std::string key = "t" + std::to_string(turn.number);
      if (segment_units && !whole) key = span_key(turn, s->begin, s->end);
      auto [it, fresh] = index.emplace(key, units.size());
      if (fresh) {
        ReconcileUnit u;
        u.key = key;
        u.turn = turn.number;
        u.turn_ref = &turn;
        u.line = segment_units && !whole ? s->line : turn.line;
        if (segment_units && !whole) u.extent = std::make_pair(s->begin, s->end);
        u.coders.resize(out.coders.size());
        for (std::size_t k = 0; k < out.coders.size(); ++k) u.coders[k].coder = out.coders[k];
        units.push_back(std::move(u));
      }
      return units[it->second];
    };
    auto add = [&](ReconcileUnit& u, const Coding& c, bool whole, const Span* s) {
      const auto& node = node_of(c.written);
      if (!node) return;
      UnitCoding uc;
      uc.node = *node;
      uc.whole_turn = whole;
      if (!whole) uc.begin = s->begin, uc.end = s->end;
      uc.memo = c.memo;
      uc.exemplar = c.exemplar;
      if (is_consensus_coder(c.coder)) {
        u.consensus.push_back(to_consensus(turn, uc));
        return;
      }
      u.coders[coder_index.at(folded(c.coder))].codings.push_back(std::move(uc));
    };
    if (!turn.codes.empty()) {
      ReconcileUnit& u = unit_for(true, nullptr);
      for (const auto& c : turn.codes) add(u, c, true, nullptr);
    }
    std::vector<const Span*> spans;
    for (const auto& s : turn.spans) spans.push_back(&s);
    std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) { return std::tie(a->begin, a->end) < std::tie(b->begin, b->end); });
    for (const Span* s : spans) {
      if (s->codes.empty()) continue;
      ReconcileUnit& u = unit_for(false, s);
      for (const auto& c : s->codes) add(u, c, false, s);
    }
    for (auto& u : units) {
      std::string canonical;
      for (auto& cc : u.coders) {
        std::set<std::string> nodes;
        for (const auto& c : cc.codings) nodes.insert(c.node);
        cc.nodes = ordered(nodes, taxonomy);
        std::vector<std::string> lines;
        for (const auto& c : cc.codings) {
          auto k = to_consensus(turn, c);
          lines.push_back(c.node + '\t' + (k.span ? quote_span(*k.span) + "#" + std::to_string(k.occurrence) : "*") + '\t' + c.memo +
                          '\t' + (c.exemplar ? "x" : ""));
        }
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
        canonical += folded(cc.coder) + '\n' + text::join(lines, "\n") + "\n\n";
      }
      u.hash = sha256_hex(canonical).substr(0, 16);
      out.units.push_back(std::move(u));
    }
  }
  return out;
}

int ConsensusPlan::count(UnitState s) const {
  return static_cast<int>(std::count_if(units.begin(), units.end(), [&](const PlannedUnit& p) { return p.state == s; }));
}

ConsensusFile ConsensusPlan::to_file() const {
  ConsensusFile f = file;
  f.units.clear();
  for (const auto& p : units) f.units.push_back(p.record);
  return f;
}

ConsensusPlan plan_consensus(const TranscriptUnits& units, const ConsensusRecord* recorded, const Taxonomy& taxonomy) {
  ConsensusPlan plan;
  plan.file.transcript = units.transcript->file;
  plan.file.coders = units.coders;
  plan.file.unit = units.unit_kind;
  std::map<std::string, const ConsensusUnit*> decided;
  std::vector<const ConsensusUnit*> orphans;
  if (recorded)
    for (const auto& r : recorded->units) {
      if (!r.decided) continue;
      if (!decided.emplace(r.unit, &r).second) orphans.push_back(&r);  // a second decision on one unit: kept
    }
  for (const auto& u : units.units) {
    PlannedUnit p;
    p.unit = &u;
    p.record.unit = u.key;
    p.record.turn = u.turn;
    auto rec = decided.find(u.key);
    const bool nobody = std::all_of(u.coders.begin(), u.coders.end(), [](const CoderCodings& c) { return c.nodes.empty(); });
    if (rec != decided.end() && nobody) {  // only the consensus codes it: kept as written
      p.state = UnitState::orphan;
      p.record = *rec->second;
      p.record.codings = u.consensus;
      p.record.turn = u.turn;
      p.why = "no coder codes this unit any more";
      decided.erase(rec);
    } else if (rec != decided.end()) {
      const ConsensusUnit& r = *rec->second;
      std::string why = what_changed(r, u);
      auto codings = why.empty() ? derive(u, r.decision, taxonomy) : std::nullopt;
      if (codings) {
        p.state = UnitState::decided;
        p.record = r;
        p.record.before = before_of(u);
        p.record.hash = u.hash;
        p.record.codings = *codings;
      } else {
        p.state = UnitState::stale;
        p.record = r;
        p.record.codings = u.consensus;
        p.why = why.empty() ? "the decision '" + r.decision + "' names no coder of the unit" : why;
        if (!u.disputed()) p.why += " (the coders now agree)";
      }
      p.record.turn = u.turn;
      decided.erase(rec);
    } else if (u.disputed()) {
      p.state = UnitState::open;
      p.record.disputed = true;
      p.record.before = before_of(u);
      std::set<std::string> every(u.coders.front().nodes.begin(), u.coders.front().nodes.end());
      for (const auto& c : u.coders) {
        std::set<std::string> mine(c.nodes.begin(), c.nodes.end()), both;
        std::set_intersection(every.begin(), every.end(), mine.begin(), mine.end(), std::inserter(both, both.end()));
        every = std::move(both);
      }
      p.record.codings = merged(u, all_coders(u), ordered(every, taxonomy), taxonomy);
    } else {
      p.state = UnitState::agreed;
      p.record.codings = merged(u, all_coders(u), u.coders.front().nodes, taxonomy);
    }
    plan.units.push_back(std::move(p));
  }
  // Decisions on units nobody codes any more: kept as written, after the units of their turn.
  for (const auto& [key, r] : decided) orphans.push_back(r);
  std::sort(orphans.begin(), orphans.end(), [](const ConsensusUnit* a, const ConsensusUnit* b) { return a->line < b->line; });
  for (const ConsensusUnit* r : orphans) {
    PlannedUnit p;
    p.state = UnitState::orphan;
    p.record = *r;
    p.record.codings.clear();
    p.why = "no coder codes this unit any more";
    auto at = std::find_if(plan.units.begin(), plan.units.end(), [&](const PlannedUnit& q) { return q.record.turn > r->turn; });
    plan.units.insert(at, std::move(p));
  }
  return plan;
}

std::string decide_unit(ConsensusPlan& plan, std::size_t index, const std::string& choice, const std::string& decider,
                        const std::string& date, const std::string& note, const Taxonomy& taxonomy) {
  PlannedUnit& p = plan.units.at(index);
  if (!p.unit) return "no coder codes " + p.record.unit + " any more";
  const ReconcileUnit& u = *p.unit;
  std::string decision;
  const std::string f = folded(choice);
  if (f == "union" || f == "both" || f == "all") decision = "union";
  else if (f == "neither" || f == "none") decision = "neither";
  else if (f.rfind("codes:", 0) == 0) {
    auto ids = text::split_nonempty(choice.substr(6), ',');
    for (auto& id : ids) id = std::string(text::trim(id));
    if (ids.empty()) return "codes: needs at least one id (choose neither for no codes)";
    decision = "codes:" + text::join(ids, ",");
  } else {
    for (const auto& c : u.coders)
      if (folded(c.coder) == f) decision = c.coder;
    if (decision.empty()) {
      std::vector<std::string> names;
      for (const auto& c : u.coders) names.push_back(c.coder);
      std::vector<std::string> choices = names;
      choices.insert(choices.end(), {"union", "neither"});
      const std::string best = text::closest(choice, choices, choice.size() <= 4 ? 1 : 2);  // (zoe is not bob)
      return "'" + choice + "' is no coder of " + plan.file.transcript + " (" + text::join(names, ", ") + "), nor union, neither or codes:ID,ID" +
             (best.empty() ? std::string() : "; did you mean '" + best + "'?");
    }
  }
  auto codings = derive(u, decision, taxonomy);
  if (!codings) return "'" + choice + "' names no coder of the unit";
  p.state = UnitState::decided;
  p.why.clear();
  p.record.disputed = true;
  p.record.decided = true;
  p.record.decision = decision;
  p.record.decided_by = decider;
  p.record.date = date;
  p.record.note = note;
  p.record.before = before_of(u);
  p.record.hash = u.hash;
  p.record.codings = *codings;
  return "";
}

std::vector<ConsensusStatus> check_consensus(const Workspace& ws, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                             Diagnostics& diags) {
  std::vector<ConsensusStatus> out;
  for (const auto& record : ws.consensus) {
    const Transcript* t = nullptr;
    for (const auto& candidate : ws.transcripts)
      if (candidate.file == record.transcript) t = &candidate;
    if (!t) continue;
    ConsensusStatus status;
    status.transcript = t->file;
    status.file = record.file;
    const bool segments = record.unit == "segment";
    TranscriptUnits units = reconcile_units(*t, taxonomy, resolve, segments);
    auto name = [&](const std::string& key) { return t->participant + "#" + key; };
    const std::string again = "qualrank reconcile " + t->file;
    if (units.coders.size() < 2) {
      status.ignored = true;
      diags.warning({record.file, 1, 1}, "a consensus of a transcript with " +
                                             (units.coders.empty() ? std::string("no coder") : "one coder (" + units.coders.front() + ")") +
                                             ": it is not counted, the coder's own codes are (a consensus records a team's "
                                             "decisions on its coders' disagreements; delete the file or add a second coder)");
      out.push_back(std::move(status));
      continue;
    }
    ConsensusPlan plan = plan_consensus(units, &record, taxonomy);
    std::set<std::string> recorded_open;
    int first_open_line = 0;
    for (const auto& r : record.units)
      if (!r.decided) {
        recorded_open.insert(r.unit);
        if (!first_open_line) first_open_line = r.line;
      }
    for (const auto& p : plan.units) {
      switch (p.state) {
        case UnitState::open:
          status.open.push_back(name(p.record.unit));
          if (!recorded_open.count(p.record.unit)) status.out_of_date.push_back(name(p.record.unit));
          break;
        case UnitState::stale:
          status.stale.push_back(name(p.record.unit));
          diags.warning({record.file, p.record.line, 1},
                        "the decision on " + p.record.unit + " (" + p.record.decision + ", by " + p.record.decided_by + " on " +
                            p.record.date + ") is stale: " + p.why + "; it is kept and counted until the team decides again ('" +
                            again + "')");
          break;
        case UnitState::orphan:
          status.orphan.push_back(name(p.record.unit));
          diags.warning({record.file, p.record.line, 1}, "the decision on " + p.record.unit + " is kept, but no coder codes this unit any more");
          break;
        default: break;
      }
      if ((p.state == UnitState::agreed || p.state == UnitState::decided || p.state == UnitState::open) &&
          normalised(p.record.codings) != normalised(p.unit->consensus) &&
          std::find(status.out_of_date.begin(), status.out_of_date.end(), name(p.record.unit)) == status.out_of_date.end())
        status.out_of_date.push_back(name(p.record.unit));
    }
    if (!status.out_of_date.empty())
      diags.warning({record.file, 1, 1}, "out of date for " + std::to_string(status.out_of_date.size()) + " unit(s) (" +
                                             text::join(status.out_of_date, ", ") +
                                             "): the coders' codings changed since it was written; '" + again +
                                             "' refreshes it (and asks about new disagreements)");
    if (!status.open.empty())
      diags.warning({record.file, first_open_line ? first_open_line : 1, 1},
                    std::to_string(status.open.size()) + " unit(s) still open (" + text::join(status.open, ", ") +
                        "): each counts only the codes all its coders applied; decide them with '" + again + "'");
    out.push_back(std::move(status));
  }
  return out;
}

}  // namespace qualrank
