// Auto-coding suggestions: every taxonomy keyword is a rule "this phrase suggests this node".
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace qualrank {

class Taxonomy;

struct KeywordRule {
  std::string keyword;  // plain word or phrase; matched case-insensitively (Unicode simple case folding)
  std::string node;     // the node it suggests
  bool whole_word = true;       // false: also inside a word ("gpt" in "chatgpt")
  bool case_sensitive = false;  // true: the text must spell it exactly as `keyword` ("BERT", not "bert")
};

struct MatcherOptions {
  // A run of ASCII whitespace (space, tab, CR, LF, FF, VT) in the text counts as one space, and so does one in
  // a keyword, so "out of memory" also matches "out of\n  memory".
  bool collapse_whitespace = false;
};

// Multi-pattern matcher (Aho-Corasick automaton over case-folded UTF-8 bytes, with a compressed byte
// alphabet). Keywords and text are compared in Unicode NFC (a decomposed "café" is "café"). A keyword matches only at word boundaries: the characters before and after it must not be
// letters or digits (Unicode-aware), unless its rule says `whole_word = false`. Text is folded on the fly;
// ASCII goes through a table lookup. A case-sensitive rule's occurrences are found folded, then kept only
// when the original text spells the keyword byte for byte (whitespace runs aside, with collapse_whitespace).
class KeywordMatcher {
 public:
  explicit KeywordMatcher(const std::vector<KeywordRule>& rules, MatcherOptions options = {});
  // Keys taken byte for byte as given (the caller folded them its own way: report/package/pseudonymise.cpp), for
  // step() and outputs(); suggest(), matches() and scan() would fold the text, so they are not for this form.
  struct Verbatim {};
  KeywordMatcher(const std::vector<std::string>& keys, Verbatim);
  // The rules' nodes that match in `text`, each node once, in the order of the rules' first appearance
  // among `nodes()`. Empty when nothing matches.
  std::vector<std::string> suggest(std::string_view text) const;
  // Whether suggest(text) would suggest anything (nothing is allocated; the scan stops at the first match).
  bool matches(std::string_view text) const {
    return scan_impl(text, [](void*, int32_t, std::size_t, std::size_t) {}, nullptr, 1) > 0;
  }
  // Calls on_match(rule_index) for each keyword occurrence (no deduplication). Returns the match count.
  template <class F>
  std::size_t scan(std::string_view text, F&& on_match) const;
  std::size_t rule_count() const { return rules_.size(); }
  // The automaton itself, for a caller that feeds it bytes it made: from state 0, step() per byte; outputs()
  // calls f(rule, key length in bytes) for every key that ends with the byte that led to `state`.
  int32_t step(int32_t state, uint8_t byte) const {
    return delta_[static_cast<std::size_t>(state) * classes_ + cls_[byte]];
  }
  template <class F>
  void outputs(int32_t state, F&& f) const {
    for (int32_t o = out_first_[static_cast<std::size_t>(state)]; o >= 0; o = out_next_[static_cast<std::size_t>(o)])
      f(static_cast<std::size_t>(out_rule_[static_cast<std::size_t>(o)]),
        static_cast<std::size_t>(rule_len_[static_cast<std::size_t>(out_rule_[static_cast<std::size_t>(o)])]));
  }

 private:
  std::vector<KeywordRule> rules_;
  std::vector<uint8_t> cls_;             // byte -> alphabet class
  std::size_t classes_ = 1;
  std::vector<int32_t> delta_;           // full DFA: state * classes + class -> state
  std::vector<int32_t> out_first_;       // per state: first output index in out_ (-1 none)
  std::vector<int32_t> out_next_;        // chain through outputs of suffix states
  std::vector<int32_t> out_rule_;
  std::vector<uint16_t> rule_len_;       // folded keyword length in bytes
  std::vector<std::string> exact_;       // per rule: the keyword as written (whitespace collapsed), for case checks
  std::vector<uint8_t> rule_flags_;      // per rule: 1 = whole word, 2 = case-sensitive
  bool collapse_ = false;
  std::vector<int32_t> trans_;           // delta_ for the scan: (next state * classes_) << 1 | has outputs
  std::array<uint8_t, 128> ascii_cls_{}; // ASCII byte -> class of its folded byte (whitespace: of ' ' with collapse_)
  std::array<uint8_t, 128> ascii_space_{};  // ASCII byte -> 1 when collapse_ and it is whitespace
  bool any_partial_ = false;             // some rule is not whole-word, or ends in a letter of an unspaced script
  std::vector<int32_t> ascii_trans_;     // trans_ for scan_ascii: with collapse_, a whitespace byte after a
                                         // space leaves the state as it is (a run is one space)
  std::size_t max_len_ = 0;              // the longest folded keyword, in bytes

  void build(const std::vector<std::string>& folded);
  // scan_impl on a text in NFC; with `origin` (text::NfcText::origin of the text it was made from) an
  // occurrence counts only on whole characters of that text and is reported in its bytes.
  std::size_t scan_nfc(std::string_view text, void (*cb)(void*, int32_t, std::size_t, std::size_t), void* ctx,
                       std::size_t limit, const std::vector<std::size_t>* origin) const;
  // scan_impl without a limit on an ASCII text (in NFC, folded byte for byte): what scan_nfc finds, in its
  // order, found faster (see autocode.cpp).
  std::size_t scan_ascii(std::string_view text, void (*cb)(void*, int32_t, std::size_t, std::size_t), void* ctx) const;

 public:
  // Calls cb(ctx, rule, begin, end) per occurrence (begin/end: byte offsets in the original text). With a
  // `limit`, stops once that many occurrences are found (all of those ending at the same character count).
  // Keywords and text are compared under Unicode NFC: a text not in NFC is normalised once
  // (text::nfc_with_origin) and an occurrence counts only on its whole characters ("cafe" is not found in
  // "cafe" + U+0301, "café" is, and "cafe" + U+0301 finds "café").
  std::size_t scan_impl(std::string_view text, void (*cb)(void*, int32_t, std::size_t, std::size_t), void* ctx,
                        std::size_t limit = 0) const;
};

// The rules of every node's keywords, in taxonomy order.
std::vector<KeywordRule> keyword_rules(const Taxonomy& taxonomy);

// Calls on_match(rule_index, begin, end) for each occurrence, begin/end byte offsets in `text`.
template <class F>
std::size_t scan_spans(const KeywordMatcher& m, std::string_view text, F&& on_match) {
  struct Ctx { F* f; } ctx{&on_match};
  return m.scan_impl(text, [](void* c, int32_t rule, std::size_t b, std::size_t e) { (*static_cast<Ctx*>(c)->f)(static_cast<std::size_t>(rule), b, e); }, &ctx);
}

template <class F>
std::size_t KeywordMatcher::scan(std::string_view text, F&& on_match) const {
  struct Ctx { F* f; } ctx{&on_match};
  return scan_impl(text, [](void* c, int32_t rule, std::size_t, std::size_t) { (*static_cast<Ctx*>(c)->f)(static_cast<std::size_t>(rule)); }, &ctx);
}

}  // namespace qualrank
