// `qualrank code add` and `qualrank code remove`: apply or remove codes by command, for scripts and editors.
// The transcript's own coder writes inline markup, any other coder its .codes file (model/coding_edit.h).
#include <iostream>

#include "../cli.h"
#include "qualrank/model/coding_edit.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::cli {

namespace fs = std::filesystem;

std::string find_transcript(const fs::path& root, const std::string& given) {
  // A path inside the workspace, or a name under transcripts/ ("U01.md", "U01").
  for (const std::string& candidate : {given, "transcripts/" + given, "transcripts/" + given + ".md"}) {
    std::error_code ec;
    fs::path p = fs::path(candidate).is_absolute() ? fs::path(candidate) : root / candidate;
    if (fs::is_regular_file(p, ec)) {
      auto rel = fs::relative(fs::weakly_canonical(p, ec), fs::weakly_canonical(root, ec), ec);
      if (!ec && !rel.empty() && rel.begin()->string() != "..") return rel.generic_string();
    }
    // A symlink leading outside: named as written, so that opening it says so (not "cannot read").
    if (!fs::path(candidate).is_absolute() && fs::is_symlink(fs::symlink_status(p, ec))) return candidate;
  }
  return given;
}

int cmd_code_edit(Context& ctx, const std::string& action, const std::vector<std::string>& args) {
  const bool add = action == "add", exemplar = action == "exemplar";
  const std::string name = "code " + action;
  po::options_description desc(name + " options");
  desc.add_options()
      ("transcript", po::value<std::string>(), "the transcript (a path in the workspace, or a name in transcripts/)")
      ("turn", po::value<int>(), "the participant turn tN, by its number N")
      ("line", po::value<int>(), "or the turn that holds this line of the transcript")
      ("span", po::value<std::string>(), "exact text inside the turn; without it, the whole turn")
      ("occurrence", po::value<int>(), "which occurrence of the span in the turn, when its text repeats (1, 2, ...)")
      ("node", po::value<std::vector<std::string>>()->composing(), "node id, name or alias (repeatable, or ID,ID)")
      ("coder", po::value<std::string>(), "who codes (default: the transcript's coder; another coder writes <stem>.<coder>.codes)");
  if (add) desc.add_options()("memo", po::value<std::string>(), "a memo for the coding");
  if (exemplar) desc.add_options()("off", "drop the exemplar mark (the coding stays); without it, pick the coding as an exemplar quote");
  po::variables_map vm;
  int rc = 0;
  std::string usage = "--transcript FILE (--turn N | --line N) [--span \"exact text\" [--occurrence N]] --node ID[,ID] " +
                      std::string(add ? "[--memo TEXT] " : exemplar ? "[--off] " : "") + "[--coder NAME]";
  if (!parse_options(ctx, name, usage, desc, args, vm, rc)) return rc;
  auto usage_error = [&](const std::string& what) {
    *ctx.err << "qualrank " << name << ": error: " << what << "\n(see 'qualrank " << name << " --help')\n";
    return 2;
  };
  if (!vm.count("transcript")) return usage_error("--transcript is required");
  if (!vm.count("node")) return usage_error("--node is required");
  if (vm.count("turn") == vm.count("line")) return usage_error("give exactly one of --turn and --line");
  CodingTarget target;
  if (vm.count("turn")) target.turn = vm["turn"].as<int>();
  if (vm.count("line")) target.line = vm["line"].as<int>();
  if (vm.count("span")) target.span = vm["span"].as<std::string>();
  if (vm.count("occurrence")) {
    if (!target.span) return usage_error("--occurrence needs --span");
    target.occurrence = vm["occurrence"].as<int>();
  }
  std::vector<std::string> written;
  for (const auto& n : vm["node"].as<std::vector<std::string>>())
    for (auto& piece : text::split_nonempty(n, ',')) written.push_back(piece);
  if (written.empty()) return usage_error("--node names no node");
  if (vm.count("coder") && text::fold_case(vm["coder"].as<std::string>()) == "consensus")
    return usage_error("--coder consensus: the consensus is written only by 'qualrank reconcile', which records who decided "
                       "what; code as yourself (--coder NAME), then run 'qualrank reconcile'");

  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags);
  auto version = taxonomy_at(*ws, std::nullopt, diags);
  if (!version) return report_diagnostics(ctx, diags);
  std::string file = find_transcript(ctx.workspace, vm["transcript"].as<std::string>());
  // Read, plan and write under the workspace lock: two `code add` at once both land, one after the other;
  // a program that ignores the lock (an editor) is caught by save_checked's "changed on disk since read".
  files::WorkspaceLock lock(ctx.workspace);
  if (!lock_held(ctx, name, lock)) return 1;
  auto doc = CodingDocument::open(ctx.workspace, file, vm.count("coder") ? vm["coder"].as<std::string>() : "",
                                  version->resolve, diags);
  if (!doc) return report_diagnostics(ctx, diags);
  auto nodes = resolve_node_ids(written, version->taxonomy, version->resolve, {doc->transcript().file, 0, 0}, diags);
  if (!nodes) return report_diagnostics(ctx, diags);
  std::string memo = vm.count("memo") ? vm["memo"].as<std::string>() : "";
  if (exemplar && nodes->size() != 1) return usage_error("code exemplar takes one --node");
  auto edit = add        ? doc->plan_add(target, *nodes, memo, diags)
              : exemplar ? doc->plan_exemplar(target, nodes->front(), !vm.count("off"), diags)
                         : doc->plan_remove(target, *nodes, diags);
  if (!edit) return report_diagnostics(ctx, diags);
  doc->apply(*edit);
  std::string error;
  switch (doc->save_checked(&error)) {
    case CodingDocument::SaveResult::saved: break;
    case CodingDocument::SaveResult::changed_on_disk:
      *ctx.err << "qualrank " << name << ": error: " << error << "; run the command again\n";
      return 1;
    case CodingDocument::SaveResult::failed:
      *ctx.err << "qualrank " << name << ": error: cannot write " << doc->target_file() << ": " << error << '\n';
      return 1;
  }
  // What is left are warnings and the errors the file had before this edit (an edit that would add one is
  // refused above): the edit is saved, so those are shown as warnings saying so, with the exit status 0
  // (was: "error" printed by a command that succeeded).
  Diagnostics shown;
  for (Diagnostic d : diags.items()) {
    if (d.severity == Severity::error) {
      d.severity = Severity::warning;
      d.message += " (already in the file before this edit; `qualrank validate` lists it)";
    }
    shown.add(std::move(d));
  }
  report_diagnostics(ctx, shown);
  if (!ctx.quiet) *ctx.err << "qualrank " << name << ": " << edit->summary << " (" << doc->target_file() << ", coder " << doc->coder() << ")\n";
  return 0;
}

}  // namespace qualrank::cli
