// The code suggester's classifier: one-vs-rest L2-regularised logistic regression by dual coordinate descent.
//
// For each label l, with y_il = +1 when row i carries l and -1 otherwise, the primal problem is
//   min_w 0.5 |w|^2 + C sum_i log(1 + exp(-y_il w . x_i))
// (x_i with a constant bias feature 1 appended). Its dual has one variable 0 < alpha_il < C per row, and
// w_l = sum_i alpha_il y_il x_i. Yu, Huang & Lin (2011, Machine Learning 85:41-75, Algorithm 5) minimise the
// dual one variable at a time, each one-variable problem by a safeguarded Newton method; this is a port of
// LIBLINEAR 2.x's solve_l2r_lr_dual (its solver -s 7): the same initial alphas, the choice between the two
// symmetric sub-problems, the inner Newton tolerance that tightens as the outer iterations converge, and the
// stopping rule max |gradient| < tolerance over an epoch. One difference: the gradient is measured at the
// variable's current value (LIBLINEAR measures it after restarting Newton's method away from C, which
// overstates it for variables near C / 2 and keeps it iterating for epochs after the solution has settled).
// Rows are visited in an order shuffled each epoch by stats::Rng(seed), so training is deterministic.
//
// The labels' problems are independent and each keeps its own state (alphas, Newton tolerance, stopping), so
// a label's model does not depend on which labels are trained with it. They are trained together for speed:
// the weights (float) are stored feature-major, so one sweep over a segment's non-zeros gives every label's
// margin and one more applies every label's update. With several threads the labels are split into groups,
// one weight matrix per group, copied into the model at the end; the result is the same.
#include <algorithm>
#include <map>
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "qualrank/analysis/stats.h"
#include "qualrank/analysis/suggest/suggest.h"
#include "qualrank/util/text.h"

namespace qualrank::suggest {
namespace {

// Weight rows are visited in the order of a segment's features, which the hardware prefetcher cannot guess:
// ask for the row kPrefetch features ahead.
constexpr std::size_t kPrefetch = 8;

inline std::size_t padded(std::size_t labels) { return (labels + 7) / 8 * 8; }

inline void prefetch_row(const float* row, std::size_t stride) {
  const char* p = reinterpret_cast<const char*>(row);
  for (std::size_t off = 0; off < stride * sizeof(float); off += 64) __builtin_prefetch(p + off);
}

// y[0..n) += a x[0..n), n a multiple of 8, in blocks the compiler turns into whole vector operations.
inline void axpy(float* __restrict y, const float* __restrict x, float a, std::size_t n) {
  for (std::size_t l = 0; l < n; l += 8)
    for (std::size_t j = 0; j < 8; ++j) y[l + j] += a * x[l + j];
}

struct Problem {
  const std::vector<const SparseVector*>& rows;
  const std::vector<signed char>& y;  // n x labels, +1 / -1
  const std::vector<double>& xtx;     // |x_i|^2 + 1 (the bias)
  std::size_t labels;
  std::size_t features;
  const TrainOptions& options;
};

// Trains labels [first, first + count) of `p` into `w`: (features + 1) rows of `stride` floats, zeroed.
// The test (analysis_suggest_test.cpp) checks that a label's weights do not depend on its group.
void train_group(const Problem& p, std::size_t first, std::size_t count, float* w, std::size_t stride) {
  const std::size_t n = p.rows.size();
  const double C = p.options.c;
  auto row = [&](std::size_t f) { return w + f * stride; };
  // alpha[2 (i count + j)] = alpha_ij, alpha[2 (i count + j) + 1] = C - alpha_ij (kept apart for precision near
  // C); log_ratio = log(alpha / (C - alpha)) from the last Newton step, so most visits need no log().
  const double alpha0 = std::min(0.001 * C, 1e-8);
  std::vector<double> alpha(2 * n * count), log_ratio(n * count, std::log(alpha0 / (C - alpha0)));
  for (std::size_t k = 0; k < n * count; ++k) {
    alpha[2 * k] = alpha0;
    alpha[2 * k + 1] = C - alpha0;
  }
  auto y = [&](std::size_t i, std::size_t j) -> double { return p.y[i * p.labels + first + j]; };
  std::vector<float> delta(stride, 0.0f), margin(stride);  // padding lanes stay 0
  auto add_row = [&](const SparseVector& x) {
    for (std::size_t k = 0; k < x.index.size(); ++k) axpy(row(x.index[k]), delta.data(), x.value[k], stride);
    axpy(row(p.features), delta.data(), 1.0f, stride);
  };
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < count; ++j) delta[j] = static_cast<float>(y(i, j) * alpha0);
    add_row(*p.rows[i]);
  }

  std::vector<std::size_t> order(n), changed;
  std::iota(order.begin(), order.end(), std::size_t{0});
  changed.reserve(count);
  stats::Rng rng(p.options.seed);
  const int max_inner = 100;
  const double eta = 0.1, inner_eps_min = std::min(1e-8, p.options.tolerance);
  std::vector<double> inner_eps(count, 1e-2), g_max(count);
  std::vector<std::size_t> newton_steps(count);
  std::vector<char> active(count, 1);
  std::size_t still_active = count;
  for (int epoch = 0; epoch < p.options.max_epochs && still_active > 0; ++epoch) {
    for (std::size_t i = 0; i + 1 < n; ++i) std::swap(order[i], order[i + rng.uniform_index(n - i)]);
    std::fill(g_max.begin(), g_max.end(), 0.0);
    std::fill(newton_steps.begin(), newton_steps.end(), 0);
    for (std::size_t i : order) {
      const SparseVector& x = *p.rows[i];
      std::copy_n(row(p.features), stride, margin.begin());
      const std::size_t nnz = x.index.size();
      for (std::size_t k = 0; k < nnz; ++k) {
        if (k + kPrefetch < nnz) prefetch_row(row(x.index[k + kPrefetch]), stride);
        axpy(margin.data(), row(x.index[k]), x.value[k], stride);
      }
      changed.clear();
      const double a = p.xtx[i];
      for (std::size_t j = 0; j < count; ++j) {
        delta[j] = 0.0f;
        if (!active[j]) continue;
        const double yi = y(i, j), b = yi * margin[j];
        double* pair = &alpha[2 * (i * count + j)];
        std::size_t ind1 = 0, ind2 = 1;
        double sign = 1;
        if (0.5 * a * (pair[ind2] - pair[ind1]) + b < 0) {
          ind1 = 1;
          ind2 = 0;
          sign = -1;
        }
        // g(z) = z log z + (C - z) log(C - z) + 0.5 a (z - alpha_old)^2 + sign b (z - alpha_old)
        const double alpha_old = pair[ind1];
        double log_z = ind1 == 0 ? log_ratio[i * count + j] : -log_ratio[i * count + j];  // log(z / (C - z))
        g_max[j] = std::max(g_max[j], std::fabs(sign * b + log_z));
        double z = alpha_old;
        if (C - z < 0.5 * C) {
          z = 0.1 * z;
          log_z = std::log(z / (C - z));
        }
        double gp = a * (z - alpha_old) + sign * b + log_z;
        int inner = 0;
        while (inner <= max_inner && std::fabs(gp) >= inner_eps[j]) {
          const double gpp = a + C / (C - z) / z;
          const double next = z - gp / gpp;
          z = next <= 0 ? z * eta : next;
          log_z = std::log(z / (C - z));
          gp = a * (z - alpha_old) + sign * b + log_z;
          ++inner;
        }
        newton_steps[j] += static_cast<std::size_t>(inner);
        if (inner > 0) {
          pair[ind1] = z;
          pair[ind2] = C - z;
          log_ratio[i * count + j] = ind1 == 0 ? log_z : -log_z;
          delta[j] = static_cast<float>(sign * (z - alpha_old) * yi);
          if (delta[j] != 0.0f) changed.push_back(j);
        }
      }
      if (changed.empty()) continue;
      if (changed.size() * 4 >= count) {
        add_row(x);
      } else {  // few labels moved: update only their weights
        for (std::size_t k = 0; k < nnz; ++k) {
          float* wk = row(x.index[k]);
          for (auto j : changed) wk[j] += x.value[k] * delta[j];
        }
        float* bias = row(p.features);
        for (auto j : changed) bias[j] += delta[j];
      }
    }
    for (std::size_t j = 0; j < count; ++j) {
      if (!active[j]) continue;
      if (g_max[j] < p.options.tolerance) {
        active[j] = 0;
        --still_active;
      } else if (newton_steps[j] <= n / 10) {
        inner_eps[j] = std::max(inner_eps_min, 0.1 * inner_eps[j]);
      }
    }
  }
}

}  // namespace

LinearModel::LinearModel(std::size_t features, std::size_t labels)
    : features_(features), labels_(labels), stride_(padded(labels)), weights_((features + 1) * stride_, 0.0f) {}

void LinearModel::scores(const SparseVector& x, std::vector<double>& out) const {
  out.assign(labels_, 0.0);
  if (labels_ == 0) return;
  thread_local std::vector<float> acc;
  acc.assign(row(features_), row(features_) + stride_);
  for (std::size_t k = 0; k < x.index.size(); ++k)
    if (x.index[k] < features_) axpy(acc.data(), row(x.index[k]), x.value[k], stride_);
  for (std::size_t l = 0; l < labels_; ++l) out[l] = acc[l];
}

void LinearModel::confidences(const SparseVector& x, std::vector<double>& out) const {
  scores(x, out);
  for (auto& s : out) s = 1.0 / (1.0 + std::exp(-s));
}

LinearModel train_logistic(const std::vector<const SparseVector*>& rows,
                           const std::vector<std::vector<std::uint32_t>>& labels, std::size_t n_features,
                           std::size_t n_labels, const TrainOptions& options) {
  if (rows.size() != labels.size()) throw std::invalid_argument("train_logistic: rows and labels differ in length");
  if (!(options.c > 0) || !(options.tolerance > 0) || options.threads < 0)
    throw std::invalid_argument("train_logistic: c and tolerance must be > 0, threads >= 0");
  const std::size_t n = rows.size(), L = n_labels;
  std::vector<signed char> y(n * L, -1);
  std::vector<double> xtx(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto l : labels[i]) {
      if (l >= L) throw std::invalid_argument("train_logistic: label index out of range");
      y[i * L + l] = 1;
    }
    for (auto f : rows[i]->index)
      if (f >= n_features) throw std::invalid_argument("train_logistic: column index out of range");
    double s = 1.0;  // the bias feature
    for (float v : rows[i]->value) s += static_cast<double>(v) * v;
    xtx[i] = s;
  }
  LinearModel model(n_features, L);
  if (n == 0 || L == 0) return model;

  const Problem problem{rows, y, xtx, L, n_features, options};
  std::size_t groups = options.threads > 0 ? static_cast<std::size_t>(options.threads)
                                           : std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
  groups = std::min(groups, (L + 7) / 8);  // at least 8 labels a group
  if (groups <= 1) {
    train_group(problem, 0, L, model.row(0), model.stride());
    return model;
  }
  // Labels [bounds[g], bounds[g + 1]) form group g, trained into its own matrix by its own thread. Inner
  // bounds are rounded to multiples of 8 so that no group pads its rows more than the whole model would.
  std::vector<std::size_t> bounds(groups + 1, L);
  bounds[0] = 0;
  for (std::size_t g = 1; g < groups; ++g) bounds[g] = std::min(L, (L * g / groups + 4) / 8 * 8);
  std::vector<std::vector<float>> matrices(groups);
  auto train = [&](std::size_t g) {
    const std::size_t count = bounds[g + 1] - bounds[g];
    if (count == 0) return;
    matrices[g].assign((n_features + 1) * padded(count), 0.0f);
    train_group(problem, bounds[g], count, matrices[g].data(), padded(count));
  };
  std::vector<std::thread> helpers;
  std::size_t started = 1;
  for (; started < groups; ++started) {
    try {
      helpers.emplace_back(train, started);
    } catch (const std::system_error&) {
      break;  // no more threads: the calling thread trains the remaining groups
    }
  }
  train(0);
  for (std::size_t g = started; g < groups; ++g) train(g);
  for (auto& h : helpers) h.join();
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t count = bounds[g + 1] - bounds[g], stride = padded(count);
    if (count == 0) continue;
    for (std::size_t f = 0; f <= n_features; ++f)
      std::memcpy(model.row(f) + bounds[g], matrices[g].data() + f * stride, count * sizeof(float));
  }
  return model;
}

std::vector<double> CodeSuggester::confidences(std::string_view text) const {
  std::vector<double> out;
  if (codes_.empty()) return out;
  model_.confidences(tfidf(vocabulary_.count(text), idf_, vocabulary_), out);
  return out;
}

std::vector<CodeConfidence> CodeSuggester::suggest(std::string_view text, std::size_t k) const {
  const auto conf = confidences(text);
  std::vector<std::size_t> order(conf.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  k = std::min(k, order.size());
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                    [&](std::size_t a, std::size_t b) { return conf[a] != conf[b] ? conf[a] > conf[b] : a < b; });
  std::vector<CodeConfidence> out;
  for (std::size_t i = 0; i < k; ++i) out.push_back({codes_[order[i]], conf[order[i]]});
  return out;
}

std::vector<std::size_t> training_sample(const std::vector<TrainingSegment>& segments, std::size_t max,
                                         std::uint64_t seed, std::size_t min_per_code) {
  std::vector<std::size_t> coded;
  for (std::size_t i = 0; i < segments.size(); ++i)
    if (!segments[i].codes.empty()) coded.push_back(i);
  if (max == 0 || coded.size() <= max) return coded;
  auto place = [&](std::size_t i) {  // FNV-1a of group, NUL, text; then mixed with the seed (splitmix64)
    std::uint64_t h = detail::fnv(detail::kFnvOffset, segments[i].group);
    h = detail::fnv(h, std::string_view("\0", 1));
    h = detail::fnv(h, segments[i].text);
    return detail::mix(h + seed + 0x9e3779b97f4a7c15ull);
  };
  std::vector<std::pair<std::uint64_t, std::size_t>> order;
  order.reserve(coded.size());
  for (auto i : coded) order.emplace_back(place(i), i);
  std::sort(order.begin(), order.end());
  // Each code's segments, in hash order.
  std::map<std::string, std::vector<std::size_t>, bool (*)(std::string_view, std::string_view)> by_code(
      [](std::string_view a, std::string_view b) { return text::natural_less(a, b); });
  for (const auto& [h, i] : order)
    for (const auto& c : segments[i].codes) {
      auto& list = by_code[c];
      if (list.empty() || list.back() != i) list.push_back(i);
    }
  std::vector<const std::pair<const std::string, std::vector<std::size_t>>*> codes;
  for (const auto& entry : by_code) codes.push_back(&entry);
  std::stable_sort(codes.begin(), codes.end(), [](const auto* a, const auto* b) { return a->second.size() < b->second.size(); });
  std::vector<char> taken(segments.size(), 0);
  std::vector<std::size_t> have;  // per code of `codes`: segments of it taken so far
  std::size_t count = 0;
  const std::size_t quota = std::max<std::size_t>({1, max / (2 * codes.size()), min_per_code});
  for (const auto* code : codes) {
    std::size_t mine = 0;
    for (auto i : code->second) mine += taken[i];
    for (auto i : code->second) {
      if (mine >= quota || count >= max) break;
      if (taken[i]) continue;
      taken[i] = 1;
      ++mine;
      ++count;
    }
  }
  for (const auto& [h, i] : order) {
    if (count >= max) break;
    if (!taken[i]) {
      taken[i] = 1;
      ++count;
    }
  }
  std::vector<std::size_t> out;
  out.reserve(count);
  for (auto i : coded)
    if (taken[i]) out.push_back(i);
  return out;
}

CodeSuggester train_suggester(const std::vector<TrainingSegment>& all_segments, const SuggestOptions& options) {
  std::vector<TrainingSegment> sampled;
  std::size_t coded = 0;
  for (const auto& seg : all_segments) coded += !seg.codes.empty();
  if (options.max_segments) {
    if (coded > options.max_segments)
      for (auto i : training_sample(all_segments, options.max_segments, options.training.seed,
                                    static_cast<std::size_t>(std::max(options.min_support, 1))))
        sampled.push_back(all_segments[i]);
  }
  const auto& segments = sampled.empty() ? all_segments : sampled;
  CodeSuggester s;
  s.coded_segments_ = coded;
  s.vocabulary_ = Vocabulary(options.features);
  std::vector<std::pair<std::string, std::size_t>> support;
  for (const auto& seg : segments)
    for (const auto& c : seg.codes) {
      auto it = std::find_if(support.begin(), support.end(), [&](const auto& p) { return p.first == c; });
      if (it == support.end()) support.emplace_back(c, 1);
      else ++it->second;
    }
  std::sort(support.begin(), support.end(), [](const auto& a, const auto& b) { return text::natural_less(a.first, b.first); });
  for (const auto& [code, count] : support)
    if (count >= static_cast<std::size_t>(std::max(options.min_support, 1))) {
      s.codes_.push_back(code);
      s.support_.push_back(count);
    }
  if (s.codes_.empty()) return s;

  std::vector<TermCounts> counts;
  std::vector<std::vector<std::uint32_t>> labels;
  for (const auto& seg : segments) {
    if (seg.codes.empty()) continue;
    counts.push_back(s.vocabulary_.add(seg.text));
    std::vector<std::uint32_t> l;
    for (const auto& c : seg.codes) {
      auto it = std::find(s.codes_.begin(), s.codes_.end(), c);
      if (it != s.codes_.end()) l.push_back(static_cast<std::uint32_t>(it - s.codes_.begin()));
    }
    labels.push_back(std::move(l));
  }
  s.segments_ = counts.size();
  std::vector<const TermCounts*> docs;
  for (const auto& c : counts) docs.push_back(&c);
  s.idf_ = fit_idf(docs, s.vocabulary_.size(), options.features.min_df);
  std::vector<SparseVector> vectors;
  vectors.reserve(counts.size());
  for (auto& c : counts) {  // each segment's counts freed once weighted: the two never all held at once
    vectors.push_back(tfidf(c, s.idf_, s.vocabulary_));
    c = TermCounts();
  }
  std::vector<const SparseVector*> rows;
  for (const auto& v : vectors) rows.push_back(&v);
  s.model_ = train_logistic(rows, labels, s.idf_.columns, s.codes_.size(), options.training);
  return s;
}

}  // namespace qualrank::suggest
