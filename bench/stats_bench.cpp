// Benchmarks for the statistics module (src/analysis/stats.cpp, agreement_stats.cpp).
//  * BM_BootstrapSpearman: the production bootstrap case: 500 + 500 participants x 20 items,
//    10,000 resamples of participants within each group (requirement: < 2 s on one core).
//  * BM_FleissKappa / BM_KrippendorffAlpha / BM_PercentAgreement: 1,000,000 units x 10 coders
//    (requirement: well under 1 s each).
// Inputs are generated deterministically with stats::Rng.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "qualrank/analysis/agreement/agreement_stats.h"
#include "qualrank/analysis/stats.h"

namespace qs = qualrank::stats;

namespace {

// `participants` random rankings (permutations of 1..items, Fisher-Yates).
std::vector<std::vector<double>> random_rankings(int participants, int items, std::uint64_t seed) {
  qs::Rng rng(seed);
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(participants));
  for (auto& row : rows) {
    row.resize(static_cast<std::size_t>(items));
    std::iota(row.begin(), row.end(), 1.0);
    for (std::size_t i = row.size() - 1; i > 0; --i)
      std::swap(row[i], row[rng.uniform_index(i + 1)]);
  }
  return rows;
}

// units x coders codes over `categories`; each coder copies the unit's "true" category with
// probability 0.7, otherwise codes at random; `missing` = share of -1 entries.
qs::RatingTable random_table(int units, int coders, int categories, double missing,
                             std::uint64_t seed) {
  qs::Rng rng(seed);
  qs::RatingTable t{units, coders, categories, {}};
  t.codes.resize(static_cast<std::size_t>(units) * static_cast<std::size_t>(coders));
  std::size_t i = 0;
  const auto k = static_cast<std::uint64_t>(categories);
  for (int u = 0; u < units; ++u) {
    const auto truth = static_cast<int>(rng.uniform_index(k));
    for (int c = 0; c < coders; ++c, ++i) {
      if (rng.uniform01() < missing) {
        t.codes[i] = -1;
      } else {
        t.codes[i] = rng.uniform01() < 0.7 ? truth : static_cast<int>(rng.uniform_index(k));
      }
    }
  }
  return t;
}

void BM_BootstrapSpearman(benchmark::State& state) {
  const auto a = random_rankings(500, 20, 1);
  const auto b = random_rankings(500, 20, 2);
  const int resamples = static_cast<int>(state.range(0));
  for (auto _ : state) {
    auto rho = qs::bootstrap_spearman(a, b, resamples, 42);
    benchmark::DoNotOptimize(rho.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * resamples);
  state.SetLabel("500+500 participants x 20 items");
}
BENCHMARK(BM_BootstrapSpearman)->Arg(10000)->Unit(benchmark::kMillisecond)->MinTime(3.0);

void BM_FleissKappa(benchmark::State& state) {
  const auto t = random_table(1000000, 10, 5, 0.0, 3);
  for (auto _ : state) benchmark::DoNotOptimize(qs::fleiss_kappa(t).kappa);
  state.SetItemsProcessed(state.iterations() * t.units);
  state.SetLabel("1e6 units x 10 coders, complete");
}
BENCHMARK(BM_FleissKappa)->Unit(benchmark::kMillisecond);

void BM_KrippendorffAlpha(benchmark::State& state) {
  const auto t = random_table(1000000, 10, 5, 0.1, 4);
  for (auto _ : state) benchmark::DoNotOptimize(qs::krippendorff_alpha_nominal(t));
  state.SetItemsProcessed(state.iterations() * t.units);
  state.SetLabel("1e6 units x 10 coders, 10% missing");
}
BENCHMARK(BM_KrippendorffAlpha)->Unit(benchmark::kMillisecond);

void BM_PercentAgreement(benchmark::State& state) {
  const auto t = random_table(1000000, 10, 5, 0.1, 5);
  for (auto _ : state) benchmark::DoNotOptimize(qs::percent_agreement(t));
  state.SetItemsProcessed(state.iterations() * t.units);
}
BENCHMARK(BM_PercentAgreement)->Unit(benchmark::kMillisecond);

void BM_KendallTau(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  const auto r = random_rankings(2, n, 6);
  for (auto _ : state) benchmark::DoNotOptimize(qs::kendall_tau_b(r[0], r[1]).pvalue);
}
BENCHMARK(BM_KendallTau)->Arg(1000)->Arg(100000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
