// `qualrank taxonomy diff V1 V2`: the net changes between two versions, as Markdown or JSON.
#include <iostream>

#include "../cmd_taxonomy.h"
#include "qualrank/model/history/history.h"
#include "qualrank/report/outputs/taxonomy_output.h"

namespace qualrank::cli {

int taxonomy_diff(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("taxonomy diff options");
  desc.add_options()
      ("versions", po::value<std::vector<std::string>>(), "V1 V2 (numbers or names; default: 1 and the latest)")
      ("format", po::value<std::string>()->default_value("md"), "md or json");
  po::positional_options_description pos;
  pos.add("versions", 2);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "taxonomy diff", "[V1 [V2]] [--format md|json]", desc, args, vm, rc, &pos)) return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "taxonomy diff", "format", format, {"md", "json"})) return 2;
  Diagnostics diags;
  auto ws = load_workspace(ctx.workspace, diags);
  auto history = ws ? load_history(*ws, diags) : std::nullopt;
  if (!history || diags.has_errors()) return report_diagnostics(ctx, diags) | 1;
  std::vector<std::string> given;
  if (vm.count("versions")) given = vm["versions"].as<std::vector<std::string>>();
  int numbers[2] = {1, history->latest_version()};
  for (std::size_t i = 0; i < given.size(); ++i) {
    auto n = history->version_number(given[i]);
    if (!n) {
      diags.error({history->file, 0, 0}, "unknown taxonomy version '" + given[i] + "'");
      continue;
    }
    numbers[i] = *n;
  }
  if (diags.has_errors()) return report_diagnostics(ctx, diags) | 1;
  auto refs = coded_refs(*ws);
  auto diff = diff_versions(ws->taxonomy, std::make_shared<const TaxonomyHistory>(std::move(*history)), numbers[0],
                            numbers[1], &refs, diags);
  if (!diff || diags.has_errors()) return report_diagnostics(ctx, diags) | 1;
  report_diagnostics(ctx, diags);
  if (format == "json") *ctx.out << taxonomy_diff_json(*diff).dump(2) << '\n';
  else *ctx.out << taxonomy_diff_markdown(*diff);
  return 0;
}

}  // namespace qualrank::cli
