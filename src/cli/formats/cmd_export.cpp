// qualrank export --qdc|--qdpx -o FILE [--at VERSION]: REFI-QDA codebook or project (report/formats/refi_export.h).
#include <iostream>

#include "../cli.h"
#include "qualrank/analysis/study.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/report/formats/refi_export.h"
#include "qualrank/util/bury.h"
#include "qualrank/util/files.h"

namespace qualrank::cli {

int cmd_export(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("export options");
  desc.add_options()
      ("qdc", "the taxonomy as a REFI-QDA codebook (.qdc)")
      ("qdpx", "the project as a REFI-QDA project (.qdpx): codebook, transcripts, codings, memos, cases")
      ("output,o", po::value<std::string>()->required(), "the file to write (relative to the workspace)")
      ("at", po::value<std::string>(), "taxonomy version (number or name; default: the latest)");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "export", "--qdc|--qdpx -o FILE [--at VERSION]", desc, args, vm, rc)) return rc;
  bool qdc = vm.count("qdc") > 0, qdpx = vm.count("qdpx") > 0;
  if (qdc == qdpx) {
    *ctx.err << "qualrank export: error: say what to export: --qdc or --qdpx\n";
    return 2;
  }
  std::filesystem::path out = given_path(ctx, vm["output"].as<std::string>());
  std::optional<std::string> at;
  if (vm.count("at")) at = vm["at"].as<std::string>();
  const long long epoch = files::source_date_epoch(1735689600);  // fallback 2025-01-01T00:00:00Z

  Diagnostics diags;
  std::string err;
  if (qdc) {
    auto ws = load_workspace_design(ctx.workspace, diags);
    std::unique_ptr<TaxonomyVersion> version;
    if (ws) version = taxonomy_at(*ws, at, diags);
    if (!version || diags.has_errors()) return report_diagnostics(ctx, diags) ? 1 : 1;
    report_diagnostics(ctx, diags);
    if (version->taxonomy.size() == 0) {
      *ctx.err << "qualrank export: error: the taxonomy has no nodes; a codebook needs at least one code\n";
      return 1;
    }
    if (!files::write_atomic(out, refi_codebook_xml(version->taxonomy), &err)) {
      *ctx.err << "qualrank export: error: " << err << '\n';
      return 1;
    }
    if (!ctx.quiet)
      *ctx.err << "wrote " << out.string() << " (" << version->taxonomy.size() << " codes, taxonomy version "
               << version->number << ")\n";
    return 0;
  }
  StudyOptions opts;
  opts.at = at;
  opts.coding.suggestions = false;
  auto study = load_study(ctx.workspace, diags, opts);
  const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
  if (!study || diags.has_errors()) {
    report_diagnostics(ctx, diags);
    *ctx.err << "qualrank export: the workspace has errors; nothing written\n";
    return 1;
  }
  if (!write_qdpx(*study, out, epoch, diags, &err)) {
    report_diagnostics(ctx, diags);
    *ctx.err << "qualrank export: error: " << err << '\n';
    return 1;
  }
  report_diagnostics(ctx, diags);
  std::size_t codings = 0;
  for (const auto& s : study->segments) codings += s.codes.size();
  if (!ctx.quiet)
    *ctx.err << "wrote " << out.string() << " (" << study->workspace.transcripts.size() << " sources, "
             << study->segments.size() << " selections, " << codings << " codings)\n";
  return 0;
}

}  // namespace qualrank::cli
