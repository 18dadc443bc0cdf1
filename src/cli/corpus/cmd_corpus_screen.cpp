// `qualrank corpus screen`: a screener's decisions on retrieved documents (relevant, or a false positive with
// a reason) into corpus/screening/<screener>.csv, one at a time or from a CSV; --status: agreement between the
// screeners, the exclusions under a rule and the false-positive rate per source (analysis/corpus/corpus_screening.h).
// Blind: recording a decision prints only that screener's own progress.
#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <unordered_map>

#include "../cli.h"
#include "qualrank/analysis/corpus/corpus_provenance.h"
#include "qualrank/analysis/corpus/corpus_screening.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::cli {

namespace {

using namespace qualrank::corpus;

// corpus/retrieved.jsonl, checked against what it was made from: a stale retrieval is an error where numbers
// are computed from it (`refuse_stale`: the status), a warning where a decision is recorded.
std::optional<std::vector<RetrievedRef>> load_retrieved(Context& ctx, Diagnostics& diags, bool refuse_stale) {
  const std::string rel = "corpus/retrieved.jsonl";
  if (!files::exists(ctx.workspace / rel)) {
    diags.error({rel, 0, 0}, "nothing retrieved yet: run 'qualrank corpus retrieve'");
    return std::nullopt;
  }
  std::string why;
  auto text = files::read_inside(ctx.workspace, rel, &why);
  if (!text) {
    diags.error({rel, 0, 0}, why);
    return std::nullopt;
  }
  check_retrieval_current(ctx.workspace, *text, diags, refuse_stale);
  return read_retrieved(*text, rel, diags);
}

std::string reason_problem(const std::string& reason, const std::vector<std::string>& reasons) {
  if (std::find(reasons.begin(), reasons.end(), reason) != reasons.end()) return {};
  std::string m = "unknown reason '" + reason + "'";
  if (auto best = text::closest(reason, reasons); !best.empty()) m += "; did you mean '" + best + "'?";
  return m + " (reasons: " + text::join(reasons, ", ") + ")";
}

std::string fmt(double x, int digits) { return std::isnan(x) ? "n/a" : text::fixed(x, digits); }

int screen_status(Context& ctx, const po::variables_map& vm) {
  auto rule_name = vm["rule"].as<std::string>();
  auto format = vm["format"].as<std::string>();
  Diagnostics diags;
  auto retrieved = load_retrieved(ctx, diags, true);
  auto screeners = read_all_screening(ctx.workspace, diags);
  if (!retrieved || diags.has_errors()) return report_diagnostics(ctx, diags);
  auto s = screening_status(*retrieved, screeners, rule_name == "majority" ? ExclusionRule::majority : ExclusionRule::unanimous);
  for (const auto& n : s.not_retrieved) diags.warning({"corpus/screening", 0, 0}, "a decision on a document not retrieved: " + n);
  report_diagnostics(ctx, diags);
  if (format == "json") {
    auto num = [](double x) { return std::isnan(x) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(x); };
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j["rule"] = rule_name;
    j["retrieved"] = s.retrieved;
    nlohmann::ordered_json sc = nlohmann::ordered_json::array();
    for (std::size_t c = 0; c < s.screeners.size(); ++c)
      sc.push_back({{"screener", s.screeners[c]}, {"screened", s.screened_per_screener[c]}});
    j["screeners"] = std::move(sc);
    j["screened"] = s.screened;
    j["screened_by_all"] = s.screened_by_all;
    j["agreeing"] = s.agreeing;
    j["all_agree"] = num(s.all_agree);
    j["screened_by_two"] = s.screened_by_two;
    j["percent_agreement"] = num(s.percent_agreement);
    j["cohen_kappa"] = num(s.cohen_kappa);
    j["fleiss_kappa"] = num(s.fleiss_kappa);
    j["excluded"] = s.excluded;
    nlohmann::ordered_json per = nlohmann::ordered_json::array();
    for (const auto& src : s.sources)
      per.push_back({{"source", src.source}, {"retrieved", src.retrieved}, {"screened", src.screened},
                     {"excluded", src.excluded}, {"fp_rate", num(src.fp_rate)}});
    j["sources"] = std::move(per);
    j["excluded_docs"] = s.excluded_docs;
    *ctx.out << j.dump(2) << '\n';
    return 0;
  }
  *ctx.out << "screening of " << s.retrieved << " retrieved documents by " << s.screeners.size() << " screener"
           << (s.screeners.size() == 1 ? "" : "s") << "; rule: " << rule_name
           << (rule_name == "unanimous" ? " (excluded when every screener who screened it says false positive)"
                                        : " (excluded when more than half of its screeners say false positive)")
           << "\n";
  std::vector<std::vector<std::string>> rows{{"screener", "screened"}};
  for (std::size_t c = 0; c < s.screeners.size(); ++c) rows.push_back({s.screeners[c], std::to_string(s.screened_per_screener[c])});
  *ctx.out << text::columns(rows, {false, true}, "  ");
  *ctx.out << "screened by at least one: " << s.screened << "; by all: " << s.screened_by_all << ", of which "
           << s.agreeing << " decided alike by every screener (all agree: " << fmt(s.all_agree * 100, 1) << "%)\n";
  if (s.screeners.size() >= 2)
    *ctx.out << "percent agreement (mean share of agreeing screener pairs, over the " << s.screened_by_two
             << " documents screened by two or more): " << fmt(s.percent_agreement, 4) << "\n";
  if (s.screeners.size() == 2) *ctx.out << "Cohen's kappa: " << fmt(s.cohen_kappa, 4) << "\n";
  if (s.screeners.size() >= 2) *ctx.out << "Fleiss' kappa: " << fmt(s.fleiss_kappa, 4) << "\n";
  *ctx.out << "excluded as false positives: " << s.excluded << "\n\n";
  std::vector<std::vector<std::string>> per{{"source", "retrieved", "screened", "excluded", "FP rate"}};
  for (const auto& src : s.sources)
    per.push_back({src.source, std::to_string(src.retrieved), std::to_string(src.screened), std::to_string(src.excluded), fmt(src.fp_rate, 4)});
  *ctx.out << text::columns(per, {false, true, true, true, true}, "  ");
  return 0;
}

}  // namespace

int cmd_corpus_screen(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("corpus screen options");
  desc.add_options()
      ("screener", po::value<std::string>(), "who decides (names corpus/screening/NAME.csv)")
      ("doc", po::value<std::string>(), "the document: SOURCE#ID (or the ID when only one retrieved document has it)")
      ("relevant", "the document is relevant")
      ("false-positive", po::value<std::string>(), "the document is a false positive, for this REASON")
      ("note", po::value<std::string>(), "a note kept with the decision")
      ("from-csv", po::value<std::string>(), "record many decisions: a CSV with columns doc, decision, reason, note")
      ("status", "print agreement, exclusions and the false-positive rate per source")
      ("rule", po::value<std::string>()->default_value("unanimous"), "--status: unanimous or majority")
      ("format", po::value<std::string>()->default_value("text"), "--status: text or json");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "corpus screen",
                     "--screener NAME --doc SOURCE#ID (--relevant | --false-positive REASON [--note TEXT])\n"
                     "       qualrank corpus screen --screener NAME --from-csv FILE\n"
                     "       qualrank corpus screen --status [--rule unanimous|majority] [--format text|json]\n\n"
                     "Reasons come from corpus/screening.yaml or corpus/keywords.yaml ('reasons: [...]'), else\n"
                     "not-about-topic, keyword-in-code-only, duplicate. A later decision on a document replaces the\n"
                     "screener's earlier one.",
                     desc, args, vm, rc))
    return rc;
  if (!check_choice(ctx, "corpus screen", "rule", vm["rule"].as<std::string>(), {"unanimous", "majority"}) ||
      !check_choice(ctx, "corpus screen", "format", vm["format"].as<std::string>(), {"text", "json"}))
    return 2;
  if (vm.count("status")) {
    if (vm.count("screener") || vm.count("doc") || vm.count("from-csv")) {
      *ctx.err << "qualrank corpus screen: error: --status takes no --screener, --doc or --from-csv\n";
      return 2;
    }
    return screen_status(ctx, vm);
  }
  if (!vm.count("screener")) {
    *ctx.err << "qualrank corpus screen: error: give --screener NAME (or --status)\n";
    return 2;
  }
  const std::string screener = vm["screener"].as<std::string>();
  if (auto why = screener_name_problem(screener); !why.empty()) {
    *ctx.err << "qualrank corpus screen: error: --screener '" << screener << "': " << why << '\n';
    return 2;
  }
  const bool batch = vm.count("from-csv") > 0;
  const int verdicts = static_cast<int>(vm.count("relevant") + vm.count("false-positive"));
  if (batch ? (verdicts > 0 || vm.count("doc") || vm.count("note")) : (verdicts != 1 || !vm.count("doc"))) {
    *ctx.err << "qualrank corpus screen: error: give --doc with one of --relevant or --false-positive REASON, or --from-csv FILE\n";
    return 2;
  }
  Diagnostics diags;
  files::WorkspaceLock lock(ctx.workspace);
  if (!lock_held(ctx, "corpus screen", lock)) return 1;
  auto retrieved = load_retrieved(ctx, diags, false);
  auto reasons = screening_reasons(ctx.workspace, diags);
  if (!retrieved || diags.has_errors()) return report_diagnostics(ctx, diags);
  std::unordered_map<std::string, int> known;
  std::unordered_map<std::string, std::vector<std::string>> by_id;
  for (const auto& r : *retrieved) {
    known.emplace(r.doc, 0);
    by_id[r.doc.substr(r.doc.find('#') + 1)].push_back(r.doc);
  }
  std::vector<ScreeningDecision> incoming;
  if (batch) {
    const std::string file = vm["from-csv"].as<std::string>();
    std::string where;
    auto path = input_path(ctx, file, &where);
    auto text = path ? files::read(*path) : std::nullopt;
    if (!text) {
      diags.error({file, 0, 0}, "cannot read the file" + (where.empty() ? std::string() : ": " + where));
      return report_diagnostics(ctx, diags);
    }
    incoming = read_screening(*text, file, diags);
    for (const auto& d : incoming) {
      if (!known.count(d.doc)) diags.error({file, d.line, 1}, "'" + d.doc + "' is not a retrieved document (corpus/retrieved.jsonl)");
      if (d.decision == Decision::false_positive && !d.reason.empty())
        if (auto why = reason_problem(d.reason, reasons); !why.empty()) diags.error({file, d.line, 1}, why);
    }
    if (diags.has_errors()) return report_diagnostics(ctx, diags);
  } else {
    ScreeningDecision d;
    d.doc = vm["doc"].as<std::string>();
    if (!known.count(d.doc)) {
      auto it = by_id.find(d.doc);
      if (d.doc.find('#') == std::string::npos && it != by_id.end() && it->second.size() == 1) {
        d.doc = it->second.front();
      } else {
        *ctx.err << "qualrank corpus screen: error: '" << d.doc << "' is not a retrieved document";
        if (it != by_id.end() && it->second.size() > 1) *ctx.err << " (several sources have that id: " << text::join(it->second, ", ") << ")";
        *ctx.err << '\n';
        return 1;
      }
    }
    if (vm.count("false-positive")) {
      d.decision = Decision::false_positive;
      d.reason = vm["false-positive"].as<std::string>();
      if (auto why = reason_problem(d.reason, reasons); !why.empty()) {
        *ctx.err << "qualrank corpus screen: error: " << why << '\n';
        return 2;
      }
    }
    if (vm.count("note")) d.note = vm["note"].as<std::string>();
    incoming.push_back(std::move(d));
  }
  const std::string rel = "corpus/screening/" + screener + ".csv";
  std::vector<ScreeningDecision> mine;
  if (files::exists(ctx.workspace / rel)) {
    std::string why;
    auto text = files::read_inside(ctx.workspace, rel, &why);
    if (!text) diags.error({rel, 0, 0}, why);
    else mine = read_screening(*text, rel, diags);
    if (diags.has_errors()) return report_diagnostics(ctx, diags);
  }
  std::string one;  // the single decision, as printed
  if (!batch) {
    const auto& d = incoming.front();
    one = d.doc + " " + (d.decision == Decision::relevant ? std::string("relevant") : "false-positive (" + d.reason + ")");
  }
  std::size_t fresh = 0, changed = 0;
  for (auto& d : incoming) {
    d.line = 0;
    if (set_decision(mine, std::move(d))) ++changed;
    else ++fresh;
  }
  auto target = files::resolve_inside(ctx.workspace, rel);
  std::string err;
  if (!target || !files::write_atomic(*target, screening_text(mine), &err)) {
    *ctx.err << "qualrank corpus screen: error: cannot write " << rel << ": " << (target ? err : "outside the workspace") << '\n';
    return 1;
  }
  std::size_t done = 0;
  for (const auto& d : mine) done += known.count(d.doc);
  if (!ctx.quiet) {
    if (!batch) {
      *ctx.out << screener << ": " << one << (changed ? " (replaces the earlier decision)" : "") << '\n';
    } else {
      *ctx.out << screener << ": " << incoming.size() << " decisions recorded (" << fresh << " new, " << changed << " replaced)\n";
    }
    *ctx.out << screener << " has screened " << done << " of " << retrieved->size() << " retrieved documents\n";
  }
  return 0;
}

}  // namespace qualrank::cli
