// The LaTeX tables of a ranking analysis (rankings_json, report/outputs/ranking_output.h), with the rounding of
// rankings.md and index.html: mean ranks, Kendall's W, rho, tau-b, gaps and Cliff's delta to 2 decimals,
// U to 1, p-values to 3 ("< 0.001" below), Plackett-Luce worths to 3.
#include "latex_internal.h"

#include "qualrank/util/text.h"

namespace qualrank::latex::detail {

namespace {

// Captions name the question by its id and its words, cut to about a line: "III.R: Rank the tools you use…".
constexpr std::size_t kQuestionChars = 80;

// The question as a sentence of the caption: "III.R: the words." (cut to about a line; a full stop unless the
// words end a sentence already), or "III.R." when the question has no words. When the roles were asked in
// different words: the words `role` was asked in (the tables of one role's experience comparison), else the
// first role's.
std::string question_sentence(const Json& q, const std::string& role) {
  const std::string id = escape(str(q, "question"));
  std::string words = str(q, "text");
  if (q["wording"].is_array()) {
    bool found = false;
    for (const auto& w : q["wording"])
      if (!found && !str(w, "text").empty() && !role.empty() && w["roles"].is_array())
        for (const auto& r : w["roles"])
          if (r.is_string() && r.get<std::string>() == role) {
            words = str(w, "text");
            found = true;
          }
    for (const auto& w : q["wording"])
      if (!found && !str(w, "text").empty()) {
        words = str(w, "text");
        found = true;
      }
  }
  words = shortened(words, kQuestionChars);
  if (words.empty()) return id + ".";
  const char last = words.back();
  const bool ended = last == '.' || last == '?' || last == '!' ||
                     (words.size() >= 3 && words.compare(words.size() - 3, 3, "\u2026") == 0);
  return id + ": " + prose(words) + (ended ? "" : ".");
}

// "A vs B" of a comparison, or "" when the caption's start (the title of an experience comparison,
// "developer: beginner vs advanced, ") says it already.
std::string versus(const std::string& title, const std::string& a, const std::string& b) {
  const std::string phrase = escape(a) + " vs " + escape(b);
  const std::string reversed = escape(b) + " vs " + escape(a);
  if (title.find(phrase) != std::string::npos || title.find(reversed) != std::string::npos) return "";
  return phrase;
}

// The caption's start without its closing ", " ("By role, " -> "By role").
std::string without_comma(const std::string& title) {
  return title.size() >= 2 && title.compare(title.size() - 2, 2, ", ") == 0 ? title.substr(0, title.size() - 2) : title;
}

// "$p$ = 0.012", "$p$ \textless{} 0.001", "$p$ = ---" (undefined).
std::string p_sentence(const Json& p) {
  const std::string v = p_value(p);
  return v.rfind("\\textless", 0) == 0 ? "$p$ " + v : "$p$ = " + v;
}

void means(const Json& q, const std::map<std::string, std::string>& names, const std::string& stem, const std::string& title,
           const std::string& sentence, Stems& stems, std::vector<File>& out) {
  Table t;
  t.columns = {{"Item", "X"}};
  std::vector<std::string> w_notes;
  for (auto it = q["groups"].begin(); it != q["groups"].end(); ++it) {
    t.columns.push_back({stacked({escape(it.key()), "($n$ = " + integer(it.value()["n"]) + ")"}, 'r', true), "r"});
    w_notes.push_back(escape(it.key()) + " " + p_sentence(it.value()["kendall_w_p"]));
  }
  for (const auto& item : q["items"]) {
    const std::string id = item.get<std::string>();
    std::vector<std::string> row{item_label(names, id)};
    for (auto it = q["groups"].begin(); it != q["groups"].end(); ++it) row.push_back(number(it.value()["mean_rank"][id], 2));
    t.rows.push_back(std::move(row));
  }
  std::vector<std::string> w_row{"Kendall's $W$"};
  for (auto it = q["groups"].begin(); it != q["groups"].end(); ++it) w_row.push_back(number(it.value()["kendall_w"], 2));
  t.rules.push_back(t.rows.size());
  t.rows.push_back(std::move(w_row));
  t.caption = title + sentence + " Mean rank per group (1 = highest priority) and Kendall's $W$ (" +
              text::join(w_notes, "; ") + ").";
  const bool wide = t.columns.size() > 5;  // more than four groups
  add_table(stem + "-means", "Mean ranks and Kendall's W, " + str(q, "question"), std::move(t), stems, out, wide);
}

void gaps(const Json& q, const Json& c, const std::map<std::string, std::string>& names, const std::string& stem,
          const std::string& title, const std::string& sentence, Stems& stems, std::vector<File>& out) {
  const std::string a = c["groups"][0].get<std::string>(), b = c["groups"][1].get<std::string>();
  Table t;
  t.columns = {{"Item", "X"}, {escape(a), "r"}, {escape(b), "r"}, {"Gap", "r"}, {"$U$", "r"}, {"$p$", "r"},
               {stacked({"Holm", "$p$"}, 'r', true), "r"}, {stacked({"Cliff's", "$\\delta$"}, 'r', true), "r"}};
  for (const auto& g : c["gaps"]) {
    // A misaligned item is marked by the basis of its flag: the test, or the effect size alone.
    std::string mark;
    if (g.value("misaligned", false)) mark = str(g, "basis") == "test" ? "$^{\\ast}$" : "$^{\\dagger}$";
    t.rows.push_back({item_label(names, str(g, "item")) + mark, number(g["mean_rank"][a], 2), number(g["mean_rank"][b], 2),
                      number(g["gap"], 2), number(g["mann_whitney_u"], 1), p_value(g["p"]), p_value(g["p_holm"]),
                      number(g["cliffs_delta"], 2)});
  }
  std::string ci;
  const Json& boot = c["bootstrap_ci"];
  if (boot.is_object() && boot["spearman_rho"].is_array() && boot["spearman_rho"][0].is_number())
    ci = "; " + text::fixed(boot["level"].get<double>() * 100, 0) + "\\% bootstrap CI {[}" + number(boot["spearman_rho"][0], 2) + ", " +
         number(boot["spearman_rho"][1], 2) + "{]}";
  // "By role, user vs developer (n = ...), II.R: ... Spearman's", or, when the title names the groups already,
  // "user: beginner vs advanced (n = ...), II.R: ... Spearman's".
  const std::string vs = versus(title, a, b);
  t.caption = (vs.empty() ? without_comma(title) : title + vs) + " ($n$ = " + integer(c["n"][a]) + " and " + integer(c["n"][b]) +
              "), " + sentence + " Spearman's $\\rho$ = " + number(c["spearman_rho"], 2) + " (" + p_sentence(c["spearman_p"]) + ci +
              "), Kendall's $\\tau_b$ = " + number(c["kendall_tau_b"], 2) + " (" + p_sentence(c["kendall_tau_p"]) +
              "). Mean ranks, their gap, the Mann--Whitney test per item (Holm-adjusted across items) and Cliff's $\\delta$; "
              "items flagged as misaligned on the test ($^{\\ast}$) or on the effect size alone ($^{\\dagger}$).";
  std::vector<std::string> notes;
  for (const auto& w : c.value("warnings", Json::array())) notes.push_back("Note: " + prose(w.get<std::string>()) + ".");
  t.note = text::join(notes, " ");
  // Eight columns of numbers and names: both columns of a two-column paper.
  add_table(stem + "-" + slug(a) + "-vs-" + slug(b), "Rank gaps between " + a + " and " + b + ", " + str(q, "question"), std::move(t),
            stems, out, true);
}

void worths(const Json& q, const Json& m, const std::map<std::string, std::string>& names, const std::string& stem,
            const std::string& title, const std::string& sentence, Stems& stems, std::vector<File>& out) {
  Table t;
  t.columns = {{"Item", "X"}, {stacked({"all", "($n$ = " + integer(m["overall"]["n"]) + ")"}, 'r', true), "r"}};
  for (auto it = m["groups"].begin(); it != m["groups"].end(); ++it)
    t.columns.push_back({stacked({escape(it.key()), "($n$ = " + integer(it.value()["n"]) + ")"}, 'r', true), "r"});
  for (const auto& item : q["items"]) {
    const std::string id = item.get<std::string>();
    std::vector<std::string> row{item_label(names, id), number(m["overall"]["items"][id]["worth"], 3)};
    for (auto it = m["groups"].begin(); it != m["groups"].end(); ++it) row.push_back(number(it.value()["items"][id]["worth"], 3));
    t.rows.push_back(std::move(row));
  }
  std::string test;
  if (const Json& lr = m["lr_test"]; lr.is_object()) {
    // With the log-likelihoods the statistic is made from, so that 2 (separate - pooled) rebuilds it (a report.json
    // written before them has none). With pseudo-rankings they are penalised ones, and the pooled fit keeps every
    // group's pseudo-rankings: not the rankings-only log-likelihoods of the groups and of "all".
    const bool parts = lr["log_likelihood_separate"].is_number() && lr["log_likelihood_pooled"].is_number();
    test = " Likelihood-ratio test of one shared set of priorities: $\\chi^2$ = " +
           (parts ? "2\\,(" + number(lr["log_likelihood_separate"], 3) + " $-$ (" + number(lr["log_likelihood_pooled"], 3) + ")) = "
                  : std::string()) +
           number(lr["statistic"], 2) + ", df = " + integer(lr["df"]) + ", " + p_sentence(lr["p"]);
    if (parts) {
      std::vector<std::string> per;
      if (lr["log_likelihoods"].is_object())
        for (auto it = lr["log_likelihoods"].begin(); it != lr["log_likelihoods"].end(); ++it)
          per.push_back(escape(it.key()) + " " + number(it.value(), 3));
      const bool penalised = lr.value("pseudo_rankings_pooled", 0.0) > 0;
      test += "; from the " + (penalised ? std::string("penalised log-likelihoods (rankings plus pseudo-rankings)") : "log-likelihoods") +
              " of one worth vector per group (" + text::join(per, "; ") + "; sum " + number(lr["log_likelihood_separate"], 3) +
              ") and of one for all groups" +
              (penalised ? " (fitted with every group's pseudo-rankings, " + number(lr["pseudo_rankings_pooled"], 1) + " per item)" : "");
    }
    test += ".";
  }
  t.caption = title + sentence + " Plackett--Luce worths (the chance of being chosen first from all items; each column sums "
              "to 1)." + test;
  const std::size_t at = out.size();
  const bool wide = t.columns.size() > 5;  // more than three groups
  add_table(stem + "-worths", "Plackett-Luce worths, " + str(q, "question"), std::move(t), stems, out, wide);
  const std::string worth_stem = out[at].name.substr(0, out[at].name.size() - 4);
  // The item differences of each compared pair of groups, a table each (the first pair's are "item_differences").
  std::vector<std::pair<Json, const Json*>> pairs;  // (groups [a, b], differences)
  if (m["pairs"].is_array() && !m["pairs"].empty()) {
    for (const auto& p : m["pairs"]) pairs.push_back({p["groups"], &p["item_differences"]});
  } else if (m["comparison_groups"].is_array()) {
    pairs.push_back({m["comparison_groups"], &m["item_differences"]});
  }
  for (const auto& [groups, diffs] : pairs) {
    if (!diffs->is_array() || diffs->empty() || !groups.is_array() || groups.size() != 2) continue;
    const std::string a = groups[0].get<std::string>(), b = groups[1].get<std::string>();
    // The two centred log-worths beside their difference (report.json files written before them have none).
    const bool centred = (*diffs)[0].contains("centred_log_worth");
    Table d;
    d.columns = {{"Item", "X"}};
    if (centred)
      d.columns.insert(d.columns.end(), {{stacked({escape(a), "$c$"}, 'r', true), "r"}, {stacked({escape(b), "$c$"}, 'r', true), "r"}});
    // (seven columns with the centred log-worths: "Differ-ence" over two lines keeps them in a 252pt column)
    d.columns.insert(d.columns.end(), {{centred ? stacked({"Differ-", "ence"}, 'r', true) : "Difference", "r"}, {"SE", "r"}, {"$p$", "r"},
                                       {stacked({"Holm", "$p$"}, 'r', true), "r"}});
    for (const auto& x : *diffs) {
      std::vector<std::string> row{item_label(names, str(x, "item"))};
      if (centred) {
        const Json& c = x["centred_log_worth"];
        row.push_back(number(c.value(a, Json()), 2));
        row.push_back(number(c.value(b, Json()), 2));
      }
      row.insert(row.end(), {number(x["difference"], 2), number(x["se"], 2), p_value(x["p"]), p_value(x["p_holm"])});
      d.rows.push_back(std::move(row));
    }
    const std::string vs = versus(title, b, a);
    d.caption = title + (vs.empty() ? "" : vs + ", ") + sentence + " Plackett--Luce item differences on the centred log-worth " +
                (centred ? std::string("$c$") : std::string()) +
                " (the log-worth minus its mean over the items: the log of the worth over the geometric mean of the group's "
                "worths), that of " + escape(b) + " minus that of " + escape(a) + ": positive when the item stands higher among " +
                escape(b) + "'s items than among " + escape(a) + "'s. It is not the difference of the worths in Table~\\ref{tab:" +
                worth_stem + "}, which sum to 1 in each group, and can have the other sign where the groups spread their worths "
                "differently. With the standard error and the Wald test, Holm-adjusted across items.";
    add_table(stem + "-worths-" + slug(b) + "-vs-" + slug(a), "Plackett-Luce item differences, " + b + " vs " + a + ", " + str(q, "question"),
              std::move(d), stems, out);
  }
}

}  // namespace

void ranking_tables(const Json& rankings, const std::map<std::string, std::string>& names, const std::string& prefix,
                    const std::string& title, Stems& stems, std::vector<File>& out) {
  if (!rankings.is_object() || !rankings["questions"].is_array()) return;
  const std::string caption_start = escape(title);
  for (const auto& q : rankings["questions"]) {
    if (!q["groups"].is_object() || q["groups"].empty()) continue;
    const std::string stem = prefix + "-" + slug(str(q, "question"));
    const std::string sentence = question_sentence(q, str(rankings, "role"));
    means(q, names, stem, caption_start, sentence, stems, out);
    if (q["comparisons"].is_array())
      for (const auto& c : q["comparisons"]) gaps(q, c, names, stem, caption_start, sentence, stems, out);
    if (q.contains("model") && q["model"].is_object()) worths(q, q["model"], names, stem, caption_start, sentence, stems, out);
  }
}

}  // namespace qualrank::latex::detail
