// Auto-coding throughput: 500 keyword rules over generated transcript text (mostly ASCII English-like words
// with some accented and Greek words, ~5% of words being keywords). Target: >= 100 MB/s on one core.
// Run: build/bench/autocode_bench  (bytes_per_second is the figure).
#include <benchmark/benchmark.h>

#include <random>
#include <string>
#include <vector>

#include "qualrank/analysis/autocode.h"

namespace {

std::vector<std::string> vocabulary(std::mt19937_64& rng, std::size_t n) {
  static const char* syllables[] = {"ka", "to", "ri", "mem", "ory", "cu", "da", "ten", "sor", "grad", "pip", "ins",
                                    "tall", "shard", "ing", "quant", "ize", "node", "ver", "sion", "gpu", "over",
                                    "flow", "nan", "loss", "ck", "pt", "über", "größe", "λόγος"};
  std::vector<std::string> words;
  for (std::size_t i = 0; i < n; ++i) {
    std::string w;
    int parts = 1 + static_cast<int>(rng() % 3);
    for (int p = 0; p < parts; ++p) w += syllables[rng() % (sizeof(syllables) / sizeof(*syllables))];
    words.push_back(w);
  }
  return words;
}

struct Corpus {
  std::vector<qualrank::KeywordRule> rules;
  std::string text;
  Corpus() {
    std::mt19937_64 rng(42);
    auto words = vocabulary(rng, 4000);
    for (int i = 0; i < 500; ++i) {
      std::string k = words[rng() % words.size()];
      if (i % 3 == 0) k += " " + words[rng() % words.size()];  // phrases
      rules.push_back({k, "N." + std::to_string(i % 90)});
    }
    while (text.size() < (32u << 20)) {
      if (rng() % 20 == 0) text += rules[rng() % rules.size()].keyword;
      else text += words[rng() % words.size()];
      text += (rng() % 12 == 0) ? ".\n" : " ";
    }
  }
};

const Corpus& corpus() {
  static Corpus c;
  return c;
}

void BM_KeywordScan500Rules(benchmark::State& state) {
  const auto& c = corpus();
  qualrank::KeywordMatcher m(c.rules);
  std::size_t matches = 0;
  for (auto _ : state) {
    matches = m.scan(c.text, [](std::size_t) {});
    benchmark::DoNotOptimize(matches);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(c.text.size()));
  state.counters["matches"] = static_cast<double>(matches);
}
BENCHMARK(BM_KeywordScan500Rules)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_SuggestPerTurn(benchmark::State& state) {
  // The way `qualrank code` uses it: one suggest() call per turn of ~400 bytes.
  const auto& c = corpus();
  qualrank::KeywordMatcher m(c.rules);
  std::size_t bytes = 0;
  for (auto _ : state) {
    for (std::size_t off = 0; off + 400 <= c.text.size(); off += 400) {
      auto s = m.suggest(std::string_view(c.text).substr(off, 400));
      benchmark::DoNotOptimize(s);
    }
    bytes += c.text.size();
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_SuggestPerTurn)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_BuildAutomaton500Rules(benchmark::State& state) {
  const auto& c = corpus();
  for (auto _ : state) {
    qualrank::KeywordMatcher m(c.rules);
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK(BM_BuildAutomaton500Rules)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
