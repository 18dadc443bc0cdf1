#include <iostream>

#include "cli.h"
#include "qualrank/model/workspace.h"
#include "qualrank/report/protocol.h"

namespace qualrank::cli {

int cmd_guide(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("guide options");
  desc.add_options()
      ("role", po::value<std::string>()->default_value(""), "only the questions asked to this role (default: all)")
      ("format", po::value<std::string>()->default_value("md"), "md or text");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "guide", "[--role ROLE] [--format md|text]", desc, args, vm, rc)) return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "guide", "format", format, {"md", "text"})) return 2;
  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags) ? 1 : 1;
  auto role = vm["role"].as<std::string>();
  if (!role.empty() && std::find(ws->guideline.roles.begin(), ws->guideline.roles.end(), role) == ws->guideline.roles.end()) {
    *ctx.err << "qualrank guide: error: unknown role '" << role << "'\n";
    return 2;
  }
  *ctx.out << interview_protocol(ws->guideline, ws->taxonomy, role,
                                 format == "md" ? ProtocolFormat::markdown : ProtocolFormat::text);
  return 0;
}

}  // namespace qualrank::cli
