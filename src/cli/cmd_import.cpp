// qualrank import FILE.qdpx|FILE.qdc [--map FILE.yaml] [--role ROLE] [--force]: REFI-QDA into the workspace
// (model/refi_import.h). Nothing is written when the plan has errors.
#include <cstdlib>
#include <iostream>

#include "cli.h"
#include "qualrank/model/refi_import.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

int cmd_import(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("import options");
  desc.add_options()
      ("file", po::value<std::string>()->required(), "the .qdpx project or .qdc codebook (relative to the current folder)")
      ("map", po::value<std::string>(), "YAML mapping: the other tool's code name or GUID -> taxonomy node id")
      ("role", po::value<std::string>(), "role of participants whose case has no 'role' variable")
      ("interviewer", po::value<std::vector<std::string>>()->composing(), "a speaker name in the sources that is the interviewer (repeatable); becomes I")
      ("force", "replace transcripts and codings files that exist")
      ("author", po::value<std::string>(), "who proposes a codebook's differences (default: $QUALRANK_AUTHOR or $USER)");
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

  Diagnostics diags;
  auto plan = plan_refi_import(ctx.workspace, file, file, options, diags);
  if (!plan) {
    diags.print(*ctx.err);
    *ctx.err << "qualrank import: nothing imported\n";
    return 1;
  }
  diags.print(*ctx.err);
  std::string err;
  if (!write_refi_import(ctx.workspace, *plan, &err)) {
    *ctx.err << "qualrank import: error: " << err << '\n';
    return 1;
  }
  if (!plan->taxonomy_file.empty() && !ctx.quiet)
    *ctx.out << "created the taxonomy " << plan->taxonomy_file << " (" << plan->codes << " codes in the codebook)\n";
  if (!plan->differences.empty()) {
    std::string author;
    if (vm.count("author")) author = vm["author"].as<std::string>();
    for (const char* var : {"QUALRANK_AUTHOR", "USER"})
      if (author.empty() && std::getenv(var)) author = std::getenv(var);
    Diagnostics proposing;
    auto ids = propose_codebook_differences(ctx.workspace, *plan, author.empty() ? "unknown" : author, proposing);
    proposing.print(*ctx.err);
    *ctx.out << plan->differences.size() << " differences from the taxonomy; " << ids.size()
             << " proposed as taxonomy edits (provenance: " << plan->codebook_copy << "):\n";
    for (const auto& d : plan->differences)
      *ctx.out << "  " << d.where.file << ':' << d.where.line << ": " << d.summary() << '\n';
    if (!ids.empty()) *ctx.out << "new proposals: " << text::join(ids, ", ") << " (see 'qualrank taxonomy log')\n";
    if (proposing.has_errors()) return 1;
  } else if (plan->taxonomy_file.empty() && plan->transcripts == 0 && !ctx.quiet) {
    *ctx.out << "the codebook matches the taxonomy; nothing to do\n";
  }
  if (plan->transcripts > 0 && !ctx.quiet)
    *ctx.out << "imported " << plan->transcripts << " transcripts with " << plan->codings << " codings\n";
  return 0;
}

}  // namespace qualrank::cli
