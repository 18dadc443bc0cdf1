// `qualrank taxonomy show|log|export`: read-only views of the versioned taxonomy.
#include <iostream>

#include "../cmd_taxonomy.h"
#include "qualrank/model/history/history.h"
#include "qualrank/report/outputs/taxonomy_output.h"
#include "qualrank/util/files.h"

namespace qualrank::cli {

namespace {

std::unique_ptr<TaxonomyVersion> load_version(Context& ctx, const std::optional<std::string>& at, Diagnostics& diags) {
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return nullptr;
  return taxonomy_at(*ws, at, diags);
}

// Why writing a taxonomy file to `out` would make the workspace at `root` invalid ("" when it would not): the
// loader reads every .yaml/.yml file in codebooks/ as the taxonomy (or its history) and every one in
// guidelines/ as the guideline, and a workspace has exactly one of each.
std::string breaks_workspace(const std::filesystem::path& root, const std::filesystem::path& out) {
  std::error_code ec;
  auto ext = out.extension().string();
  if (ext != ".yaml" && ext != ".yml") return "";
  auto dir = std::filesystem::weakly_canonical(out, ec).parent_path();
  if (ec) return "";
  auto in = [&](const char* sub) {
    std::error_code e;
    auto d = std::filesystem::weakly_canonical(root / sub, e);
    return !e && d == dir;
  };
  if (in("codebooks"))
    return "the workspace reads every .yaml file in codebooks/ as its taxonomy or its history; a second one there "
           "makes every command fail with 'more than one taxonomy' (write it elsewhere, e.g. reports/)";
  if (in("guidelines"))
    return "the workspace reads every .yaml file in guidelines/ as its guideline; a taxonomy there makes every "
           "command fail (write it elsewhere, e.g. reports/)";
  return "";
}

}  // namespace

int taxonomy_show(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("taxonomy show options");
  desc.add_options()
      ("at", po::value<std::string>(), "the version (number or name; default: the latest)")
      ("format", po::value<std::string>()->default_value("tree"), "tree or json");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "taxonomy show", "[--at VERSION] [--format tree|json]", desc, args, vm, rc)) return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "taxonomy show", "format", format, {"tree", "json"})) return 2;
  Diagnostics diags;
  std::optional<std::string> at;
  if (vm.count("at")) at = vm["at"].as<std::string>();
  auto version = load_version(ctx, at, diags);
  if (!version || diags.has_errors()) return report_diagnostics(ctx, diags) | 1;
  report_diagnostics(ctx, diags);
  auto summary = summarize_version(version->taxonomy, version->number, version->name);
  if (format == "json") *ctx.out << taxonomy_version_json(version->taxonomy, summary).dump(2) << '\n';
  else *ctx.out << taxonomy_tree_text(version->taxonomy, summary);
  return 0;
}

int taxonomy_log(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("taxonomy log options");
  desc.add_options()
      ("node", po::value<std::string>(), "only the edits touching this node (following its renames)")
      ("format", po::value<std::string>()->default_value("text"), "text or json");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "taxonomy log", "[--node ID] [--format text|json]", desc, args, vm, rc)) return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "taxonomy log", "format", format, {"text", "json"})) return 2;
  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  auto history = ws ? load_history(*ws, diags) : std::nullopt;
  if (!history || diags.has_errors()) return report_diagnostics(ctx, diags) | 1;
  report_diagnostics(ctx, diags);
  std::optional<std::string> node;
  if (vm.count("node")) node = vm["node"].as<std::string>();
  if (format == "json") *ctx.out << history_log_json(*history, node).dump(2) << '\n';
  else if (!history->exists) *ctx.out << "no history (" << history->file << " does not exist): version 1 only\n";
  else *ctx.out << history_log_text(*history, node);
  return 0;
}

int taxonomy_export(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("taxonomy export options");
  desc.add_options()
      ("at", po::value<std::string>(), "the version (number or name; default: the latest)")
      ("output,o", po::value<std::string>()->required(), "the taxonomy file to write (relative to the workspace)")
      ("force", "write even into codebooks/ or guidelines/, where a second .yaml file makes the workspace invalid");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "taxonomy export", "[--at VERSION] -o FILE.yaml [--force]", desc, args, vm, rc)) return rc;
  std::filesystem::path out = given_path(ctx, vm["output"].as<std::string>());
  if (auto why = breaks_workspace(ctx.workspace, out); !why.empty() && !vm.count("force")) {
    *ctx.err << "qualrank taxonomy export: error: not writing " << vm["output"].as<std::string>() << ": " << why
             << "; --force writes it anyway\n";
    return 2;
  }
  Diagnostics diags;
  std::optional<std::string> at;
  if (vm.count("at")) at = vm["at"].as<std::string>();
  auto version = load_version(ctx, at, diags);
  if (!version || diags.has_errors()) return report_diagnostics(ctx, diags) | 1;
  report_diagnostics(ctx, diags);
  std::string comment = version->taxonomy.file + " at version " + std::to_string(version->number) +
                        (version->name.empty() ? "" : " (" + version->name + ")") +
                        ", exported by `qualrank taxonomy export`.";
  std::string err;
  if (!files::write_atomic(out, taxonomy_to_yaml(version->taxonomy, comment), &err)) {
    *ctx.err << "qualrank taxonomy export: error: " << err << '\n';
    return 1;
  }
  if (!ctx.quiet) {
    auto summary = summarize_version(version->taxonomy, version->number, version->name);
    *ctx.err << "qualrank taxonomy export: version " << version->number << ": " << describe_counts(summary) << " -> "
             << out.string() << '\n';
  }
  return 0;
}

}  // namespace qualrank::cli
