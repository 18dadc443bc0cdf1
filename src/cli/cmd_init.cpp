#include <iostream>

#include "cli.h"
#include "qualrank/model/workspace_init.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

int cmd_init(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("init options");
  desc.add_options()
      ("dir", po::value<std::string>()->default_value("."), "the new workspace's folder (created if missing; relative to -C)")
      ("roles", po::value<std::string>()->default_value("group-a,group-b"), "the participants' roles, comma-separated")
      ("taxonomy", po::value<std::string>()->default_value("study"), "the taxonomy's name (codebooks/NAME.yaml)")
      ("stage-one", "a study of issue reports alone: the taxonomy and corpus/keywords.yaml, no interview guideline");
  po::positional_options_description pos;
  pos.add("dir", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "init", "[DIR] [--roles A,B] [--taxonomy NAME] [--stage-one]\n\n"
                     "Writes a new workspace with example content: codebooks/NAME.yaml, guidelines/NAME-interview.yaml,\n"
                     "transcripts/ and NEXT-STEPS.md (--stage-one: a study of issue reports: codebooks/NAME.yaml,\n"
                     "corpus/keywords.yaml and NEXT-STEPS.md, no guideline). Never overwrites: when any of these files exists, or the folder\n"
                     "holds a taxonomy or guideline already, it lists them and writes nothing (exit 1).",
                     desc, args, vm, rc, &pos))
    return rc;
  StarterOptions options;
  options.taxonomy = vm["taxonomy"].as<std::string>();
  options.roles = text::split_nonempty(vm["roles"].as<std::string>(), ',');
  options.stage_one = vm.count("stage-one") > 0;
  auto problems = check_starter_options(options);
  if (!problems.empty()) {
    for (const auto& p : problems) *ctx.err << "qualrank init: error: " << p << '\n';
    return 2;
  }
  std::filesystem::path dir = vm["dir"].as<std::string>();
  std::filesystem::path root = dir.is_absolute() ? dir : ctx.workspace / dir;
  auto files = starter_workspace(options);
  auto conflicts = init_conflicts(root, files);
  if (!conflicts.empty()) {
    *ctx.err << "qualrank init: error: " << root.string() << " holds a workspace's files already; nothing written:\n";
    for (const auto& c : conflicts) *ctx.err << "  " << c << '\n';
    return 1;
  }
  std::string error;
  if (!write_starter_workspace(root, files, &error)) {
    *ctx.err << "qualrank init: error: " << error << '\n';
    return 1;
  }
  if (!ctx.quiet) {
    *ctx.err << "qualrank init: wrote a new workspace in " << root.string() << ":\n";
    for (const auto& [rel, content] : files) *ctx.err << "  " << rel << '\n';
    *ctx.err << "Next: read " << (root / "NEXT-STEPS.md").string()
             << (options.stage_one ? ", then edit the taxonomy and import the issue exports.\n" : ", then edit the taxonomy and the guideline.\n");
  }
  return 0;
}

}  // namespace qualrank::cli
