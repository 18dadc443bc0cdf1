#include <iostream>

#include "../cli.h"
#include "qualrank/analysis/study.h"
#include "qualrank/report/outputs/segments_output.h"
#include "qualrank/util/bury.h"

namespace qualrank::cli {

int cmd_code(Context& ctx, const std::vector<std::string>& args) {
  if (!args.empty() && (args[0] == "add" || args[0] == "remove" || args[0] == "exemplar"))
    return cmd_code_edit(ctx, args[0], std::vector<std::string>(args.begin() + 1, args.end()));
  po::options_description desc("code options");
  desc.add_options()
      ("format", po::value<std::string>()->default_value("table"), "json, csv or table")
      ("at", po::value<std::string>(), "map codes to this taxonomy version (default: the latest)")
      ("all", "also list participant turns without codes or suggestions")
      ("no-suggestions", "do not compute keyword suggestions");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "code",
                     "[--format json|csv|table] [--at VERSION] [--all] [--no-suggestions]\n"
                     "       qualrank code add --transcript FILE (--turn N | --line N) [--span TEXT] --node ID[,ID] [--memo TEXT] [--coder NAME]\n"
                     "       qualrank code remove --transcript FILE (--turn N | --line N) [--span TEXT] --node ID[,ID] [--coder NAME]\n"
                     "       qualrank code exemplar --transcript FILE (--turn N | --line N) [--span TEXT] --node ID [--off] [--coder NAME]",
                     desc, args, vm, rc))
    return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "code", "format", format, {"json", "csv", "table"})) return 2;
  Diagnostics diags;
  StudyOptions opts;
  if (vm.count("at")) opts.at = vm["at"].as<std::string>();
  opts.coding.include_uncoded = vm.count("all") > 0;
  opts.coding.suggestions = vm.count("no-suggestions") == 0;
  auto study = load_study(ctx.workspace, diags, opts);
  const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
  if (!study || diags.has_errors()) {
    report_diagnostics(ctx, diags);
    return 1;
  }
  report_diagnostics(ctx, diags);  // warnings
  if (format == "json") *ctx.out << segments_json(study->segments).dump(2) << '\n';
  else if (format == "csv") *ctx.out << segments_csv(study->segments, study->taxonomy());
  else *ctx.out << segments_table(study->segments, study->taxonomy());
  return 0;
}

}  // namespace qualrank::cli
