#include "qualrank/analysis/coding.h"

#include <algorithm>
#include <set>

#include "qualrank/analysis/autocode.h"
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

std::vector<CodedSegment> coded_segments(const Workspace& ws, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                         Diagnostics& diags, const CodingOptions& options) {
  std::optional<KeywordMatcher> matcher;
  if (options.suggestions) matcher.emplace(keyword_rules(taxonomy));
  std::vector<CodedSegment> out;
  auto apply = [&](const std::vector<Coding>& in, CodedSegment& seg) {
    for (const auto& c : in) {
      auto r = resolve(c.written);
      if (!r.node) {
        diags.error(c.where, r.problem.empty() ? "unknown taxonomy node '" + c.written + "'" : r.problem);
        continue;
      }
      seg.codes.push_back({*r.node, c.written, c.coder, c.memo, c.where, c.exemplar});
    }
  };
  for (const auto& t : ws.transcripts) {
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
      CodedSegment whole = base();
      const std::string turn_id = t.participant + "#t" + std::to_string(turn.number);
      whole.id = turn_id;
      whole.text = turn.text;
      whole.end = text::count_code_points(turn.text);
      apply(turn.codes, whole);
      if (matcher) whole.suggested = matcher->suggest(turn.text);
      if (!whole.codes.empty() || !whole.suggested.empty() || options.include_uncoded) out.push_back(std::move(whole));
      std::vector<const Span*> spans;
      for (const auto& s : turn.spans) spans.push_back(&s);
      std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) { return a->begin < b->begin; });
      for (const auto* s : spans) {
        CodedSegment seg = base();
        seg.whole_turn = false;
        seg.text = turn.text.substr(s->begin, s->end - s->begin);
        seg.begin = text::count_code_points(std::string_view(turn.text).substr(0, s->begin));
        seg.end = seg.begin + text::count_code_points(seg.text);
        seg.id = turn_id + "[" + std::to_string(seg.begin) + ":" + std::to_string(seg.end) + "]";
        if (s->line > 0) seg.source.line = s->line;  // the transcript line holding the span
        apply(s->codes, seg);
        if (seg.codes.empty()) continue;
        out.push_back(std::move(seg));
      }
    }
  }
  return out;
}

}  // namespace qualrank
