// The rankings workbook: a summary sheet to print first (summary_sheet), then one sheet per ranking question (per-group table, comparison, gap table, and two
// native Excel charts drawn by libxlsxwriter: mean rank by group per item as a column chart, and group a vs
// group b mean rank as a scatter chart), a "<question> model" sheet with the Plackett-Luce estimates when the
// analysis has them, plus "Raw rankings" with every participant's answer.
#include <xlsxwriter.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "qualrank/report/outputs/ranking_output.h"
#include "qualrank/report/xlsx/xlsx_book.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

// A row of bold column headings from column 0.
void heading_row(xlsx::Book& book, xlsx::Sheet& sheet, int row, const std::vector<std::string>& heads) {
  for (std::size_t h = 0; h < heads.size(); ++h) sheet.write_text(row, static_cast<int>(h), heads[h], {}, book.bold());
}

// An absolute reference such as ='II.R'!$A$2:$A$5 (0-based rows and columns).
std::string absolute(int row, int col) {
  std::string name = xlsx::cell_name(row, col);
  std::size_t digits = name.find_first_of("0123456789");
  std::string out = "$";
  out.append(name, 0, digits);
  out += '$';
  out.append(name, digits, std::string::npos);
  return out;
}

std::string range(const std::string& sheet, int r0, int c0, int r1, int c1) {
  std::string out = "='";
  for (char c : sheet) {
    if (c == '\'') out += '\'';
    out += c;
  }
  out += "'!";
  out += absolute(r0, c0);
  out += ':';
  out += absolute(r1, c1);
  return out;
}

// An item's consensus position, tied items sharing the first position of their tier (1, 2, 2, 4).
int consensus_position(const GroupRankStats& g, const std::string& id) {
  int before = 0;
  for (const auto& tier : g.consensus_tiers) {
    if (std::find(tier.begin(), tier.end(), id) != tier.end()) return before + 1;
    before += static_cast<int>(tier.size());
  }
  return before + 1;
}

// The question and its words, for the page header and the chart title: "III.R: words", or per role
// "III.R: manager: words; employee, contractor: other words".
std::string question_title(const QuestionRankAnalysis& q) {
  if (q.wording.size() <= 1) return question_heading(q);
  std::vector<std::string> parts;
  for (const auto& w : q.wording) parts.push_back(text::join(w.roles, ", ") + ": " + w.text);
  return q.question + ": " + text::join(parts, "; ");
}

// Rows of the statistics of one pairwise comparison, its small-sample warnings and its gap table (with the
// basis of every flag), from `row`; returns the last row written.
int comparison_rows(xlsx::Book& book, xlsx::Sheet& sheet, const PairAnalysis& pa, const Taxonomy& t, int row) {
  const auto& c = pa.comparison;
  sheet.write_text(row, 0, "Comparison", {}, book.bold());
  sheet.write_text(row, 1, c.a + " vs " + c.b, {}, book.bold());
  // Coefficients to three decimals, p-values to three significant digits, counts as integers.
  auto stat = [&](const std::string& label, double v, lxw_format* f) {
    ++row;
    sheet.write_text(row, 0, label);
    sheet.write_number(row, 1, v, f);
  };
  stat(c.a + " participants", c.n_a, book.format(xlsx::CellStyle::integer));
  stat(c.b + " participants", c.n_b, book.format(xlsx::CellStyle::integer));
  stat("Spearman's rho", c.spearman_rho, book.format(xlsx::CellStyle::three_decimals));
  stat("Spearman p", c.spearman_p, book.p_value_format(c.spearman_p));
  stat("Kendall's tau-b", c.kendall_tau_b, book.format(xlsx::CellStyle::three_decimals));
  stat("Kendall p", c.kendall_tau_p, book.p_value_format(c.kendall_tau_p));
  stat("rho CI low (" + std::to_string(static_cast<int>(c.ci_level * 100)) + "% bootstrap)", c.rho_ci.first, book.format(xlsx::CellStyle::three_decimals));
  stat("rho CI high", c.rho_ci.second, book.format(xlsx::CellStyle::three_decimals));
  stat("bootstrap resamples", c.resamples, book.format(xlsx::CellStyle::integer));
  stat("smallest reachable Mann-Whitney p", c.min_p, book.p_value_format(c.min_p));
  for (const auto& w : c.warnings) {
    ++row;
    sheet.write_text(row, 0, "Warning", {}, book.bold());
    sheet.write_text(row, 1, w);
  }
  row += 2;
  std::vector<std::string> heads{"Item", "Name", c.a + " mean rank", c.b + " mean rank", "Gap (b - a)", "Mann-Whitney U", "p",
                                 "Holm p", "Cliff's delta", "Misaligned", "Flag basis"};
  heading_row(book, sheet, row, heads);
  for (const auto& g : pa.gaps) {
    ++row;
    sheet.write_text(row, 0, g.item);
    sheet.write_text(row, 1, t.find(g.item) ? t.find(g.item)->name : "");
    sheet.write_number(row, 2, g.mean_a, book.format(xlsx::CellStyle::decimal));
    sheet.write_number(row, 3, g.mean_b, book.format(xlsx::CellStyle::decimal));
    sheet.write_number(row, 4, g.gap, book.format(xlsx::CellStyle::decimal));
    sheet.write_number(row, 5, g.mann_whitney_u, book.format(xlsx::CellStyle::one_decimal));
    sheet.write_p(row, 6, g.p);
    sheet.write_p(row, 7, g.p_holm);
    sheet.write_number(row, 8, g.cliffs_delta, book.format(xlsx::CellStyle::three_decimals));
    sheet.write_text(row, 9, g.misaligned ? "yes" : "no");
    if (g.misaligned) sheet.write_text(row, 10, g.basis);
  }
  return row;
}

// Every pairwise comparison of a question, the groups left out of them, and the k-group test; from `row`,
// returns the last row written.
int comparisons_block(xlsx::Book& book, xlsx::Sheet& sheet, const QuestionRankAnalysis& q, const Taxonomy& t, int row) {
  for (std::size_t i = 0; i < q.comparisons.size(); ++i) {
    if (i) row += 2;
    row = comparison_rows(book, sheet, q.comparisons[i], t, row);
  }
  if (!q.too_small.empty()) {
    row += 2;
    sheet.write_text(row, 0, "Too few to compare", {}, book.bold());
    sheet.write_text(row, 1, q.too_small_note + " Their rankings are on the Raw rankings sheet.");
  }
  if (!q.not_compared.empty()) {
    row += 2;
    sheet.write_text(row, 0, "Not compared", {}, book.bold());
    sheet.write_text(row, 1, text::join(q.not_compared, ", ") + " (in no pairwise comparison; see the all-groups test)");
  }
  if (q.k_groups) {
    const auto& k = *q.k_groups;
    row += 2;
    sheet.write_text(row, 0, "All groups", {}, book.bold());
    sheet.write_text(row, 1, text::join(k.groups, ", ") + ": Kruskal-Wallis per item, Holm across items, epsilon-squared", {}, book.bold());
    ++row;
    std::vector<std::string> heads{"Item", "Name", "Kruskal-Wallis H", "p", "Holm p", "epsilon-squared"};
    heading_row(book, sheet, row, heads);
    for (const auto& i : k.items) {
      ++row;
      sheet.write_text(row, 0, i.item);
      sheet.write_text(row, 1, t.find(i.item) ? t.find(i.item)->name : "");
      sheet.write_number(row, 2, i.kruskal_h, book.format(xlsx::CellStyle::three_decimals));
      sheet.write_p(row, 3, i.p);
      sheet.write_p(row, 4, i.p_holm);
      sheet.write_number(row, 5, i.epsilon_squared, book.format(xlsx::CellStyle::three_decimals));
    }
  }
  return row;
}

void question_sheet(xlsx::Book& book, const QuestionRankAnalysis& q, const Taxonomy& t) {
  auto& sheet = book.add_sheet(q.question);
  sheet.print_title(question_title(q));
  const auto& name = sheet.name();
  const int k = static_cast<int>(q.items.size());
  // Per-group table.
  std::vector<xlsx::Column> cols{{"Item", xlsx::CellStyle::text, 12}, {"Name", xlsx::CellStyle::text, 48}};
  for (const auto& g : q.groups) {
    cols.push_back({g.level + " mean rank", xlsx::CellStyle::decimal, 18});
    cols.push_back({g.level + " median rank", xlsx::CellStyle::decimal, 18});
    cols.push_back({g.level + " Borda", xlsx::CellStyle::decimal, 14});
    cols.push_back({g.level + " consensus position", xlsx::CellStyle::integer, 20});
  }
  sheet.header(cols, 2);
  for (int j = 0; j < k; ++j) {
    const auto& id = q.items[static_cast<std::size_t>(j)];
    sheet.write_text(j + 1, 0, id);
    sheet.write_text(j + 1, 1, t.find(id) ? t.find(id)->name : "");
    int c = 2;
    for (const auto& g : q.groups) {
      sheet.write_number(j + 1, c++, g.mean_rank[static_cast<std::size_t>(j)]);
      sheet.write_number(j + 1, c++, g.median_rank[static_cast<std::size_t>(j)]);
      sheet.write_number(j + 1, c++, g.borda[static_cast<std::size_t>(j)]);
      sheet.write_number(j + 1, c++, static_cast<double>(consensus_position(g, id)));
    }
  }
  int row = k + 2;
  sheet.write_text(row, 0, "Group", {}, book.bold());
  sheet.write_text(row, 1, "Participants", {}, book.bold());
  sheet.write_text(row, 2, "Kendall's W", {}, book.bold());
  sheet.write_text(row, 3, "chi-square", {}, book.bold());
  sheet.write_text(row, 4, "p", {}, book.bold());
  for (const auto& g : q.groups) {
    ++row;
    sheet.write_text(row, 0, g.level);
    sheet.write_number(row, 1, g.n, book.format(xlsx::CellStyle::integer));
    sheet.write_number(row, 2, g.kendall_w, book.format(xlsx::CellStyle::three_decimals));
    sheet.write_number(row, 3, g.kendall_w_chi2, book.format(xlsx::CellStyle::decimal));
    sheet.write_p(row, 4, g.kendall_w_p);
  }
  row += 2;
  row = comparisons_block(book, sheet, q, t, row);
  // The question as asked, under the tables: one row per wording ("roles: words") when the roles are asked
  // differently, else the words.
  row += 2;
  sheet.write_text(row, 0, "Question " + q.question, {}, book.bold());
  if (q.wording.size() <= 1) sheet.write_text(row, 1, q.wording.empty() ? q.text : q.wording.front().text);
  else
    for (std::size_t w = 0; w < q.wording.size(); ++w)
      sheet.write_text(row + static_cast<int>(w), 1, text::join(q.wording[w].roles, ", ") + ": " + q.wording[w].text);
  if (q.groups.empty()) return;
  // Charts: below the tables and the question, one above the other, from column A. (Beside the tables they
  // were cut at the page edge once a sheet of several groups prints across pages.)
  const int chart_row = row + static_cast<int>(std::max<std::size_t>(1, q.wording.size())) + 1;
  constexpr int kChartRows = 16;  // libxlsxwriter's default chart, 288 px, is 14.4 rows of 20 px
  lxw_chart* bars = workbook_add_chart(book.raw(), LXW_CHART_COLUMN);
  for (std::size_t gi = 0; gi < q.groups.size(); ++gi) {
    int col = 2 + static_cast<int>(gi) * 4;
    // Categories: the items' names (column B), so the chart reads without the table.
    lxw_chart_series* s = chart_add_series(bars, range(name, 1, 1, k, 1).c_str(), range(name, 1, col, k, col).c_str());
    chart_series_set_name(s, q.groups[gi].level.c_str());
  }
  chart_title_set_name(bars, ("Mean rank by group: " + question_heading(q)).c_str());
  chart_axis_set_name(bars->x_axis, "Item");
  chart_axis_set_name(bars->y_axis, "Mean rank (1 = highest priority)");
  worksheet_insert_chart(sheet.raw(), static_cast<lxw_row_t>(chart_row), 0, bars);
  // Printed, each chart starts a page of its own, so no page edge cuts one (a page holds about 30 rows).
  std::vector<lxw_row_t> breaks{static_cast<lxw_row_t>(chart_row)};
  if (q.comparison) breaks.push_back(static_cast<lxw_row_t>(chart_row + kChartRows));
  breaks.push_back(0);
  worksheet_set_h_pagebreaks(sheet.raw(), breaks.data());
  if (q.comparison) {
    int ca = -1, cb = -1;
    for (std::size_t gi = 0; gi < q.groups.size(); ++gi) {
      if (q.groups[gi].level == q.comparison->a) ca = 2 + static_cast<int>(gi) * 4;
      if (q.groups[gi].level == q.comparison->b) cb = 2 + static_cast<int>(gi) * 4;
    }
    lxw_chart* scatter = workbook_add_chart(book.raw(), LXW_CHART_SCATTER);
    lxw_chart_series* s = chart_add_series(scatter, range(name, 1, ca, k, ca).c_str(), range(name, 1, cb, k, cb).c_str());
    chart_series_set_name(s, "items");
    // Each point labelled with its item id, as text: a label that refers to a cell is drawn as the point's
    // value by LibreOffice, and the ids are what the reader looks up in the table.
    std::vector<std::string> ids(q.items.begin(), q.items.end());
    std::vector<lxw_chart_data_label> labels(static_cast<std::size_t>(k));
    std::vector<lxw_chart_data_label*> label_ptrs;
    for (int j = 0; j < k; ++j) {
      labels[static_cast<std::size_t>(j)] = {};
      labels[static_cast<std::size_t>(j)].value = const_cast<char*>(ids[static_cast<std::size_t>(j)].c_str());
      label_ptrs.push_back(&labels[static_cast<std::size_t>(j)]);
    }
    label_ptrs.push_back(nullptr);
    chart_series_set_labels(s);
    chart_series_set_labels_custom(s, label_ptrs.data());  // copies the strings
    chart_series_set_labels_position(s, LXW_CHART_LABEL_POSITION_RIGHT);
    chart_title_set_name(scatter, (q.comparison->a + " vs " + q.comparison->b + " mean rank").c_str());
    chart_axis_set_name(scatter->x_axis, (q.comparison->a + " mean rank").c_str());
    chart_axis_set_name(scatter->y_axis, (q.comparison->b + " mean rank").c_str());
    chart_legend_set_position(scatter, LXW_CHART_LEGEND_NONE);
    worksheet_insert_chart(sheet.raw(), static_cast<lxw_row_t>(chart_row + kChartRows), 0, scatter);
  }
}

// The Plackett-Luce estimates of a question: per item the worth, log-worth, SE and quasi-SE of every group and
// of all groups together (fixed decimals as number formats), the likelihood-ratio test and the item differences.
void model_sheet(xlsx::Book& book, const QuestionRankAnalysis& q, const Taxonomy& t) {
  const auto& m = *q.model;
  auto& sheet = book.add_sheet(q.question + " model");
  sheet.print_title(question_title(q) + " (Plackett-Luce model)");
  lxw_format* four = workbook_add_format(book.raw());
  format_set_num_format(four, "0.0000");
  std::vector<const ModelEstimates*> fits;
  for (const auto& g : m.groups) fits.push_back(&g);
  fits.push_back(&m.overall);
  std::vector<xlsx::Column> cols{{"Item", xlsx::CellStyle::text, 12}, {"Name", xlsx::CellStyle::text, 48}};
  for (const auto* f : fits) {
    const std::string label = f->level.empty() ? std::string("all") : f->level;
    for (const char* what : {" worth", " log-worth", " SE", " quasi-SE"}) cols.push_back({label + what, xlsx::CellStyle::decimal, 18});
  }
  sheet.header(cols, 2);
  const int k = static_cast<int>(q.items.size());
  for (int j = 0; j < k; ++j) {
    const auto ju = static_cast<std::size_t>(j);
    sheet.write_text(j + 1, 0, q.items[ju]);
    sheet.write_text(j + 1, 1, t.find(q.items[ju]) ? t.find(q.items[ju])->name : "");
    int c = 2;
    for (const auto* f : fits) {
      sheet.write_number(j + 1, c++, f->fit.worth[ju], four);
      sheet.write_number(j + 1, c++, f->fit.log_worth[ju], four);
      sheet.write_number(j + 1, c++, f->fit.se[ju], four);
      sheet.write_number(j + 1, c++, f->fit.quasi_se[ju], four);
    }
  }
  int row = k + 2;
  sheet.write_text(row, 0, "Plackett-Luce", {}, book.bold());
  sheet.write_text(row, 1, std::string(m.partial == pl::PartialRankings::top_k ? "top-k" : "subset") + " answers, ties by Efron's method, reference " +
                               q.items.front());
  ++row;
  sheet.write_text(row, 0, "pseudo-rankings");
  sheet.write_number(row, 1, m.pseudo_rankings, book.format(xlsx::CellStyle::decimal));
  for (const auto* f : fits) {
    ++row;
    sheet.write_text(row, 0, "log-likelihood " + (f->level.empty() ? std::string("all") : f->level) + " (rankings only)");
    sheet.write_number(row, 1, f->fit.log_likelihood, four);
  }
  if (m.lr_test) {
    // The numbers the statistic is made from: chi-square = 2 (separate - pooled), penalised with pseudo-rankings.
    const auto& lr = *m.lr_test;
    const std::string kind = lr.pooled_pseudo_rankings > 0 ? " (penalised: rankings plus pseudo-rankings)" : "";
    for (std::size_t g = 0; g < lr.groups.size(); ++g) {
      ++row;
      sheet.write_text(row, 0, "LR test log-likelihood " + lr.groups[g] + kind);
      sheet.write_number(row, 1, lr.group_log_likelihoods[g], four);
    }
    ++row;
    sheet.write_text(row, 0, "LR test log-likelihood, one worth vector per group (their sum)" + kind);
    sheet.write_number(row, 1, lr.separate_log_likelihood, four);
    ++row;
    sheet.write_text(row, 0, "LR test log-likelihood, one worth vector for all" + kind);
    sheet.write_number(row, 1, lr.pooled_log_likelihood, four);
    if (lr.pooled_pseudo_rankings > 0) {
      ++row;
      sheet.write_text(row, 0, "LR test pseudo-rankings per item of the one for all (every group's)");
      sheet.write_number(row, 1, lr.pooled_pseudo_rankings, book.format(xlsx::CellStyle::decimal));
    }
    ++row;
    sheet.write_text(row, 0, "LR test chi-square = 2 (per group - for all)");
    sheet.write_number(row, 1, m.lr_test->statistic, four);
    ++row;
    sheet.write_text(row, 0, "LR test df");
    sheet.write_number(row, 1, m.lr_test->df, book.format(xlsx::CellStyle::integer));
    ++row;
    sheet.write_text(row, 0, "LR test p");
    sheet.write_p(row, 1, m.lr_test->p);
  }
  if (!m.item_differences.empty()) {
    row += 2;
    std::vector<std::string> heads{"Item", "Name", "Centred log-worth " + m.a, "Centred log-worth " + m.b,
                                   "Difference (" + m.b + " - " + m.a + ", centred log-worth)", "SE", "p", "Holm p"};
    heading_row(book, sheet, row, heads);
    for (const auto& d : m.item_differences) {
      ++row;
      sheet.write_text(row, 0, d.item);
      sheet.write_text(row, 1, t.find(d.item) ? t.find(d.item)->name : "");
      sheet.write_number(row, 2, d.centred_a, four);
      sheet.write_number(row, 3, d.centred_b, four);
      sheet.write_number(row, 4, d.difference, four);
      sheet.write_number(row, 5, d.se, four);
      sheet.write_p(row, 6, d.p);
      sheet.write_p(row, 7, d.p_holm);
    }
  }
}

// The sheet to print first: one row per question and group (participants, Kendall's W, the order by mean
// rank with names and means) and one per comparison (Spearman's rho of the mean ranks, its p, the items
// flagged as misaligned with their gap and basis), the extra analyses' comparisons after them. Narrow enough
// to print one page wide; the order and the flags wrap in their column.
void summary_sheet(xlsx::Book& book, const RankingAnalysis& a, const Taxonomy& t,
                   const std::vector<TitledRankingAnalysis>& extra) {
  auto& sheet = book.add_sheet("Summary");
  sheet.print_title("Priority rankings by " + a.by + ": summary");
  sheet.header({{"Question", xlsx::CellStyle::text, 10},
                {"Group or comparison", xlsx::CellStyle::wrapped_text, 24},
                {"Participants", xlsx::CellStyle::text, 12},
                {"Statistic", xlsx::CellStyle::text, 13},
                {"Value", xlsx::CellStyle::three_decimals, 8},
                {"p", xlsx::CellStyle::three_decimals, 10},
                {"Order by mean rank (mean), or the items flagged", xlsx::CellStyle::wrapped_text, 70}},
               1);
  auto* wrapped = book.format(xlsx::CellStyle::wrapped_text);
  auto* three = book.format(xlsx::CellStyle::three_decimals);
  int row = 0;
  auto question_rows = [&](const QuestionRankAnalysis& q, const std::string& prefix) {
    if (prefix.empty())
      for (const auto& g : q.groups) {
        ++row;
        sheet.write_text(row, 0, q.question);
        sheet.write_text(row, 1, g.level, {}, wrapped);
        sheet.write_text(row, 2, std::to_string(g.n));
        sheet.write_text(row, 3, "Kendall's W");
        sheet.write_number(row, 4, g.kendall_w, three);
        sheet.write_p(row, 5, g.kendall_w_p);
        auto mean_of = [&](const std::string& id) {
          auto it = std::find(q.items.begin(), q.items.end(), id);
          return it == q.items.end() ? std::string() : text::fixed(g.mean_rank[static_cast<std::size_t>(it - q.items.begin())], 2);
        };
        sheet.write_text(row, 6, consensus_text(g.consensus_tiers, [&](const std::string& id) {
                           return item_label(t, id) + " (" + mean_of(id) + ")";
                         }), {}, wrapped);
      }
    for (const auto& pa : q.comparisons) {
      const auto& c = pa.comparison;
      ++row;
      sheet.write_text(row, 0, q.question);
      sheet.write_text(row, 1, prefix + c.a + " vs " + c.b, {}, wrapped);
      sheet.write_text(row, 2, std::to_string(c.n_a) + " / " + std::to_string(c.n_b));
      sheet.write_text(row, 3, "Spearman's rho");
      sheet.write_number(row, 4, c.spearman_rho, three);
      sheet.write_p(row, 5, c.spearman_p);
      std::vector<std::string> flagged;
      for (const auto& g : pa.gaps)
        if (g.misaligned)
          flagged.push_back(item_label(t, g.item) + " (gap " + text::fixed(g.gap, 2) + ", Holm p " + text::fixed(g.p_holm, 3) +
                            ", by " + g.basis + ")");
      sheet.write_text(row, 6, flagged.empty() ? std::string("no item flagged as misaligned")
                                               : "misaligned: " + text::join(flagged, "; "), {}, wrapped);
    }
  };
  for (const auto& q : a.questions) question_rows(q, "");
  for (const auto& e : extra)
    for (const auto& q : e.analysis->questions) question_rows(q, e.title + ": ");
}

}  // namespace

bool write_rankings_workbook(const RankingAnalysis& a, const Taxonomy& t, const std::filesystem::path& target,
                             Diagnostics& diags) {
  return write_rankings_workbook(a, t, target, diags, {});
}

bool write_rankings_workbook(const RankingAnalysis& a, const Taxonomy& t, const std::filesystem::path& target, Diagnostics& diags,
                             const std::vector<TitledRankingAnalysis>& extra) {
  auto book = prepare_rankings_workbook(a, t, target, diags, extra);
  if (!book) return false;
  if (!book->publish()) {
    diags.error({target.string(), 0, 0}, "cannot write the workbook: " + book->error());
    return false;
  }
  return true;
}

std::unique_ptr<xlsx::Book> prepare_rankings_workbook(const RankingAnalysis& a, const Taxonomy& t, const std::filesystem::path& target,
                                                      Diagnostics& diags, const std::vector<TitledRankingAnalysis>& extra) {
  auto made = std::make_unique<xlsx::Book>(target, xlsx::BookProperties{"Priority rankings", "qualrank rank", "qualrank", "Rankings by " + a.by}, diags);
  xlsx::Book& book = *made;
  if (!book.ok()) {
    diags.error({target.string(), 0, 0}, "cannot write the workbook: " + book.error());
    return nullptr;
  }
  summary_sheet(book, a, t, extra);
  for (const auto& q : a.questions) {
    question_sheet(book, q, t);
    if (q.model) model_sheet(book, q, t);
  }
  if (!extra.empty()) {
    // One sheet for the extra analyses (the experience comparisons): per analysis and question, its
    // comparisons and k-group test.
    auto& sheet = book.add_sheet("Experience");
    sheet.header({{"Comparison", xlsx::CellStyle::text, 28}, {"Detail", xlsx::CellStyle::text, 48}}, 0);
    int row = 0;
    for (const auto& e : extra) {
      for (const auto& q : e.analysis->questions) {
        row += 2;
        sheet.write_text(row, 0, e.title, {}, book.bold());
        sheet.write_text(row, 1, q.question + (q.text.empty() ? "" : ": " + q.text), {}, book.bold());
        ++row;
        if (q.comparisons.empty() && !q.k_groups) {
          sheet.write_text(row, 0, "No comparison between groups.");
          continue;
        }
        row = comparisons_block(book, sheet, q, t, row);
      }
    }
  }
  auto& raw = book.add_sheet("Raw rankings");
  std::vector<std::string> attrs;
  for (const auto& q : a.questions)
    for (const auto& r : q.answers)
      for (const auto& [k, v] : r.attributes)
        if (std::find(attrs.begin(), attrs.end(), k) == attrs.end()) attrs.push_back(k);
  std::sort(attrs.begin(), attrs.end());
  std::vector<xlsx::Column> cols{{"Participant"}, {"Question"}, {"Ranking", xlsx::CellStyle::text, 60}};
  for (const auto& k : attrs) cols.push_back({k});
  cols.push_back({"Source"});
  raw.header(cols, 1);
  int row = 0;
  for (const auto& q : a.questions) {
    for (const auto& r : q.answers) {
      ++row;
      raw.write_text(row, 0, r.participant, r.where);
      raw.write_text(row, 1, q.question, r.where);
      std::vector<std::string> tiers;
      for (const auto& tier : r.tiers) tiers.push_back(text::join(tier, " = "));
      raw.write_text(row, 2, text::join(tiers, " > "), r.where);
      for (std::size_t c = 0; c < attrs.size(); ++c) {
        auto it = r.attributes.find(attrs[c]);
        if (it != r.attributes.end()) raw.write_text(row, 3 + static_cast<int>(c), it->second, r.where);
      }
      raw.write_text(row, 3 + static_cast<int>(attrs.size()), r.where.file + ":" + std::to_string(r.where.line));
    }
  }
  if (!book.write()) {
    diags.error({target.string(), 0, 0}, "cannot write the workbook: " + book.error());
    return nullptr;
  }
  return made;
}

}  // namespace qualrank
