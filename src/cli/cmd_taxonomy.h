// `qualrank taxonomy SUBCOMMAND`: the handlers of the subcommands (cmd_taxonomy_*.cpp) and what they share.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"

namespace qualrank::cli {

int taxonomy_show(Context&, const std::vector<std::string>&);
int taxonomy_log(Context&, const std::vector<std::string>&);
int taxonomy_export(Context&, const std::vector<std::string>&);
int taxonomy_propose(Context&, const std::vector<std::string>&);
int taxonomy_accept(Context&, const std::vector<std::string>&);
int taxonomy_reject(Context&, const std::vector<std::string>&);
int taxonomy_diff(Context&, const std::vector<std::string>&);

// The subcommands `qualrank taxonomy` dispatches to, in the order its usage lists them.
std::vector<SubcommandHelp> taxonomy_subcommands();

// The author recorded in new entries: --author, else user_name(), else "unknown".
std::string default_author(const po::variables_map& vm);
// The date recorded in new entries: --date (checked: YYYY-MM-DD), else today (UTC; SOURCE_DATE_EPOCH wins).
// Returns nullopt after printing an error for a malformed --date.
std::optional<std::string> entry_date(Context& ctx, const std::string& command, const po::variables_map& vm);

}  // namespace qualrank::cli
