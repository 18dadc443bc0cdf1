// Benchmarks for `qualrank agreement` on label tables (issue 6: the CSV parser and counting are the hot
// path; ~40,000 units x 7 coders end to end in under 100 ms; 1,000,000 units x 10 coders in under 3 s and
// under 1 GB).
//  * BM_LabelTableEndToEnd/U/C: a generated label table (U units x C coders + a consensus column, ~20
//    taxonomy-like categories, coders agreeing ~75%, 1% empty cells) written to a temp file; each iteration
//    reads the file, parses and interns it (read_label_files), and computes Fleiss' kappa and Krippendorff's
//    alpha. Counters: MB/s of CSV and the process's peak resident memory (getrusage).
//  * BM_LabelReport/U/C: the same plus everything `qualrank agreement` reports by default (pairs, per
//    category, coder vs consensus, 1,000-resample bootstrap of both statistics).
//  * BM_Bootstrap/U/C: the joint bootstrap alone (1,000 resamples, automatic thread count: up to 2; wall
//    time, as it runs on several threads).
//  * BM_Jackknife/U/C: the jackknife intervals of both statistics (what `qualrank agreement` reports instead
//    of the bootstrap from 100,000 units on; one thread): about 110 ms of CPU on 1,000,000 x 10 (on a
//    machine with load average 8 on 2 cores), where BM_Bootstrap takes about 2.5 s of CPU.
// `agreement_bench --write-table FILE UNITS CODERS` writes such a table for bench/agreement_timing.sh.
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "qualrank/analysis/agreement/agreement.h"
#include "qualrank/analysis/agreement/agreement_bootstrap.h"
#include "qualrank/analysis/agreement/agreement_jackknife.h"
#include "qualrank/analysis/agreement/label_table.h"
#include "qualrank/analysis/stats.h"

namespace fs = std::filesystem;
using namespace qualrank;

namespace {

// Writes a label table: Issue_ID, Label_1..Label_C, Final_Label. Deterministic (stats::Rng).
void write_table(const fs::path& path, int units, int coders) {
  static const char* kCategories[] = {"A.1", "A.2", "A.3", "A.4", "B.1", "B.2", "B.3", "B.4", "C.1", "C.2",
                                      "C.3", "C.4", "C.5", "C.6", "C.7", "C.8", "C.9", "C.10", "A.1.i", "C.1.iv"};
  const std::uint64_t k = sizeof kCategories / sizeof kCategories[0];
  static const char* kRepos[] = {"pytorch", "transformers", "vllm", "deepspeed", "megatron-lm", "jax", "mindspore"};
  stats::Rng rng(42);
  std::string out = "Issue_ID";
  for (int c = 1; c <= coders; ++c) out += ",Label_" + std::to_string(c);
  out += ",Final_Label\n";
  for (int u = 0; u < units; ++u) {
    const auto truth = kCategories[rng.uniform_index(k)];
    out += kRepos[rng.uniform_index(7)];
    out += '#';
    out += std::to_string(u + 1);
    for (int c = 0; c < coders; ++c) {
      out += ',';
      const double r = rng.uniform01();
      if (r < 0.01) continue;  // an empty cell: a missing rating
      out += r < 0.76 ? truth : kCategories[rng.uniform_index(k)];
    }
    out += ',';
    out += truth;
    out += '\n';
  }
  std::ofstream(path, std::ios::binary) << out;
}

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

// A generated table on disk, made once per size.
const fs::path& table_file(int units, int coders) {
  static std::map<std::pair<int, int>, fs::path> made;
  auto& path = made[{units, coders}];
  if (path.empty()) {
    path = fs::temp_directory_path() /
           ("qualrank-agreement-bench-" + std::to_string(units) + "x" + std::to_string(coders) + ".csv");
    write_table(path, units, coders);
  }
  return path;
}

LabelTable read(const fs::path& path) {
  Diagnostics diags;
  LabelTable table = read_label_files({path}, path.parent_path(), {}, {}, diags);
  if (diags.has_errors()) std::abort();
  return table;
}

void BM_LabelTableEndToEnd(benchmark::State& state) {
  const auto& path = table_file(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    LabelTable table = read(path);
    const auto fleiss = stats::fleiss_kappa(table.ratings);
    const double alpha = stats::krippendorff_alpha_nominal(table.ratings);
    benchmark::DoNotOptimize(fleiss.kappa + alpha);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(fs::file_size(path)));
  state.counters["peak_rss_MB"] = peak_rss_mb();
}
BENCHMARK(BM_LabelTableEndToEnd)->Args({40000, 7})->Args({1000000, 10})->Unit(benchmark::kMillisecond);

void BM_LabelReport(benchmark::State& state) {
  const auto& path = table_file(static_cast<int>(state.range(0)), static_cast<int>(state.range(1)));
  for (auto _ : state) {
    LabelTable table = read(path);
    Diagnostics diags;
    const LabelAgreement report = label_agreement(table, nullptr, {}, diags);
    benchmark::DoNotOptimize(report.fleiss_ci.first);
  }
  state.counters["peak_rss_MB"] = peak_rss_mb();
}
BENCHMARK(BM_LabelReport)->Args({40000, 7})->Args({1000000, 10})->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Bootstrap(benchmark::State& state) {
  const LabelTable table = read(table_file(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))));
  for (auto _ : state) {
    const auto ci = stats::bootstrap_agreement(table.ratings, 1000, 20250101);
    benchmark::DoNotOptimize(ci.fleiss_kappa.first);
  }
}
BENCHMARK(BM_Bootstrap)->Args({40000, 7})->Args({1000000, 10})->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Jackknife(benchmark::State& state) {
  const LabelTable table = read(table_file(static_cast<int>(state.range(0)), static_cast<int>(state.range(1))));
  for (auto _ : state) {
    const auto ci = stats::jackknife_agreement(table.ratings);
    benchmark::DoNotOptimize(ci.fleiss_kappa.first);
  }
}
BENCHMARK(BM_Jackknife)->Args({40000, 7})->Args({1000000, 10})->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "--write-table") {
    write_table(argv[2], std::atoi(argv[3]), std::atoi(argv[4]));
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  for (int units : {40000, 1000000})
    for (int coders : {7, 10}) {
      std::error_code ec;
      fs::remove(fs::temp_directory_path() /
                     ("qualrank-agreement-bench-" + std::to_string(units) + "x" + std::to_string(coders) + ".csv"),
                 ec);
    }
  return 0;
}
