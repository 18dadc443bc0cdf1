// `qualrank saturation`: new codes per interview in interview order, the cumulative curve, and whether
// saturation was reached by Guest, Namey & Chen's (2020) base / run / threshold method, for the whole study
// and per role (analysis/saturation.h).
#include <iostream>

#include "cli.h"
#include "qualrank/analysis/coder_selection.h"
#include "qualrank/analysis/study.h"
#include "qualrank/report/latex/latex_tables.h"
#include "qualrank/report/outputs/saturation_output.h"
#include "qualrank/util/bury.h"

namespace qualrank::cli {

int cmd_saturation(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("saturation options");
  desc.add_options()
      ("base", po::value<int>()->default_value(4), "base size: the first N interviews whose codes are the denominator")
      ("run", po::value<int>()->default_value(2), "run length: the N interviews after the base (rolling) searched for new codes")
      ("threshold", po::value<double>()->default_value(0.05), "new information (new codes in a run / codes in the base) at or below which saturation is reached")
      ("level", po::value<int>()->default_value(0), "count codes at this taxonomy level (1 = the roots); 0 = the codes as applied")
      ("at", po::value<std::string>(), "taxonomy version to resolve codes in (default: the latest)")
      ("coder", po::value<std::string>()->default_value("consensus"), "whose coding counts: consensus, all, or a coder's name (as report)")
      ("format", po::value<std::string>()->default_value("table"), "table, json or latex (on stdout)");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "saturation", "[--base N] [--run N] [--threshold X] [--level L] [--coder consensus|all|NAME] [--format table|json|latex]", desc, args, vm, rc))
    return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "saturation", "format", format, {"table", "json", "latex"})) return 2;
  saturation::Parameters params{vm["base"].as<int>(), vm["run"].as<int>(), vm["threshold"].as<double>()};
  if (params.base < 1 || params.run < 1) {
    *ctx.err << "qualrank saturation: error: --base and --run must be at least 1\n";
    return 2;
  }
  if (!(params.threshold >= 0 && params.threshold <= 1)) {
    *ctx.err << "qualrank saturation: error: --threshold must lie between 0 and 1 (0.05 = 5%)\n";
    return 2;
  }
  int level = vm["level"].as<int>();
  Diagnostics diags;
  StudyOptions sopts;
  sopts.coding.suggestions = false;
  if (vm.count("at")) sopts.at = vm["at"].as<std::string>();
  auto study = load_study(ctx.workspace, diags, sopts);
  const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
  if (!study || diags.has_errors()) {
    report_diagnostics(ctx, diags);
    return 1;
  }
  report_diagnostics(ctx, diags);
  if (level < 0 || level > study->taxonomy().max_level()) {
    *ctx.err << "qualrank saturation: error: --level must be between 0 and " << study->taxonomy().max_level()
             << " (the taxonomy's deepest level), not " << level << '\n';
    return 2;
  }
  const std::string coder = vm["coder"].as<std::string>();
  if (auto why = coder_selection_problem(study->workspace, coder); !why.empty()) {
    *ctx.err << "qualrank saturation: error: --coder: " << why << "\n(see 'qualrank saturation --help')\n";
    return 2;
  }
  const CodingChoice coding = select_coding(study->segments, coder, study->consensus, true);
  if (!ctx.quiet) *ctx.err << "qualrank saturation: counting " << coding.describe() << '\n';
  auto analysis = analyse_saturation(*study, params, level);
  if (format == "json")
    *ctx.out << saturation_json(analysis).dump(2) << '\n';
  else if (format == "latex")
    *ctx.out << latex::concatenated(latex::saturation_tables(saturation_json(analysis)));
  else
    *ctx.out << saturation_table(analysis);
  return 0;
}

}  // namespace qualrank::cli
