#include "qualrank/analysis/coding.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <optional>
#include <set>
#include <string_view>
#include <unordered_map>

#include "qualrank/analysis/autocode.h"
#include "qualrank/util/parallel.h"
#include "qualrank/util/text.h"

namespace qualrank {

void CodedSegment::node_refs(const Taxonomy& taxonomy, std::vector<const std::string*>& out) const {
  out.clear();
  for (const auto& c : codes)
    if (std::none_of(out.begin(), out.end(), [&](const std::string* n) { return *n == c.node; })) out.push_back(&c.node.str());
  std::sort(out.begin(), out.end(), [&](const std::string* a, const std::string* b) {
    auto ra = taxonomy.rank_of(*a), rb = taxonomy.rank_of(*b);
    return ra != rb ? ra < rb : text::natural_less(*a, *b);
  });
}

void CodedSegment::coder_refs(std::vector<const std::string*>& out) const {
  out.clear();
  for (const auto& c : codes)
    if (std::none_of(out.begin(), out.end(), [&](const std::string* n) { return *n == c.coder; })) out.push_back(&c.coder.str());
}

std::vector<std::string> CodedSegment::nodes(const Taxonomy& taxonomy) const {
  std::vector<const std::string*> refs;
  node_refs(taxonomy, refs);
  std::vector<std::string> out;
  out.reserve(refs.size());
  for (const std::string* n : refs) out.push_back(*n);
  return out;
}

std::vector<std::string> CodedSegment::coders() const {
  std::vector<const std::string*> refs;
  coder_refs(refs);
  std::vector<std::string> out;
  out.reserve(refs.size());
  for (const std::string* c : refs) out.push_back(*c);
  return out;
}

namespace {

// What one participant turn contributes, worked out before anything is copied: its resolved codes, whether
// the whole turn is listed (with its suggestions), and its coded spans that are kept, by position.
struct TurnPlan {
  const Turn* turn = nullptr;
  const Question* question = nullptr;
  bool whole = false;
  std::vector<AppliedCode> codes;
  std::vector<std::string> suggested;
  std::vector<std::pair<const Span*, std::vector<AppliedCode>>> spans;
};

std::vector<TurnPlan> plan_transcript(const Workspace& ws, const Transcript& t, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                      const KeywordMatcher* matcher, const CodingOptions& options, Diagnostics& diags,
                                      std::size_t& suggested_only) {
  // Every code is resolved (and a code that does not resolve reported); only the codes of what is kept are
  // copied into AppliedCodes.
  // A transcript writes a few dozen nodes thousands of times: each is resolved once (a resolver is a pure
  // function of what is written), its answer kept for the rest of the transcript.
  // With the answer, its node as SharedText, for the codes copied into AppliedCodes.
  struct Resolved {
    NodeResolution resolution;
    SharedText node;
  };
  std::unordered_map<std::string_view, Resolved> resolutions;
  auto resolution = [&](const std::string& written) -> const Resolved& {
    auto it = resolutions.find(written);
    if (it == resolutions.end()) {
      Resolved r{resolve(written), {}};
      if (r.resolution.node) r.node = SharedText(*r.resolution.node);
      it = resolutions.emplace(written, std::move(r)).first;
    }
    return it->second;
  };
  // Into `codes` (cleared first): one buffer per transcript for the turns' codes and one for the spans', so
  // resolving allocates nothing for a turn that is not kept.
  auto resolved = [&](const std::vector<Coding>& in, std::vector<ResolvedCode>& codes) -> std::vector<ResolvedCode>& {
    codes.clear();
    codes.reserve(in.size());
    for (const auto& c : in) {
      const NodeResolution& r = resolution(c.written).resolution;
      if (!r.node) {
        diags.error(c.where, (r.problem.empty() ? "unknown taxonomy node '" + c.written + "'" : r.problem) +
                                 (r.problem.empty() || r.problem.rfind("unknown", 0) == 0 ? did_you_mean(taxonomy, c.written) : ""));
        continue;
      }
      codes.push_back({*r.node, &c});
    }
    return codes;
  };
  auto applied = [&](std::vector<ResolvedCode>& in) {
    std::vector<AppliedCode> codes;
    codes.reserve(in.size());
    for (auto& r : in) {
      const Coding& c = *r.coding;
      // resolved above: its node is r.node
      codes.emplace_back(resolution(c.written).node, c.written, c.coder, c.memo, c.where, c.exemplar);  // in place
    }
    return codes;
  };
  std::vector<TurnPlan> plans;
  std::vector<ResolvedCode> turn_buffer, span_buffer;
  std::vector<const Span*> spans;
  const SharedText* section = nullptr;  // the last turn's section and its question (a section holds many turns)
  const Question* question = nullptr;
  for (const auto& turn : t.turns) {
    if (turn.interviewer) continue;
    if (!section || *section != turn.section) {
      section = &turn.section;
      question = ws.guideline.find(turn.section);
    }
    TurnPlan p;
    p.turn = &turn;
    p.question = question;
    auto& codes = resolved(turn.codes, turn_buffer);
    const bool keep = !options.keep || options.keep(SegmentProbe{t, turn, p.question, true, codes});
    if (matcher && keep) {
      if (options.suggestions_counted_only && !options.include_uncoded) {
        if (codes.empty() && matcher->matches(turn.text)) ++suggested_only;  // counted, not built
      } else {
        p.suggested = matcher->suggest(turn.text);
      }
    }
    p.whole = keep && (!codes.empty() || !p.suggested.empty() || options.include_uncoded);
    if (p.whole) p.codes = applied(codes);
    spans.clear();
    for (const auto& s : turn.spans) spans.push_back(&s);
    if (spans.size() > 1)
      std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) { return a->begin < b->begin; });
    for (const auto* s : spans) {
      auto& span_codes = resolved(s->codes, span_buffer);
      if (span_codes.empty() || (options.keep && !options.keep(SegmentProbe{t, turn, p.question, false, span_codes}))) continue;
      p.spans.emplace_back(s, applied(span_codes));
    }
    if (p.whole || !p.spans.empty()) plans.push_back(std::move(p));
  }
  return plans;
}

// The segments of one transcript, in turn order (whole turn, then its spans by position), into out[at...].
// take_text: a whole-turn segment takes its turn's text (only when the caller passed the workspace non-const:
// coded_segments_taking_text).
void build_segments(const Transcript& t, std::vector<TurnPlan>& plans, std::vector<CodedSegment>& out, std::size_t at,
                    bool take_text) {
  const SegmentAttributes attributes(std::make_shared<const SegmentAttributes::Map>(t.attributes));
  // The segments' sources share one file name (the parser's, when the participant's location holds it).
  const FileName file = t.participant_where.file == t.file ? t.participant_where.file : FileName(t.file);
  const SharedText participant(t.participant), role(t.role);
  for (auto& p : plans) {
    const Turn& turn = *p.turn;
    // Fills a segment in its slot of `out` (default-constructed there: no segment is built aside and moved).
    auto base = [&](CodedSegment& seg) {
      seg.participant = participant;
      seg.role = role;
      seg.attributes = attributes;
      seg.question = turn.section;
      seg.part = p.question ? SharedText(p.question->part) : SharedText();
      seg.turn = turn.number;
      seg.source = {file, turn.line, 0};
    };
    const std::string turn_id = t.participant + "#t" + std::to_string(turn.number);
    // The whole turn's slot comes first; it is filled after the spans, which copy from the turn's text.
    const std::size_t whole_at = at;
    if (p.whole) ++at;
    std::optional<text::CodePointOffsets> offsets;  // only for turns with spans
    if (!p.spans.empty()) offsets.emplace(turn.text);
    for (auto& [s, codes] : p.spans) {
      CodedSegment& seg = out[at++];
      base(seg);
      seg.whole_turn = false;
      seg.text = turn.text.substr(s->begin, s->end - s->begin);
      seg.begin = offsets->at(s->begin);
      seg.end = offsets->at(s->end);
      {  // turn_id + "[" + begin + ":" + end + "]", allocated once at its size
        char range[48];
        const auto n = static_cast<std::size_t>(std::snprintf(range, sizeof range, "[%zu:%zu]", seg.begin, seg.end));
        std::string id(turn_id.size() + n, '\0');
        id.replace(0, turn_id.size(), turn_id).replace(turn_id.size(), n, range, n);
        seg.id = std::move(id);
      }
      if (s->line > 0) seg.source.line = s->line;  // the transcript line holding the span
      seg.codes = std::move(codes);
    }
    if (p.whole) {
      CodedSegment& whole = out[whole_at];
      base(whole);
      whole.id = turn_id;
      whole.end = text::count_code_points(turn.text);
      if (take_text) whole.text = std::move(const_cast<Turn&>(turn).text);  // the workspace is the caller's to change
      else whole.text = turn.text;
      whole.codes = std::move(p.codes);
      whole.suggested = std::move(p.suggested);
    }
  }
}

}  // namespace

// Resolving codes, deciding what is kept and finding suggestions is done per transcript on several threads,
// each into its own slot; the segments are then built, again per transcript on several threads, into their
// places in a vector of the exact size (file order), so they and the diagnostics come out as one thread would
// give them, without a second copy of the segments.
namespace {

std::vector<CodedSegment> build_coded_segments(const Workspace& ws, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                               Diagnostics& diags, const CodingOptions& options, CodingTally* tally,
                                               bool take_text) {
  std::optional<KeywordMatcher> matcher;
  if (options.suggestions) matcher.emplace(keyword_rules(taxonomy));
  const auto& transcripts = ws.transcripts;
  std::vector<std::vector<TurnPlan>> plans(transcripts.size());
  std::vector<Diagnostics> plan_diags(transcripts.size());
  std::vector<std::size_t> suggested_only(transcripts.size(), 0);
  parallel_for(transcripts.size(), [&](std::size_t k) {
    plans[k] = plan_transcript(ws, transcripts[k], taxonomy, resolve, matcher ? &*matcher : nullptr, options, plan_diags[k],
                               suggested_only[k]);
  });
  if (tally) for (std::size_t n : suggested_only) tally->suggested_only += n;
  std::vector<std::size_t> first(transcripts.size() + 1, 0);  // where each transcript's segments start
  for (std::size_t k = 0; k < transcripts.size(); ++k) {
    first[k + 1] = first[k];
    for (const auto& p : plans[k]) first[k + 1] += (p.whole ? 1 : 0) + p.spans.size();
    diags.append(plan_diags[k]);
  }
  std::vector<CodedSegment> out(first.back());
  parallel_for(transcripts.size(), [&](std::size_t k) {
    build_segments(transcripts[k], plans[k], out, first[k], take_text);
    std::vector<TurnPlan>().swap(plans[k]);
  });
  return out;
}

}  // namespace

std::vector<CodedSegment> coded_segments(const Workspace& ws, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                         Diagnostics& diags, const CodingOptions& options, CodingTally* tally) {
  return build_coded_segments(ws, taxonomy, resolve, diags, options, tally, false);
}

std::vector<CodedSegment> coded_segments_taking_text(Workspace& ws, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                                     Diagnostics& diags, const CodingOptions& options, CodingTally* tally) {
  return build_coded_segments(ws, taxonomy, resolve, diags, options, tally, true);
}

}  // namespace qualrank
