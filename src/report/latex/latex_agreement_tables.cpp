// The LaTeX tables of inter-coder agreement (agreement_output.h's JSON and report.json's "agreement": kappa,
// alpha and per cent agreement to 3 decimals, as agreement.xlsx, methods.md and index.html), the corpus table
// (corpus_output.h) and saturation (saturation_output.h).
#include "latex_internal.h"

#include <algorithm>
#include <cctype>

#include "qualrank/util/text.h"

namespace qualrank::latex::detail {

namespace {

std::string count(const Json& j, const char* key) { return j.contains(key) ? integer(j[key]) : kUndefined; }

std::string coders(const Json& j) {
  if (!j.contains("coders")) return kUndefined;
  return j["coders"].is_array() ? std::to_string(j["coders"].size()) : integer(j["coders"]);
}

// The measure `key` of `a` to 3 decimals, over its confidence interval "[lo, hi]" when there is one.
std::string with_interval(const Json& a, const char* key) {
  const std::string value = number(a.value(key, Json()), 3);
  if (!a.contains("confidence") || !a["confidence"].is_object() || !a["confidence"].contains(key)) return value;
  const Json& ci = a["confidence"][key];
  if (!ci.is_array() || ci.size() != 2 || !ci[0].is_number()) return value;
  return stacked({value, "{[}" + number(ci[0], 3) + ", " + number(ci[1], 3) + "{]}"}, 'r', false);
}

const std::string kKappa = stacked({"Fleiss'", "$\\kappa$"}, 'r', true);
const std::string kAlpha = stacked({"Krippendorff's", "$\\alpha$"}, 'r', true);
// The per cent agreement's header says what it is a share of: coder pairs (beside "All agree": units).
const std::string kPairs = stacked({"Pairs", "agree"}, 'r', true);

// The CI level of the first of `parts` that has one ("95"), or "".
std::string ci_level(const std::vector<const Json*>& parts) {
  for (const Json* a : parts)
    if (a->contains("confidence") && (*a)["confidence"].is_object() && (*a)["confidence"]["level"].is_number())
      return text::fixed((*a)["confidence"]["level"].get<double>() * 100, 0);
  return "";
}

// How the intervals of `parts` were computed: "bootstrap" or "jackknife" for all of them, or, when they
// differ, " (jackknife for label tables, bootstrap for transcript codings)" to follow "confidence interval".
// A part's confidence.method; "bootstrap" when absent (report.json files written before the jackknife).
std::pair<std::string, std::string> ci_method(const std::vector<std::pair<std::string, const Json*>>& parts) {
  std::vector<std::string> methods;
  for (const auto& [name, a] : parts) {
    const bool jack = a->contains("confidence") && (*a)["confidence"].is_object() &&
                      (*a)["confidence"].value("method", Json()) == "jackknife";
    methods.push_back(jack ? "jackknife" : "bootstrap");
  }
  if (std::all_of(methods.begin(), methods.end(), [&](const std::string& m) { return m == methods.front(); }))
    return {methods.empty() ? "bootstrap " : methods.front() + " ", ""};
  std::string each;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    std::string name = parts[i].first;
    name[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(name[0])));
    each += (i ? ", " : " (") + methods[i] + " for " + name;
  }
  return {"", each + ")"};
}

void pooled(const Json& ag, Stems& stems, std::vector<File>& out) {
  std::vector<std::pair<std::string, const Json*>> parts;
  if (ag.contains("labels") && ag["labels"].is_object()) parts.push_back({"Label tables", &ag["labels"]});
  if (ag.contains("transcripts") && ag["transcripts"].is_object()) parts.push_back({"Transcript codings", &ag["transcripts"]});
  if (parts.empty()) return;
  std::vector<const Json*> all;
  for (const auto& p : parts) all.push_back(p.second);
  const std::string level = ci_level(all);
  const bool labels = ag.contains("labels") && ag["labels"].is_object();
  const bool transcripts = ag.contains("transcripts") && ag["transcripts"].is_object();
  Table t;
  // Seven columns in a 252pt column: the long headers over three lines.
  t.columns = {{"Coded", "X"}, {"Units", "r"}, {"Coders", "r"}, {kKappa, "r"}, {stacked({"Krippen-", "dorff's", "$\\alpha$"}, 'r', true), "r"},
               {kPairs, "r"}, {stacked({"All", "agree"}, 'r', true), "r"}};
  for (const auto& [name, a] : parts)
    t.rows.push_back({name, count(*a, "units"), coders(*a), with_interval(*a, "fleiss_kappa"), with_interval(*a, "krippendorff_alpha"),
                      number(a->value("percent_agreement", Json()), 3),
                      number(a->value(name == "Label tables" ? "all_agree" : "exact_agreement", Json()), 3)});
  const auto [method, each] = ci_method(parts);
  // What each of the two agreement shares is a share of: the per cent agreement's pairs per unit (per unit and
  // code for the transcripts, where the codes' absence is agreed too: hence its height beside kappa), and the
  // units on which the coders agreed whole.
  std::string pairs_of, whole;
  if (labels && transcripts) {
    pairs_of = "label tables: per unit, over the units with two or more ratings; transcript codings: per unit and code, each code "
               "present or absent, so agreeing that a code is absent counts";
    whole = "all coders agreed whole (label tables: the same label, of the units rated by every coder; transcript codings: "
            "identical sets of codes)";
  } else if (labels) {
    pairs_of = "per unit, over the units with two or more ratings";
    whole = "every coder gave the same label, of the units rated by every coder";
  } else {
    pairs_of = "per unit and code, each code present or absent, so agreeing that a code is absent counts";
    whole = "the coders applied identical sets of codes";
  }
  t.caption = "Inter-coder agreement, pooled over codes: Fleiss' $\\kappa$, Krippendorff's $\\alpha$ (under each, its " +
              (level.empty() ? std::string() : level + "\\% ") + method + "confidence interval" + each +
              ", when computed); pairs agree, the per cent agreement: the mean share of agreeing coder pairs (" + pairs_of +
              "); all agree, the share of units on which " + whole + ".";
  out.push_back(table_file(stems.take("agreement"), "Inter-coder agreement, pooled", std::move(t)));
}

void per_node(const Json& ag, const std::map<std::string, std::string>& names, Stems& stems, std::vector<File>& out) {
  if (!ag.contains("transcripts") || !ag["transcripts"].is_object()) return;
  const Json& per = ag["transcripts"].value("per_node", Json());
  if (!per.is_object() || per.empty()) return;
  const Json& tr = ag["transcripts"];
  const std::string units = str(tr, "unit") == "segment" ? "segments" : "turns";
  Table t;
  // Six columns in a 252pt column: the long headers over three lines (as the rounds' table).
  t.columns = {{"Code", "X"}, {stacked({"Units", "coded"}, 'r', true), "r"}, {stacked({"Positive", "agree-", "ment"}, 'r', true), "r"},
               {kKappa, "r"}, {stacked({"Krippen-", "dorff's", "$\\alpha$"}, 'r', true), "r"},
               {kPairs, "r"}};
  for (auto it = per.begin(); it != per.end(); ++it)
    t.rows.push_back({item_label(names, it.key()), count(it.value(), "units_coded"), number(it.value().value("positive_agreement", Json()), 3),
                      number(it.value().value("fleiss_kappa", Json()), 3), number(it.value().value("krippendorff_alpha", Json()), 3),
                      number(it.value().value("percent_agreement", Json()), 3)});
  t.caption = "Inter-coder agreement per code, over all " + count(tr, "units") + " " + units +
              " compared, each code present or absent per coder: the " + units + " at least one coder applied the code to "
              "(units coded); the positive agreement on its presence, $2a/(2a+b+c)$ pooled over coder pairs ($a$: both applied "
              "it, $b + c$: one did; Fleiss 1975; de Vet et al.\\ 2013); Fleiss' $\\kappa$, Krippendorff's $\\alpha$ and pairs agree "
              "(the per cent agreement: the mean share of agreeing coder pairs), which count agreeing that the code is absent too "
              "(every measure shown, not only the best).";
  add_table("agreement-nodes", "Inter-coder agreement per code", std::move(t), stems, out);
}

void label_groups(const Json& ag, const std::map<std::string, std::string>& names, Stems& stems, std::vector<File>& out) {
  if (!ag.contains("labels") || !ag["labels"].is_object()) return;
  const Json& l = ag["labels"];
  if (const Json& groups = l.value("groups", Json()); groups.is_object() && !groups.empty()) {
    Table t;
    t.columns = {{"Group", "X"}, {"Units", "r"}, {kKappa, "r"}, {kAlpha, "r"}, {kPairs, "r"}};
    for (auto it = groups.begin(); it != groups.end(); ++it)
      t.rows.push_back({item_label(names, it.key()), count(it.value(), "units"), number(it.value().value("fleiss_kappa", Json()), 3),
                        number(it.value().value("krippendorff_alpha", Json()), 3),
                        number(it.value().value("percent_agreement", Json()), 3)});
    t.caption = "Agreement of the label tables per group of labels (pairs agree, the per cent agreement: the mean share of "
                "agreeing coder pairs per unit, over the group's units with two or more ratings).";
    add_table("agreement-groups", "Label-table agreement per group", std::move(t), stems, out);
  }
  if (const Json& cats = l.value("per_category", Json()); cats.is_object() && !cats.empty()) {
    Table t;
    t.columns = {{"Label", "X"}, {kKappa, "r"}};
    for (auto it = cats.begin(); it != cats.end(); ++it)
      t.rows.push_back({item_label(names, it.key()), number(it.value().value("fleiss_kappa", Json()), 3)});
    t.caption = "Agreement of the label tables per label (Fleiss' category-specific $\\kappa$).";
    add_table("agreement-labels", "Label-table agreement per label", std::move(t), stems, out);
  }
}

void rounds(const Json& ag, Stems& stems, std::vector<File>& out) {
  if (!ag.contains("rounds") || !ag["rounds"].is_array() || ag["rounds"].empty()) return;
  Table t;
  t.columns = {{"Round", "X"}, {stacked({"Tran-", "scripts"}, 'r', true), "r"}, {"Units", "r"}, {"Coders", "r"}, {kKappa, "r"},
               {stacked({"Krippen-", "dorff's", "$\\alpha$"}, 'r', true), "r"}, {kPairs, "r"}};
  for (const auto& r : ag["rounds"])
    t.rows.push_back({escape(str(r, "round")), std::to_string(r.value("transcripts", Json::array()).size()), count(r, "units"),
                      coders(r), number(r.value("fleiss_kappa", Json()), 3), number(r.value("krippendorff_alpha", Json()), 3),
                      number(r.value("percent_agreement", Json()), 3)});
  t.caption = "Inter-coder agreement per coding round, before reconciliation (a round: the transcripts reconciled on one day), "
              "pooled over codes (pairs agree, the per cent agreement: the mean share of agreeing coder pairs per unit and code, each code present "
              "or absent).";
  add_table("agreement-rounds", "Inter-coder agreement per coding round", std::move(t), stems, out);
}

}  // namespace

void agreement_tables(const Json& ag, const std::map<std::string, std::string>& names, const std::string& level_name, Stems& stems,
                      std::vector<File>& out) {
  if (!ag.is_object()) return;
  pooled(ag, stems, out);
  per_node(ag, names, stems, out);
  label_groups(ag, names, stems, out);
  rounds(ag, stems, out);
  if (ag.contains("corpus")) corpus_table(ag["corpus"], level_name, stems, out);
}

void corpus_table(const Json& corpus, const std::string& level_name, Stems& stems, std::vector<File>& out) {
  if (!corpus.is_object() || !corpus["rows"].is_array()) return;
  const Json& total = corpus["total"];
  const bool no_period = total.value("no_period", 0) > 0 && (!corpus["periods"].empty() || total.contains("retrieved"));
  const bool open = total.value("open", 0) > 0;
  const bool ungrouped = total.value("ungrouped", 0) > 0;
  // Table I whole (corpus_overview): retrieval and screening per source before the labelled units.
  const bool screening = total.contains("retrieved");
  Table t;
  t.columns = {{"Source", "l"}};
  if (screening)
    t.columns.insert(t.columns.end(), {{"Stored", "r"}, {stacked({"In", "window"}, 'r', true), "r"}, {"Retrieved", "r"}, {"Screened", "r"},
                                       {stacked({"Screened", "out"}, 'r', true), "r"}, {"Kept", "r"}, {stacked({"FP", "rate"}, 'r', true), "r"}});
  if (screening) t.split = t.columns.size();  // too wide for the line: the screening, then the units under it
  t.columns.push_back({"Units", "r"});
  for (const auto& p : corpus["periods"]) t.columns.push_back({escape(p.get<std::string>()), "r"});
  if (no_period) t.columns.push_back({"(no period)", "r"});
  std::vector<std::string> legend;
  for (const auto& g : corpus["groups"]) {
    t.columns.push_back({escape(str(g, "id")), "r"});
    if (str(g, "name") != str(g, "id")) legend.push_back(escape(str(g, "id")) + "~" + escape(str(g, "name")));
  }
  if (open) t.columns.push_back({"Open", "r"});
  if (ungrouped) t.columns.push_back({"(ungrouped)", "r"});
  auto row = [&](const Json& r, const std::string& source) {
    std::vector<std::string> cells{source};
    if (screening)
      cells.insert(cells.end(), {integer(r["stored"]), integer(r["in_window"]), integer(r["retrieved"]), integer(r["screened"]),
                                 integer(r["screened_out"]), integer(r["kept"]),
                                 number(r.value("fp_rate", Json()), 3)});
    cells.push_back(integer(r["units"]));
    for (const auto& p : corpus["periods"]) cells.push_back(integer(r["periods"].value(p.get<std::string>(), Json(0))));
    if (no_period) cells.push_back(integer(r["no_period"]));
    for (const auto& g : corpus["groups"]) cells.push_back(integer(r["groups"].value(str(g, "id"), Json(0))));
    if (open) cells.push_back(integer(r.value("open", Json(0))));
    if (ungrouped) cells.push_back(integer(r["ungrouped"]));
    return cells;
  };
  for (const auto& r : corpus["rows"]) t.rows.push_back(row(r, escape(str(r, "source"))));
  t.rules.push_back(t.rows.size());
  t.rows.push_back(row(total, "Total"));
  t.caption = (screening ? "Corpus per source: documents stored, in the window (" + escape(str(corpus, "window")) +
                               "), retrieved by keywords, screened, screened out as false positives (rule: " +
                               prose(str(corpus, "rule")) + "), kept, the false-positive rate (screened out / retrieved); "
                               "labelled units per year and " + escape(level_name)
                         : "Units per source, period and " + escape(level_name)) +
              " (of the consensus label" + std::string(open ? "; Open: no consensus label yet, not decided" : "") + ")" +
              (legend.empty() ? std::string(".") : ": " + text::join(legend, "; ") + ".");
  if (screening) {
    // Both averages of the FP rate, named: the total row's is pooled; papers often print the mean of the rates.
    auto percent = [](const Json& v) { return v.is_number() ? text::fixed(100.0 * v.get<double>(), 2) + "\\,\\%" : std::string("---"); };
    int sources = 0;
    for (const auto& r : corpus["rows"]) sources += r.value("retrieved", 0) > 0;
    t.caption += " FP rate of the total row pooled over the sources: " + percent(corpus.value("fp_rate_pooled", Json())) +
                 "; mean of the " + std::to_string(sources) + " sources' rates: " + percent(corpus.value("fp_rate_mean_of_sources", Json())) + ".";
  }
  const bool wide = t.columns.size() > 6;  // Table I whole, or many periods and nodes: both columns of a two-column paper
  add_table("corpus", "Corpus: units per source, period and top-level node", std::move(t), stems, out, wide);
}

void saturation_tables(const Json& sat, Stems& stems, std::vector<File>& out) {
  if (!sat.is_object() || !sat["all"].is_object()) return;
  const Json& all = sat["all"];
  const Json& p = sat["parameters"];
  Table t;
  t.columns = {{"\\#", "r"}, {"Participant", "l"}, {"Role", "l"}, {"Codes", "r"}, {"New", "r"}, {stacked({"Distinct", "so far"}, 'r', true), "r"}};
  for (const auto& i : all["interviews"])
    t.rows.push_back({integer(i["number"]), escape(str(i, "participant")), escape(str(i, "role")), integer(i["codes"]),
                      integer(i["new_codes"]), integer(i["cumulative"])});
  t.caption = "Saturation: new codes per interview in interview order (Guest, Namey \\& Chen 2020; base " + integer(p["base"]) +
              " interviews, runs of " + integer(p["run"]) + ", new-information threshold " +
              number(p["threshold"].is_number() ? Json(p["threshold"].get<double>() * 100) : Json(), 0) + "\\%). " +
              prose(str(all, "statement"));
  const std::size_t curve = out.size();
  add_table("saturation", "Saturation: new codes per interview", std::move(t), stems, out);
  const std::string curve_stem = out[curve].name.substr(0, out[curve].name.size() - 4);
  if (!sat["roles"].is_object() || sat["roles"].empty()) return;
  Table r;
  r.columns = {{"Role", "X"}, {"Interviews", "r"}, {stacked({"Codes in", "the base"}, 'r', true), "r"},
               {stacked({"Saturated", "after"}, 'r', true), "r"}, {stacked({"Last run,", "new"}, 'r', true), "r"}};
  for (auto it = sat["roles"].begin(); it != sat["roles"].end(); ++it) {
    const Json& v = it.value();
    const Json& runs = v.value("runs", Json::array());
    r.rows.push_back({escape(it.key()), std::to_string(v.value("interviews", Json::array()).size()), integer(v["base_codes"]),
                      v["saturated_at"].is_number() ? integer(v["saturated_at"]) : runs.empty() ? kUndefined : "not reached",
                      runs.empty() ? kUndefined : number(Json(runs.back()["ratio"].get<double>() * 100), 1) + "\\%"});
  }
  r.caption = "Saturation per role, with the parameters of Table~\\ref{tab:" + curve_stem +
              "}: interviews, codes in the base, the interview after which saturation was reached and the new information of "
              "the last run (new codes / codes in the base).";
  add_table("saturation-roles", "Saturation per role", std::move(r), stems, out);
}

}  // namespace qualrank::latex::detail
