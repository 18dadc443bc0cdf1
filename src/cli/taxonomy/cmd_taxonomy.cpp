// `qualrank taxonomy`: dispatches to the subcommands (cmd_taxonomy_*.cpp).
#include <cstdlib>
#include <iostream>
#include <regex>

#include "../cmd_taxonomy.h"
#include "qualrank/model/history/history.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

const std::vector<Command>& subcommands() {
  static const std::vector<Command> table = {
      {"show", "print a version as a tree or JSON (--at V, --format tree|json)", taxonomy_show},
      {"log", "list the edits with status and provenance (--node ID, --format text|json)", taxonomy_log},
      {"propose", "record a proposed edit: add, rename, redefine, move, merge, split, deprecate", taxonomy_propose},
      {"accept", "accept a proposal into a version (--into-version V, --version-name NAME)", taxonomy_accept},
      {"reject", "reject a proposal (--reason TEXT)", taxonomy_reject},
      {"diff", "the changes between two versions, with provenance and coded segments touched", taxonomy_diff},
      {"export", "write a version as a plain taxonomy file (--at V -o FILE.yaml)", taxonomy_export},
  };
  return table;
}

}  // namespace

std::vector<SubcommandHelp> taxonomy_subcommands() { return subcommand_help(subcommands()); }

std::string default_author(const po::variables_map& vm) {
  if (vm.count("author") && !vm["author"].as<std::string>().empty()) return vm["author"].as<std::string>();
  const std::string user = user_name();
  return user.empty() ? "unknown" : user;
}

std::optional<std::string> entry_date(Context& ctx, const std::string& command, const po::variables_map& vm) {
  if (!vm.count("date")) return files::today_utc();
  auto d = vm["date"].as<std::string>();
  if (!text::is_calendar_date(d)) {
    *ctx.err << "qualrank taxonomy " << command << ": error: --date '" << d << "' is not a date YYYY-MM-DD\n";
    return std::nullopt;
  }
  return d;
}

int cmd_taxonomy(Context& ctx, const std::vector<std::string>& args) {
  return dispatch_subcommand(ctx, "taxonomy", subcommands(), args,
                             "'qualrank taxonomy SUBCOMMAND --help' describes its options; docs/taxonomy-history.md the file format.");
}

}  // namespace qualrank::cli
