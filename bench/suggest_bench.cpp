// Code suggester speed on a generated study: 10,000 coded segments of 30-60 words (a Zipf-distributed vocabulary
// of 5,000 words, with some accented words), 40 codes each signalled by a few of its 20 planted words, 500
// participants. Targets: `suggest --evaluate` (5-fold cross-validation by participant) under 5 s; suggesting for
// 1,000 turns under 0.5 s (with a trained suggester; training on the 10,000 segments is measured apart).
// Run: build/bench/suggest_bench
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "qualrank/analysis/stats.h"
#include "qualrank/analysis/suggest/suggest.h"

namespace {

using qualrank::stats::Rng;
using qualrank::suggest::TrainingSegment;

struct Study {
  std::vector<TrainingSegment> segments;
  std::vector<std::string> uncoded;  // 1,000 turn texts to suggest for
  std::size_t words = 0;

  Study() {
    Rng rng(42);
    static const char* syllables[] = {"ka", "to", "ri", "mem", "ory", "da", "ten", "sor", "pa", "per",
                                      "ins", "tall", "ing", "ver", "sion", "fa", "mi", "ly", "über", "größ",
                                      "ne", "lo", "qu", "an", "ti", "ze", "no", "de", "ca", "re"};
    auto word = [&](int parts) {
      std::string w;
      for (int p = 0; p < parts; ++p) w += syllables[rng.uniform_index(30)];
      return w;
    };
    std::vector<std::string> vocabulary;
    for (int i = 0; i < 5000; ++i) vocabulary.push_back(word(1 + static_cast<int>(rng.uniform_index(3))));
    // Zipf(1) over the vocabulary by inverse transform on the cumulative weights.
    std::vector<double> cumulative;
    double total = 0;
    for (int i = 0; i < 5000; ++i) cumulative.push_back(total += 1.0 / (i + 1));
    auto noise = [&]() -> const std::string& {
      const double u = rng.uniform01() * total;
      return vocabulary[static_cast<std::size_t>(std::lower_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin())];
    };
    std::vector<std::vector<std::string>> signal(40);
    for (auto& s : signal)
      for (int i = 0; i < 20; ++i) s.push_back(word(3));
    auto text = [&](const std::vector<std::size_t>& codes) {
      const std::size_t n = 30 + rng.uniform_index(31);
      std::string t;
      for (std::size_t i = 0; i < n; ++i) {
        const bool planted = !codes.empty() && rng.uniform_index(12) == 0;
        t += planted ? signal[codes[rng.uniform_index(codes.size())]][rng.uniform_index(20)] : noise();
        t += rng.uniform_index(10) == 0 ? ". " : " ";
      }
      words += n;
      return t;
    };
    for (int i = 0; i < 10000; ++i) {
      std::vector<std::size_t> codes = {rng.uniform_index(40)};
      if (rng.uniform_index(5) == 0) codes.push_back((codes[0] + 1 + rng.uniform_index(39)) % 40);
      TrainingSegment seg;
      seg.text = text(codes);
      for (auto c : codes) seg.codes.push_back("N." + std::to_string(c + 1));
      seg.group = "P" + std::to_string(i / 20);
      segments.push_back(std::move(seg));
    }
    for (int i = 0; i < 1000; ++i) uncoded.push_back(text({rng.uniform_index(40)}));
  }
};

const Study& study() {
  static Study s;
  return s;
}

void BM_Evaluate5Folds10kSegments(benchmark::State& state) {
  const auto& s = study();
  qualrank::suggest::Evaluation ev;
  for (auto _ : state) {
    qualrank::suggest::EvaluateOptions options;
    options.folds = 5;
    options.seed = 1;
    options.suggest.training.threads = static_cast<int>(state.range(0));
    ev = qualrank::suggest::evaluate(s.segments, options);
    benchmark::DoNotOptimize(ev);
  }
  state.counters["micro_f1"] = ev.micro.f1;
  state.counters["codes"] = static_cast<double>(ev.codes.size());
}
// Argument: training threads (the result is the same for any number).
BENCHMARK(BM_Evaluate5Folds10kSegments)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(2)->MeasureProcessCPUTime()->UseRealTime();

void BM_Train10kSegments(benchmark::State& state) {
  const auto& s = study();
  qualrank::suggest::SuggestOptions options;
  options.training.threads = static_cast<int>(state.range(0));
  options.max_segments = 0;  // all 10,000 (the default trains on a sample of 4,000)
  for (auto _ : state) {
    auto suggester = qualrank::suggest::train_suggester(s.segments, options);
    benchmark::DoNotOptimize(suggester);
  }
}
BENCHMARK(BM_Train10kSegments)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(3)->MeasureProcessCPUTime()->UseRealTime();

void BM_Suggest1000Turns(benchmark::State& state) {
  const auto& s = study();
  const auto suggester = qualrank::suggest::train_suggester(s.segments);
  for (auto _ : state) {
    for (const auto& t : s.uncoded) {
      auto top = suggester.suggest(t, 3);
      benchmark::DoNotOptimize(top);
    }
  }
  state.counters["turns"] = static_cast<double>(s.uncoded.size());
}
BENCHMARK(BM_Suggest1000Turns)->Unit(benchmark::kMillisecond);

void BM_Featurize10kSegments(benchmark::State& state) {
  const auto& s = study();
  for (auto _ : state) {
    qualrank::suggest::Vocabulary v;
    std::vector<qualrank::suggest::TermCounts> counts;
    std::size_t nnz = 0;
    for (const auto& seg : s.segments) {
      counts.push_back(v.add(seg.text));
      nnz += counts.back().ids.size();
    }
    state.PauseTiming();
    std::vector<const qualrank::suggest::TermCounts*> docs;
    for (const auto& c : counts) docs.push_back(&c);
    state.counters["features"] = static_cast<double>(v.size());
    state.counters["kept"] = static_cast<double>(qualrank::suggest::fit_idf(docs, v.size(), 2).columns);
    state.counters["nnz_per_segment"] = static_cast<double>(nnz) / static_cast<double>(s.segments.size());
    state.ResumeTiming();
  }
}
BENCHMARK(BM_Featurize10kSegments)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

BENCHMARK_MAIN();
