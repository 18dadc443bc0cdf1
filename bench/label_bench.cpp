// Benchmarks for the corpus labeller's model (src/tui/label_model.cpp): what one key costs, from the key's
// action to the document laid out for an 80-column screen (what the front end then draws), no terminal.
// Requirement (issue 30): under 50 ms per key with 100,000 documents in the corpus.
//  * BM_Open: opening the labeller (the sample indexed in the stored sources, matched keywords read).
//  * BM_KeyNext: `n`, the next document (not yet parsed: its line read and parsed) and its layout.
//  * BM_KeyNextUnlabelled: Tab, the next document without a label (half the sample is labelled) and its layout.
//  * BM_KeyLabelUndo: `l` with a node (saved at once: the lock, the coder's file re-read and replaced) and its
//    layout, then `u` (saved again) and its layout: two keys per iteration.
//  * BM_KeySearch: `/` for a word found in about one document in five (documents parsed until one holds it).
// The workspace comes from bench/label_timing.sh (LABEL_BENCH_WORKSPACE): a generated corpus of 100,000
// documents, a sample, half of it labelled by coder "bench".
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <optional>

#include "label/label_model.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"

using namespace qualrank;

namespace {

struct Setup {
  std::filesystem::path ws;
  std::optional<Workspace> workspace;
  std::unique_ptr<TaxonomyVersion> version;
  Setup() {
    const char* dir = std::getenv("LABEL_BENCH_WORKSPACE");
    if (!dir) {
      std::cerr << "set LABEL_BENCH_WORKSPACE (bench/label_timing.sh does)\n";
      std::exit(2);
    }
    ws = dir;
    Diagnostics d;
    workspace = load_workspace_design(ws, d);
    if (workspace) version = taxonomy_at(*workspace, std::nullopt, d);
    if (!version) {
      d.print(std::cerr);
      std::exit(2);
    }
  }
  tui::LabelModel open() {
    Diagnostics d;
    auto m = tui::LabelModel::open(ws, "bench", "main", version->taxonomy, version->resolve, d);
    if (!m) {
      d.print(std::cerr);
      std::exit(2);
    }
    return std::move(*m);
  }
};

Setup& setup() {
  static Setup s;
  return s;
}

void BM_Open(benchmark::State& state) {
  for (auto _ : state) {
    auto m = setup().open();
    benchmark::DoNotOptimize(m.size());
  }
}
BENCHMARK(BM_Open)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_KeyNext(benchmark::State& state) {
  auto m = setup().open();
  for (auto _ : state) {
    if (m.current() + 1 >= m.size()) m.go(0);
    m.next();
    benchmark::DoNotOptimize(m.layout(80).size());
  }
}
BENCHMARK(BM_KeyNext)->Unit(benchmark::kMillisecond);

void BM_KeyNextUnlabelled(benchmark::State& state) {
  auto m = setup().open();
  for (auto _ : state) {
    m.next_unlabelled();
    benchmark::DoNotOptimize(m.layout(80).size());
  }
}
BENCHMARK(BM_KeyNextUnlabelled)->Unit(benchmark::kMillisecond);

void BM_KeyLabelUndo(benchmark::State& state) {
  auto m = setup().open();
  for (auto _ : state) {
    m.label_current({"COM.1"});
    benchmark::DoNotOptimize(m.layout(80).size());
    m.undo();
    benchmark::DoNotOptimize(m.layout(80).size());
  }
  state.counters["keys"] = benchmark::Counter(2.0 * static_cast<double>(state.iterations()));
}
BENCHMARK(BM_KeyLabelUndo)->Unit(benchmark::kMillisecond);

void BM_KeySearch(benchmark::State& state) {
  auto m = setup().open();
  for (auto _ : state) {
    m.search("deadlock");
    benchmark::DoNotOptimize(m.layout(80).size());
  }
}
BENCHMARK(BM_KeySearch)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
