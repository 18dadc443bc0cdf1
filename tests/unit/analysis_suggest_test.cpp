// The code suggester: tokenising, TF-IDF (hand-computed values), the logistic regression solver (optimality
// of its solution), and cross-validation on generated corpora: planted code words are learned, shuffled codes
// fall to chance, participant-specific words do not leak through the by-participant split.
#include "catch.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "qualrank/analysis/coding.h"
#include "qualrank/analysis/stats.h"
#include "qualrank/analysis/suggest/suggest.h"
#include "qualrank/model/guideline.h"

using namespace qualrank;
using namespace qualrank::suggest;

namespace {

using Strings = std::vector<std::string>;

std::string random_word(stats::Rng& rng, std::size_t min_len, std::size_t max_len) {
  const std::size_t len = min_len + rng.uniform_index(max_len - min_len + 1);
  std::string w;
  for (std::size_t i = 0; i < len; ++i) w += static_cast<char>('a' + rng.uniform_index(26));
  return w;
}

Strings random_words(stats::Rng& rng, std::size_t n) {
  Strings out;
  while (out.size() < n) out.push_back(random_word(rng, 4, 9));
  return out;
}

// Shuffles the words of a text in place (seeded), so planted words sit anywhere among the noise.
std::string shuffled_text(Strings words, stats::Rng& rng) {
  for (std::size_t i = words.size() - 1; i > 0; --i) std::swap(words[i], words[rng.uniform_index(i + 1)]);
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

// 60 participants x 10 turns; each turn has one code of 6 (a second one in 1 turn of 5), signalled by two of
// the code's 5 planted words among 25 noise words drawn from 400.
std::vector<TrainingSegment> planted_corpus(std::uint64_t seed) {
  stats::Rng rng(seed);
  const Strings noise = random_words(rng, 400);
  std::vector<Strings> signal(6);
  for (auto& s : signal) s = random_words(rng, 5);
  std::vector<TrainingSegment> out;
  for (int p = 0; p < 60; ++p)
    for (int t = 0; t < 10; ++t) {
      std::set<std::size_t> codes = {rng.uniform_index(6)};
      if (rng.uniform_index(5) == 0) codes.insert(rng.uniform_index(6));
      Strings words;
      for (int i = 0; i < 25; ++i) words.push_back(noise[rng.uniform_index(noise.size())]);
      TrainingSegment seg;
      for (auto c : codes) {
        for (int i = 0; i < 2; ++i) words.push_back(signal[c][rng.uniform_index(5)]);
        seg.codes.push_back("K." + std::to_string(c + 1));
      }
      seg.text = shuffled_text(words, rng);
      seg.group = "P" + std::to_string(p);
      out.push_back(std::move(seg));
    }
  return out;
}

EvaluateOptions folds(int k, std::uint64_t seed) {
  EvaluateOptions o;
  o.folds = k;
  o.seed = seed;
  return o;
}

// The micro F1 of random labels with each code's frequency: sum p^2 / sum p.
double chance_f1(const std::vector<TrainingSegment>& segs) {
  std::map<std::string, double> n;
  for (const auto& s : segs)
    for (const auto& c : s.codes) n[c] += 1;
  double sum = 0, sum2 = 0;
  for (const auto& [c, k] : n) {
    const double p = k / static_cast<double>(segs.size());
    sum += p;
    sum2 += p * p;
  }
  return sum2 / sum;
}

}  // namespace

TEST_CASE("analysis::words folds case and splits on anything but letters, marks and digits", "[analysis][suggest]") {
  CHECK(words("CUDA-Version 12.1, don't!") == Strings{"cuda", "version", "12", "1", "don", "t"});
  CHECK(words("Die GRÖßE: Straße") == Strings{"die", "größe", "straße"});  // simple folding keeps ß
  CHECK(words("ΛΌΓΟΣ λόγος") == Strings{"λόγοσ", "λόγοσ"});                  // final sigma folds to σ
  CHECK(words("नमस्ते दुनिया") == Strings{"नमस्ते", "दुनिया"});                   // combining vowel signs stay inside
  CHECK(words("  ...  ").empty());
}

TEST_CASE("analysis::words makes every ideograph, Hiragana or Katakana character a word", "[analysis][suggest]") {
  CHECK(words("数据加载很慢 GPU") == Strings{"数", "据", "加", "载", "很", "慢", "gpu"});
  CHECK(words("メモリ不足です") == Strings{"メ", "モ", "リ", "不", "足", "で", "す"});
  CHECK(words("메모리 부족") == Strings{"메모리", "부족"});  // Hangul is spaced: runs stay words
}

TEST_CASE("analysis::char_ngrams pads the word and counts code points", "[analysis][suggest]") {
  CHECK(char_ngrams("größe", 3, 5) == Strings{" gr", "grö", "röß", "öße", "ße ", " grö", "größ", "röße", "öße ",
                                              " größ", "größe", "röße "});
  CHECK(char_ngrams("a", 3, 5) == Strings{" a "});
  CHECK(char_ngrams("ab", 3, 5) == Strings{" ab", "ab ", " ab "});
  CHECK_THROWS_AS(char_ngrams("ab", 0, 2), std::invalid_argument);
  CHECK_THROWS_AS(char_ngrams("ab", 4, 3), std::invalid_argument);
}

TEST_CASE("analysis::Vocabulary counts word unigrams, bigrams and character n-grams", "[analysis][suggest]") {
  Vocabulary v({.word_ngrams = 2, .char_min = 3, .char_max = 3, .min_df = 1});
  const TermCounts c = v.add("Data data LOADER");
  auto count_of = [&](std::string_view spelling) -> float {
    auto id = v.find(spelling);
    if (!id) return -1;
    auto it = std::find(c.ids.begin(), c.ids.end(), *id);
    return it == c.ids.end() ? 0 : c.counts[static_cast<std::size_t>(it - c.ids.begin())];
  };
  CHECK(count_of("w:data") == 2);
  CHECK(count_of("w:loader") == 1);
  CHECK(count_of("w:data data") == 1);
  CHECK(count_of("w:data loader") == 1);
  CHECK(count_of("c: da") == 2);
  CHECK(count_of("c:er ") == 1);
  CHECK(count_of("w:Data") == -1);  // spelled folded only
  CHECK(v.kind(*v.find("c:ata")) == FeatureKind::character);
  CHECK(v.kind(*v.find("w:data loader")) == FeatureKind::word);
  // words 2 + 1 + bigrams 2 distinct, char 3-grams " da","dat","ata","ta " and " lo","loa","oad","ade","der","er "
  CHECK(v.size() == 4 + 10);
  CHECK(std::is_sorted(c.ids.begin(), c.ids.end()));
  // count() of a new text ignores unknown features and adds none
  const TermCounts d = v.count("data science");
  CHECK(v.size() == 14);
  CHECK(d.ids.size() == 5);  // w:data, c: da, c:dat, c:ata, c:ta
}

TEST_CASE("analysis::tfidf weights sublinear tf by the smoothed idf and l2-normalises", "[analysis][suggest]") {
  // python3 -c "import math; a=(1+math.log(2))*(math.log(4/2)+1); b=math.log(4/3)+1; n=math.hypot(a,b); print(a/n, b/n)"
  // -> 0.9122016295971542 0.4097416099937816 (= scikit-learn TfidfVectorizer(sublinear_tf=True) on these texts)
  Vocabulary v({.word_ngrams = 1, .char_min = 3, .char_max = 0, .min_df = 1});
  std::vector<TermCounts> docs = {v.add("apple apple banana"), v.add("banana cherry"), v.add("cherry cherry cherry")};
  const std::vector<const TermCounts*> ptrs = {&docs[0], &docs[1], &docs[2]};
  const IdfTable idf = fit_idf(ptrs, v.size(), 1);
  REQUIRE(idf.columns == 3);
  CHECK(idf.idf[*v.find("w:apple")] == Approx(1.6931471805599454));
  CHECK(idf.idf[*v.find("w:banana")] == Approx(1.2876820724517808));
  const SparseVector x = tfidf(docs[0], idf, v);
  REQUIRE(x.index == std::vector<std::uint32_t>{0, 1});
  CHECK(x.value[0] == Approx(0.9122016295971542).epsilon(1e-6));
  CHECK(x.value[1] == Approx(0.4097416099937816).epsilon(1e-6));
  const SparseVector z = tfidf(docs[2], idf, v);
  REQUIRE(z.value.size() == 1);
  CHECK(z.value[0] == Approx(1.0));

  // min_df 2: apple (one text) is dropped; columns follow the ids of the kept features
  const IdfTable idf2 = fit_idf(ptrs, v.size(), 2);
  CHECK(idf2.columns == 2);
  CHECK(idf2.column[*v.find("w:apple")] == -1);
  CHECK(idf2.column[*v.find("w:banana")] == 0);
  CHECK(idf2.column[*v.find("w:cherry")] == 1);
  const SparseVector y = tfidf(docs[0], idf2, v);
  CHECK(y.index == std::vector<std::uint32_t>{0});
  CHECK(y.value[0] == Approx(1.0));
}

TEST_CASE("analysis::tfidf normalises the word and character blocks apart", "[analysis][suggest]") {
  Vocabulary v({.word_ngrams = 1, .char_min = 3, .char_max = 3, .min_df = 1});
  std::vector<TermCounts> docs = {v.add("ab")};  // w:ab, c: ab, c:ab  -- all idf 1 in a one-text corpus
  const IdfTable idf = fit_idf({&docs[0]}, v.size(), 1);
  const SparseVector x = tfidf(docs[0], idf, v);
  REQUIRE(x.value.size() == 3);
  // word block 1 -> 1/sqrt(2); char block (1, 1)/sqrt(2) -> 1/2 each; norm 1
  CHECK(x.value[idf.column[*v.find("w:ab")]] == Approx(1 / std::sqrt(2.0)));
  CHECK(x.value[idf.column[*v.find("c: ab")]] == Approx(0.5));
  CHECK(x.value[idf.column[*v.find("c:ab ")]] == Approx(0.5));
}

TEST_CASE("analysis::train_logistic reaches the optimum of the regularised logistic loss", "[analysis][suggest]") {
  // At the optimum the primal gradient w + C sum_i -y_i sigma(-y_i w.x_i) x_i (bias as a feature 1) is zero.
  std::vector<SparseVector> xs = {{{0, 1}, {0.8f, 0.6f}}, {{0}, {1.0f}},        {{1, 2}, {0.6f, 0.8f}},
                                  {{2}, {1.0f}},          {{0, 2}, {0.6f, 0.8f}}, {{1}, {1.0f}}};
  std::vector<std::vector<std::uint32_t>> labels = {{0}, {0}, {1}, {1}, {0, 1}, {}};
  std::vector<const SparseVector*> rows;
  for (const auto& x : xs) rows.push_back(&x);
  TrainOptions opt;
  opt.c = 2.0;
  opt.tolerance = 1e-9;
  opt.max_epochs = 20000;
  const LinearModel m = train_logistic(rows, labels, 3, 2, opt);
  for (std::uint32_t l = 0; l < 2; ++l) {
    std::vector<double> grad(4, 0.0);  // 3 features + bias
    for (std::size_t f = 0; f < 3; ++f) grad[f] = m.weight(f, l);
    grad[3] = m.bias(l);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      std::vector<double> s;
      m.scores(xs[i], s);
      const double y = std::count(labels[i].begin(), labels[i].end(), l) ? 1.0 : -1.0;
      const double coef = -opt.c * y / (1.0 + std::exp(y * s[l]));
      for (std::size_t k = 0; k < xs[i].index.size(); ++k) grad[xs[i].index[k]] += coef * xs[i].value[k];
      grad[3] += coef;
    }
    for (double g : grad) CHECK(std::fabs(g) < 1e-4);
  }
  std::vector<double> conf;
  m.confidences(xs[1], conf);
  CHECK(conf[0] > 0.5);
  CHECK(conf[1] < 0.5);
  CHECK_THROWS_AS(train_logistic(rows, {{0}}, 3, 2, opt), std::invalid_argument);
  CHECK_THROWS_AS(train_logistic(rows, labels, 3, 1, opt), std::invalid_argument);  // label 1 out of range
  CHECK_THROWS_AS(train_logistic(rows, labels, 2, 2, opt), std::invalid_argument);  // column 2 out of range
}

TEST_CASE("analysis::train_logistic gives each label the model it would get alone, for any threads", "[analysis][suggest]") {
  // 20 labels over random sparse rows: threads 1 and 3 (label groups 20 and 7/7/6) give the same bits, and
  // label 13 trained alone gives the same bits as label 13 trained with the others.
  stats::Rng rng(21);
  std::vector<SparseVector> xs(300);
  std::vector<std::vector<std::uint32_t>> labels(xs.size()), alone(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    std::set<std::uint32_t> cols;
    while (cols.size() < 12) cols.insert(static_cast<std::uint32_t>(rng.uniform_index(200)));
    for (auto c : cols) {
      xs[i].index.push_back(c);
      xs[i].value.push_back(static_cast<float>(0.1 + rng.uniform01() * 0.3));
    }
    const auto l = static_cast<std::uint32_t>(xs[i].index[0] % 20);
    labels[i] = {l};
    if (l == 13) alone[i] = {0};
  }
  std::vector<const SparseVector*> rows;
  for (const auto& x : xs) rows.push_back(&x);
  TrainOptions one, three;
  one.threads = 1;
  three.threads = 3;
  const LinearModel a = train_logistic(rows, labels, 200, 20, one);
  const LinearModel b = train_logistic(rows, labels, 200, 20, three);
  const LinearModel c = train_logistic(rows, alone, 200, 1, one);
  std::size_t differ = 0, differ_alone = 0, nonzero = 0;
  for (std::size_t f = 0; f <= 200; ++f) {
    for (std::size_t l = 0; l < 20; ++l) differ += a.row(f)[l] != b.row(f)[l];
    differ_alone += a.row(f)[13] != c.row(f)[0];
    nonzero += a.row(f)[13] != 0.0f;
  }
  CHECK(differ == 0);
  CHECK(differ_alone == 0);
  CHECK(nonzero > 20);
}

TEST_CASE("analysis::train_suggester suggests the planted code first and skips codes below min_support", "[analysis][suggest]") {
  auto segs = planted_corpus(7);
  segs.push_back({"a singular oddity", {"RARE"}, "P0"});
  const CodeSuggester s = train_suggester(segs);
  CHECK(std::find(s.codes().begin(), s.codes().end(), "RARE") == s.codes().end());
  CHECK(s.codes().size() == 6);
  CHECK(s.segments() == segs.size());
  // a text with K.3's planted words only (taken from the corpus) ranks K.3 first, confidently
  stats::Rng rng(7);
  random_words(rng, 400);
  std::vector<Strings> signal(6);
  for (auto& w : signal) w = random_words(rng, 5);
  const auto top = s.suggest(signal[2][0] + " and " + signal[2][3], 2);
  REQUIRE(top.size() == 2);
  CHECK(top[0].code == "K.3");
  CHECK(top[0].confidence > 0.5);
  CHECK(top[1].confidence < top[0].confidence);
  CHECK(s.suggest("anything", 10).size() == 6);
  // nothing learnable: no suggestions at all
  CHECK(train_suggester({{"one", {"X"}, "P"}}).suggest("one", 3).empty());
}

TEST_CASE("analysis::training_sample bounds the training set, keeps rare codes whole, ignores input order", "[analysis][suggest]") {
  std::vector<TrainingSegment> segs;
  for (int i = 0; i < 300; ++i) segs.push_back({"common text " + std::to_string(i), {"C"}, "P" + std::to_string(i % 7)});
  for (int i = 0; i < 40; ++i) segs.push_back({"middle text " + std::to_string(i), {"M"}, "P" + std::to_string(i % 5)});
  segs.push_back({"rare one", {"R"}, "P1"});
  segs.push_back({"rare two", {"R", "C"}, "P2"});
  segs.push_back({"not coded", {}, "P3"});
  const std::size_t coded = segs.size() - 1;
  // within the bound (or none): every coded segment, in input order, the uncoded one left out
  auto all = training_sample(segs, 0);
  REQUIRE(all.size() == coded);
  CHECK(std::is_sorted(all.begin(), all.end()));
  CHECK(std::find(all.begin(), all.end(), segs.size() - 1) == all.end());
  CHECK(training_sample(segs, coded) == all);

  const auto pick = training_sample(segs, 60);
  REQUIRE(pick.size() == 60);
  CHECK(std::is_sorted(pick.begin(), pick.end()));
  std::map<std::string, int> per_code;
  std::set<std::string> texts;
  for (auto i : pick) {
    REQUIRE(!segs[i].codes.empty());
    texts.insert(segs[i].text);
    for (const auto& c : segs[i].codes) ++per_code[c];
  }
  // the rare code keeps both its segments; the quota 60 / (2 x 3) = 10 is met for M before the fill
  CHECK(per_code["R"] == 2);
  CHECK(per_code["M"] >= 10);
  CHECK(per_code["C"] >= 10);
  CHECK(per_code["C"] + per_code["M"] + per_code["R"] == 61);  // "rare two" carries two codes

  // the same segments in another order: the same texts chosen
  auto shuffled = segs;
  std::reverse(shuffled.begin(), shuffled.end());
  std::set<std::string> again;
  for (auto i : training_sample(shuffled, 60)) again.insert(shuffled[i].text);
  CHECK(again == texts);
  // another seed: another sample, the same size and the rare code still whole
  const auto other = training_sample(segs, 60, 7);
  CHECK(other.size() == 60);
  CHECK(other != pick);
  CHECK(std::count_if(other.begin(), other.end(), [&](std::size_t i) { return segs[i].codes[0] == "R"; }) == 2);

  // train_suggester trains on the sample and says how many it was given
  SuggestOptions opts;
  opts.max_segments = 60;
  const auto s = train_suggester(segs, opts);
  CHECK(s.segments() == 60);
  CHECK(s.coded_segments() == coded);
  opts.max_segments = 0;
  const auto whole = train_suggester(segs, opts);
  CHECK(whole.segments() == coded);
  CHECK(whole.coded_segments() == coded);
}

TEST_CASE("analysis::grouped_folds keeps each group in one fold and depends on the seed", "[analysis][suggest]") {
  Strings groups;
  for (int p = 0; p < 20; ++p)
    for (int t = 0; t < 3; ++t) groups.push_back("P" + std::to_string(p));
  const auto a = grouped_folds(groups, 5, 1);
  const auto b = grouped_folds(groups, 5, 1);
  const auto c = grouped_folds(groups, 5, 2);
  CHECK(a == b);
  CHECK(a != c);
  std::map<std::string, std::set<int>> folds_of;
  std::vector<int> size(5, 0);
  for (std::size_t i = 0; i < groups.size(); ++i) {
    folds_of[groups[i]].insert(a[i]);
    ++size[static_cast<std::size_t>(a[i])];
  }
  for (const auto& [g, f] : folds_of) CHECK(f.size() == 1);
  for (int s : size) CHECK(s == 12);  // 4 groups of 3 per fold
  CHECK_THROWS_AS(grouped_folds(groups, 21, 1), std::invalid_argument);
  CHECK_THROWS_AS(grouped_folds(groups, 1, 1), std::invalid_argument);
}

TEST_CASE("analysis::evaluate learns planted code words (micro F1 >= 0.9)", "[analysis][suggest]") {
  const auto segs = planted_corpus(11);
  const Evaluation ev = evaluate(segs, folds(5, 3));
  CHECK(ev.segments == 600);
  CHECK(ev.groups == 60);
  CHECK(ev.codes.size() == 6);
  CHECK(ev.micro.f1 >= 0.9);
  CHECK(ev.macro.f1 >= 0.9);
  for (const auto& c : ev.codes) {
    CHECK(c.scores.f1 >= 0.8);
    CHECK(c.true_positives + c.false_negatives == c.support);
  }
  // no participant is tested in more than one fold, so never trained and tested in the same fold
  std::map<std::string, std::set<int>> folds_of;
  for (std::size_t i = 0; i < segs.size(); ++i) folds_of[segs[i].group].insert(ev.fold_of[i]);
  for (const auto& [g, f] : folds_of) CHECK(f.size() == 1);
}

TEST_CASE("analysis::evaluate falls to chance when codes are shuffled across segments", "[analysis][suggest]") {
  auto segs = planted_corpus(11);
  stats::Rng rng(99);
  for (std::size_t i = segs.size() - 1; i > 0; --i) std::swap(segs[i].codes, segs[rng.uniform_index(i + 1)].codes);
  const double chance = chance_f1(segs);
  CHECK(chance == Approx(0.2).margin(0.03));  // 6 balanced codes, 1.2 codes per segment
  const Evaluation ev = evaluate(segs, folds(5, 3));
  CHECK(ev.chance_f1 == Approx(chance));
  CHECK(ev.micro.f1 < 0.35);
  CHECK(std::fabs(ev.micro.f1 - chance) < 0.08);
}

TEST_CASE("analysis::evaluate by participant does not reward participant-specific words", "[analysis][suggest]") {
  // Each participant uses 2 of 6 codes and has a private word per (participant, code): the words predict the
  // code only within the participant. A segment-level split rewards memorising them; the grouped split does not.
  stats::Rng rng(5);
  const Strings noise = random_words(rng, 400);
  std::vector<TrainingSegment> grouped, naive;
  for (int p = 0; p < 60; ++p) {
    const std::size_t c1 = rng.uniform_index(6), c2 = (c1 + 1 + rng.uniform_index(5)) % 6;
    const std::map<std::size_t, std::string> own = {{c1, random_word(rng, 9, 9)}, {c2, random_word(rng, 9, 9)}};
    for (int t = 0; t < 10; ++t) {
      const std::size_t c = rng.uniform_index(2) ? c1 : c2;
      Strings words;
      for (int i = 0; i < 25; ++i) words.push_back(noise[rng.uniform_index(noise.size())]);
      words.push_back(own.at(c));
      words.push_back(own.at(c));
      const std::string text = shuffled_text(words, rng);
      grouped.push_back({text, {"K." + std::to_string(c + 1)}, "P" + std::to_string(p)});
      naive.push_back({text, {"K." + std::to_string(c + 1)}, "S" + std::to_string(naive.size())});
    }
  }
  const Evaluation by_participant = evaluate(grouped, folds(5, 3));
  const Evaluation by_segment = evaluate(naive, folds(5, 3));
  CHECK(by_segment.micro.f1 > 0.7);
  CHECK(by_participant.micro.f1 < 0.35);
  CHECK(by_segment.micro.f1 - by_participant.micro.f1 > 0.4);
}

TEST_CASE("analysis::evaluate is deterministic for a seed", "[analysis][suggest]") {
  const auto segs = planted_corpus(13);
  const Evaluation a = evaluate(segs, folds(4, 8));
  const Evaluation b = evaluate(segs, folds(4, 8));
  const Evaluation c = evaluate(segs, folds(4, 9));
  CHECK(a.fold_of == b.fold_of);
  CHECK(a.fold_of != c.fold_of);
  REQUIRE(a.codes.size() == b.codes.size());
  for (std::size_t i = 0; i < a.codes.size(); ++i) {
    CHECK(a.codes[i].true_positives == b.codes[i].true_positives);
    CHECK(a.codes[i].false_positives == b.codes[i].false_positives);
    CHECK(a.codes[i].false_negatives == b.codes[i].false_negatives);
  }
  CHECK(a.micro.f1 == b.micro.f1);
  CHECK_THROWS_AS(evaluate(segs, folds(61, 8)), std::invalid_argument);  // 60 participants
}

TEST_CASE("analysis::evaluate scores only codes with min_support segments", "[analysis][suggest]") {
  auto segs = planted_corpus(17);
  segs.push_back({"once", {"ZZ"}, "P1"});
  EvaluateOptions opt;
  opt.folds = 3;
  const Evaluation ev = evaluate(segs, opt);
  REQUIRE(ev.too_rare.size() == 1);
  CHECK(ev.too_rare[0] == std::pair<std::string, std::size_t>{"ZZ", 1});
  CHECK(ev.codes.size() == 6);
  CHECK(ev.segments == 601);
}

TEST_CASE("analysis::uncoded_turns leaves out turns coded as a whole or in a span", "[analysis][suggest]") {
  auto seg = [](std::string id, std::string file, int turn, bool whole, Strings nodes, std::string question = "Q.1") {
    CodedSegment s;
    s.question = std::move(question);
    s.id = std::move(id);
    s.participant = "P";
    s.source = {std::move(file), turn * 10, 0};
    s.turn = turn;
    s.whole_turn = whole;
    for (auto& n : nodes) s.codes.push_back({n, n, "c", "", {}, false});
    return s;
  };
  const std::vector<CodedSegment> segs = {
      seg("P#t1", "a.md", 1, true, {"A"}),  // coded turn
      seg("P#t2", "a.md", 2, true, {}),     // its span is coded
      seg("P#t2[0:3]", "a.md", 2, false, {"B"}),
      seg("P#t3", "a.md", 3, true, {}),     // uncoded
      seg("P#t1", "b.md", 1, true, {}),     // same turn number, other file: uncoded
      seg("P#t2", "b.md", 2, true, {}, "Q.R"),   // answers a ranking question
      seg("P#t3", "b.md", 3, true, {}, "Q.B"),   // answers a background question
      seg("P#t4", "b.md", 4, true, {}, ""),      // outside any section
  };
  const auto turns = uncoded_turns(segs);
  REQUIRE(turns.size() == 5);
  CHECK(turns[0]->id == "P#t3");
  CHECK(turns[1]->source.file == "b.md");
  Guideline g;
  for (auto [id, kind] : {std::pair{"Q.1", QuestionKind::open}, std::pair{"Q.R", QuestionKind::ranking},
                          std::pair{"Q.B", QuestionKind::background}}) {
    Question q;
    q.id = id;
    q.kind = kind;
    g.questions.push_back(q);
  }
  const auto open_turns = uncoded_turns(segs, &g);
  REQUIRE(open_turns.size() == 3);
  CHECK(open_turns[1]->id == "P#t1");
  CHECK(open_turns[2]->id == "P#t4");
  const auto training = training_segments(segs, Taxonomy{});
  REQUIRE(training.size() == 2);
  CHECK(training[1].codes == Strings{"B"});
  CHECK(training[1].group == "P");
}
