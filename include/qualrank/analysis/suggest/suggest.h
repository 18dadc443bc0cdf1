// Code suggestions learned from the researcher's own codings.
//
// Method: a multi-label text classifier, one-vs-rest L2-regularised logistic regression (one binary model
// per code), trained by dual coordinate descent (Yu, Huang & Lin 2011, "Dual coordinate descent methods for
// logistic regression and maximum entropy models", Machine Learning 85:41-75; the algorithm of LIBLINEAR's
// solver 7, Fan et al. 2008, JMLR 9:1871-1874). Features are TF-IDF weights (Salton & Buckley 1988) with
// sublinear tf, as scikit-learn's TfidfVectorizer(sublinear_tf=True, smooth_idf=True, norm='l2'), over word
// unigrams and bigrams and over character 3- to 5-grams within words (analyzer='char_wb'); the word block and
// the character block are each l2-normalised. A code's confidence for a text is the model's sigmoid output:
// its estimate of the probability that the researcher would apply that code, given the segments coded so far.
// Evaluation is k-fold cross-validation grouped by participant (no participant's segments are in both the
// training and the test part of a fold). The whole pipeline is deterministic. docs/suggest.md explains it.
//
// Layout: features (suggest_features.cpp), the classifier (suggest_model.cpp), cross-validation
// (suggest_evaluate.cpp), turns of a study (suggest_turns.cpp). Pure functions except Vocabulary::add.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qualrank {

class Taxonomy;
struct CodedSegment;
struct Guideline;

namespace suggest {

namespace detail {
// FNV-1a, 64 bits, continued from `h` over `bytes` (start from kFnvOffset); the feature names' hash and the
// training sample's order.
inline constexpr std::uint64_t kFnvOffset = 14695981039346656037ull;
std::uint64_t fnv(std::uint64_t h, std::string_view bytes);
// splitmix64's finaliser: spreads FNV's weak low bits.
std::uint64_t mix(std::uint64_t x);
}  // namespace detail

// ---- Features (suggest_features.cpp) ----------------------------------------------------------------

struct FeatureOptions {
  int word_ngrams = 2;  // word n-grams of 1..word_ngrams words (0: no word features)
  int char_min = 3;     // character n-grams of char_min..char_max code points within words
  int char_max = 5;     // (0: no character features)
  int min_df = 2;       // features found in fewer training segments are dropped
};

// The words of `text`, case folded (text::fold_case: Unicode simple case folding). A word is a maximal run of
// letters, combining marks and digits (Unicode general categories L, M, N); everything else separates words.
// Every ideographic, Hiragana or Katakana character is a word on its own, since those scripts do not put
// spaces between words (so word unigrams and bigrams are character unigrams and bigrams there).
std::vector<std::string> words(std::string_view text);

// The character n-grams of one word, padded with a space on either side, for n = min_n..max_n code points,
// in order of n then position; an n longer than the padded word gives none (scikit-learn's 'char_wb').
// min_n < 1 or max_n < min_n -> std::invalid_argument.
std::vector<std::string> char_ngrams(std::string_view word, int min_n, int max_n);

enum class FeatureKind : std::uint8_t { word, character };

// Raw counts of one text's features: ids sorted ascending, counts > 0.
struct TermCounts {
  std::vector<std::uint32_t> ids;
  std::vector<float> counts;
};

// The feature vocabulary: every feature (a word n-gram or a character n-gram) is named by the 64-bit FNV-1a
// hash of its spelling ("w:" + words joined by one space, or "c:" + the n-gram) and interned to a dense id in
// order of first appearance. Two features whose hashes collide would share an id (at a million features the
// chance is about 3e-8). No string is stored: a feature costs 25 to 50 bytes (the open-addressing table is
// kept at most half full).
class Vocabulary {
 public:
  explicit Vocabulary(FeatureOptions options = {});
  // Counts the features of `text`, giving new features the next ids.
  TermCounts add(std::string_view text);
  // Counts only the features already in the vocabulary (for texts seen after training).
  TermCounts count(std::string_view text) const;
  // The id of a feature spelled as above ("w:cuda", "w:cuda version", "c: cu"), or nullopt.
  std::optional<std::uint32_t> find(std::string_view spelling) const;
  std::size_t size() const { return kinds_.size(); }
  FeatureKind kind(std::uint32_t id) const { return kinds_[id]; }
  const FeatureOptions& options() const { return options_; }

 private:
  template <class OnFeature>
  void scan(std::string_view text, OnFeature&& on_feature) const;
  std::optional<std::uint32_t> lookup(std::uint64_t hash) const;
  std::uint32_t intern(std::uint64_t hash, FeatureKind kind);

  FeatureOptions options_;
  std::vector<std::uint64_t> keys_;   // open addressing, power-of-two size; 0 = empty (a zero hash is remapped)
  std::vector<std::uint32_t> slots_;  // id of the key in the same slot
  std::vector<FeatureKind> kinds_;    // per id
};

// A sparse vector: indices ascending, one value each.
struct SparseVector {
  std::vector<std::uint32_t> index;
  std::vector<float> value;
};

// Inverse document frequencies fitted on training texts, and the columns kept (df >= min_df).
struct IdfTable {
  std::vector<float> idf;          // per vocabulary id: ln((1 + n) / (1 + df)) + 1, or 0 when dropped
  std::vector<std::int32_t> column;  // per vocabulary id: its column (ascending with the id), or -1
  std::size_t columns = 0;
};

// df(t) = number of `docs` containing t, n = docs.size(); idf = ln((1 + n) / (1 + df)) + 1 (scikit-learn's
// smooth_idf). Features with df < min_df (or not in any doc) are dropped. Ids must be < vocabulary_size.
IdfTable fit_idf(const std::vector<const TermCounts*>& docs, std::size_t vocabulary_size, int min_df);

// The TF-IDF vector of one text over the kept columns: weight = (1 + ln count) * idf (sublinear tf). The word
// features and the character features are each scaled to unit l2 norm; when both are present the vector is
// then divided by sqrt(2), so it always has norm 1 (or is empty when no kept feature occurs).
SparseVector tfidf(const TermCounts& counts, const IdfTable& idf, const Vocabulary& vocabulary);

// ---- The classifier (suggest_model.cpp) -------------------------------------------------------------

struct TrainOptions {
  double c = 4.0;            // inverse regularisation strength (LIBLINEAR's -c): larger fits the data closer
  double tolerance = 0.1;    // a label stops when its largest dual gradient in an epoch is below this (-e)
  int max_epochs = 100;      // passes over the training rows at most
  std::uint64_t seed = 20250101;  // the order rows are visited in each epoch (stats::Rng)
  int threads = 0;           // 0: min(2, hardware threads); the result is the same for any number
};

// One-vs-rest logistic regression over sparse rows; a bias term (a constant feature 1, regularised as
// LIBLINEAR's -B 1) is added. Weights are stored feature-major (each feature's weights for every label side by
// side, padded to a multiple of 8) so one pass over a row's non-zeros scores every label with vector operations.
class LinearModel {
 public:
  LinearModel() = default;
  LinearModel(std::size_t features, std::size_t labels);
  std::size_t features() const { return features_; }
  std::size_t labels() const { return labels_; }
  // Decision values w_l . x + b_l for every label into `out` (resized); column indices >= features() are
  // ignored.
  void scores(const SparseVector& x, std::vector<double>& out) const;
  // The sigmoid of the scores: each label's probability estimate in (0, 1).
  void confidences(const SparseVector& x, std::vector<double>& out) const;
  float weight(std::size_t feature, std::size_t label) const { return row(feature)[label]; }
  float bias(std::size_t label) const { return row(features_)[label]; }
  // The weights of one feature (features() = the bias) for every label, then zeros up to stride().
  float* row(std::size_t feature) { return &weights_[feature * stride_]; }
  const float* row(std::size_t feature) const { return &weights_[feature * stride_]; }
  std::size_t stride() const { return stride_; }  // labels() rounded up to a multiple of 8

 private:
  std::size_t features_ = 0, labels_ = 0, stride_ = 0;
  std::vector<float> weights_;  // (features + 1) x stride; the last row is the bias
};

// Trains one binary L2-regularised logistic regression per label: row i is positive for label l when
// `labels[i]` contains l. Minimises 0.5 |w_l|^2 + C sum_i log(1 + exp(-y_il w_l . x_i)) by dual coordinate
// descent (Yu, Huang & Lin 2011, Algorithm 5, as LIBLINEAR's solve_l2r_lr_dual). Each label's model is what
// training that label alone would give (its own stopping rule; the same row order in each epoch), so the
// result is the same for any number of threads; deterministic for a seed. rows.size() != labels.size(), a
// label >= n_labels, a column >= n_features, c or tolerance <= 0, or threads < 0 -> std::invalid_argument.
LinearModel train_logistic(const std::vector<const SparseVector*>& rows,
                           const std::vector<std::vector<std::uint32_t>>& labels, std::size_t n_features,
                           std::size_t n_labels, const TrainOptions& options = {});

// A training document: a coded segment's text and its distinct codes, and the group cross-validation keeps
// together (the participant).
struct TrainingSegment {
  std::string text;
  std::vector<std::string> codes;
  std::string group;
};

struct SuggestOptions {
  FeatureOptions features;
  TrainOptions training;
  int min_support = 2;  // codes with fewer training segments are never suggested
  // Trains on at most this many coded segments (training_sample); 0: on all of them. The bound keeps the
  // memory and time of training (and so of annotate, which trains beside the transcript shown) the same
  // however large the study grows: about 8 bytes per feature of a segment, some 4 KB a segment of two lines.
  std::size_t max_segments = 4000;
};

// Which coded segments (those with codes) train the suggester when a study has more than `max` of them: the
// indices into `segments`, ascending. At most `max` (all coded ones when there are no more; max = 0: all).
// Deterministic and independent of the segments' order: each segment's place is the FNV-1a hash of its group
// and text, mixed with `seed` (ties by index). Half the budget goes to the rarest codes first: codes in
// ascending order of their segment counts (ties in natural id order) each take, in hash order, segments until
// the code has max(max / (2 x codes), min_per_code) of them (all of a code with fewer) while the budget lasts;
// the rest is filled in hash order. So a code with few segments keeps all of them (and a code that reaches
// min_support keeps it), and a frequent code still gets its share.
std::vector<std::size_t> training_sample(const std::vector<TrainingSegment>& segments, std::size_t max,
                                         std::uint64_t seed = 20250101, std::size_t min_per_code = 2);

struct CodeConfidence {
  std::string code;
  double confidence = 0;  // in (0, 1)
};

// A trained suggester: the vocabulary, the IDF table and one logistic model per code it knows.
class CodeSuggester {
 public:
  // Codes it can suggest (those with at least min_support training segments), in natural id order.
  const std::vector<std::string>& codes() const { return codes_; }
  // Training segments per code of codes().
  const std::vector<std::size_t>& support() const { return support_; }
  // Segments it was trained on, and the coded segments it was given (more when it trained on a sample).
  std::size_t segments() const { return segments_; }
  std::size_t coded_segments() const { return coded_segments_; }
  // The confidence of every code of codes() for `text`.
  std::vector<double> confidences(std::string_view text) const;
  // The k most confident codes for `text`, by confidence (descending), ties in codes() order. Fewer when the
  // suggester knows fewer codes; none when it knows none.
  std::vector<CodeConfidence> suggest(std::string_view text, std::size_t k) const;

 private:
  friend CodeSuggester train_suggester(const std::vector<TrainingSegment>&, const SuggestOptions&);
  Vocabulary vocabulary_;
  IdfTable idf_;
  LinearModel model_;
  std::vector<std::string> codes_;
  std::vector<std::size_t> support_;
  std::size_t segments_ = 0;
  std::size_t coded_segments_ = 0;
};

// Learns from `segments` (every code with at least options.min_support segments), or from
// training_sample(segments, options.max_segments, options.training.seed, options.min_support) when there are
// more. Segments
// without codes are ignored. With no such code the suggester knows nothing and suggests nothing.
CodeSuggester train_suggester(const std::vector<TrainingSegment>& segments, const SuggestOptions& options = {});

// ---- Cross-validation (suggest_evaluate.cpp) --------------------------------------------------------

// Grouped k-fold assignment: the distinct groups, sorted, are shuffled (Fisher-Yates with stats::Rng(seed))
// and dealt to folds 0, 1, ..., k-1, 0, ...; returns each element's fold. Elements of one group share a fold.
// folds < 2 or fewer distinct groups than folds -> std::invalid_argument.
std::vector<int> grouped_folds(const std::vector<std::string>& groups, int folds, std::uint64_t seed);

struct EvaluateOptions {
  int folds = 5;
  std::uint64_t seed = 20250101;  // assigns groups to folds
  double threshold = 0.5;         // a code is predicted when its confidence >= threshold, the top code always
  SuggestOptions suggest;
};

struct Scores {
  double precision = 0, recall = 0, f1 = 0;
};

struct CodeEvaluation {
  std::string code;
  std::size_t support = 0;  // segments carrying the code (all folds)
  std::size_t true_positives = 0, false_positives = 0, false_negatives = 0;
  Scores scores;            // precision = tp / (tp + fp), recall = tp / (tp + fn); 0 when undefined
};

struct Evaluation {
  int folds = 0;
  std::uint64_t seed = 0;
  double threshold = 0;
  int min_support = 0;
  std::size_t segments = 0, groups = 0;
  std::vector<CodeEvaluation> codes;  // codes with support >= min_support, natural id order
  std::vector<std::pair<std::string, std::size_t>> too_rare;  // the other codes and their support
  Scores micro;  // from the summed counts over codes
  Scores macro;  // unweighted means over codes
  double chance_f1 = 0;  // micro F1 expected from random labels with the same frequencies: sum p^2 / sum p
  std::vector<int> fold_of;  // per segment with codes (input order): the fold it is tested in
};

// k-fold cross-validation of train_suggester grouped by TrainingSegment::group: per fold, a suggester trained
// on the other folds (its own vocabulary statistics and its own codes: those with min_support training
// segments there) labels each held-out segment with its top code plus every code at or above the threshold.
// Counts are summed over folds, per code (codes with support >= min_support over all segments). Segments
// without codes are ignored. Fewer distinct groups than folds, or folds < 2 -> std::invalid_argument.
Evaluation evaluate(const std::vector<TrainingSegment>& segments, const EvaluateOptions& options = {});

// ---- Turns of a study (suggest_turns.cpp) -----------------------------------------------------------

// Training documents: every segment with at least one code (whole turns and spans), its text, its distinct
// resolved nodes (taxonomy order) and its participant as the group.
std::vector<TrainingSegment> training_segments(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy);

// The uncoded participant turns, in input order: whole-turn segments without codes whose turn (same file and
// turn number) has no coded span either. Only found when `segments` came from coded_segments(...,
// include_uncoded = true). With a guideline, turns answering its background and ranking questions are left
// out (their answers are recorded by @answer and @rank, not coded).
std::vector<const CodedSegment*> uncoded_turns(const std::vector<CodedSegment>& segments,
                                               const Guideline* guideline = nullptr);

struct TurnSuggestion {
  const CodedSegment* segment = nullptr;  // the uncoded whole-turn segment
  std::vector<CodeConfidence> codes;      // the suggester's top k
  std::vector<std::string> keyword;       // the keyword rules' suggestions (segment->suggested)
};

// Suggestions for each of `turns` (in order): the top k codes of `suggester` and the keyword suggestions.
std::vector<TurnSuggestion> suggest_turns(const std::vector<const CodedSegment*>& turns,
                                          const CodeSuggester& suggester, std::size_t k);

}  // namespace suggest
}  // namespace qualrank
