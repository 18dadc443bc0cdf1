// qualrank import FILE.qdpx|FILE.qdc [--map FILE.yaml] [--role ROLE] [--force]: REFI-QDA into the workspace
// (report/formats/refi_import.h). All or nothing: the plan, the workspace it would leave (analysis/planned_workspace.h)
// and a codebook's proposals are all checked before the first file is written.
#include <cstdlib>
#include <iostream>

#include "../cli.h"
#include "qualrank/analysis/planned_workspace.h"
#include "qualrank/report/formats/refi_import.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

int refuse(Context& ctx, const Diagnostics& diags, const std::string& why) {
  report_diagnostics(ctx, diags);
  *ctx.err << "qualrank import: nothing imported" << (why.empty() ? "" : ": " + why) << '\n';
  return 1;
}

using text::plural;

}  // namespace

int cmd_import(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("import options");
  desc.add_options()
      ("file", po::value<std::string>()->required(), "the .qdpx project or .qdc codebook (relative to the current folder)")
      ("map", po::value<std::string>(), "YAML mapping: the other tool's code name or GUID -> taxonomy node id (no taxonomy yet: the id the new node gets)")
      ("role", po::value<std::string>(), "role of participants whose case has no 'role' variable")
      ("interviewer", po::value<std::vector<std::string>>()->composing(), "a speaker name in the sources that is the interviewer (repeatable); becomes I")
      ("force", "replace transcripts and codings files that exist")
      ("author", po::value<std::string>(), "who proposes a codebook's differences (default: $QUALRANK_AUTHOR, $USER, $LOGNAME, else the account's name)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "import", "FILE.qdpx|FILE.qdc [--map FILE.yaml] [--role ROLE] [--interviewer NAME ...] [--force] [--author NAME]", desc, args, vm, rc, &pos))
    return rc;
  RefiImportOptions options;
  options.force = vm.count("force") > 0;
  if (vm.count("map")) options.map = vm["map"].as<std::string>();
  if (vm.count("role")) options.default_role = vm["role"].as<std::string>();
  if (vm.count("interviewer")) options.interviewers = vm["interviewer"].as<std::vector<std::string>>();
  std::string file = vm["file"].as<std::string>();
  std::string author;
  if (vm.count("author")) author = vm["author"].as<std::string>();
  if (author.empty()) author = user_name();
  if (author.empty()) author = "unknown";

  Diagnostics diags;
  auto plan = plan_refi_import(ctx.workspace, file, file, options, diags);
  if (!plan) return refuse(ctx, diags, "");
  // A codebook's proposals are checked (all of them, each located at its code) before anything is written.
  if (!plan->differences.empty() && !propose_codebook_differences(ctx.workspace, *plan, author, diags, true))
    return refuse(ctx, diags, "the history refuses these proposals (above); none was recorded");
  if (!plan->is_codebook && !plan->files.empty() && !planned_workspace_validates(ctx.workspace, plan->files, diags))
    return refuse(ctx, diags, "the workspace would not validate afterwards (above)");
  report_diagnostics(ctx, diags);

  std::error_code ec;
  const bool copy_existed = !plan->codebook_copy.empty() && std::filesystem::exists(ctx.workspace / plan->codebook_copy, ec);
  std::string err;
  if (!write_refi_import(ctx.workspace, *plan, &err)) {
    *ctx.err << "qualrank import: error: " << err << '\n';
    return 1;
  }
  if (!plan->taxonomy_file.empty() && !ctx.quiet)
    *ctx.out << "created the taxonomy " << plan->taxonomy_file << " (" << plan->codes << " codes in the codebook)\n";
  if (plan->codes == 0 && !plan->is_codebook && !ctx.quiet) *ctx.out << "no codebook in the project\n";
  if (plan->taxonomy_file.empty() && plan->codes > 0 && !ctx.quiet) {
    *ctx.out << plural(plan->codes - plan->unmatched, "code", "codes") << " matched taxonomy nodes";
    if (plan->second_codes > 0) *ctx.out << " (" << plural(plan->second_codes, "code shares its node", "codes share their node") << " with another code)";
    *ctx.out << "; " << plural(plan->unmatched, "code", "codes") << " matched nothing"
             << (plan->unmatched > 0 && plan->is_codebook ? " (proposed as new nodes)" : "") << '\n';
  }
  if (!plan->differences.empty()) {
    Diagnostics proposing;
    auto ids = propose_codebook_differences(ctx.workspace, *plan, author, proposing);
    report_diagnostics(ctx, proposing);
    if (!ids) {
      // The history changed between the check and now (another writer): the copy written above goes too.
      if (!plan->codebook_copy.empty() && !copy_existed) std::filesystem::remove(ctx.workspace / plan->codebook_copy, ec);
      *ctx.err << "qualrank import: nothing imported: the history refuses these proposals (above)\n";
      return 1;
    }
    *ctx.out << plan->differences.size() << " differences from the taxonomy; " << ids->size()
             << " proposed as taxonomy edits (provenance: " << plan->codebook_copy << "):\n";
    for (const auto& d : plan->differences)
      *ctx.out << "  " << d.where.file << ':' << d.where.line << ": " << d.summary() << '\n';
    if (!ids->empty()) *ctx.out << "new proposals: " << text::join(*ids, ", ") << " (see 'qualrank taxonomy log')\n";
  } else if (plan->is_codebook && plan->taxonomy_file.empty() && !ctx.quiet) {
    *ctx.out << "the codebook matches the taxonomy; nothing to do\n";
  }
  if (!plan->is_codebook && !ctx.quiet)
    *ctx.out << "imported " << plural(plan->transcripts, "transcript", "transcripts") << " with "
             << plural(plan->codings, "coding", "codings") << '\n';
  return 0;
}

}  // namespace qualrank::cli
