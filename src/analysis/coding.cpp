#include "qualrank/analysis/coding.h"

#include <algorithm>
#include <iterator>
#include <set>

#include "qualrank/analysis/autocode.h"
#include "qualrank/util/parallel.h"
#include "qualrank/util/text.h"

namespace qualrank {

std::vector<std::string> CodedSegment::nodes(const Taxonomy& taxonomy) const {
  std::vector<std::string> out;
  for (const auto& c : codes)
    if (std::find(out.begin(), out.end(), c.node) == out.end()) out.push_back(c.node);
  std::sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) {
    auto ra = taxonomy.rank_of(a), rb = taxonomy.rank_of(b);
    return ra != rb ? ra < rb : text::natural_less(a, b);
  });
  return out;
}

std::vector<std::string> CodedSegment::coders() const {
  std::vector<std::string> out;
  for (const auto& c : codes)
    if (std::find(out.begin(), out.end(), c.coder) == out.end()) out.push_back(c.coder);
  return out;
}

namespace {

// The segments of one transcript, in turn order (whole turn, then its spans by position).
void transcript_segments(const Workspace& ws, const Transcript& t, const NodeResolver& resolve, const KeywordMatcher* matcher,
                         const CodingOptions& options, std::vector<CodedSegment>& out, Diagnostics& diags) {
  auto resolved = [&](const std::vector<Coding>& in) {
    std::vector<AppliedCode> codes;
    for (const auto& c : in) {
      auto r = resolve(c.written);
      if (!r.node) {
        diags.error(c.where, r.problem.empty() ? "unknown taxonomy node '" + c.written + "'" : r.problem);
        continue;
      }
      codes.push_back({*r.node, c.written, c.coder, c.memo, c.where, c.exemplar});
    }
    return codes;
  };
  for (const auto& turn : t.turns) {
    if (turn.interviewer) continue;
    const Question* q = ws.guideline.find(turn.section);
    auto base = [&]() {
      CodedSegment seg;
      seg.participant = t.participant;
      seg.role = t.role;
      seg.attributes = t.attributes;
      seg.question = turn.section;
      seg.part = q ? q->part : "";
      seg.turn = turn.number;
      seg.source = {t.file, turn.line, 0};
      return seg;
    };
    const std::string turn_id = t.participant + "#t" + std::to_string(turn.number);
    // The whole turn is built only when it is listed: it has codes or suggestions, or uncoded turns are asked for.
    auto codes = resolved(turn.codes);
    const bool keep_whole = !options.keep || options.keep(SegmentProbe{t, turn, q, true, codes});
    std::vector<std::string> suggested;
    if (matcher && keep_whole) suggested = matcher->suggest(turn.text);
    if (keep_whole && (!codes.empty() || !suggested.empty() || options.include_uncoded)) {
      CodedSegment whole = base();
      whole.id = turn_id;
      whole.text = turn.text;
      whole.end = text::count_code_points(turn.text);
      whole.codes = std::move(codes);
      whole.suggested = std::move(suggested);
      out.push_back(std::move(whole));
    }
    std::vector<const Span*> spans;
    for (const auto& s : turn.spans) spans.push_back(&s);
    std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) { return a->begin < b->begin; });
    for (const auto* s : spans) {
      auto span_codes = resolved(s->codes);
      if (span_codes.empty() || (options.keep && !options.keep(SegmentProbe{t, turn, q, false, span_codes}))) continue;
      CodedSegment seg = base();
      seg.whole_turn = false;
      seg.text = turn.text.substr(s->begin, s->end - s->begin);
      seg.begin = text::count_code_points(std::string_view(turn.text).substr(0, s->begin));
      seg.end = seg.begin + text::count_code_points(seg.text);
      seg.id = turn_id + "[" + std::to_string(seg.begin) + ":" + std::to_string(seg.end) + "]";
      if (!s->codes.empty()) seg.source.line = s->codes.front().where.line;
      seg.codes = std::move(span_codes);
      out.push_back(std::move(seg));
    }
  }
}

}  // namespace

// Transcripts are independent: each is turned into segments on its own thread, into its own slot, and the
// slots are joined in file order, so the segments and diagnostics come out as one thread would give them.
std::vector<CodedSegment> coded_segments(const Workspace& ws, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                         Diagnostics& diags, const CodingOptions& options) {
  std::optional<KeywordMatcher> matcher;
  if (options.suggestions) matcher.emplace(keyword_rules(taxonomy));
  const auto& transcripts = ws.transcripts;
  std::vector<std::vector<CodedSegment>> per(transcripts.size());
  std::vector<Diagnostics> per_diags(transcripts.size());
  parallel_for(transcripts.size(), [&](std::size_t k) {
    transcript_segments(ws, transcripts[k], resolve, matcher ? &*matcher : nullptr, options, per[k], per_diags[k]);
  });
  std::size_t total = 0;
  for (const auto& p : per) total += p.size();
  std::vector<CodedSegment> out;
  out.reserve(total);
  for (std::size_t k = 0; k < per.size(); ++k) {
    diags.append(per_diags[k]);
    std::move(per[k].begin(), per[k].end(), std::back_inserter(out));
    std::vector<CodedSegment>().swap(per[k]);
  }
  return out;
}

}  // namespace qualrank
