// `qualrank codebook`: the Excel codebook of the workspace (or of an imported coded-quote table), or its
// matrix and co-occurrence tables on stdout. See docs/codebook.md.
#include <algorithm>
#include <iostream>

#include "../cli.h"
#include "qualrank/analysis/coder_selection.h"
#include "qualrank/analysis/study.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/report/formats/codebook_import.h"
#include "qualrank/report/outputs/codebook_workbook.h"
#include "qualrank/util/bury.h"
#include "qualrank/util/files.h"

namespace qualrank::cli {

namespace {

// Checks --level against the taxonomy; prints the usage error. The default (2) drops to the deepest level of
// a flatter taxonomy.
bool level_ok(Context& ctx, int& level, bool given, const Taxonomy& taxonomy) {
  if (!given) level = std::max(1, std::min(level, taxonomy.max_level()));
  if (level >= 1 && level <= taxonomy.max_level()) return true;
  *ctx.err << "qualrank codebook: error: --level must be between 1 and " << taxonomy.max_level()
           << " (the taxonomy's deepest level), not " << level << '\n';
  return false;
}

int emit(Context& ctx, const CodebookData& data, const CodebookOptions& options, const std::string& format,
         const std::filesystem::path& out, Diagnostics& diags) {
  if (format == "json") {
    report_diagnostics(ctx, diags);
    *ctx.out << codebook_tables_json(data, options).dump(2) << '\n';
    return 0;
  }
  if (format == "csv") {
    report_diagnostics(ctx, diags);
    *ctx.out << codebook_tables_csv(data, options);
    return 0;
  }
  bool ok = write_codebook_workbook(data, options, out, diags);
  report_diagnostics(ctx, diags);
  if (!ok) return 1;
  if (!ctx.quiet)
    *ctx.out << "qualrank codebook: " << data.segments.size() << " coded segments, " << data.participants.size()
             << " participants, taxonomy version " << data.version
             << (data.version_name.empty() ? "" : " (" + data.version_name + ")") << "\n  " << out.string() << '\n';
  return 0;
}

}  // namespace

int cmd_codebook(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("codebook options");
  desc.add_options()
      ("output,o", po::value<std::string>()->default_value("reports/codebook.xlsx"),
       "the workbook to write (relative to the workspace)")
      ("at", po::value<std::string>(), "use this taxonomy version (default: the latest)")
      ("level", po::value<int>()->default_value(2), "taxonomy level of the co-occurrence table (1 = the roots)")
      ("format", po::value<std::string>(), "json or csv: print the matrix and co-occurrence tables instead")
      ("import-table", po::value<std::string>(), "build the workbook from this coded-quote CSV table (relative to the workspace)")
      ("context-attr", po::value<std::string>(),
       "participant attribute the context column of Coded segments shows (default: the guideline's codebook_context; "
       "none: no column)")
      ("coder", po::value<std::string>()->default_value("consensus"), "whose coding to count: consensus (reconciled transcripts), all, or a coder's name");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "codebook",
                     "[-o FILE.xlsx] [--at VERSION] [--level N] [--format json|csv] [--import-table FILE.csv] "
                     "[--context-attr NAME] [--coder consensus|all|NAME]",
                     desc, args, vm, rc))
    return rc;
  std::string format = vm.count("format") ? vm["format"].as<std::string>() : "";
  if (!format.empty() && !check_choice(ctx, "codebook", "format", format, {"json", "csv"})) return 2;
  CodebookOptions options;
  options.level = vm["level"].as<int>();
  bool level_given = !vm["level"].defaulted();
  if (vm.count("context-attr")) options.context_attribute = vm["context-attr"].as<std::string>();
  std::optional<std::string> at;
  if (vm.count("at")) at = vm["at"].as<std::string>();
  auto output = output_path(ctx, "codebook", vm, "output");
  if (!output) return 1;
  std::filesystem::path out = *output;

  Diagnostics diags;
  if (vm.count("import-table")) {
    std::string where;  // from the workspace, or the current folder (input_path)
    const auto found = input_path(ctx, vm["import-table"].as<std::string>(), &where);
    if (!found || !where.empty()) {
      *ctx.err << vm["import-table"].as<std::string>() << ": error: " << where << '\n';
      return 1;
    }
    std::string table_path = found->string();
    auto ws = load_workspace_design(ctx.workspace, diags);
    auto version = ws ? taxonomy_at(*ws, at, diags) : nullptr;
    if (!version || diags.has_errors()) {
      report_diagnostics(ctx, diags);
      return 1;
    }
    if (!level_ok(ctx, options.level, level_given, version->taxonomy)) return 2;
    std::string why;
    auto text = files::read_input(table_path, files::kTableInput, &why);
    if (!text) {
      diags.error({table_path, 0, 0}, why);
      report_diagnostics(ctx, diags);
      return 1;
    }
    auto data = import_coded_table(*text, table_path, *version, ws->guideline, options, diags);
    if (!data || diags.has_errors()) {
      report_diagnostics(ctx, diags);
      *ctx.err << "qualrank codebook: the table has errors; nothing written\n";
      return 1;
    }
    return emit(ctx, *data, options, format, out, diags);
  }

  StudyOptions study_options;
  study_options.at = at;
  study_options.coding.suggestions = false;  // the codebook shows applied codes only
  auto study = load_study(ctx.workspace, diags, study_options);
  const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
  if (!study || diags.has_errors()) {
    report_diagnostics(ctx, diags);
    *ctx.err << "qualrank codebook: the workspace has errors; nothing written\n";
    return 1;
  }
  if (!level_ok(ctx, options.level, level_given, study->taxonomy())) return 2;
  if (auto why = coder_selection_problem(study->workspace, vm["coder"].as<std::string>()); !why.empty()) {
    *ctx.err << "qualrank codebook: error: --coder: " << why << "\n(see 'qualrank codebook --help')\n";
    return 2;
  }
  const CodingChoice coding = select_coding(study->segments, vm["coder"].as<std::string>(), study->consensus);
  if (!ctx.quiet) *ctx.err << "qualrank codebook: counting " << coding.describe() << '\n';
  auto data = codebook_data(*study, options);
  data.coding = coding.describe();
  return emit(ctx, data, options, format, out, diags);
}

}  // namespace qualrank::cli
