// The agreement workbook (agreement.xlsx): the tables of `qualrank agreement`, one per sheet, written
// through the safe workbook layer (xlsx_book.h: atomic, reproducible, text never a formula).
#include <cmath>

#include "qualrank/report/outputs/agreement_output.h"
#include "qualrank/report/outputs/corpus_output.h"
#include "qualrank/report/xlsx/xlsx_book.h"

namespace qualrank {

namespace {

using xlsx::CellStyle;

std::string node_name(const Taxonomy* taxonomy, const std::string& id) {
  const TaxonomyNode* n = taxonomy ? taxonomy->find(id) : nullptr;
  return n ? n->name : "";
}

// Rows: statistic, value, CI low, CI high.
void summary_rows(xlsx::Sheet& sheet, int& row, const AgreementFigures& f, const std::pair<double, double>& fleiss_ci,
                  const std::pair<double, double>& alpha_ci) {
  auto stat = [&](const std::string& label, double v, double lo, double hi) {
    ++row;
    sheet.write_text(row, 0, label);
    sheet.write_number(row, 1, v);
    sheet.write_number(row, 2, lo);
    sheet.write_number(row, 3, hi);
  };
  const double nan = std::nan("");
  stat("Fleiss' kappa", f.fleiss_kappa, fleiss_ci.first, fleiss_ci.second);
  stat("Krippendorff's alpha", f.krippendorff_alpha, alpha_ci.first, alpha_ci.second);
  stat("Percent agreement (mean share of agreeing coder pairs)", f.percent_agreement, nan, nan);
}

// The intervals' small-sample warning, when there is one, below them; and, for jackknife intervals (from
// stats::kJackknifeFromUnits units on), a row saying so (the bootstrap's rows below are then not used).
void warning_row(xlsx::Sheet& sheet, int& row, const std::string& warning, stats::IntervalMethod method, int resamples) {
  if (!warning.empty()) {
    ++row;
    sheet.write_text(row, 0, "Warning");
    sheet.write_text(row, 1, warning);
  }
  if (method == stats::IntervalMethod::jackknife && resamples > 0) {
    ++row;
    sheet.write_text(row, 0, "Interval method");
    sheet.write_text(row, 1, "jackknife (normal interval; bootstrap resamples and seed not used)");
  }
}

void count_row(xlsx::Sheet& sheet, int& row, const std::string& label, double v, lxw_format* integer) {
  ++row;
  sheet.write_text(row, 0, label);
  sheet.write_number(row, 1, v, integer);
}

void pairs_sheet(xlsx::Book& book, const std::string& name, const std::vector<CoderPairKappa>& pairs) {
  auto& s = book.add_sheet(name);
  s.header({{"Coder A", CellStyle::text, 30}, {"Coder B", CellStyle::text, 30},
            {"Cohen's kappa", CellStyle::three_decimals, 16}, {"Units", CellStyle::integer, 10}}, 2);
  int row = 0;
  for (const auto& p : pairs) {
    ++row;
    s.write_text(row, 0, p.a);
    s.write_text(row, 1, p.b);
    s.write_number(row, 2, p.kappa);
    s.write_number(row, 3, static_cast<double>(p.units));
  }
}

void label_sheets(xlsx::Book& book, const LabelAgreement& a, const Taxonomy* taxonomy) {
  const std::vector<xlsx::Column> summary_cols{{"Statistic", CellStyle::text, 30}, {"Value", CellStyle::three_decimals, 12},
                                               {"CI low", CellStyle::three_decimals, 12}, {"CI high", CellStyle::three_decimals, 12}};
  auto& summary = book.add_sheet("Summary");
  summary.header(summary_cols, 1);
  int row = 0;
  summary_rows(summary, row, a.overall, a.fleiss_ci, a.alpha_ci);
  warning_row(summary, row, a.ci_warning, a.ci_method, a.resamples);
  ++row;
  summary.write_text(row, 0, "All coders agree (share of the units rated by every coder)");
  summary.write_number(row, 1, a.overall.all_agree.share);
  auto* integer = book.format(CellStyle::integer);
  count_row(summary, row, "Units", static_cast<double>(a.overall.units), integer);
  count_row(summary, row, "Units left out of Fleiss' kappa (not rated by every coder)",
            static_cast<double>(a.overall.dropped_units), integer);
  count_row(summary, row, "Units of percent agreement and alpha (two or more ratings)",
            static_cast<double>(a.overall.pairable_units), integer);
  count_row(summary, row, "Units on which all coders agree", static_cast<double>(a.overall.all_agree.agreeing), integer);
  count_row(summary, row, "Coders", static_cast<double>(a.coders.size()), integer);
  count_row(summary, row, "Categories", static_cast<double>(a.categories.size()), integer);
  count_row(summary, row, "Bootstrap resamples", a.resamples, integer);
  count_row(summary, row, "Bootstrap seed", static_cast<double>(a.seed), integer);
  count_row(summary, row, "Confidence level (%)", a.level * 100, integer);

  pairs_sheet(book, "Coder pairs", a.pairs);

  auto& cats = book.add_sheet("Per category");
  cats.header({{"Category", CellStyle::text, 16}, {"Name", CellStyle::text, 50}, {"Fleiss' kappa", CellStyle::three_decimals, 14}}, 1);
  row = 0;
  for (const auto& c : a.per_category) {
    ++row;
    cats.write_text(row, 0, c.category);
    cats.write_text(row, 1, node_name(taxonomy, c.category));
    cats.write_number(row, 2, c.fleiss_kappa);
  }

  if (!a.coder_vs_final.empty()) {
    auto& vs = book.add_sheet("Coder vs consensus");
    vs.header({{"Coder", CellStyle::text, 30}, {"Agreement", CellStyle::percent, 12},
               {"Cohen's kappa", CellStyle::three_decimals, 14}, {"Units", CellStyle::integer, 10}}, 1);
    row = 0;
    for (const auto& c : a.coder_vs_final) {
      ++row;
      vs.write_text(row, 0, c.coder);
      vs.write_number(row, 1, c.agreement);
      vs.write_number(row, 2, c.cohen_kappa);
      vs.write_number(row, 3, static_cast<double>(c.units));
    }
  }

  if (a.group_level > 0) {
    auto& groups = book.add_sheet("Groups");
    groups.header({{"Group", CellStyle::text, 12}, {"Name", CellStyle::text, 40}, {"Units", CellStyle::integer, 10},
                   {"Fleiss' kappa", CellStyle::three_decimals, 14}, {"Krippendorff's alpha", CellStyle::three_decimals, 20},
                   {"Percent agreement", CellStyle::percent, 18}, {"Left out of Fleiss", CellStyle::integer, 18}}, 1);
    row = 0;
    for (const auto& g : a.groups) {
      ++row;
      groups.write_text(row, 0, g.group);
      groups.write_text(row, 1, node_name(taxonomy, g.group));
      groups.write_number(row, 2, static_cast<double>(g.figures.units));
      groups.write_number(row, 3, g.figures.fleiss_kappa);
      groups.write_number(row, 4, g.figures.krippendorff_alpha);
      groups.write_number(row, 5, g.figures.percent_agreement);
      groups.write_number(row, 6, static_cast<double>(g.figures.dropped_units));
    }
  }

  auto& sources = book.add_sheet("Sources");
  std::vector<xlsx::Column> cols{{"Source", CellStyle::text, 40}, {"Units", CellStyle::integer, 10}};
  for (const auto& g : a.groups) cols.push_back({g.name.empty() || g.name == g.group ? g.group : g.group + " " + g.name, CellStyle::integer, 16});
  sources.header(cols, 1);
  row = 0;
  for (const auto& s : a.sources) {
    ++row;
    sources.write_text(row, 0, s.source);
    sources.write_number(row, 1, static_cast<double>(s.units));
    int col = 2;
    for (const auto& [g, n] : s.groups) sources.write_number(row, col++, static_cast<double>(n));
  }

  if (!a.disagreements.empty()) {
    auto& d = book.add_sheet("Disputed units");
    cols = {{"Unit", CellStyle::text, 30}, {"Source", CellStyle::text, 30}, {"Line", CellStyle::integer, 8},
            {"Pair agreement", CellStyle::percent, 14}};
    for (const auto& c : a.coders) cols.push_back({c, CellStyle::text, 14});
    cols.push_back({"Consensus", CellStyle::text, 14});
    d.header(cols, 1);
    row = 0;
    for (const auto& u : a.disagreements) {
      ++row;
      const Location where{u.source, u.line, 0};
      d.write_text(row, 0, u.unit, where);
      d.write_text(row, 1, u.source);
      d.write_number(row, 2, u.line);
      d.write_number(row, 3, u.agreement);
      int col = 4;
      for (const auto& l : u.labels) d.write_text(row, col++, l, where);
      d.write_text(row, col, u.consensus, where);
    }
  }
}

void transcript_sheets(xlsx::Book& book, const TranscriptAgreement& a, const Taxonomy* taxonomy) {
  auto& summary = book.add_sheet("Transcripts");
  summary.header({{"Statistic (pooled over unit x node)", CellStyle::text, 50}, {"Value", CellStyle::three_decimals, 12},
                  {"CI low", CellStyle::three_decimals, 12}, {"CI high", CellStyle::three_decimals, 12}}, 1);
  int row = 0;
  summary_rows(summary, row, a.pooled, a.fleiss_ci, a.alpha_ci);
  warning_row(summary, row, a.ci_warning, a.ci_method, a.resamples);
  ++row;
  summary.write_text(row, 0, "Identical code sets (share of units)");
  summary.write_number(row, 1, a.exact_agreement);
  auto* integer = book.format(CellStyle::integer);
  count_row(summary, row, "Units with identical code sets", static_cast<double>(a.identical_units), integer);
  count_row(summary, row, a.unit == TranscriptUnit::turn ? "Units (turns)" : "Units (segments)", static_cast<double>(a.units), integer);
  count_row(summary, row, "Transcripts compared", static_cast<double>(a.transcripts.size()), integer);
  count_row(summary, row, "Transcripts with one coder (left out)", static_cast<double>(a.single_coder_transcripts), integer);
  count_row(summary, row, "Coders", static_cast<double>(a.coders.size()), integer);
  count_row(summary, row, "Nodes", static_cast<double>(a.nodes.size()), integer);
  if (a.compare_level > 0) count_row(summary, row, "Compared at taxonomy level", a.compare_level, integer);
  count_row(summary, row, "Bootstrap resamples", a.resamples, integer);
  count_row(summary, row, "Bootstrap seed", static_cast<double>(a.seed), integer);
  for (const auto& t : a.transcripts) {
    ++row;
    summary.write_text(row, 0, "Transcript");
    summary.write_text(row, 1, t);
  }

  auto& nodes = book.add_sheet("Transcript nodes");
  // Units coded and positive agreement: on the node's presence; kappa, alpha and percent agreement: over every
  // unit, present/absent (the note under the table says so).
  nodes.header({{"Node", CellStyle::text, 12}, {"Name", CellStyle::text, 40}, {"Units coded (by any coder)", CellStyle::integer, 14},
                {"Positive agreement", CellStyle::three_decimals, 14}, {"Fleiss' kappa", CellStyle::three_decimals, 14},
                {"Krippendorff's alpha", CellStyle::three_decimals, 20}, {"Percent agreement", CellStyle::percent, 18}}, 1);
  row = 0;
  for (const auto& n : a.per_node) {
    ++row;
    nodes.write_text(row, 0, n.node);
    nodes.write_text(row, 1, node_name(taxonomy, n.node));
    nodes.write_number(row, 2, static_cast<double>(n.units_coded));
    nodes.write_number(row, 3, n.positive_agreement);
    nodes.write_number(row, 4, n.figures.fleiss_kappa);
    nodes.write_number(row, 5, n.figures.krippendorff_alpha);
    nodes.write_number(row, 6, n.figures.percent_agreement);
  }
  row += 2;
  nodes.write_text(row, 0, "Kappa, alpha and percent agreement are over all " + std::to_string(a.units) +
                               (a.unit == TranscriptUnit::turn ? " turns" : " segments") +
                               ", each node present or absent per coder (agreeing that a node is absent counts). Positive "
                               "agreement: 2a / (2a + b + c) pooled over coder pairs, a = both applied the node, b + c = one did.");

  pairs_sheet(book, "Transcript pairs", a.pairs);

  if (!a.disagreements.empty()) {
    auto& d = book.add_sheet("Transcript disputes");
    std::vector<xlsx::Column> cols{{"Unit", CellStyle::text, 20}, {"File", CellStyle::text, 30}, {"Line", CellStyle::integer, 8},
                                   {"Differing nodes", CellStyle::integer, 16}};
    for (const auto& c : a.coders) cols.push_back({c, CellStyle::text, 30});
    d.header(cols, 1);
    row = 0;
    for (const auto& u : a.disagreements) {
      ++row;
      d.write_text(row, 0, u.unit, u.where);
      d.write_text(row, 1, u.where.file);
      d.write_number(row, 2, u.where.line);
      d.write_number(row, 3, static_cast<double>(u.differing_nodes));
      for (std::size_t c = 0; c < a.coders.size(); ++c) {
        std::string cell = "(not coding)";
        if (u.coded[c]) {
          cell.clear();
          for (const auto& n : u.nodes[c]) cell += (cell.empty() ? "" : ", ") + n;
        }
        d.write_text(row, 4 + static_cast<int>(c), cell, u.where);
      }
    }
  }
}

}  // namespace

bool write_agreement_workbook(const LabelAgreement* labels, const TranscriptAgreement* transcripts,
                              const Taxonomy* taxonomy, const std::filesystem::path& target, Diagnostics& diags,
                              const CorpusTable* corpus) {
  xlsx::Book book(target, {"Inter-coder agreement", "qualrank agreement", "qualrank", ""}, diags);
  if (!book.ok()) {
    diags.error({target.string(), 0, 0}, "cannot write the workbook: " + book.error());
    return false;
  }
  if (labels) label_sheets(book, *labels, taxonomy);
  if (corpus && taxonomy) corpus_sheet(book, *corpus, *taxonomy);
  if (transcripts) transcript_sheets(book, *transcripts, taxonomy);
  if (!labels && !transcripts) book.add_sheet("Summary").write_text(0, 0, "No label tables and no multi-coder transcripts.");
  if (!book.commit()) {
    diags.error({target.string(), 0, 0}, "cannot write the workbook: " + book.error());
    return false;
  }
  return true;
}

}  // namespace qualrank
