// Ranking analysis end to end: 1,000 participants (two groups of 500) x 20 items x 10,000 bootstrap
// resamples, through analyse_rankings (group statistics, Kendall's W, Spearman/Kendall, bootstrap CI,
// Mann-Whitney + Holm + Cliff's delta per item). Target: under 2 s on one core.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <random>

#include "qualrank/analysis/rankings/ranking.h"

namespace {

qualrank::RankingQuestionInput generate(int participants, int items, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  qualrank::RankingQuestionInput q;
  q.question = "Q";
  for (int i = 0; i < items; ++i) q.items.push_back(std::string("I.").append(std::to_string(i + 1)));
  for (int p = 0; p < participants; ++p) {
    std::vector<std::string> order = q.items;
    std::shuffle(order.begin(), order.end(), rng);
    qualrank::ParticipantRanking r;
    r.participant = std::to_string(p);
    r.participant.insert(r.participant.begin(), 'P');
    r.question = "Q";
    r.attributes["role"] = p % 2 ? "developer" : "user";
    for (const auto& item : order) r.tiers.push_back({item});
    if (p % 5 == 0) r.tiers.resize(3);  // some top-3 answers
    q.answers.push_back(std::move(r));
  }
  return q;
}

void BM_AnalyseRankings(benchmark::State& state) {
  auto q = generate(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), 1);
  qualrank::RankingOptions opts;
  opts.resamples = static_cast<int>(state.range(2));
  for (auto _ : state) {
    qualrank::Diagnostics d;
    auto a = qualrank::analyse_rankings({q}, {"user", "developer"}, opts, d);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_AnalyseRankings)->Args({1000, 20, 10000})->Unit(benchmark::kMillisecond)->MinTime(3.0);

}  // namespace

BENCHMARK_MAIN();
