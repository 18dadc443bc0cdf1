// Features of the code suggester: words, word n-grams and character n-grams, their vocabulary, and TF-IDF.
//
// A text is case folded once (text::fold_case), then cut into words by a simple Unicode rule (runs of letters,
// marks and digits; an ideographic, Hiragana or Katakana character is a word alone). Word n-grams are runs of
// consecutive words; character n-grams are taken within each word padded with one space either side, as
// scikit-learn's analyzer='char_wb'. No feature string is ever built in the hot path: each feature is named by
// the FNV-1a 64-bit hash of its spelling, computed over the folded bytes in place, and interned to a dense id.
// Weights follow scikit-learn's TfidfTransformer(sublinear_tf=True, smooth_idf=True) with the l2 norm applied
// to the word block and to the character block separately (as a FeatureUnion of the two vectorizers), the
// whole then divided by sqrt(2) so that it has norm 1.
#include <unicode/uchar.h>
#include <unicode/uscript.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <cmath>
#include <stdexcept>

#include "qualrank/analysis/suggest/suggest.h"
#include "qualrank/util/text.h"

namespace qualrank::suggest {

std::uint64_t detail::fnv(std::uint64_t h, std::string_view bytes) {
  for (unsigned char b : bytes) {
    h ^= b;
    h *= 1099511628211ull;  // FNV-1a's 64-bit prime
  }
  return h;
}

std::uint64_t detail::mix(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

namespace {

using detail::fnv;
using detail::kFnvOffset;
using detail::mix;

const std::uint64_t kWordSeed = fnv(kFnvOffset, "w:");
const std::uint64_t kCharSeed = fnv(kFnvOffset, "c:");

enum class CharClass { separator, word, alone };

CharClass classify(UChar32 c) {
  if (c < 0x80) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    return alnum ? CharClass::word : CharClass::separator;
  }
  if (c < 0) return CharClass::separator;
  if (!(U_GET_GC_MASK(c) & (U_GC_L_MASK | U_GC_M_MASK | U_GC_N_MASK))) return CharClass::separator;
  if (u_hasBinaryProperty(c, UCHAR_IDEOGRAPHIC)) return CharClass::alone;
  UErrorCode status = U_ZERO_ERROR;
  const UScriptCode script = uscript_getScript(c, &status);
  if (U_SUCCESS(status) && (script == USCRIPT_HIRAGANA || script == USCRIPT_KATAKANA)) return CharClass::alone;
  return CharClass::word;
}

// Byte ranges [begin, end) of the words of an already folded text.
void word_ranges(std::string_view folded, std::vector<std::pair<std::size_t, std::size_t>>& out) {
  out.clear();
  const auto* p = reinterpret_cast<const std::uint8_t*>(folded.data());
  const auto n = static_cast<std::int32_t>(folded.size());
  std::int32_t i = 0;
  std::size_t start = 0;
  bool in_word = false;
  while (i < n) {
    const std::int32_t at = i;
    UChar32 c;
    if (p[i] < 0x80) c = p[i++];
    else U8_NEXT(p, i, n, c);
    const CharClass cls = classify(c);
    if (cls != CharClass::word && in_word) {
      out.emplace_back(start, static_cast<std::size_t>(at));
      in_word = false;
    }
    if (cls == CharClass::alone) out.emplace_back(static_cast<std::size_t>(at), static_cast<std::size_t>(i));
    else if (cls == CharClass::word && !in_word) {
      start = static_cast<std::size_t>(at);
      in_word = true;
    }
  }
  if (in_word) out.emplace_back(start, folded.size());
}

// Byte offsets of the code points of `s`, plus s.size() at the end.
void code_point_offsets(std::string_view s, std::vector<std::size_t>& out) {
  out.clear();
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
  out.push_back(s.size());
}

void check_char_range(int min_n, int max_n) {
  if (min_n < 1 || max_n < min_n) throw std::invalid_argument("character n-grams need 1 <= min_n <= max_n");
}

TermCounts run_lengths(std::vector<std::uint32_t>& ids) {
  std::sort(ids.begin(), ids.end());
  TermCounts out;
  // Exactly as many as there are distinct ids: a study's every coded segment is held as its counts while the
  // classifier trains, and vectors grown by doubling held up to twice that (issue #37: annotate's memory).
  const auto distinct = static_cast<std::size_t>(ids.empty() ? 0 : 1 + std::inner_product(ids.begin() + 1, ids.end(), ids.begin(), std::size_t{0}, std::plus<>(),
                                                                                           [](std::uint32_t a, std::uint32_t b) { return std::size_t{a != b}; }));
  out.ids.reserve(distinct);
  out.counts.reserve(distinct);
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i + 1;
    while (j < ids.size() && ids[j] == ids[i]) ++j;
    out.ids.push_back(ids[i]);
    out.counts.push_back(static_cast<float>(j - i));
    i = j;
  }
  return out;
}

}  // namespace

std::vector<std::string> words(std::string_view text) {
  const std::string folded = text::fold_case(text);
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  word_ranges(folded, ranges);
  std::vector<std::string> out;
  out.reserve(ranges.size());
  for (auto [b, e] : ranges) out.push_back(folded.substr(b, e - b));
  return out;
}

std::vector<std::string> char_ngrams(std::string_view word, int min_n, int max_n) {
  check_char_range(min_n, max_n);
  const std::string padded = " " + std::string(word) + " ";
  std::vector<std::size_t> off;
  code_point_offsets(padded, off);
  const std::size_t cps = off.size() - 1;
  std::vector<std::string> out;
  for (std::size_t n = static_cast<std::size_t>(min_n); n <= static_cast<std::size_t>(max_n) && n <= cps; ++n)
    for (std::size_t s = 0; s + n <= cps; ++s) out.push_back(padded.substr(off[s], off[s + n] - off[s]));
  return out;
}

Vocabulary::Vocabulary(FeatureOptions options) : options_(options) {
  if (options_.char_max > 0) check_char_range(options_.char_min, options_.char_max);
  keys_.assign(1024, 0);
  slots_.assign(1024, 0);
}

// Calls on_feature(hash, kind) for every feature occurrence of `text`.
template <class OnFeature>
void Vocabulary::scan(std::string_view text, OnFeature&& on_feature) const {
  const std::string folded = text::fold_case(text);
  const std::string_view f = folded;
  thread_local std::vector<std::pair<std::size_t, std::size_t>> ranges;
  thread_local std::vector<std::size_t> off;
  thread_local std::string padded;
  word_ranges(f, ranges);
  const auto n_words = ranges.size();
  const auto max_words = static_cast<std::size_t>(std::max(options_.word_ngrams, 0));
  for (std::size_t k = 0; k < n_words; ++k) {
    std::uint64_t h = kWordSeed;
    for (std::size_t m = 0; m < max_words && k + m < n_words; ++m) {
      if (m > 0) h = fnv(h, " ");
      const auto [b, e] = ranges[k + m];
      h = fnv(h, f.substr(b, e - b));
      on_feature(h, FeatureKind::word);
    }
  }
  if (options_.char_max <= 0) return;
  const auto min_n = static_cast<std::size_t>(options_.char_min), max_n = static_cast<std::size_t>(options_.char_max);
  for (const auto& [b, e] : ranges) {
    padded.assign(1, ' ');
    padded.append(f.substr(b, e - b));
    padded.push_back(' ');
    code_point_offsets(padded, off);
    const std::size_t cps = off.size() - 1;
    for (std::size_t n = min_n; n <= max_n && n <= cps; ++n)
      for (std::size_t s = 0; s + n <= cps; ++s)
        on_feature(fnv(kCharSeed, std::string_view(padded).substr(off[s], off[s + n] - off[s])), FeatureKind::character);
  }
}

std::optional<std::uint32_t> Vocabulary::lookup(std::uint64_t hash) const {
  if (hash == 0) hash = 1;
  const std::size_t mask = keys_.size() - 1;
  for (std::size_t i = mix(hash) & mask;; i = (i + 1) & mask) {
    if (keys_[i] == hash) return slots_[i];
    if (keys_[i] == 0) return std::nullopt;
  }
}

std::uint32_t Vocabulary::intern(std::uint64_t hash, FeatureKind kind) {
  if (hash == 0) hash = 1;
  std::size_t mask = keys_.size() - 1;
  std::size_t i = mix(hash) & mask;
  for (; keys_[i] != 0; i = (i + 1) & mask)
    if (keys_[i] == hash) return slots_[i];
  const auto id = static_cast<std::uint32_t>(kinds_.size());
  keys_[i] = hash;
  slots_[i] = id;
  kinds_.push_back(kind);
  if (kinds_.size() * 2 > keys_.size()) {
    std::vector<std::uint64_t> keys(keys_.size() * 2, 0);
    std::vector<std::uint32_t> slots(keys.size(), 0);
    mask = keys.size() - 1;
    for (std::size_t k = 0; k < keys_.size(); ++k) {
      if (keys_[k] == 0) continue;
      std::size_t j = mix(keys_[k]) & mask;
      while (keys[j] != 0) j = (j + 1) & mask;
      keys[j] = keys_[k];
      slots[j] = slots_[k];
    }
    keys_.swap(keys);
    slots_.swap(slots);
  }
  return id;
}

TermCounts Vocabulary::add(std::string_view text) {
  std::vector<std::uint32_t> ids;
  scan(text, [&](std::uint64_t h, FeatureKind kind) { ids.push_back(intern(h, kind)); });
  return run_lengths(ids);
}

TermCounts Vocabulary::count(std::string_view text) const {
  std::vector<std::uint32_t> ids;
  scan(text, [&](std::uint64_t h, FeatureKind) {
    if (auto id = lookup(h)) ids.push_back(*id);
  });
  return run_lengths(ids);
}

std::optional<std::uint32_t> Vocabulary::find(std::string_view spelling) const { return lookup(fnv(kFnvOffset, spelling)); }

IdfTable fit_idf(const std::vector<const TermCounts*>& docs, std::size_t vocabulary_size, int min_df) {
  std::vector<std::uint32_t> df(vocabulary_size, 0);
  for (const auto* d : docs)
    for (auto id : d->ids) {
      if (id >= vocabulary_size) throw std::invalid_argument("fit_idf: feature id outside the vocabulary");
      ++df[id];
    }
  IdfTable out;
  out.idf.assign(vocabulary_size, 0.0f);
  out.column.assign(vocabulary_size, -1);
  const double n = static_cast<double>(docs.size());
  const auto min = static_cast<std::uint32_t>(std::max(min_df, 1));
  for (std::size_t id = 0; id < vocabulary_size; ++id) {
    if (df[id] < min) continue;
    out.idf[id] = static_cast<float>(std::log((1.0 + n) / (1.0 + df[id])) + 1.0);
    out.column[id] = static_cast<std::int32_t>(out.columns++);
  }
  return out;
}

SparseVector tfidf(const TermCounts& counts, const IdfTable& idf, const Vocabulary& vocabulary) {
  // 1 + ln k for the small counts that make up nearly every feature occurrence.
  static const auto sublinear = [] {
    std::vector<double> t(64, 0.0);
    for (std::size_t k = 1; k < t.size(); ++k) t[k] = 1.0 + std::log(static_cast<double>(k));
    return t;
  }();
  SparseVector out;
  out.index.reserve(counts.ids.size());
  out.value.reserve(counts.ids.size());
  thread_local std::vector<double> weight;
  weight.clear();
  double sum[2] = {0, 0};
  for (std::size_t i = 0; i < counts.ids.size(); ++i) {
    const auto id = counts.ids[i];
    if (id >= idf.column.size() || idf.column[id] < 0) continue;
    const auto k = static_cast<std::size_t>(counts.counts[i]);
    const double w = (k < sublinear.size() ? sublinear[k] : 1.0 + std::log(static_cast<double>(counts.counts[i]))) * idf.idf[id];
    sum[vocabulary.kind(id) == FeatureKind::character] += w * w;
    out.index.push_back(static_cast<std::uint32_t>(idf.column[id]));
    weight.push_back(w);
  }
  const double both = (sum[0] > 0 && sum[1] > 0) ? 1.0 / std::sqrt(2.0) : 1.0;
  const double scale[2] = {sum[0] > 0 ? both / std::sqrt(sum[0]) : 0.0, sum[1] > 0 ? both / std::sqrt(sum[1]) : 0.0};
  for (std::size_t i = 0, j = 0; i < counts.ids.size(); ++i) {
    const auto id = counts.ids[i];
    if (id >= idf.column.size() || idf.column[id] < 0) continue;
    out.value.push_back(static_cast<float>(weight[j++] * scale[vocabulary.kind(id) == FeatureKind::character]));
  }
  return out;
}

}  // namespace qualrank::suggest
