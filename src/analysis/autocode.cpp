// Keyword auto-coding with an Aho-Corasick automaton (Aho & Corasick 1975, "Efficient string matching").
// Keywords are case-folded (ICU simple case folding) and inserted as UTF-8 bytes; the goto/failure functions
// are compiled into a full DFA over a compressed byte alphabet (bytes that occur in no keyword share one
// class), so scanning costs one table lookup per byte of folded text. The text is folded on the fly: ASCII
// through a 256-entry table, other code points through u_foldCase. A match counts only at word boundaries,
// checked on the original text around the occurrence (a neighbouring letter or digit continues the word, except
// one of a script written without spaces: is_word_char), for the rules that ask for whole words. Case-sensitive rules are matched folded and then compared byte for byte with the
// original text. With MatcherOptions::collapse_whitespace a run of ASCII whitespace is fed to the automaton as
// one space (and keywords' runs are collapsed the same way), so a phrase matches across line breaks.
#include "qualrank/analysis/autocode.h"

#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <array>
#include <deque>
#include <cctype>
#include <map>

#include "qualrank/model/taxonomy.h"
#include "qualrank/util/swar.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

// A letter of a script written without spaces between words: Han, Hiragana and Katakana (Unicode's word
// boundaries, UAX #29, break between them and Latin letters or digits), and Hangul, Thai, Lao, Khmer and
// Myanmar, where a particle or the next word follows a term directly ("支持LLM推理", "LLM을", "LLMを").
bool unspaced_letter(UChar32 c) {
  if (c < 0x0E00) return false;  // (below Thai: no such script)
  UErrorCode e = U_ZERO_ERROR;
  switch (uscript_getScript(c, &e)) {
    case USCRIPT_HAN: case USCRIPT_HIRAGANA: case USCRIPT_KATAKANA: case USCRIPT_HANGUL:
    case USCRIPT_THAI: case USCRIPT_LAO: case USCRIPT_KHMER: case USCRIPT_MYANMAR:
      return true;
    default:
      return false;
  }
}

// Whether a neighbouring character continues a word, so that a whole-word term next to it is no match: a letter,
// digit or '_', except the letters of unspaced scripts. A term whose own edge is such a letter ("推理") is not
// bounded by its neighbours at that edge at all: no spaces mark its words.
bool is_word_char(UChar32 c) { return c >= 0 && (u_isalnum(c) || c == '_') && !unspaced_letter(c); }

// The first and the last code point of a UTF-8 text (-1 when empty).
std::pair<UChar32, UChar32> edges(std::string_view s) {
  if (s.empty()) return {-1, -1};
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const auto n = static_cast<int32_t>(s.size());
  int32_t i = 0, j = n;
  UChar32 first, last;
  U8_NEXT(p, i, n, first);
  U8_PREV(p, 0, j, last);
  return {first, last};
}

// Code point ending just before byte offset `pos` (or -1 at the start).
UChar32 prev_code_point(std::string_view s, std::size_t pos) {
  if (pos == 0) return -1;
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t i = static_cast<int32_t>(pos);
  UChar32 c;
  U8_PREV(p, 0, i, c);
  return c;
}

UChar32 next_code_point(std::string_view s, std::size_t pos) {
  if (pos >= s.size()) return -1;
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  int32_t i = static_cast<int32_t>(pos);
  UChar32 c;
  U8_NEXT(p, i, static_cast<int32_t>(s.size()), c);
  return c;
}

struct AsciiFold {
  std::array<uint8_t, 128> t{};
  AsciiFold() {
    for (int i = 0; i < 128; ++i) t[static_cast<std::size_t>(i)] = static_cast<uint8_t>(i >= 'A' && i <= 'Z' ? i + 32 : i);
  }
};
const AsciiFold kFold;

struct AsciiWord {
  std::array<uint8_t, 128> t{};
  AsciiWord() {
    for (int i = 0; i < 128; ++i)
      t[static_cast<std::size_t>(i)] = static_cast<uint8_t>(std::isalnum(i) || i == '_');
  }
};
const AsciiWord kWord;

// scan_nfc maps a match back to the text through a ring of the last kRing folded bytes' origins (a longer
// keyword's match is said to start at 0); scan_ascii does the same.
constexpr std::size_t kRing = 256;
// scan_ascii's parts scanned at once: 4 in a text of kStreams4 bytes or more, 2 from kStreams2.
constexpr std::size_t kStreams4 = 2048, kStreams2 = 512;

bool is_ascii(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
  std::size_t i = 0;
  std::uint64_t acc = 0;
  for (; i + 32 <= n; i += 32)
    acc |= swar::load(p + i) | swar::load(p + i + 8) | swar::load(p + i + 16) | swar::load(p + i + 24);
  for (; i + 8 <= n; i += 8) acc |= swar::load(p + i);
  for (; i < n; ++i) acc |= static_cast<unsigned char>(p[i]);
  return swar::high_byte(acc) == 0;
}

bool is_ascii_space(uint8_t b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'; }

std::string collapse_spaces(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (is_ascii_space(static_cast<uint8_t>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// Whether text[begin, end) spells `exact`, a space in `exact` standing for a whitespace run when `collapse`.
bool spelled_exactly(std::string_view text, std::size_t begin, std::size_t end, std::string_view exact, bool collapse) {
  std::size_t i = begin, j = 0;
  while (i < end && j < exact.size()) {
    if (collapse && exact[j] == ' ') {
      if (!is_ascii_space(static_cast<uint8_t>(text[i]))) return false;
      while (i < end && is_ascii_space(static_cast<uint8_t>(text[i]))) ++i;
      ++j;
      continue;
    }
    if (text[i] != exact[j]) return false;
    ++i;
    ++j;
  }
  return i == end && j == exact.size();
}

}  // namespace

KeywordMatcher::KeywordMatcher(const std::vector<KeywordRule>& rules, MatcherOptions options)
    : rules_(rules), cls_(256, 0), collapse_(options.collapse_whitespace) {
  std::vector<std::string> folded;
  folded.reserve(rules.size());
  for (const auto& r : rules) {
    // In NFC, as the text is scanned: a keyword typed decomposed ("cafe" + U+0301) is "café".
    const std::string nfc = text::nfc_with_origin(text::trim(r.keyword)).text;
    exact_.push_back(collapse_ ? collapse_spaces(nfc) : nfc);
    folded.push_back(text::fold_case(exact_.back()));
    const auto [first, last] = edges(exact_.back());
    const bool open_start = unspaced_letter(first), open_end = unspaced_letter(last);  // (bits 4, 8)
    rule_flags_.push_back(static_cast<uint8_t>((r.whole_word ? 1 : 0) | (r.case_sensitive ? 2 : 0) | (open_start ? 4 : 0) |
                                               (open_end ? 8 : 0)));
    if (!r.whole_word || open_end) any_partial_ = true;  // (a word after the match does not end every rule)
  }
  build(folded);
}

KeywordMatcher::KeywordMatcher(const std::vector<std::string>& keys, Verbatim) : cls_(256, 0) {
  rules_.reserve(keys.size());
  for (const auto& k : keys) {
    rules_.push_back({k, ""});
    exact_.push_back(k);
    rule_flags_.push_back(1);  // whole word, case as folded by the caller
  }
  build(keys);
}

void KeywordMatcher::build(const std::vector<std::string>& folded) {
  // Alphabet classes: 0 = bytes in no keyword.
  for (const auto& k : folded)
    for (unsigned char c : k)
      if (cls_[c] == 0) cls_[c] = static_cast<uint8_t>(classes_++);
  if (classes_ > 255) classes_ = 255;  // cannot happen with 256 byte values minus class 0
  // Trie.
  std::vector<std::vector<int32_t>> go(1, std::vector<int32_t>(classes_, -1));
  std::vector<std::vector<int32_t>> outputs(1);
  std::vector<uint8_t> label(1, 0);  // per state: the class of the byte that leads to it in the trie
  for (std::size_t r = 0; r < folded.size(); ++r) {
    if (folded[r].empty()) continue;
    int32_t s = 0;
    for (unsigned char c : folded[r]) {
      auto& next = go[static_cast<std::size_t>(s)][cls_[c]];
      if (next < 0) {
        next = static_cast<int32_t>(go.size());
        go.emplace_back(classes_, -1);
        outputs.emplace_back();
        label.push_back(cls_[c]);
      }
      s = go[static_cast<std::size_t>(s)][cls_[c]];
    }
    outputs[static_cast<std::size_t>(s)].push_back(static_cast<int32_t>(r));
  }
  rule_len_.resize(folded.size());
  for (std::size_t r = 0; r < folded.size(); ++r) {
    rule_len_[r] = static_cast<uint16_t>(folded[r].size());
    max_len_ = std::max<std::size_t>(max_len_, rule_len_[r]);
  }
  // BFS for failure links; fill the DFA.
  std::size_t n = go.size();
  std::vector<int32_t> fail(n, 0);
  delta_.assign(n * classes_, 0);
  std::deque<int32_t> queue;
  for (std::size_t c = 0; c < classes_; ++c) {
    int32_t t = go[0][c];
    if (t > 0) {
      fail[static_cast<std::size_t>(t)] = 0;
      delta_[c] = t;
      queue.push_back(t);
    } else {
      delta_[c] = 0;
    }
  }
  std::vector<int32_t> dict(n, -1);  // nearest suffix state with output
  std::vector<int32_t> bfs;
  while (!queue.empty()) {
    int32_t s = queue.front();
    queue.pop_front();
    bfs.push_back(s);
    int32_t f = fail[static_cast<std::size_t>(s)];
    dict[static_cast<std::size_t>(s)] = outputs[static_cast<std::size_t>(f)].empty() ? dict[static_cast<std::size_t>(f)] : f;
    for (std::size_t c = 0; c < classes_; ++c) {
      int32_t t = go[static_cast<std::size_t>(s)][c];
      if (t > 0) {
        fail[static_cast<std::size_t>(t)] = delta_[static_cast<std::size_t>(f) * classes_ + c];
        delta_[static_cast<std::size_t>(s) * classes_ + c] = t;
        queue.push_back(t);
      } else {
        delta_[static_cast<std::size_t>(s) * classes_ + c] = delta_[static_cast<std::size_t>(f) * classes_ + c];
      }
    }
  }
  // Output lists: each state's own rules, then its dictionary suffix chain.
  out_first_.assign(n, -1);
  std::vector<int32_t> chain_head(n, -1);
  // Build in BFS order so suffix states (shallower) are done first.
  std::vector<int32_t> order{0};
  order.insert(order.end(), bfs.begin(), bfs.end());
  for (int32_t s : order) {
    auto su = static_cast<std::size_t>(s);
    int32_t tail = dict[su] >= 0 ? out_first_[static_cast<std::size_t>(dict[su])] : -1;
    int32_t head = tail;
    for (auto it = outputs[su].rbegin(); it != outputs[su].rend(); ++it) {
      out_rule_.push_back(*it);
      out_next_.push_back(head);
      head = static_cast<int32_t>(out_rule_.size()) - 1;
    }
    out_first_[su] = head;
  }
  // The scan's tables: transitions to premultiplied state offsets with an output flag in the low bit (one
  // lookup per byte, no multiply, no second lookup for outputs), and ASCII bytes to their folded byte's class.
  trans_.resize(delta_.size());
  for (std::size_t k = 0; k < delta_.size(); ++k) {
    const auto t = static_cast<std::size_t>(delta_[k]);
    trans_[k] = static_cast<int32_t>(((t * classes_) << 1) | (out_first_[t] >= 0 ? 1u : 0u));
  }
  // A state the trie reaches by a space is where a whitespace run's first byte leads: scan_nfc skips the
  // rest of the run, scan_ascii stays there (no keyword ends in a space: the state has no outputs).
  ascii_trans_ = trans_;
  if (collapse_ && cls_[' '] != 0)
    for (std::size_t t = 1; t < n; ++t)
      if (label[t] == cls_[' '])
        ascii_trans_[t * classes_ + cls_[' ']] = static_cast<int32_t>(((t * classes_) << 1) | (out_first_[t] >= 0 ? 1u : 0u));
  for (std::size_t b = 0; b < 128; ++b) {
    const bool space = collapse_ && is_ascii_space(static_cast<uint8_t>(b));
    ascii_cls_[b] = cls_[space ? ' ' : kFold.t[b]];
    ascii_space_[b] = space ? 1 : 0;
  }
}

std::size_t KeywordMatcher::scan_impl(std::string_view s, void (*cb)(void*, int32_t, std::size_t, std::size_t),
                                      void* ctx, std::size_t limit) const {
  if (limit == 0 && is_ascii(s)) return scan_ascii(s, cb, ctx);
  // Most text is in NFC already (all ASCII text is) and is scanned as it is; other text is normalised once.
  if (text::is_nfc(s)) return scan_nfc(s, cb, ctx, limit, nullptr);
  const text::NfcText n = text::nfc_with_origin(s);
  return scan_nfc(n.text, cb, ctx, limit, &n.origin);
}

std::size_t KeywordMatcher::scan_nfc(std::string_view s, void (*cb)(void*, int32_t, std::size_t, std::size_t),
                                     void* ctx, std::size_t limit, const std::vector<std::size_t>* origin) const {
  std::size_t matches = 0;
  std::size_t st = 0;  // the state times classes_
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const std::size_t n = s.size();
  const int32_t* trans = trans_.data();
  // Map from folded-byte positions back to original text: folded output of a code point ends at the
  // code point's end in the original, and keywords start at code-point boundaries. We record, for the
  // bytes fed since the last boundary, the original start offset via a small ring of recent boundaries.
  // Not initialised (2 KB per call): an entry is read only after a match of as many bytes wrote it.
  std::array<std::size_t, kRing> orig_at;     // folded offset (mod ring) -> original offset of that byte's code point
  std::size_t folded_pos = 0;
  std::size_t i = 0;
  // Every output of the state reached ends at cp_end: one check of the following character rejects all the
  // whole-word ones (ASCII through a table; ICU only for non-ASCII neighbours).
  auto outputs = [&](std::size_t cp_end) {
    const auto state = st / classes_;
    bool word_follows = false;
    if (cp_end < n) {
      uint8_t next = p[cp_end];
      word_follows = next < 0x80 ? kWord.t[next] != 0 : is_word_char(next_code_point(s, cp_end));
      if (word_follows && !any_partial_) return;
    }
    for (int32_t o = out_first_[state]; o >= 0; o = out_next_[static_cast<std::size_t>(o)]) {
      int32_t rule = out_rule_[static_cast<std::size_t>(o)];
      const uint8_t flags = rule_flags_[static_cast<std::size_t>(rule)];
      std::size_t len = rule_len_[static_cast<std::size_t>(rule)];
      std::size_t start = len <= kRing ? orig_at[(folded_pos - len) % kRing] : 0;
      if (flags & 1) {
        if (word_follows && !(flags & 8)) continue;
        if (start > 0 && !(flags & 4)) {
          uint8_t prev = p[start - 1];
          if (prev < 0x80 ? kWord.t[prev] != 0 : is_word_char(prev_code_point(s, start))) continue;
        }
      }
      if ((flags & 2) && !spelled_exactly(s, start, cp_end, exact_[static_cast<std::size_t>(rule)], collapse_)) continue;
      if (origin) {  // whole characters of the original text only (not "cafe" before its U+0301), in its bytes
        const auto& at = *origin;
        if (!text::whole_characters(at, start, cp_end)) continue;
        ++matches;
        cb(ctx, rule, at[start], at[cp_end]);
        continue;
      }
      ++matches;
      cb(ctx, rule, start, cp_end);
    }
  };
  auto feed = [&](uint8_t b, std::size_t cp_start, std::size_t cp_end) {
    orig_at[folded_pos % kRing] = cp_start;
    ++folded_pos;
    const int32_t v = trans[st + cls_[b]];
    st = static_cast<std::size_t>(v >> 1);
    if (v & 1) outputs(cp_end);
  };
  bool in_space = false;  // collapse_: the last byte fed was a whitespace run's space
  if (limit == 0) limit = static_cast<std::size_t>(-1);
  while (i < n && matches < limit) {
    uint8_t b = p[i];
    if (b < 0x80) {
      if (ascii_space_[b]) {
        if (in_space) {
          ++i;
          continue;
        }
        in_space = true;
      } else {
        in_space = false;
      }
      orig_at[folded_pos % kRing] = i;
      ++folded_pos;
      const int32_t v = trans[st + ascii_cls_[b]];
      st = static_cast<std::size_t>(v >> 1);
      ++i;
      if (v & 1) outputs(i);
      continue;
    }
    in_space = false;
    std::size_t start = i;
    int32_t j = static_cast<int32_t>(i);
    UChar32 c;
    U8_NEXT(p, j, static_cast<int32_t>(n), c);
    i = static_cast<std::size_t>(j);
    if (c < 0) {
      for (std::size_t k = start; k < i; ++k) feed(p[k], start, i);
      continue;
    }
    char buf[4];
    const std::size_t len = text::fold_code_point(c, buf);
    for (std::size_t k = 0; k < len; ++k) feed(static_cast<uint8_t>(buf[k]), start, i);
  }
  return matches;
}

// An ASCII text is its own NFC and folds byte for byte, so the automaton runs on its bytes with no bookkeeping:
// a whitespace run is one space by the table itself (ascii_trans_), and a match's start is found when it is
// reported, by going back over its folded bytes (a whitespace run counting one). The scan is a chain of
// dependent table lookups, so a long text is scanned as two or four parts at once (one lookup's wait hides
// the others'): a later part's automaton starts max_len_ folded bytes before the part (where it is in the
// state the part before reaches there: a state is the longest suffix of the folded text that begins a
// keyword) and reports only matches ending inside its part, kept and passed on after the parts before. The
// occurrences, their order and offsets are scan_nfc's.
std::size_t KeywordMatcher::scan_ascii(std::string_view s, void (*cb)(void*, int32_t, std::size_t, std::size_t),
                                       void* ctx) const {
  const auto* p = reinterpret_cast<const uint8_t*>(s.data());
  const std::size_t n = s.size();
  const int32_t* trans = ascii_trans_.data();
  const uint8_t* cls = ascii_cls_.data();
  const uint8_t* space = ascii_space_.data();
  // The offset `count` folded bytes before `end` (not before 0).
  auto back = [&](std::size_t end, std::size_t count) {
    std::size_t k = end;
    for (; count > 0 && k > 0; --count)
      if (space[p[k - 1]])
        while (k > 0 && space[p[k - 1]]) --k;
      else
        --k;
    return k;
  };
  std::size_t matches = 0;
  // The outputs of state offset `st` reached by the byte before `end`, as scan_nfc's outputs() checks them.
  auto outputs = [&](std::size_t st, std::size_t end, auto&& emit) {
    const auto state = st / classes_;
    const bool word_follows = end < n && kWord.t[p[end]] != 0;
    if (word_follows && !any_partial_) return;
    for (int32_t o = out_first_[state]; o >= 0; o = out_next_[static_cast<std::size_t>(o)]) {
      const int32_t rule = out_rule_[static_cast<std::size_t>(o)];
      const uint8_t flags = rule_flags_[static_cast<std::size_t>(rule)];
      const std::size_t len = rule_len_[static_cast<std::size_t>(rule)];
      const std::size_t start = len <= kRing ? back(end, len) : 0;
      if (flags & 1) {
        if (word_follows && !(flags & 8)) continue;
        if (start > 0 && !(flags & 4) && kWord.t[p[start - 1]] != 0) continue;
      }
      if ((flags & 2) && !spelled_exactly(s, start, end, exact_[static_cast<std::size_t>(rule)], collapse_)) continue;
      emit(rule, start, end);
    }
  };
  auto now = [&](int32_t rule, std::size_t b, std::size_t e) {
    ++matches;
    cb(ctx, rule, b, e);
  };
  // K streams over K parts of the text, in lockstep; the first reports as it goes, the others keep their
  // matches (in order) for after it.
  auto run = [&](auto streams) {
    constexpr std::size_t K = decltype(streams)::value;
    const std::size_t part = n / K;
    std::array<std::size_t, K> st{}, from{};
    thread_local std::array<std::vector<std::array<std::size_t, 3>>, 8> later;
    for (std::size_t k = 0; k < K; ++k) {
      from[k] = k * part;
      later[k].clear();
      if (k > 0)
        for (std::size_t i = back(from[k], max_len_); i < from[k]; ++i) st[k] = static_cast<std::size_t>(trans[st[k] + cls[p[i]]] >> 1);
    }
    auto report = [&](std::size_t k, std::size_t end) {
      if (k == 0) outputs(st[0], end, now);
      else outputs(st[k], end, [&](int32_t rule, std::size_t b, std::size_t e) { later[k].push_back({static_cast<std::size_t>(rule), b, e}); });
    };
    for (std::size_t j = 0; j < part; ++j) {
      std::array<int32_t, K> v;
      int32_t any = 0;
      for (std::size_t k = 0; k < K; ++k) {
        v[k] = trans[st[k] + cls[p[from[k] + j]]];
        st[k] = static_cast<std::size_t>(v[k] >> 1);
        any |= v[k];
      }
      if (any & 1)
        for (std::size_t k = 0; k < K; ++k)
          if (v[k] & 1) report(k, from[k] + j + 1);
    }
    for (std::size_t i = from[K - 1] + part; i < n; ++i) {  // the last part's rest (n not a multiple of K)
      const int32_t v = trans[st[K - 1] + cls[p[i]]];
      st[K - 1] = static_cast<std::size_t>(v >> 1);
      if (v & 1) report(K - 1, i + 1);
    }
    for (std::size_t k = 1; k < K; ++k)
      for (const auto& m : later[k]) now(static_cast<int32_t>(m[0]), m[1], m[2]);
  };
  if (n >= kStreams4) run(std::integral_constant<std::size_t, 4>{});
  else if (n >= kStreams2) run(std::integral_constant<std::size_t, 2>{});
  else run(std::integral_constant<std::size_t, 1>{});
  return matches;
}

std::vector<std::string> KeywordMatcher::suggest(std::string_view text) const {
  // The rules hit, in a buffer each thread keeps (suggest runs once per turn, on several threads at once).
  thread_local std::vector<int32_t> hit_rules;
  hit_rules.clear();
  scan(text, [&](std::size_t rule) { hit_rules.push_back(static_cast<int32_t>(rule)); });
  std::vector<std::string> out;
  if (hit_rules.empty()) return out;
  std::sort(hit_rules.begin(), hit_rules.end());
  hit_rules.erase(std::unique(hit_rules.begin(), hit_rules.end()), hit_rules.end());
  out.reserve(hit_rules.size());
  for (int32_t r : hit_rules) {
    const auto& node = rules_[static_cast<std::size_t>(r)].node;
    if (std::find(out.begin(), out.end(), node) == out.end()) out.push_back(node);
  }
  return out;
}

std::vector<KeywordRule> keyword_rules(const Taxonomy& taxonomy) {
  std::vector<KeywordRule> rules;
  for (const auto& id : taxonomy.order()) {
    const auto* n = taxonomy.find(id);
    if (n->status != "active") continue;
    for (const auto& k : n->keywords) rules.push_back({k, id});
  }
  return rules;
}

}  // namespace qualrank
