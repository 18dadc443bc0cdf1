#include <iostream>

#include "../cli.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/report/outputs/protocol.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

int cmd_new_transcript(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("new-transcript options");
  desc.add_options()
      ("participant", po::value<std::string>()->required(), "participant id (also the file name: transcripts/ID.md)")
      ("role", po::value<std::string>()->required(), "the participant's role (one of the guideline's roles)")
      ("attr", po::value<std::vector<std::string>>()->composing(), "an attribute, key=value (repeatable)")
      ("at", po::value<std::string>(), "taxonomy version of the ranking items (default: the latest)")
      ("output,o", po::value<std::string>(), "write here instead of transcripts/ID.md (relative to the workspace)");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "new-transcript", "--participant ID --role ROLE [--attr k=v ...] [--at VERSION] [-o FILE]", desc, args, vm, rc)) return rc;
  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags) ? 1 : 1;
  auto participant = vm["participant"].as<std::string>();
  auto role = vm["role"].as<std::string>();
  if (auto why = text::participant_id_problem(participant); !why.empty()) {
    *ctx.err << "qualrank new-transcript: error: participant id '" << text::escape_controls(participant) << "' " << why << "\n";
    return 2;
  }
  const auto& roles = ws->guideline.roles;
  if (std::find(roles.begin(), roles.end(), role) == roles.end()) {
    auto hint = text::closest(role, roles);
    *ctx.err << "qualrank new-transcript: error: unknown role '" << role << "'"
             << (hint.empty() ? " (the guideline's roles: " + text::join(roles, ", ") + ")" : " (did you mean '" + hint + "'?)")
             << '\n';
    return 2;
  }
  std::map<std::string, std::string> attrs;
  if (vm.count("attr")) {
    for (const auto& kv : vm["attr"].as<std::vector<std::string>>()) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0) {
        *ctx.err << "qualrank new-transcript: error: --attr takes key=value, not '" << kv << "'\n";
        return 2;
      }
      attrs[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
  }
  std::string rel = vm.count("output") ? vm["output"].as<std::string>() : "transcripts/" + participant + ".md";
  auto path = vm.count("output") ? std::optional(given_path(ctx, rel)) : default_output(ctx, "new-transcript", rel);
  if (!path) return 1;
  std::error_code ec;
  if (std::filesystem::exists(*path, ec)) {
    *ctx.err << rel << ": error: the file exists already; not overwritten\n";
    return 1;
  }
  auto version = taxonomy_at(*ws, vm.count("at") ? std::optional(vm["at"].as<std::string>()) : std::nullopt, diags);
  if (!version) return report_diagnostics(ctx, diags) ? 1 : 1;
  migrate_guideline(ws->guideline, *version, diags);
  report_diagnostics(ctx, diags);  // warnings: items with no node at the version
  std::string label = std::to_string(version->number) + (version->name.empty() ? "" : " (" + version->name + ")");
  std::string err;
  if (!files::write_atomic(*path, transcript_skeleton(ws->guideline, version->taxonomy, participant, role, attrs, label), &err)) {
    *ctx.err << "qualrank new-transcript: error: " << err << '\n';
    return 1;
  }
  if (!ctx.quiet) *ctx.err << "wrote " << rel << " (taxonomy " << version->taxonomy.name << ", version " << label << ")\n";
  return 0;
}

}  // namespace qualrank::cli
