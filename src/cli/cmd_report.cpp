#include <chrono>
#include <iostream>

#include "cli.h"
#include "qualrank/analysis/study.h"
#include "qualrank/report/segments_output.h"
#include "qualrank/util/files.h"

namespace qualrank::cli {

int cmd_report(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("report options");
  desc.add_options()("output,o", po::value<std::string>()->default_value("reports"), "output folder (inside or outside the workspace)");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "report", "[-o DIR]", desc, args, vm, rc)) return rc;
  Diagnostics diags;
  auto study = load_study(ctx.workspace, diags);
  if (!study || diags.has_errors()) {
    diags.print(*ctx.err);
    *ctx.err << "qualrank report: the workspace has errors; nothing written\n";
    return 1;
  }
  diags.print(*ctx.err);
  std::filesystem::path out_dir = vm["output"].as<std::string>();
  if (out_dir.is_relative()) out_dir = ctx.workspace / out_dir;
  std::string err;
  if (!files::write_atomic(out_dir / "segments.json", segments_json(study->segments).dump(2) + "\n", &err)) {
    *ctx.err << "qualrank report: error: " << err << '\n';
    return 1;
  }
  *ctx.out << "qualrank report: " << study->workspace.transcripts.size() << " transcripts, " << study->segments.size()
           << " coded segments\n  " << (out_dir / "segments.json").string() << '\n';
  return 0;
}

}  // namespace qualrank::cli
