// Codebook speed. The issue names no figure beyond "`qualrank codebook` on the bundled study should take well
// under a second"; these measure (1) the whole codebook of the bundled study (load + crosstabs + workbook) and
// (2) the crosstabs alone on a synthetic study 100x larger (16,000 coded segments, 1,900 participants).
// Run: build/bench/codebook_bench
#include <benchmark/benchmark.h>

#include <filesystem>
#include <random>

#include "qualrank/analysis/crosstab.h"
#include "qualrank/analysis/study.h"
#include "qualrank/report/outputs/codebook_workbook.h"

namespace {

using namespace qualrank;

// The repository root (the bundled study): this file's folder's parent (CMake compiles with absolute paths).
const std::filesystem::path kRepo = std::filesystem::path(__FILE__).parent_path().parent_path();

void BM_codebook_bundled_study(benchmark::State& state) {
  auto out = std::filesystem::temp_directory_path() / "qualrank-codebook-bench.xlsx";
  for (auto _ : state) {
    Diagnostics diags;
    StudyOptions options;
    options.coding.suggestions = false;
    auto study = load_study(kRepo, diags, options);
    if (!study || !write_codebook_workbook(*study, CodebookOptions{}, out, diags)) state.SkipWithError("failed");
  }
  std::filesystem::remove(out);
}
BENCHMARK(BM_codebook_bundled_study)->Unit(benchmark::kMillisecond);

void BM_crosstabs_100x(benchmark::State& state) {
  Diagnostics diags;
  StudyOptions options;
  options.coding.suggestions = false;
  auto study = load_study(kRepo, diags, options);
  if (!study) {
    state.SkipWithError("cannot load the bundled study");
    return;
  }
  // 100 copies of every participant and segment, under new participant ids.
  auto base_participants = participants_of(study->workspace);
  std::vector<CrosstabParticipant> participants;
  std::vector<CodedSegment> segments;
  for (int copy = 0; copy < 100; ++copy) {
    std::string suffix = "-";
    suffix += std::to_string(copy);
    for (auto p : base_participants) {
      p.id += suffix;
      participants.push_back(std::move(p));
    }
    for (const auto& s : study->segments) {
      if (s.codes.empty()) continue;
      CodedSegment c = s;
      c.participant += suffix;
      segments.push_back(std::move(c));
    }
  }
  auto groups = study_groups(participants, study->workspace.guideline);
  for (auto _ : state) {
    auto t = node_crosstab(study->taxonomy(), segments, participants, groups);
    auto co = cooccurrence(study->taxonomy(), segments, 2);
    benchmark::DoNotOptimize(t.nodes.data());
    benchmark::DoNotOptimize(co.counts.data());
  }
  state.counters["segments"] = static_cast<double>(segments.size());
  state.counters["participants"] = static_cast<double>(participants.size());
}
BENCHMARK(BM_crosstabs_100x)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
