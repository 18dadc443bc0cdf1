#include "qualrank/report/outputs/corpus_output.h"

#include <cmath>
#include <limits>

#include "qualrank/util/text.h"

namespace qualrank {

namespace {

std::string group_title(const Taxonomy& taxonomy, const std::string& id) {
  const TaxonomyNode* n = taxonomy.find(id);
  return n && !n->name.empty() && n->name != id ? id + " " + n->name : id;
}

struct Columns {
  std::vector<std::string> titles;
  bool no_period = false, open = false, ungrouped = false;
  int fp_rate = -1;  // the FP rate's column (screening only)
};

Columns columns_of(const CorpusTable& t, const Taxonomy& taxonomy) {
  Columns c;
  c.no_period = t.total.no_period > 0 && (!t.periods.empty() || t.screening);
  c.open = t.total.open > 0;
  c.ungrouped = t.total.ungrouped > 0;
  c.titles = {"source"};
  if (t.screening) {
    c.titles.insert(c.titles.end(), {"stored", "in window", "retrieved", "screened", "screened out", "kept", "FP rate"});
    c.fp_rate = static_cast<int>(c.titles.size()) - 1;
  }
  c.titles.push_back("units");
  for (const auto& p : t.periods) c.titles.push_back(p);
  if (c.no_period) c.titles.push_back("(no period)");
  for (const auto& g : t.groups) c.titles.push_back(group_title(taxonomy, g));
  if (c.open) c.titles.push_back("open");
  if (c.ungrouped) c.titles.push_back("(ungrouped)");
  return c;
}

// The counts after the screening columns: units, periods, groups.
std::vector<std::int64_t> values_of(const CorpusRow& r, const Columns& c) {
  std::vector<std::int64_t> v{r.units};
  v.insert(v.end(), r.by_period.begin(), r.by_period.end());
  if (c.no_period) v.push_back(r.no_period);
  v.insert(v.end(), r.by_group.begin(), r.by_group.end());
  if (c.open) v.push_back(r.open);
  if (c.ungrouped) v.push_back(r.ungrouped);
  return v;
}

nlohmann::ordered_json row_json(const CorpusTable& t, const CorpusRow& r) {
  nlohmann::ordered_json periods = nlohmann::ordered_json::object(), groups = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < t.periods.size(); ++k) periods[t.periods[k]] = r.by_period[k];
  for (std::size_t k = 0; k < t.groups.size(); ++k) groups[t.groups[k]] = r.by_group[k];
  nlohmann::ordered_json j = {{"source", r.source}};
  if (t.screening) {
    const double rate = fp_rate(r);
    j["stored"] = r.stored;
    j["in_window"] = r.in_window;
    j["retrieved"] = r.retrieved;
    j["screened"] = r.screened;
    j["screened_out"] = r.screened_out;
    j["kept"] = r.kept;
    j["fp_rate"] = std::isnan(rate) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(rate);
  }
  j["units"] = r.units;
  j["periods"] = periods;
  j["no_period"] = r.no_period;
  j["groups"] = groups;
  j["open"] = r.open;
  j["ungrouped"] = r.ungrouped;
  return j;
}

}  // namespace

nlohmann::ordered_json corpus_table_json(const CorpusTable& t, const Taxonomy& taxonomy) {
  nlohmann::ordered_json groups = nlohmann::ordered_json::array(), rows = nlohmann::ordered_json::array();
  for (const auto& g : t.groups) {
    const TaxonomyNode* n = taxonomy.find(g);
    groups.push_back({{"id", g}, {"name", n ? n->name : g}});
  }
  for (const auto& r : t.rows) rows.push_back(row_json(t, r));
  nlohmann::ordered_json j = {{"level", t.level}};
  if (t.screening) {
    j["rule"] = t.rule;
    j["window"] = t.window;
    // Both averages of the false-positive rate, named (the total row's fp_rate is the pooled one).
    const double pooled = fp_rate(t.total), mean = t.mean_fp_rate();
    j["fp_rate_pooled"] = std::isnan(pooled) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(pooled);
    j["fp_rate_mean_of_sources"] = std::isnan(mean) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(mean);
  }
  j["periods"] = t.periods;
  j["groups"] = groups;
  j["rows"] = rows;
  j["total"] = row_json(t, t.total);
  return j;
}

std::string fp_rate_sentence(const CorpusTable& t) {
  auto percent = [](double x) { return std::isnan(x) ? std::string("n/a") : text::fixed(100.0 * x, 2) + " %"; };
  int sources = 0;
  for (const auto& r : t.rows) sources += r.retrieved > 0;
  return "False-positive rate of the total row: pooled (all sources' screened out / retrieved) " + percent(fp_rate(t.total)) +
         "; mean of the " + std::to_string(sources) + " sources' rates " + percent(t.mean_fp_rate()) + ".";
}

std::string corpus_table_text(const CorpusTable& t, const Taxonomy& taxonomy) {
  const Columns c = columns_of(t, taxonomy);
  std::vector<std::vector<std::string>> rows{c.titles};
  std::vector<bool> right(c.titles.size(), true);
  right[0] = false;
  for (const CorpusRow* r : [&] {
         std::vector<const CorpusRow*> all;
         for (const auto& row : t.rows) all.push_back(&row);
         all.push_back(&t.total);
         return all;
       }()) {
    rows.push_back({r->source});
    if (t.screening) {
      const double rate = fp_rate(*r);
      for (auto v : {r->stored, r->in_window, r->retrieved, r->screened, r->screened_out, r->kept}) rows.back().push_back(std::to_string(v));
      rows.back().push_back(std::isnan(rate) ? "n/a" : text::fixed(rate, 4));
    }
    for (auto v : values_of(*r, c)) rows.back().push_back(std::to_string(v));
  }
  const std::string open_note = c.open ? "; open: no consensus label yet, not decided" : "";
  if (t.screening)
    return "Corpus per source: documents stored, in the window (" + t.window +
           "), retrieved by keywords, screened, screened out as false positives (rule: " + t.rule +
           "), kept, false-positive rate (screened out / retrieved); labelled units per year and " +
           taxonomy.level_name(t.level) + " (of the consensus label" + open_note + ")\n" + text::columns(rows, right, "  ") +
           fp_rate_sentence(t) + "\n";
  return "Units per source, period and " + taxonomy.level_name(t.level) + " (of the consensus label" + open_note + ")\n" +
         text::columns(rows, right, "  ");
}

nlohmann::ordered_json stage_one_json(const corpus::StageOne& s) {
  using J = nlohmann::ordered_json;
  auto num = [](double x) { return std::isnan(x) ? J(nullptr) : J(x); };
  auto counts = [](const std::vector<std::pair<std::string, std::size_t>>& v) {
    J o = J::object();
    for (const auto& [k, n] : v) o[k] = n;
    return o;
  };
  J files = J::array();
  for (const auto& [f, n] : s.keyword_files) files.push_back({{"file", f}, {"terms", n}});
  J keywords = {{"terms", s.keywords}, {"files", files}, {"window", {{"from", s.from}, {"to", s.to}, {"text", s.window}}}};
  J retrieval = J::array();
  for (const auto& src : s.sources) {
    J terms = J::array();
    for (const auto& [t, n] : src.keywords) terms.push_back({{"term", t}, {"documents", n}});
    retrieval.push_back({{"source", src.source}, {"whole", src.whole}, {"retrieved", src.retrieved}, {"keywords", terms}});
  }
  const auto& st = s.screening;
  J screeners = J::array();
  for (std::size_t i = 0; i < st.screeners.size(); ++i)
    screeners.push_back({{"name", st.screeners[i]}, {"screened", i < st.screened_per_screener.size() ? st.screened_per_screener[i] : 0}});
  J screening = {{"rule", s.rule},
                 {"screeners", screeners},
                 {"retrieved", st.retrieved},
                 {"screened", st.screened},
                 {"screened_by_all", st.screened_by_all},
                 {"agreeing", st.agreeing},
                 {"percent_all_agree", num(st.all_agree)},
                 {"screened_by_two", st.screened_by_two},
                 {"percent_agreement", num(st.percent_agreement)},
                 {"cohen_kappa", num(st.cohen_kappa)},
                 {"fleiss_kappa", num(st.fleiss_kappa)},
                 {"excluded", st.excluded},
                 {"excluded_by_reason", counts(s.excluded_by_reason)},
                 {"false_positive_decisions_by_reason", counts(s.decisions_by_reason)}};
  J samples = J::array();
  for (const auto& sm : s.samples) {
    const auto& p = sm.provenance;
    J j = {{"name", sm.name}, {"n", sm.n}};
    j["population"] = p ? J(p->population) : J(nullptr);
    j["seed"] = p ? J(p->seed) : J(nullptr);
    j["rule"] = p ? J(p->rule) : J(nullptr);
    j["size"] = p ? J(p->size) : J(nullptr);
    j["stratify"] = p ? J(p->stratify) : J(nullptr);
    j["drawn_apart_from"] = sm.drawn_apart_from;
    j["cochran"] = sm.cochran ? J{{"confidence", num(sm.confidence)}, {"z", num(sm.z)}, {"p", num(sm.proportion)}, {"e", num(sm.margin)},
                                  {"N", p->population}, {"n0", num(sm.n0)}, {"n", sm.cochran_n}}
                              : J(nullptr);
    j["allocation"] = counts(sm.allocation);
    if (sm.coders.empty()) {
      j["labels"] = nullptr;
      j["reconciliation"] = nullptr;
    } else {
      const auto& a = sm.agreement;
      J per = J::object();
      for (const auto& [c, k] : a.per_category) per[c] = num(k);
      j["labels"] = {{"coders", sm.coders}, {"labelled", sm.labelled}, {"labelled_by_all", a.labelled_by_all}, {"agreeing", a.agreeing},
                     {"all_agree", num(a.all_agree)}, {"labelled_by_two", a.labelled_by_two},
                     {"percent_agreement", num(a.percent_agreement)}, {"fleiss_kappa", num(a.fleiss_kappa)}, {"cohen_kappa", num(a.cohen_kappa)},
                     {"per_category", per}};
      J deciders = J::object();
      for (const auto& [d, n] : sm.by_decider) deciders[d] = n;
      j["reconciliation"] = {{"disagreements", a.disagreements}, {"disagreements_decided", a.decided}, {"decisions", sm.decisions}, {"by_majority", sm.by_majority},
                             {"by_keeping_a_coder", sm.by_keeping_coder}, {"by_other", sm.by_other}, {"by_decider", deciders},
                             {"open", sm.open}};
    }
    samples.push_back(j);
  }
  return {{"keywords", keywords}, {"retrieval", retrieval}, {"screening", screening}, {"samples", samples}};
}

void corpus_sheet(xlsx::Book& book, const CorpusTable& t, const Taxonomy& taxonomy, const std::string& sheet_name) {
  const Columns c = columns_of(t, taxonomy);
  auto& sheet = book.add_sheet(sheet_name);
  std::vector<xlsx::Column> cols;
  for (std::size_t i = 0; i < c.titles.size(); ++i)
    cols.push_back({c.titles[i],
                    i == 0 ? xlsx::CellStyle::text : static_cast<int>(i) == c.fp_rate ? xlsx::CellStyle::three_decimals : xlsx::CellStyle::integer,
                    i == 0 ? 30.0 : 24.0});
  sheet.header(cols, 1);
  int row = 0;
  auto write = [&](const CorpusRow& r) {
    ++row;
    sheet.write_text(row, 0, r.source);
    int col = 1;
    if (t.screening) {
      for (auto v : {r.stored, r.in_window, r.retrieved, r.screened, r.screened_out, r.kept}) sheet.write_number(row, col++, static_cast<double>(v));
      if (const double rate = fp_rate(r); std::isnan(rate)) sheet.write_text(row, col++, "n/a");
      else sheet.write_number(row, col++, rate);
    }
    for (auto v : values_of(r, c)) sheet.write_number(row, col++, static_cast<double>(v));
  };
  for (const auto& r : t.rows) write(r);
  write(t.total);
  if (t.screening) {
    // Both averages of the false-positive rate, each named, under the FP rate column.
    for (const auto& [name, value] : {std::pair<std::string, double>{"FP rate, pooled (total row)", fp_rate(t.total)},
                                      std::pair<std::string, double>{"FP rate, mean of the sources' rates", t.mean_fp_rate()}}) {
      ++row;
      sheet.write_text(row, 0, name);
      if (std::isnan(value)) sheet.write_text(row, c.fp_rate, "n/a");
      else sheet.write_number(row, c.fp_rate, value);
    }
  }
}

}  // namespace qualrank
