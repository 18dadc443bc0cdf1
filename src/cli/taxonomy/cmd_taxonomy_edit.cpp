// `qualrank taxonomy propose|accept|reject`: append proposals and decisions to the history (history.h does
// the locking, checking and atomic writing).
#include <iostream>
#include <map>
#include <set>

#include "../cmd_taxonomy.h"
#include "qualrank/model/history/history.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

// Which options each operation takes (besides the record options --by, --source, --rationale, --author, --date).
const std::map<EditOp, std::set<std::string>>& op_options() {
  static const std::map<EditOp, std::set<std::string>> table = {
      {EditOp::add, {"id", "parent", "name", "definition", "inclusion", "exclusion", "aliases", "keywords"}},
      {EditOp::rename, {"node", "name", "new-id"}},
      {EditOp::redefine, {"node", "definition", "inclusion", "exclusion", "aliases", "keywords"}},
      {EditOp::move, {"node", "parent"}},
      {EditOp::merge, {"from", "into"}},
      {EditOp::split, {"node", "into", "codings-to"}},
      {EditOp::deprecate, {"node"}},
  };
  return table;
}

const std::set<std::string>& required_options(EditOp op) {
  static const std::map<EditOp, std::set<std::string>> table = {
      {EditOp::add, {"id", "name"}},          {EditOp::rename, {"node"}},
      {EditOp::redefine, {"node"}},           {EditOp::move, {"node", "parent"}},
      {EditOp::merge, {"from", "into"}},      {EditOp::split, {"node", "into", "codings-to"}},
      {EditOp::deprecate, {"node"}},
  };
  return table.at(op);
}

// "ID:NAME,ID:NAME" (several --into values allowed); a piece without ':' continues the previous name, so
// names may contain commas.
std::optional<std::vector<SplitPart>> parse_parts(const std::vector<std::string>& values, std::string& error) {
  std::vector<SplitPart> parts;
  for (const auto& value : values) {
    bool first = true;
    for (const auto& piece : text::split(value, ',')) {
      auto colon = piece.find(':');
      if (colon == std::string::npos || piece.find(' ') < colon) {
        if (first || parts.empty()) {
          error = "'" + piece + "' is not ID:NAME";
          return std::nullopt;
        }
        parts.back().name += ", " + piece;
        continue;
      }
      first = false;
      parts.push_back({std::string(text::trim(piece.substr(0, colon))), std::string(text::trim(piece.substr(colon + 1)))});
    }
  }
  return parts;
}

}  // namespace

int taxonomy_propose(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("taxonomy propose options");
  desc.add_options()
      ("op", po::value<std::string>(), "add, rename, redefine, move, merge, split or deprecate")
      ("id", po::value<std::string>(), "add: the new node's id")
      ("parent", po::value<std::string>(), "add: the parent (omit for a new root); move: the new parent")
      ("name", po::value<std::string>(), "add: the name; rename: the new name")
      ("new-id", po::value<std::string>(), "rename: the new id")
      ("definition", po::value<std::string>(), "add, redefine: the definition")
      ("inclusion", po::value<std::string>(), "add, redefine: the inclusion criterion")
      ("exclusion", po::value<std::string>(), "add, redefine: the exclusion criterion")
      ("aliases", po::value<std::string>(), "add, redefine: aliases, comma-separated (redefine: replaces them; \"\" clears)")
      ("keywords", po::value<std::string>(), "add, redefine: auto-coding keywords, comma-separated")
      ("node", po::value<std::string>(), "rename, redefine, move, split, deprecate: the node")
      ("from", po::value<std::string>(), "merge: the nodes merged away, comma-separated")
      ("into", po::value<std::vector<std::string>>()->composing(), "merge: the target; split: the successors ID:NAME,ID:NAME")
      ("codings-to", po::value<std::string>(), "split: the successor that receives the codings, or 'recode'")
      ("by", po::value<std::vector<std::string>>()->composing(), "the participant who proposed it (repeat with --source)")
      ("source", po::value<std::vector<std::string>>()->composing(), "where: a transcript FILE:LINE (repeatable)")
      ("rationale", po::value<std::string>(), "why (required)")
      ("author", po::value<std::string>(), "who records it (default: $QUALRANK_AUTHOR, $USER, $LOGNAME, else the account's name)")
      ("date", po::value<std::string>(), "the date recorded, YYYY-MM-DD (default: today, UTC)");
  po::positional_options_description pos;
  pos.add("op", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "taxonomy propose",
                     "OP [ARGS] --rationale TEXT [--by PARTICIPANT --source FILE:LINE]... [--author NAME] [--date D]\n"
                     "  add --id ID [--parent ID] --name TEXT [--definition ..] [--aliases a,b] [--keywords ..]\n"
                     "  rename --node ID [--name TEXT] [--new-id ID]\n"
                     "  redefine --node ID [--definition ..] [--inclusion ..] [--exclusion ..] [--aliases ..] [--keywords ..]\n"
                     "  move --node ID --parent ID\n"
                     "  merge --from ID[,ID...] --into ID\n"
                     "  split --node ID --into ID:NAME,ID:NAME --codings-to ID|recode\n"
                     "  deprecate --node ID",
                     desc, args, vm, rc, &pos))
    return rc;
  auto fail = [&](const std::string& message) {
    *ctx.err << "qualrank taxonomy propose: error: " << message << "\n(see 'qualrank taxonomy propose --help')\n";
    return 2;
  };
  if (!vm.count("op")) return fail("which operation? (add, rename, redefine, move, merge, split, deprecate)");
  auto op = parse_edit_op(vm["op"].as<std::string>());
  if (!op) return fail("unknown operation '" + vm["op"].as<std::string>() + "' (add, rename, redefine, move, merge, split, deprecate)");
  const auto& allowed = op_options().at(*op);
  for (const auto& [name, allowed_ops] : op_options()) {
    (void)allowed_ops;
    for (const auto& opt : allowed_ops)
      if (vm.count(opt) && !allowed.count(opt)) return fail("--" + opt + " does not apply to " + std::string(to_string(*op)));
  }
  for (const auto& opt : required_options(*op))
    if (!vm.count(opt)) return fail(std::string(to_string(*op)) + " needs --" + opt);
  if (!vm.count("rationale")) return fail("a proposal needs --rationale");

  TaxonomyEdit e;
  e.op = *op;
  auto str = [&](const char* key) { return vm.count(key) ? vm[key].as<std::string>() : std::string(); };
  auto opt = [&](const char* key) { return vm.count(key) ? std::optional<std::string>(vm[key].as<std::string>()) : std::nullopt; };
  auto list = [&](const char* key) {
    return vm.count(key) ? std::optional<std::vector<std::string>>(text::split_nonempty(vm[key].as<std::string>(), ','))
                         : std::nullopt;
  };
  e.node = *op == EditOp::add ? str("id") : str("node");
  e.parent = str("parent");
  e.name = opt("name");
  e.new_id = opt("new-id");
  e.definition = opt("definition");
  e.inclusion = opt("inclusion");
  e.exclusion = opt("exclusion");
  e.aliases = list("aliases");
  e.keywords = list("keywords");
  if (*op == EditOp::rename && !e.name && !e.new_id) return fail("rename needs --name, --new-id or both");
  if (*op == EditOp::redefine && !e.definition && !e.inclusion && !e.exclusion && !e.aliases && !e.keywords)
    return fail("redefine needs at least one of --definition, --inclusion, --exclusion, --aliases, --keywords");
  if (*op == EditOp::merge) {
    e.from = text::split_nonempty(str("from"), ',');
    auto into = vm["into"].as<std::vector<std::string>>();
    if (into.size() != 1) return fail("merge takes one --into");
    e.into = into.front();
  }
  if (*op == EditOp::split) {
    std::string error;
    auto parts = parse_parts(vm["into"].as<std::vector<std::string>>(), error);
    if (!parts) return fail("--into: " + error);
    e.parts = *parts;
    e.codings_to = str("codings-to");
  }
  std::vector<std::string> by, sources;
  if (vm.count("by")) by = vm["by"].as<std::vector<std::string>>();
  if (vm.count("source")) sources = vm["source"].as<std::vector<std::string>>();
  if (!sources.empty() && by.empty()) return fail("--source needs --by (the participant)");
  if (by.size() > 1 && !sources.empty() && by.size() != sources.size())
    return fail("give one --by per --source, or one --by for all of them");
  for (std::size_t i = 0; i < std::max(by.size(), sources.size()); ++i) {
    Provenance p;
    p.participant = by.size() == 1 ? by[0] : by[i];
    if (i < sources.size()) p.source = sources[i];
    e.provenance.push_back(std::move(p));
  }
  e.rationale = str("rationale");
  e.author = default_author(vm);
  auto date = entry_date(ctx, "propose", vm);
  if (!date) return 2;
  e.date = *date;

  Diagnostics diags;
  auto id = append_proposal(ctx.workspace, e, diags);
  report_diagnostics(ctx, diags);
  if (!id) return 1;
  *ctx.out << *id << '\n';
  // What the proposal recorded from each --source: the participant's words, so a wrong line is seen at once.
  if (!ctx.quiet) {
    Diagnostics ignored;
    if (auto ws = load_workspace_design(ctx.workspace, ignored))
      if (auto h = load_history(*ws, ignored))
        if (const TaxonomyEdit* recorded = h->find(*id))
          for (const auto& p : recorded->provenance)
            if (!p.source.empty())
              *ctx.err << "qualrank taxonomy propose: " << *id << ": source " << p.source << " (" << p.participant << "): "
                       << (p.quote.empty() ? "no quote (not a transcript line)" : "\"" + p.quote + "\"") << '\n';
  }
  if (*op == EditOp::split && !ctx.quiet) {  // what each successor gets (docs/taxonomy-history.md, "split")
    std::vector<std::string> others;
    for (const auto& p : e.parts)
      if (p.id != e.codings_to) others.push_back(p.id);
    if (e.codings_to == kRecode)
      *ctx.err << "qualrank taxonomy propose: " << *id << ": the successors " << text::join(others, ", ")
               << " get only their names; the definition, inclusion, exclusion, aliases and keywords of " << e.node
               << " retire with it\n";
    else
      *ctx.err << "qualrank taxonomy propose: " << *id << ": " << e.codings_to << " keeps the definition, inclusion, exclusion, "
               << "aliases and keywords of " << e.node << " (with its codings and children); " << text::join(others, ", ")
               << (others.size() == 1 ? " gets" : " get") << " only a name (give a definition with 'taxonomy propose redefine')\n";
  }
  return 0;
}

namespace {

int decide(Context& ctx, const std::vector<std::string>& args, bool accept) {
  std::string name = accept ? "taxonomy accept" : "taxonomy reject";
  po::options_description desc(name + " options");
  desc.add_options()("edit", po::value<std::string>(), "the edit id (E0001 ...)");
  if (accept)
    desc.add_options()
        ("into-version", po::value<int>(), "the version (the latest, or the next one; default: the next one)")
        ("version-name", po::value<std::string>(), "a name for the version, e.g. \"after interviews\"");
  else
    desc.add_options()("reason", po::value<std::string>(), "why it is rejected (required)");
  desc.add_options()
      ("author", po::value<std::string>(), "who decides (default: $QUALRANK_AUTHOR, $USER, $LOGNAME, else the account's name)")
      ("date", po::value<std::string>(), "the date recorded, YYYY-MM-DD (default: today, UTC)");
  po::positional_options_description pos;
  pos.add("edit", 1);
  po::variables_map vm;
  int rc = 0;
  std::string usage = accept ? "EDIT [--into-version V] [--version-name NAME] [--author NAME] [--date D]"
                             : "EDIT --reason TEXT [--author NAME] [--date D]";
  if (!parse_options(ctx, name, usage, desc, args, vm, rc, &pos)) return rc;
  if (!vm.count("edit")) {
    *ctx.err << "qualrank " << name << ": error: which edit? (see 'qualrank taxonomy log')\n";
    return 2;
  }
  if (!accept && !vm.count("reason")) {
    *ctx.err << "qualrank " << name << ": error: a rejection needs --reason\n";
    return 2;
  }
  HistoryDecision d;
  d.accept = accept;
  if (accept && vm.count("into-version")) d.into_version = vm["into-version"].as<int>();
  if (accept && vm.count("version-name")) d.version_name = vm["version-name"].as<std::string>();
  if (!accept) d.reason = vm["reason"].as<std::string>();
  d.author = default_author(vm);
  auto date = entry_date(ctx, accept ? "accept" : "reject", vm);
  if (!date) return 2;
  d.date = *date;
  Diagnostics diags;
  bool ok = append_decision(ctx.workspace, vm["edit"].as<std::string>(), d, diags);
  report_diagnostics(ctx, diags);
  if (!ok) return 1;
  if (!ctx.quiet) *ctx.err << "qualrank " << name << ": " << vm["edit"].as<std::string>() << (accept ? " accepted" : " rejected") << '\n';
  return 0;
}

}  // namespace

int taxonomy_accept(Context& ctx, const std::vector<std::string>& args) { return decide(ctx, args, true); }
int taxonomy_reject(Context& ctx, const std::vector<std::string>& args) { return decide(ctx, args, false); }

}  // namespace qualrank::cli
