#include <iostream>

#include "../cli.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/report/outputs/protocol.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

int cmd_guide(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("guide options");
  desc.add_options()
      ("role", po::value<std::string>()->default_value(""), "only the questions asked to this role (default: all, with each role's wording)")
      ("at", po::value<std::string>(), "taxonomy version of the ranking items (default: the latest)")
      ("format", po::value<std::string>()->default_value("md"), "md or text");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "guide", "[--role ROLE] [--at VERSION] [--format md|text]", desc, args, vm, rc)) return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "guide", "format", format, {"md", "text"})) return 2;
  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags) ? 1 : 1;
  auto role = vm["role"].as<std::string>();
  const auto& roles = ws->guideline.roles;
  if (!role.empty() && std::find(roles.begin(), roles.end(), role) == roles.end()) {
    auto hint = text::closest(role, roles);
    *ctx.err << "qualrank guide: error: unknown role '" << role << "'"
             << (hint.empty() ? " (the guideline's roles: " + text::join(roles, ", ") + ")" : " (did you mean '" + hint + "'?)")
             << '\n';
    return 2;
  }
  auto version = taxonomy_at(*ws, vm.count("at") ? std::optional(vm["at"].as<std::string>()) : std::nullopt, diags);
  if (!version) return report_diagnostics(ctx, diags) ? 1 : 1;
  migrate_guideline(ws->guideline, *version, diags);
  report_diagnostics(ctx, diags);  // warnings: items with no node at the version
  std::string label = std::to_string(version->number) + (version->name.empty() ? "" : " (" + version->name + ")");
  *ctx.out << interview_protocol(ws->guideline, version->taxonomy, role,
                                 format == "md" ? ProtocolFormat::markdown : ProtocolFormat::text, label);
  return 0;
}

}  // namespace qualrank::cli
