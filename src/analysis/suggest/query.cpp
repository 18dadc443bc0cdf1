// Segment retrieval: checks a SegmentQuery against a study, then filters the study's segments, cheapest
// test first (participant, question, attributes, codes), the text pattern last, and keyword suggestions only
// for the segments that get that far. The text pattern is an ICU regular expression run on the UTF-8 text
// through a UText, so match offsets are byte offsets of the text itself; a fixed phrase is matched on the
// case-folded text (text::fold_case) with a map back to the original bytes.
#include "qualrank/analysis/suggest/query.h"

#include <unicode/regex.h>
#include <unicode/utext.h>

#include <algorithm>
#include <set>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "qualrank/analysis/autocode.h"
#include "qualrank/analysis/suggest/suggest.h"
#include "qualrank/util/parallel.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

// Finds a pattern in segment texts: an ICU regex (case-insensitive) or a case-folded plain phrase.
class TextMatcher {
 public:
  // nullptr with `error` set when the pattern is empty or not a valid regular expression.
  static std::unique_ptr<TextMatcher> make(const std::string& pattern, bool fixed, std::string& error) {
    if (pattern.empty()) {
      error = "--text: the pattern is empty";
      return nullptr;
    }
    auto m = std::unique_ptr<TextMatcher>(new TextMatcher);
    if (fixed) {
      m->phrase_ = text::fold_case(text::nfc_with_origin(pattern).text);
      return m;
    }
    UParseError where{};
    UErrorCode status = U_ZERO_ERROR;
    m->pattern_.reset(icu::RegexPattern::compile(icu::UnicodeString::fromUTF8(text::nfc_with_origin(pattern).text),
                                                 UREGEX_CASE_INSENSITIVE, where, status));
    if (U_SUCCESS(status)) m->matcher_.reset(m->pattern_->matcher(status));
    if (U_FAILURE(status)) {
      error = "--text: invalid regular expression '" + pattern + "': " + u_errorName(status);
      if (where.offset >= 0) error += " at character " + std::to_string(where.offset + 1);
      error += " (use --fixed for a plain phrase)";
      return nullptr;
    }
    return m;
  }

  // True when the pattern occurs in `s`; the non-empty occurrences are appended to `out` (byte ranges).
  // Compared under NFC (canonically equivalent spellings alike: a decomposed "Zoë" is "Zoë"): a text that is
  // not all ASCII is normalised first and the ranges mapped back to whole characters of `s`.
  bool find(const std::string& s, std::vector<TextRange>& out) const {
    const bool ascii = std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
    if (ascii) return pattern_ ? find_regex(s, out) : find_phrase(s, out);
    const text::NfcText n = text::nfc_with_origin(s);
    std::vector<TextRange> found;
    const bool any = pattern_ ? find_regex(n.text, found) : find_phrase(n.text, found);
    std::size_t kept = 0;
    for (const auto& r : found) {
      // Only whole characters: a match that ends inside a character's marks (Zoe of Zoe + U+0308) is none.
      if ((r.begin > 0 && n.origin[r.begin - 1] == n.origin[r.begin]) ||
          (r.end < n.text.size() && n.origin[r.end] == n.origin[r.end - 1]))
        continue;
      out.push_back({n.origin[r.begin], n.origin[r.end]});
      ++kept;
    }
    return kept > 0 || (pattern_ && any && found.empty());  // (a regex's empty matches are not listed)
  }

 private:
  TextMatcher() = default;

  bool find_regex(const std::string& s, std::vector<TextRange>& out) const {
    UErrorCode status = U_ZERO_ERROR;
    UText ut = UTEXT_INITIALIZER;
    utext_openUTF8(&ut, s.data(), static_cast<int64_t>(s.size()), &status);
    matcher_->reset(&ut);
    bool found = false;
    while (U_SUCCESS(status) && matcher_->find(status)) {
      found = true;
      auto b = static_cast<std::size_t>(matcher_->start64(status));
      auto e = static_cast<std::size_t>(matcher_->end64(status));
      if (e > b) out.push_back({b, e});
    }
    matcher_->reset(empty_);  // let go of `s`: the matcher must not point into a text that goes away
    utext_close(&ut);
    return found;
  }

  bool find_phrase(const std::string& s, std::vector<TextRange>& out) const {
    // Fold code point by code point, remembering where each folded byte came from.
    folded_.clear();
    origin_.clear();
    for (std::size_t i = 0; i < s.size();) {
      auto c = static_cast<unsigned char>(s[i]);
      std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
      len = std::min(len, s.size() - i);
      if (c < 0x80) {
        folded_.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c));
        origin_.push_back(i);
      } else {
        auto f = text::fold_case(std::string_view(s).substr(i, len));
        folded_ += f;
        origin_.insert(origin_.end(), f.size(), i);
      }
      i += len;
    }
    bool found = false;
    for (auto at = folded_.find(phrase_); at != std::string::npos; at = folded_.find(phrase_, at + phrase_.size())) {
      found = true;
      std::size_t end = at + phrase_.size();
      out.push_back({origin_[at], end < origin_.size() ? origin_[end] : s.size()});
    }
    return found;
  }

  std::string phrase_;
  std::unique_ptr<icu::RegexPattern> pattern_;
  std::unique_ptr<icu::RegexMatcher> matcher_;   // reused: reset per text
  icu::UnicodeString empty_;
  mutable std::string folded_;
  mutable std::vector<std::size_t> origin_;
};

// What a node filter stands for: taxonomy positions (rank_of) of the node, and of its descendants unless exact.
std::vector<bool> node_set(const Taxonomy& taxonomy, const std::string& node, bool exact) {
  std::vector<bool> in(taxonomy.size() + 1, false);
  for (std::size_t pos = 0; pos < taxonomy.order().size(); ++pos) {
    const auto& id = taxonomy.order()[pos];
    if (id == node || (!exact && taxonomy.is_within(id, node))) in[pos] = true;
  }
  return in;
}

std::string node_problem(const Study& study, const std::string& option, const std::string& written) {
  auto r = study.version->resolve(written);
  if (r.node) return "";
  std::string message = option + ": " + (r.problem.empty() ? "unknown taxonomy node '" + written + "'" : r.problem);
  if (!study.taxonomy().resolve(written)) {
    auto hint = text::closest(written, study.taxonomy().order());
    if (!hint.empty()) message += " (did you mean '" + hint + "'?)";
  }
  return message;
}

const std::string& attribute_of(const std::string& role, const std::map<std::string, std::string>& attributes,
                                const std::string& name) {
  static const std::string none;
  if (name == "role") return role;
  auto it = attributes.find(name);
  return it == attributes.end() ? none : it->second;
}

const std::string& attribute_of(const CodedSegment& s, const std::string& name) { return attribute_of(s.role, s.attributes, name); }

std::string quoted_list(const std::vector<std::string>& values) {
  std::vector<std::string> q;
  for (const auto& v : values) q.push_back(v.empty() ? "(none)" : v);
  return text::join(q, ", ");
}

// The filters on who said it and where: participant, question or part, attributes.
bool context_matches(const SegmentQuery& q, const std::string& participant, const std::string& role,
                     const std::map<std::string, std::string>& attributes, const std::string& question, const std::string& part) {
  if (!q.participants.empty() && std::find(q.participants.begin(), q.participants.end(), participant) == q.participants.end())
    return false;
  if (!q.questions.empty() &&
      std::none_of(q.questions.begin(), q.questions.end(), [&](const std::string& id) { return id == question || (!part.empty() && id == part); }))
    return false;
  return std::all_of(q.where.begin(), q.where.end(), [&](const auto& w) { return attribute_of(role, attributes, w.first) == w.second; });
}

// The code filters with their nodes resolved at a taxonomy version (positions in its order).
struct CodeFilter {
  std::vector<std::vector<bool>> all_of, none_of;
  std::vector<std::vector<std::vector<bool>>> any_of;
  std::vector<std::string> coders;  // folded

  bool active() const { return !all_of.empty() || !any_of.empty() || !none_of.empty() || !coders.empty(); }

  // On the codes that count (those of the --coder coders, when given).
  bool matches(const Taxonomy& tax, const std::vector<AppliedCode>& codes) const {
    std::vector<std::size_t> positions;
    for (const auto& c : codes)
      if (counts(c.coder)) positions.push_back(tax.rank_of(c.node));
    return matches(positions);
  }
  bool matches(const Taxonomy& tax, const std::vector<ResolvedCode>& codes) const {
    std::vector<std::size_t> positions;
    for (const auto& c : codes)
      if (counts(c.coding->coder)) positions.push_back(tax.rank_of(c.node));
    return matches(positions);
  }

 private:
  bool counts(const std::string& coder) const {
    return coders.empty() || std::find(coders.begin(), coders.end(), text::fold_case(coder)) != coders.end();
  }
  bool matches(const std::vector<std::size_t>& positions) const {
    if (!coders.empty() && positions.empty()) return false;
    auto carries = [&](const std::vector<bool>& set) {
      return std::any_of(positions.begin(), positions.end(), [&](std::size_t pos) { return pos < set.size() && set[pos]; });
    };
    for (const auto& set : all_of)
      if (!carries(set)) return false;
    for (const auto& list : any_of)
      if (std::none_of(list.begin(), list.end(), carries)) return false;
    for (const auto& set : none_of)
      if (carries(set)) return false;
    return true;
  }
};

// nullopt when a node of the query has no node at the version (check_query reports it).
std::optional<CodeFilter> code_filter(const TaxonomyVersion& v, const SegmentQuery& q) {
  CodeFilter f;
  bool ok = true;
  auto set_of = [&](const std::string& written) {
    auto r = v.resolve(written);
    if (!r.node) {
      ok = false;
      return std::vector<bool>();
    }
    return node_set(v.taxonomy, *r.node, q.exact);
  };
  for (const auto& n : q.all_of) f.all_of.push_back(set_of(n));
  for (const auto& n : q.none_of) f.none_of.push_back(set_of(n));
  for (const auto& list : q.any_of) {
    f.any_of.emplace_back();
    for (const auto& n : list) f.any_of.back().push_back(set_of(n));
  }
  for (const auto& c : q.coders) f.coders.push_back(text::fold_case(c));
  if (!ok) return std::nullopt;
  return f;
}

// The context filters on a transcript's turn (the segment filter and the load trim must agree on it).
bool turn_in_context(const SegmentQuery& q, const Transcript& t, const Turn& turn, const Question* question) {
  return context_matches(q, t.participant, t.role, t.attributes, turn.section, question ? question->part : "");
}

}  // namespace

StudyOptions query_study_options(const SegmentQuery& q, const std::optional<std::string>& at) {
  StudyOptions o;
  o.at = at;
  // A segment without codes matches only a query without code filters (--uncoded is never combined with them).
  o.coding.include_uncoded = q.all_of.empty() && q.any_of.empty() && q.coders.empty();
  o.coding.suggestions = false;
  // Build only the segments the query may list: the text pattern and suggestions are left to query_segments.
  o.segment_filter = [q](const TaxonomyVersion& v, const Workspace&) -> SegmentFilter {
    auto codes = code_filter(v, q);
    // An invalid query lists nothing (check_query says why); listing everything would also build segments
    // of turns whose text `load.trim` dropped.
    if (!codes) return [](const SegmentProbe&) { return false; };
    return [q, codes = std::move(*codes), &tax = v.taxonomy](const SegmentProbe& p) {
      if (!turn_in_context(q, p.transcript, p.turn, p.question)) return false;
      return q.uncoded || !codes.active() || codes.matches(tax, p.codes);
    };
  };
  // Turns the query cannot list keep their codes (still resolved and checked) but not their text, so that a
  // query of a large workspace holds only the text it may show. --uncoded keeps everything: the learned
  // suggestions it shows are trained on the text of every coded turn.
  if (!q.uncoded) {
    const bool needs_codes = !o.coding.include_uncoded;
    o.load.trim = [q, needs_codes](const Guideline& g, Transcript& t) {
      for (auto& turn : t.turns) {
        if (turn.interviewer) continue;
        bool listable = turn_in_context(q, t, turn, g.find(turn.section)) &&
                        (!needs_codes || !turn.codes.empty() || !turn.spans.empty());
        if (listable) continue;
        std::string().swap(turn.text);
        std::vector<TextRun>().swap(turn.runs);
      }
    };
  }
  return o;
}

bool is_study_attribute(const Workspace& ws, const std::string& name) {
  if (name == "role") return true;
  if (ws.guideline.experience && ws.guideline.experience->attribute == name) return true;
  return std::any_of(ws.transcripts.begin(), ws.transcripts.end(), [&](const Transcript& t) { return t.attributes.count(name) > 0; });
}

std::vector<std::string> check_query(const Study& study, const SegmentQuery& q) {
  std::vector<std::string> problems;
  const Workspace& ws = study.workspace;
  auto add = [&](std::string m) {
    if (!m.empty()) problems.push_back(std::move(m));
  };
  for (const auto& n : q.all_of) add(node_problem(study, "--code", n));
  for (const auto& list : q.any_of)
    for (const auto& n : list) add(node_problem(study, "--any-code", n));
  for (const auto& n : q.none_of) add(node_problem(study, "--not-code", n));
  if (q.uncoded && (!q.all_of.empty() || !q.any_of.empty() || !q.none_of.empty() || !q.coders.empty()))
    add("--uncoded lists turns without codes; it cannot be combined with --code, --any-code, --not-code or --coder");

  std::vector<std::string> attributes = {"role"};
  if (ws.guideline.experience) attributes.push_back(ws.guideline.experience->attribute);
  for (const auto& t : ws.transcripts)
    for (const auto& [k, v] : t.attributes)
      if (std::find(attributes.begin(), attributes.end(), k) == attributes.end()) attributes.push_back(k);
  for (const auto& [attr, value] : q.where) {
    if (!is_study_attribute(ws, attr)) {
      auto hint = text::closest(attr, attributes);
      add("--where: no participant has an attribute '" + attr + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
      continue;
    }
    auto values = ws.attribute_levels(attr);
    if (std::find(values.begin(), values.end(), value) == values.end()) {
      auto hint = text::closest(value, values);
      add("--where: no participant has " + attr + " = '" + value + "'" +
          (hint.empty() ? " (values: " + quoted_list(values) + ")" : " (did you mean '" + hint + "'?)"));
    }
  }

  std::vector<std::string> ids;
  for (const auto& t : ws.transcripts) ids.push_back(t.participant);
  for (const auto& p : q.participants)
    if (std::find(ids.begin(), ids.end(), p) == ids.end()) {
      auto hint = text::closest(p, ids);
      add("--participant: no participant '" + p + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }

  std::vector<std::string> questions;
  for (const auto& part : ws.guideline.parts) questions.push_back(part.id);
  for (const auto& question : ws.guideline.questions) questions.push_back(question.id);
  for (const auto& qid : q.questions)
    if (std::find(questions.begin(), questions.end(), qid) == questions.end()) {
      auto hint = text::closest(qid, questions);
      add("--question: the guideline has no question or part '" + qid + "'" + (hint.empty() ? "" : " (did you mean '" + hint + "'?)"));
    }

  std::vector<std::string> coders;  // every coder of a code in the transcripts and .codes files
  auto note = [&](const std::vector<Coding>& codes) {
    for (const auto& c : codes)
      if (std::find(coders.begin(), coders.end(), c.coder) == coders.end()) coders.push_back(c.coder);
  };
  if (!q.coders.empty())
    for (const auto& t : ws.transcripts)
      for (const auto& turn : t.turns) {
        note(turn.codes);
        for (const auto& span : turn.spans) note(span.codes);
      }
  std::sort(coders.begin(), coders.end());
  for (const auto& c : q.coders) {
    auto folded = text::fold_case(c);
    if (std::none_of(coders.begin(), coders.end(), [&](const std::string& k) { return text::fold_case(k) == folded; }))
      add("--coder: no codes by '" + c + "' (coders: " + text::join(coders, ", ") + ")");
  }

  if (q.text) {
    std::string error;
    if (!TextMatcher::make(*q.text, q.fixed, error)) add(error);
  } else if (q.fixed) {
    add("--fixed needs --text PHRASE");
  }
  return problems;
}

QueryResult query_segments(const Study& study, const SegmentQuery& q) {
  if (auto problems = check_query(study, q); !problems.empty()) throw std::invalid_argument(problems.front());
  const Taxonomy& tax = study.taxonomy();
  const CodeFilter codes = *code_filter(*study.version, q);
  std::unique_ptr<TextMatcher> pattern;
  if (q.text) {
    std::string error;
    pattern = TextMatcher::make(*q.text, q.fixed, error);
  }
  std::optional<KeywordMatcher> keywords;
  if (q.suggestions) keywords.emplace(keyword_rules(tax));

  QueryResult out;
  const auto& segments = study.segments;
  std::unordered_set<const CodedSegment*> uncoded;  // the same turns `qualrank suggest` proposes codes for (all questions)
  if (q.uncoded)
    for (const auto* s : suggest::uncoded_turns(segments, nullptr)) uncoded.insert(s);
  // The segments the filters keep, then the text pattern over them on several threads (one matcher per
  // slice: an ICU matcher is not shared), then the listing in segment order.
  std::vector<std::size_t> candidates;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const CodedSegment& s = segments[i];
    if (!context_matches(q, s.participant, s.role, s.attributes, s.question, s.part)) continue;
    if (q.uncoded) {
      if (!uncoded.count(&s)) continue;
    } else if (codes.active() && !codes.matches(tax, s.codes)) {
      continue;
    }
    candidates.push_back(i);
  }
  std::vector<std::vector<TextRange>> ranges(candidates.size());
  std::vector<char> matched(candidates.size(), 1);
  if (pattern) {
    const std::size_t slices = std::min<std::size_t>(worker_threads(), std::max<std::size_t>(1, candidates.size() / 256));
    parallel_for(slices, [&](std::size_t slice) {
      std::string error;
      auto own = slice == 0 ? nullptr : TextMatcher::make(*q.text, q.fixed, error);
      const TextMatcher& m = slice == 0 ? *pattern : *own;
      for (std::size_t k = slice * candidates.size() / slices; k < (slice + 1) * candidates.size() / slices; ++k)
        matched[k] = m.find(segments[candidates[k]].text, ranges[k]);
    });
  }
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    if (!matched[k]) continue;
    const CodedSegment& s = segments[candidates[k]];
    std::vector<std::string> suggested;
    if (keywords && s.whole_turn) suggested = keywords->suggest(s.text);
    // A text search looks at every participant turn, coded or not (a quote is never missed for want of a code).
    if (!q.all && !q.uncoded && !q.text && s.codes.empty() && suggested.empty() && s.suggested.empty()) continue;
    out.segments.push_back(s);
    if (keywords && s.whole_turn) out.segments.back().suggested = std::move(suggested);
    out.highlights.push_back(std::move(ranges[k]));
  }
  if (q.text && !q.all && !q.uncoded) {
    // An uncoded turn found by the text alone is listed only when none of its coded spans is listed already.
    std::set<std::pair<std::string, int>> listed;
    for (const auto& s : out.segments)
      if (!s.codes.empty()) listed.insert({s.source.file, s.turn});
    QueryResult kept;
    for (std::size_t k = 0; k < out.segments.size(); ++k) {
      const auto& s = out.segments[k];
      if (s.codes.empty() && s.suggested.empty() && listed.count({s.source.file, s.turn})) continue;
      kept.segments.push_back(std::move(out.segments[k]));
      kept.highlights.push_back(std::move(out.highlights[k]));
    }
    out.segments = std::move(kept.segments);
    out.highlights = std::move(kept.highlights);
  }
  return out;
}

QueryMatrix query_matrix(const Study& study, const std::vector<CodedSegment>& segments, const std::string& by) {
  const Workspace& ws = study.workspace;
  const Taxonomy& tax = study.taxonomy();
  QueryMatrix m;
  m.by = by;
  m.groups = ws.attribute_levels(by);
  bool unset = false;
  for (const auto& t : ws.transcripts) {
    const std::string* v = nullptr;
    if (by == "role") v = &t.role;
    else if (auto it = t.attributes.find(by); it != t.attributes.end()) v = &it->second;
    if (!v || v->empty()) unset = true;
  }
  if (unset) m.groups.push_back("");
  m.group_sizes.assign(m.groups.size(), 0);
  for (const auto& t : ws.transcripts) {
    std::string v = by == "role" ? t.role : (t.attributes.count(by) ? t.attributes.at(by) : "");
    auto g = std::find(m.groups.begin(), m.groups.end(), v);
    if (g != m.groups.end()) ++m.group_sizes[static_cast<std::size_t>(g - m.groups.begin())];
  }

  // One accumulator per node applied; a participant counts once per row, in the group of their value.
  struct Row {
    QueryMatrixRow row;
    std::vector<bool> seen;  // by participant index
  };
  std::unordered_map<std::string, std::size_t> participant_index;
  std::unordered_map<std::string, std::size_t> row_index;
  std::vector<Row> rows;
  Row total{m.total, {}};
  total.row.cells.assign(m.groups.size(), {});
  auto count = [&](Row& r, std::size_t person, std::ptrdiff_t g) {
    if (r.seen.size() <= person) r.seen.resize(participant_index.size(), false);
    bool first = !r.seen[person];
    r.seen[person] = true;
    ++r.row.all.segments;
    r.row.all.participants += first;
    if (g < 0) return;
    auto& cell = r.row.cells[static_cast<std::size_t>(g)];
    ++cell.segments;
    cell.participants += first;
  };
  std::vector<std::size_t> here;
  // A participant's segments come one after another: the last one's group and index are kept, so a segment
  // of the same participant in the same group looks up nothing.
  const std::string* last_participant = nullptr;
  const std::string* last_value = nullptr;
  std::ptrdiff_t g = -1;
  std::size_t person = 0;
  for (const auto& s : segments) {
    const std::string& value = attribute_of(s, by);
    if (!last_value || value != *last_value) {
      auto it = std::find(m.groups.begin(), m.groups.end(), value);
      g = it == m.groups.end() ? -1 : it - m.groups.begin();
      last_value = &value;
    }
    if (!last_participant || s.participant != *last_participant) {
      person = participant_index.try_emplace(s.participant, participant_index.size()).first->second;
      last_participant = &s.participant.str();
    }
    count(total, person, g);
    here.clear();
    for (const auto& c : s.codes) {
      auto [r, fresh] = row_index.try_emplace(c.node, rows.size());
      if (fresh) {
        rows.push_back({});
        rows.back().row.node = c.node;
        rows.back().row.cells.assign(m.groups.size(), {});
      }
      here.push_back(r->second);
    }
    std::sort(here.begin(), here.end());
    here.erase(std::unique(here.begin(), here.end()), here.end());
    for (auto r : here) count(rows[r], person, g);
  }
  m.total = std::move(total.row);
  for (auto& r : rows) m.rows.push_back(std::move(r.row));
  std::sort(m.rows.begin(), m.rows.end(), [&](const QueryMatrixRow& a, const QueryMatrixRow& b) {
    auto ra = tax.rank_of(a.node), rb = tax.rank_of(b.node);
    return ra != rb ? ra < rb : text::natural_less(a.node, b.node);
  });
  return m;
}

std::map<std::string, std::vector<ExemplarQuote>> exemplar_quotes(const std::vector<CodedSegment>& segments, std::size_t per_node) {
  std::map<std::string, std::vector<ExemplarQuote>> out;
  for (const auto& s : segments)
    for (const auto& c : s.codes) {
      if (!c.exemplar) continue;
      auto& list = out[c.node];
      if (list.size() >= per_node ||
          std::any_of(list.begin(), list.end(), [&](const ExemplarQuote& e) { return e.segment == s.id; }))
        continue;
      list.push_back({s.text, s.participant, s.role, s.id, s.source, s.source.file + ":" + std::to_string(s.source.line)});
    }
  return out;
}

}  // namespace qualrank
