// The code suggester's classifier: one-vs-rest L2-regularised logistic regression by dual coordinate descent.
//
// For each label l, with y_il = +1 when row i carries l and -1 otherwise, the primal problem is
//   min_w 0.5 |w|^2 + C sum_i log(1 + exp(-y_il w . x_i))
// (x_i with a constant bias feature 1 appended). Its dual has one variable 0 < alpha_il < C per row, and
// w_l = sum_i alpha_il y_il x_i. Yu, Huang & Lin (2011, Machine Learning 85:41-75, Algorithm 5) minimise the
// dual one variable at a time, each one-variable problem by a safeguarded Newton method; this is a port of
// LIBLINEAR 2.x's solve_l2r_lr_dual (its solver -s 7): the same initial alphas, the choice between the two
// symmetric sub-problems, the inner Newton tolerance that tightens as the outer iterations converge, and the
// stopping rule max |gradient| < tolerance over all variables of an epoch. One difference: the gradient is
// measured at the variable's current value (LIBLINEAR measures it after restarting Newton's method away from C,
// which overstates it for variables near C / 2 and keeps it iterating for several epochs after the solution
// has stopped moving). Rows are visited in an order shuffled each epoch by stats::Rng(seed), so training is
// deterministic.
//
// All labels are trained in the same pass: the weights (float) are stored feature-major, each feature's row of
// labels padded to a multiple of 8, so one sweep over a segment's non-zeros gives every label's margin and one
// more applies every label's update. The labels' problems stay independent; only the loop order is shared.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "qualrank/analysis/stats.h"
#include "qualrank/analysis/suggest.h"
#include "qualrank/util/text.h"

namespace qualrank::suggest {
namespace {

// Rows of the weight matrix are visited in the order of a segment's features, which the hardware prefetcher
// cannot guess: ask for the row kPrefetch features ahead.
constexpr std::size_t kPrefetch = 8;

inline void prefetch_row(const float* row, std::size_t stride) {
  const char* p = reinterpret_cast<const char*>(row);
  for (std::size_t off = 0; off < stride * sizeof(float); off += 64) __builtin_prefetch(p + off);
}

// y[0..n) += a x[0..n), n a multiple of 8, in blocks the compiler turns into whole vector operations.
inline void axpy(float* __restrict y, const float* __restrict x, float a, std::size_t n) {
  for (std::size_t l = 0; l < n; l += 8)
    for (std::size_t j = 0; j < 8; ++j) y[l + j] += a * x[l + j];
}

}  // namespace

LinearModel::LinearModel(std::size_t features, std::size_t labels)
    : features_(features), labels_(labels), stride_((labels + 7) / 8 * 8), weights_((features + 1) * stride_, 0.0f) {}

void LinearModel::scores(const SparseVector& x, std::vector<double>& out) const {
  out.assign(labels_, 0.0);
  if (labels_ == 0) return;
  thread_local std::vector<float> acc;
  acc.assign(bias(), bias() + stride_);
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
  if (!(options.c > 0) || !(options.tolerance > 0)) throw std::invalid_argument("train_logistic: c and tolerance must be > 0");
  const std::size_t n = rows.size(), L = n_labels;
  std::vector<signed char> y(n * L, -1);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto l : labels[i]) {
      if (l >= L) throw std::invalid_argument("train_logistic: label index out of range");
      y[i * L + l] = 1;
    }
    for (auto f : rows[i]->index)
      if (f >= n_features) throw std::invalid_argument("train_logistic: column index out of range");
  }
  LinearModel model(n_features, L);
  if (n == 0 || L == 0) return model;

  const double C = options.c;
  // alpha[2 (i L + l)] = alpha_il, alpha[2 (i L + l) + 1] = C - alpha_il (kept apart for precision near C).
  std::vector<double> alpha(2 * n * L);
  const double alpha0 = std::min(0.001 * C, 1e-8);
  for (std::size_t k = 0; k < n * L; ++k) {
    alpha[2 * k] = alpha0;
    alpha[2 * k + 1] = C - alpha0;
  }
  // log(alpha / (C - alpha)) per variable, kept from the last Newton step so most visits need no log().
  std::vector<double> log_ratio(n * L, std::log(alpha0 / (C - alpha0)));
  std::vector<double> xtx(n);
  const std::size_t stride = model.stride();
  std::vector<float> delta(stride, 0.0f);  // the padding lanes stay 0
  auto add_row = [&](const SparseVector& x, const float* d) {
    for (std::size_t k = 0; k < x.index.size(); ++k) axpy(model.row(x.index[k]), d, x.value[k], stride);
    axpy(model.row(n_features), d, 1.0f, stride);
  };
  for (std::size_t i = 0; i < n; ++i) {
    double s = 1.0;  // the bias feature
    for (float v : rows[i]->value) s += static_cast<double>(v) * v;
    xtx[i] = s;
    for (std::size_t l = 0; l < L; ++l) delta[l] = static_cast<float>(y[i * L + l] * alpha0);
    add_row(*rows[i], delta.data());
  }

  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  stats::Rng rng(options.seed);
  const int max_inner = 100;
  const double eta = 0.1;
  double inner_eps = 1e-2;
  const double inner_eps_min = std::min(1e-8, options.tolerance);
  std::vector<float> margin(stride);
  std::vector<std::size_t> changed;
  changed.reserve(L);
  for (int epoch = 0; epoch < options.max_epochs; ++epoch) {
    for (std::size_t i = 0; i + 1 < n; ++i) std::swap(order[i], order[i + rng.uniform_index(n - i)]);
    double g_max = 0;
    std::size_t newton_steps = 0;
    for (std::size_t i : order) {
      const SparseVector& x = *rows[i];
      const float* b = model.row(n_features);
      std::copy(b, b + stride, margin.begin());
      const std::size_t nnz = x.index.size();
      for (std::size_t k = 0; k < nnz; ++k) {
        if (k + kPrefetch < nnz) prefetch_row(model.row(x.index[k + kPrefetch]), stride);
        axpy(margin.data(), model.row(x.index[k]), x.value[k], stride);
      }
      changed.clear();
      const double a = xtx[i];
      for (std::size_t l = 0; l < L; ++l) {
        const double yi = y[i * L + l];
        const double bb = yi * margin[l];
        double* pair = &alpha[2 * (i * L + l)];
        std::size_t ind1 = 0, ind2 = 1;
        double sign = 1;
        if (0.5 * a * (pair[ind2] - pair[ind1]) + bb < 0) {
          ind1 = 1;
          ind2 = 0;
          sign = -1;
        }
        // g(z) = z log z + (C - z) log(C - z) + 0.5 a (z - alpha_old)^2 + sign b (z - alpha_old)
        const double alpha_old = pair[ind1];
        double log_z = ind1 == 0 ? log_ratio[i * L + l] : -log_ratio[i * L + l];  // log(z / (C - z))
        // The stopping rule measures the sub-problem's gradient at alpha_old (LIBLINEAR measures it after
        // moving z away from C, which overstates it for variables near C / 2 and delays the stop).
        g_max = std::max(g_max, std::fabs(sign * bb + log_z));
        double z = alpha_old;
        if (C - z < 0.5 * C) {
          z = 0.1 * z;
          log_z = std::log(z / (C - z));
        }
        double gp = a * (z - alpha_old) + sign * bb + log_z;
        int inner = 0;
        while (inner <= max_inner && std::fabs(gp) >= inner_eps) {
          const double gpp = a + C / (C - z) / z;
          const double next = z - gp / gpp;
          z = next <= 0 ? z * eta : next;
          log_z = std::log(z / (C - z));
          gp = a * (z - alpha_old) + sign * bb + log_z;
          ++inner;
        }
        newton_steps += static_cast<std::size_t>(inner);
        if (inner > 0) {
          pair[ind1] = z;
          pair[ind2] = C - z;
          log_ratio[i * L + l] = ind1 == 0 ? log_z : -log_z;
          delta[l] = static_cast<float>(sign * (z - alpha_old) * yi);
          if (delta[l] != 0.0f) changed.push_back(l);
        } else {
          delta[l] = 0.0f;
        }
      }
      if (changed.empty()) continue;
      if (changed.size() * 4 >= L) {
        add_row(x, delta.data());
      } else {  // few labels moved: update only their weights
        for (std::size_t k = 0; k < x.index.size(); ++k) {
          float* w = model.row(x.index[k]);
          for (auto l : changed) w[l] += x.value[k] * delta[l];
        }
        float* bias = model.row(n_features);
        for (auto l : changed) bias[l] += delta[l];
      }
    }
    if (g_max < options.tolerance) break;
    if (newton_steps <= n * L / 10) inner_eps = std::max(inner_eps_min, 0.1 * inner_eps);
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

CodeSuggester train_suggester(const std::vector<TrainingSegment>& segments, const SuggestOptions& options) {
  CodeSuggester s;
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
  for (const auto& c : counts) vectors.push_back(tfidf(c, s.idf_, s.vocabulary_));
  std::vector<const SparseVector*> rows;
  for (const auto& v : vectors) rows.push_back(&v);
  s.model_ = train_logistic(rows, labels, s.idf_.columns, s.codes_.size(), options.training);
  return s;
}

}  // namespace qualrank::suggest
