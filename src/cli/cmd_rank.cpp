#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "cli.h"
#include "qualrank/analysis/coder_selection.h"
#include "qualrank/analysis/rankings/ranking.h"
#include "qualrank/analysis/stats.h"
#include "qualrank/analysis/study.h"
#include "qualrank/report/latex/latex_tables.h"
#include "qualrank/report/outputs/ranking_output.h"
#include "qualrank/util/bury.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

// --by and every --where name an attribute some answer has, and --where a value some answer has; otherwise
// prints "qualrank rank: error: ..." with the closest name ("did you mean") or the values, and returns false.
bool check_attributes(Context& ctx, const std::vector<RankingQuestionInput>& inputs, const RankingOptions& opts) {
  std::vector<std::string> names;
  std::map<std::string, std::vector<std::string>> values;  // in order of first appearance
  std::set<std::pair<std::string, std::string>> seen;      // (name, value): one look-up per answer, not a scan
  for (const auto& q : inputs)
    for (const auto& a : q.answers)
      for (const auto& [k, v] : a.attributes) {
        if (!values.count(k)) names.push_back(k);
        auto& vs = values[k];
        if (!v.empty() && seen.emplace(k, v).second) vs.push_back(v);
      }
  if (names.empty()) return true;  // no answers: nothing to group
  auto known = [&](const char* option, const std::string& name) {
    if (std::find(names.begin(), names.end(), name) != names.end()) return true;
    auto hint = text::closest(name, names);
    *ctx.err << "qualrank rank: error: " << option << ": no participant has an attribute '" << name << "'"
             << (hint.empty() ? " (attributes: " + text::join(names, ", ") + ")" : " (did you mean '" + hint + "'?)") << '\n';
    return false;
  };
  bool ok = known("--by", opts.by);
  for (const auto& [attr, value] : opts.where) {
    if (!known("--where", attr)) {
      ok = false;
      continue;
    }
    const auto& vs = values[attr];
    if (std::find(vs.begin(), vs.end(), value) != vs.end()) continue;
    auto hint = text::closest(value, vs);
    *ctx.err << "qualrank rank: error: --where: no participant has " << attr << " = '" << value << "'"
             << (hint.empty() ? " (values: " + text::join(vs, ", ") + ")" : " (did you mean '" + hint + "'?)") << '\n';
    ok = false;
  }
  return ok;
}

// Grouping by a numeric attribute (years, tenure) makes a group of nearly every value, in text order: refuses it
// with a pointer to the guideline's experience levels, which bin such a number into named levels.
bool check_not_numeric(Context& ctx, const std::vector<RankingQuestionInput>& inputs, const std::string& by, const Workspace& ws) {
  if (by == "role") return true;
  std::vector<std::string> values;
  std::set<std::string> seen;
  for (const auto& q : inputs)
    for (const auto& a : q.answers) {
      auto it = a.attributes.find(by);
      if (it == a.attributes.end() || it->second.empty()) continue;
      if (seen.insert(it->second).second) values.push_back(it->second);
    }
  if (values.size() < 3) return true;  // two numbers are two groups: fine
  for (const auto& v : values) {
    char* end = nullptr;
    std::strtod(v.c_str(), &end);
    if (end == v.c_str() || *end != '\0') return true;
  }
  const auto& e = ws.guideline.experience;
  *ctx.err << "qualrank rank: error: --by " << by << ": the attribute is a number (" << values.size()
           << " different values), so every value would be a group of its own; group by levels instead: "
           << (e && e->from == by ? "--by " + e->attribute + " (the guideline's experience levels from " + by + ")"
                                  : "add `experience: {attribute: experience, levels: [...], from: " + by + ", bins: [...]}` to the guideline and use --by experience")
           << '\n';
  return false;
}

}  // namespace

int cmd_rank(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("rank options");
  desc.add_options()
      ("by", po::value<std::string>()->default_value("role"), "group participants by this attribute (role, experience, ...)")
      ("compare", po::value<std::string>(), "the two groups to compare, A,B (default: the guideline's `compare` pairs when grouping by role, else the first two levels in the guideline's order)")
      ("where", po::value<std::vector<std::string>>()->composing(), "keep only participants with attribute=value (repeatable)")
      ("question", po::value<std::vector<std::string>>()->composing(), "only this ranking question (repeatable)")
      ("table", po::value<std::string>(), "read rankings from a CSV, relative to the workspace (participant, question, ranking, attribute columns) instead of the transcripts")
      ("items", po::value<std::string>(), "with --table: the item set, ID,ID,... (default: every item named in the question's rankings)")
      ("model", po::value<std::string>(), "also fit a ranking model: plackett-luce (worths per group, a likelihood-ratio test of shared priorities)")
      ("pseudo-rankings", po::value<double>()->default_value(0.5), "with --model: pseudo-rankings per item against a hypothetical item, so every worth is finite (0 = plain maximum likelihood)")
      ("partial", po::value<std::string>()->default_value("top-k"), "with --model: top-k (unranked items lose every choice) or subset (an answer ranks only the items it names)")
      ("min-group", po::value<int>(), "the minimum group size: smaller groups show their raw rankings only, with no CI, test, model or flag (default: the guideline's `min_group`, else 2)")
      ("resamples", po::value<int>()->default_value(10000), "bootstrap resamples for the CI of rho (0 = none)")
      ("seed", po::value<std::uint64_t>()->default_value(20250101), "bootstrap seed (same seed, same numbers)")
      ("at", po::value<std::string>(), "taxonomy version to resolve items in (default: the latest)")
      ("coder", po::value<std::string>()->default_value("consensus"), "consensus, all or a coder's name, as in every command; rankings are the participants' own answers (@rank), so every selection ranks the same")
      ("format", po::value<std::string>()->default_value("table"), "json, md, table or latex (on stdout)")
      ("output,o", po::value<std::vector<std::string>>()->composing(), "write FILE.xlsx (workbook with charts), FILE.md or FILE.json; repeatable");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "rank", "[--by ATTR] [--compare A,B] [--where k=v] [--table FILE.csv] [--model plackett-luce] [--format json|md|table|latex] [-o FILE]", desc, args, vm, rc)) return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "rank", "format", format, {"json", "md", "table", "latex"})) return 2;
  RankingOptions opts;
  opts.by = vm["by"].as<std::string>();
  opts.resamples = vm["resamples"].as<int>();
  opts.seed = vm["seed"].as<std::uint64_t>();
  if (vm.count("model")) {
    if (!check_choice(ctx, "rank", "model", vm["model"].as<std::string>(), {"plackett-luce"})) return 2;
    opts.model.enabled = true;
  }
  opts.model.pseudo_rankings = vm["pseudo-rankings"].as<double>();
  if (!(opts.model.pseudo_rankings >= 0) || !std::isfinite(opts.model.pseudo_rankings)) {
    *ctx.err << "qualrank rank: error: --pseudo-rankings must be 0 or more\n";
    return 2;
  }
  if (!check_choice(ctx, "rank", "partial", vm["partial"].as<std::string>(), {"top-k", "subset"})) return 2;
  opts.model.partial = vm["partial"].as<std::string>() == "subset" ? pl::PartialRankings::subset : pl::PartialRankings::top_k;
  if (opts.resamples < 0 || opts.resamples > stats::kMaxResamples) {
    *ctx.err << "qualrank rank: error: --resamples must be 0 to " << stats::kMaxResamples << "\n";
    return 2;
  }
  if (vm.count("compare")) {
    auto parts = text::split(vm["compare"].as<std::string>(), ',');
    if (parts.size() != 2 || parts[0].empty() || parts[1].empty()) {
      *ctx.err << "qualrank rank: error: --compare takes two levels, A,B\n";
      return 2;
    }
    opts.compare = std::pair{parts[0], parts[1]};
  }
  if (!parse_where(ctx, "rank", vm, opts.where)) return 2;
  Diagnostics diags;
  StudyOptions sopts;
  if (vm.count("at")) sopts.at = vm["at"].as<std::string>();
  sopts.coding.suggestions = false;
  auto study = load_study(ctx.workspace, diags, sopts);
  const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
  if (!study || diags.has_errors()) {
    report_diagnostics(ctx, diags);
    return 1;
  }
  report_diagnostics(ctx, diags);  // the workspace's warnings (a `top` past the item count, ...), as every command
  if (auto why = coder_selection_problem(study->workspace, vm["coder"].as<std::string>()); !why.empty()) {
    *ctx.err << "qualrank rank: error: --coder: " << why << "\n(see 'qualrank rank --help')\n";
    return 2;
  }
  std::vector<RankingQuestionInput> inputs;
  std::vector<std::string> levels = study->workspace.attribute_levels(opts.by);
  if (vm.count("table")) {
    std::string where, why;
    auto found = input_path(ctx, vm["table"].as<std::string>(), &where);
    auto rel = found ? found->string() : vm["table"].as<std::string>();
    auto content = found ? files::read_input(rel, files::kTableInput, &why) : std::nullopt;
    if (!content) {
      *ctx.err << rel << ": error: " << (where.empty() ? why : where) << "\n";
      return 1;
    }
    std::vector<std::string> items;
    if (vm.count("items")) {
      for (const auto& i : text::split_nonempty(vm["items"].as<std::string>(), ',')) {
        auto r = study->version->resolve(i);
        if (!r.node) {
          *ctx.err << "qualrank rank: error: --items: unknown taxonomy node '" << i << "'\n";
          return 2;
        }
        items.push_back(*r.node);
      }
    }
    Diagnostics tdiags;
    inputs = read_ranking_table(*content, rel, study->taxonomy(), study->version->resolve, items, tdiags);
    if (tdiags.has_errors()) {
      report_diagnostics(ctx, tdiags);
      return 1;
    }
    // Levels: the guideline's order where it knows the attribute, then the table's own.
  } else {
    inputs = ranking_inputs(study->workspace, study->rankings);
  }
  if (vm.count("question")) {
    auto wanted = vm["question"].as<std::vector<std::string>>();
    std::vector<RankingQuestionInput> kept;
    for (auto& q : inputs)
      if (std::find(wanted.begin(), wanted.end(), q.question) != wanted.end()) kept.push_back(std::move(q));
    for (const auto& w : wanted) {
      if (std::none_of(kept.begin(), kept.end(), [&](const RankingQuestionInput& q) { return q.question == w; })) {
        *ctx.err << "qualrank rank: error: no ranking question '" << w << "'\n";
        return 2;
      }
    }
    inputs = std::move(kept);
  }
  if (!check_attributes(ctx, inputs, opts)) return 2;
  if (!check_not_numeric(ctx, inputs, opts.by, study->workspace)) return 2;
  if (vm.count("min-group")) {
    opts.min_group = vm["min-group"].as<int>();
    if (opts.min_group < 1) {
      *ctx.err << "qualrank rank: error: --min-group must be 1 or more\n";
      return 2;
    }
  } else if (study->workspace.guideline.min_group > 0) {
    opts.min_group = study->workspace.guideline.min_group;
  }
  // The guideline's `compare` pairs name roles: they apply when grouping by role.
  if (!opts.compare && opts.by == "role") opts.comparisons = study->workspace.guideline.compare;
  if (opts.by == "role") opts.plurals = study->workspace.guideline.plurals;
  Diagnostics notes;
  auto analysis = analyse_rankings(inputs, levels, opts, notes);
  if (opts.compare) {
    for (const auto& name : {opts.compare->first, opts.compare->second}) {
      if (std::find(analysis.levels.begin(), analysis.levels.end(), name) == analysis.levels.end()) {
        *ctx.err << "qualrank rank: error: no participant has " << opts.by << " = '" << name << "' (levels: "
                 << text::join(analysis.levels, ", ") << ")\n";
        return 2;
      }
    }
  }
  if (notes.has_errors()) {
    report_diagnostics(ctx, notes);
    return 1;
  }
  if (ctx.verbose) report_diagnostics(ctx, notes);
  if (vm.count("output")) {
    for (const auto& out : vm["output"].as<std::vector<std::string>>()) {
      std::filesystem::path path = given_path(ctx, out);
      auto ext = path.extension().string();
      Diagnostics wdiags;
      bool ok = true;
      std::string err;
      if (ext == ".xlsx") ok = write_rankings_workbook(analysis, study->taxonomy(), path, wdiags);
      else if (ext == ".md") ok = files::write_atomic(path, rankings_markdown(analysis, study->taxonomy()), &err);
      else if (ext == ".json") ok = files::write_atomic(path, rankings_json(analysis).dump(2) + "\n", &err);
      else {
        *ctx.err << "qualrank rank: error: -o takes a .xlsx, .md or .json file, not '" << out << "'\n";
        return 2;
      }
      report_diagnostics(ctx, wdiags);
      if (!ok) {
        if (!err.empty()) *ctx.err << "qualrank rank: error: " << err << '\n';
        return 1;
      }
      if (!ctx.quiet) *ctx.err << "wrote " << path.string() << '\n';
    }
    if (!vm["format"].defaulted() || vm.count("output") == 0) {
    } else {
      return 0;
    }
  }
  if (format == "json") *ctx.out << rankings_json(analysis).dump(2) << '\n';
  else if (format == "md") *ctx.out << rankings_markdown(analysis, study->taxonomy());
  else if (format == "latex")
    *ctx.out << latex::concatenated(latex::ranking_tables(rankings_json(analysis), latex::node_names(study->taxonomy()), "rank",
                                                          "By " + analysis.by + ", "));
  else *ctx.out << rankings_table(analysis, study->taxonomy());
  return 0;
}

}  // namespace qualrank::cli
