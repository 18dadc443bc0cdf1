#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "cli.h"
#include "qualrank/analysis/stats.h"
#include "qualrank/report/study/study_report.h"

namespace qualrank::cli {

int cmd_report(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("report options");
  desc.add_options()
      ("output,o", po::value<std::string>()->default_value("reports"), "output folder (relative to the workspace)")
      ("resamples", po::value<int>()->default_value(10000), "bootstrap resamples for the rankings' CI")
      ("seed", po::value<std::uint64_t>()->default_value(20250101), "bootstrap seed (same seed, same bytes)")
      ("coder", po::value<std::string>()->default_value("consensus"), "whose coding the codebook and 'What is coded' count: consensus, all, or a coder's name");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "report", "[-o DIR] [--resamples N] [--seed S] [--coder consensus|all|NAME]   (global: -C DIR, --quiet, --verbose)", desc, args, vm, rc)) return rc;
  StudyReportOptions opts;
  auto output = output_path(ctx, "report", vm, "output");
  if (!output) return 1;
  opts.output_dir = *output;
  opts.resamples = vm["resamples"].as<int>();
  opts.seed = vm["seed"].as<std::uint64_t>();
  opts.coder = vm["coder"].as<std::string>();
  if (opts.resamples < 0 || opts.resamples > stats::kMaxResamples) {
    *ctx.err << "qualrank report: error: --resamples must be 0 to " << stats::kMaxResamples << "\n";
    return 2;
  }
  // Progress on a terminal only (not with --quiet); --verbose prints each step's timing anywhere.
  const bool progress = !ctx.quiet && ::isatty(STDERR_FILENO);
  std::ostream& err = *ctx.err;
  opts.on_step = [&](const std::string& step, bool done, double seconds) {
    if (ctx.verbose && done) err << "  " << std::fixed << std::setprecision(3) << seconds << " s  " << step << '\n';
    else if (progress && !done) err << "\r\033[K" << step << "…" << std::flush;
    if (progress && done && !ctx.verbose) err << "\r\033[K" << std::flush;
  };
  Diagnostics diags;
  StudyReportSummary summary;
  bool ok = build_study_report(ctx.workspace, opts, diags, summary);
  if (progress) err << "\r\033[K" << std::flush;
  diags.print(err);
  if (!summary.usage_error.empty()) {
    err << "qualrank report: error: " << summary.usage_error << "\n(see 'qualrank report --help')\n";
    return 2;
  }
  if (!ok) {
    if (summary.files.empty()) err << "qualrank report: nothing written\n";
    return 1;
  }
  if (!ctx.quiet) {
    // The LaTeX tables and the figures each in one line, where the first of them is: "  DIR/latex/ (37 tables)",
    // "  DIR/figures/ (120 files)".
    auto folder = [](const std::string& f) { return std::filesystem::path(f).parent_path().filename().string(); };
    const auto in = [&](const char* name) {
      return static_cast<std::size_t>(std::count_if(summary.files.begin(), summary.files.end(), [&](const std::string& f) { return folder(f) == name; }));
    };
    const std::size_t tables = in("latex"), figures = in("figures");
    *ctx.out << "qualrank report: wrote " << summary.files.size() - tables - figures << " files";
    if (tables) *ctx.out << (figures ? ", " : " and ") << tables << " LaTeX tables";
    if (figures) *ctx.out << " and " << figures << " figure files";
    *ctx.out << '\n';
    bool listed_tables = false, listed_figures = false;
    for (const auto& f : summary.files) {
      const std::string dir = std::filesystem::path(f).parent_path().string();
      if (folder(f) == "latex") {
        if (!listed_tables) *ctx.out << "  " << dir << "/ (" << tables << (tables == 1 ? " table)\n" : " tables)\n");
        listed_tables = true;
      } else if (folder(f) == "figures") {
        if (!listed_figures) *ctx.out << "  " << dir << "/ (" << figures << " files: SVG and PDF)\n";
        listed_figures = true;
      } else {
        *ctx.out << "  " << f << '\n';
      }
    }
    for (const auto& h : summary.headlines) *ctx.out << "  " << h << '\n';
  }
  return 0;
}

}  // namespace qualrank::cli
