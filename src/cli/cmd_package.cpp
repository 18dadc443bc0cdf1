// `qualrank package`: a pseudonymised replication package (folder and zip) of the workspace;
// `qualrank package verify DIR`: re-runs the analysis from a package and names every output that differs.
// See docs/package.md.
#include <iostream>

#include "cli.h"
#include "qualrank/analysis/coder_selection.h"
#include "qualrank/model/workspace.h"
#include "qualrank/analysis/stats.h"
#include "qualrank/report/package/package.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

int cmd_package_verify(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("package verify options");
  desc.add_options()("dir", po::value<std::string>(), "the package folder (relative to the workspace)");
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "package verify", "DIR", desc, args, vm, rc, &pos)) return rc;
  if (!vm.count("dir")) {
    *ctx.err << "qualrank package verify: error: say which package: qualrank package verify DIR\n";
    return 2;
  }
  const auto& given = vm["dir"].as<std::string>();
  std::filesystem::path dir = given_path(ctx, given);
  Diagnostics diags;
  VerifySummary summary;
  bool ok = verify_package(dir, diags, summary);
  report_diagnostics(ctx, diags);
  if (!ok) {
    *ctx.err << "qualrank package verify: " << given << " is not verified (see above)\n";
    return 1;
  }
  if (!ctx.quiet)
    *ctx.out << "qualrank package verify: ok: " << summary.checksums << " files match SHA256SUMS, " << summary.outputs
             << " outputs re-made byte for byte\n";
  return 0;
}

}  // namespace

int cmd_package(Context& ctx, const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "verify")
    return cmd_package_verify(ctx, std::vector<std::string>(args.begin() + 1, args.end()));
  po::options_description desc("package options");
  desc.add_options()
      ("output,o", po::value<std::string>()->default_value("package"),
       "the package folder (relative to the workspace); its zip is written beside it as FOLDER.zip, its members "
       "under package/ whatever FOLDER is")
      ("names", po::value<std::string>(),
       "the names list (CSV: name[,pseudonym][,kind]); default: pseudonyms.csv in the workspace when it exists")
      ("key", po::value<std::string>(), "write the key (real name -> pseudonym, CSV) here; never inside the package")
      ("resamples", po::value<int>()->default_value(10000), "bootstrap resamples for the rankings' CI (as report)")
      ("seed", po::value<std::uint64_t>()->default_value(20250101), "bootstrap seed (as report)")
      ("coder", po::value<std::string>()->default_value("consensus"), "whose coding is counted (as report)");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "package",
                     "[-o DIR] [--names FILE.csv] [--key FILE.csv] [--resamples N] [--seed S] [--coder C]\n"
                     "       qualrank package verify DIR",
                     desc, args, vm, rc))
    return rc;
  PackageOptions opts;
  auto output = output_path(ctx, "package", vm, "output");
  if (!output) return 1;
  if (vm["output"].defaulted() && !default_output(ctx, "package", "package.zip")) return 1;
  opts.output_dir = *output;
  if (vm.count("names")) {
    std::string where;  // from the workspace, or the current folder (input_path)
    const auto found = input_path(ctx, vm["names"].as<std::string>(), &where);
    if (!found || !where.empty()) {
      *ctx.err << vm["names"].as<std::string>() << ": error: " << where << '\n';
      return 1;
    }
    opts.names_file = *found;
  }
  else if (files::exists(ctx.workspace / "pseudonyms.csv")) {
    if (!files::resolved_inside(ctx.workspace, ctx.workspace / "pseudonyms.csv")) {
      *ctx.err << "pseudonyms.csv: error: " << files::kOutsideMessage << '\n';
      return 1;
    }
    opts.names_file = ctx.workspace / "pseudonyms.csv";
  }
  if (vm.count("key")) opts.key_file = given_path(ctx, vm["key"].as<std::string>());
  opts.resamples = vm["resamples"].as<int>();
  opts.seed = vm["seed"].as<std::uint64_t>();
  opts.coder = vm["coder"].as<std::string>();
  if (opts.resamples < 0 || opts.resamples > stats::kMaxResamples) {
    *ctx.err << "qualrank package: error: --resamples must be 0 to " << stats::kMaxResamples << "\n";
    return 2;
  }
  if (const std::string f = text::fold_case(opts.coder); f != "consensus" && f != "all") {
    // A coder's name is checked against the workspace as written (the package counts it by its pseudonym).
    Diagnostics load;
    if (auto ws = load_workspace(ctx.workspace, load)) {
      if (auto why = coder_selection_problem(*ws, opts.coder); !why.empty()) {
        *ctx.err << "qualrank package: error: --coder: " << why << "\n(see 'qualrank package --help')\n";
        return 2;
      }
    }
  }
  Diagnostics diags;
  PackageSummary summary;
  bool ok = build_package(ctx.workspace, opts, diags, summary);
  report_diagnostics(ctx, diags);
  if (!ok) {
    *ctx.err << "qualrank package: nothing written\n";
    return 1;
  }
  if (!opts.names_file)
    *ctx.err << "qualrank package: warning: no names list (--names, or pseudonyms.csv in the workspace): only "
                "e-mail addresses were replaced\n";
  if (!ctx.quiet) {
    *ctx.out << "qualrank package: wrote " << opts.output_dir.string() << "/ (" << summary.files.size()
             << " files) and " << summary.zip.filename().string() << "\n  pseudonymised: " << summary.names_found
             << " of " << summary.names_listed << " listed names found, " << summary.addresses
             << " e-mail addresses, " << summary.replacements << " replacements\n";
    if (summary.near_misses > 0)
      *ctx.err << "qualrank package: warning: " << summary.near_misses << " near miss" << (summary.near_misses == 1 ? "" : "es")
               << " (a listed name without its accents) left in the package as written: see the warnings above; list those"
                  " spellings too if they are the same names\n";
    if (opts.key_file) *ctx.out << "  key: " << opts.key_file->string() << " (keep it apart from the package)\n";
  }
  return 0;
}

}  // namespace qualrank::cli
