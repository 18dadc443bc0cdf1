// Table I whole (analysis/corpus/corpus_overview.h): the corpus's sources, retrieval and screening counts, and the
// labelled units of the exported label tables re-sourced by their SOURCE#ID and given the year of their
// document as period, counted by corpus_table.
#include "qualrank/analysis/corpus/corpus_overview.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_map>

#include "qualrank/analysis/corpus/corpus_labels.h"
#include "qualrank/analysis/corpus/corpus_provenance.h"
#include "qualrank/analysis/agreement/label_table.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_keywords.h"
#include "qualrank/model/corpus/corpus_labels.h"
#include "qualrank/util/files.h"

namespace qualrank::corpus {

namespace {

bool four_digits(std::string_view s) {
  return s.size() >= 4 && std::all_of(s.begin(), s.begin() + 4, [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::vector<std::string> exported_samples(const std::filesystem::path& workspace) {
  std::vector<std::string> out;
  for (const auto& p : files::list_files(workspace / "corpus/samples", ".txt")) {
    auto table = workspace / "codebooks/labels" / (p.stem().string() + ".csv");
    if (files::exists(table) && files::resolved_inside(workspace, table)) out.push_back(p.stem().string());
  }
  return out;
}

std::optional<CorpusTable> corpus_overview(const std::filesystem::path& workspace, const Taxonomy& taxonomy,
                                           const NodeResolver& resolve, int level, ExclusionRule rule,
                                           const std::vector<std::string>& samples, Diagnostics& diags,
                                           std::vector<std::pair<std::string, CorpusTable>>* apart) {
  auto sources = corpus_sources(workspace, diags);
  if (diags.has_errors() || sources.empty()) return std::nullopt;
  // Retrieval and screening.
  std::vector<RetrievedRef> retrieved;
  std::optional<RetrievalProvenance> provenance;  // its window counts the documents "in window"
  const std::string rr = "corpus/retrieved.jsonl";
  if (files::exists(workspace / rr)) {
    std::string why;
    auto text = files::read_inside(workspace, rr, &why);
    if (!text) diags.error({rr, 0, 0}, why);
    else {
      check_retrieval_current(workspace, *text, diags, true);  // Table I from a stale retrieval would count other documents
      retrieved = read_retrieved(*text, rr, diags);
      provenance = read_retrieval_provenance(std::string_view(*text).substr(0, text->find('\n')), rr, 1, diags);
    }
  }
  auto screeners = read_all_screening(workspace, diags);
  // The label tables.
  std::vector<std::filesystem::path> tables;
  if (samples.empty()) {
    for (const auto& s : exported_samples(workspace)) tables.push_back(workspace / "codebooks/labels" / (s + ".csv"));
  } else {
    for (const auto& s : samples) {
      const std::string rel = "codebooks/labels/" + s + ".csv";
      if (!files::exists(workspace / rel)) diags.error({rel, 0, 0}, "no label table of sample '" + s + "': run 'qualrank corpus labels export --sample " + s + "'");
      else tables.push_back(workspace / rel);
    }
  }
  if (diags.has_errors()) return std::nullopt;
  // Each table as its sample's labels and decisions stand now, and each sample as drawn under this rule; a
  // table or sample that no longer is what it was made from would count other units.
  for (const auto& t : tables) {
    const std::string sample = t.stem().string();
    const std::string rel = "codebooks/labels/" + sample + ".csv";
    std::string why;
    auto sample_text = files::read_inside(workspace, sample_path(sample), &why);
    if (sample_text) {
      auto sp = read_sample_provenance(*sample_text);
      const std::string rule_name = rule == ExclusionRule::majority ? "majority" : "unanimous";
      if (!sp)
        diags.warning({sample_path(sample), 1, 1}, "records neither its screening rule nor its population (drawn by an older qualrank)");
      else if (sp->rule != rule_name)
        diags.error({sample_path(sample), 1, 1}, "sample " + sample + " was drawn under the screening rule '" + sp->rule +
                                                     "'; Table I under '" + rule_name + "' would count units that rule treats otherwise: give --rule " +
                                                     sp->rule);
    }
    Diagnostics quiet;
    auto fresh = load_sample_labels(workspace, sample, taxonomy, resolve, quiet);
    auto stored = files::read_inside(workspace, rel, &why);
    if (fresh) warn_stale_decisions(*fresh, sample, diags);
    if (fresh && stored && label_table_text(*fresh) != *stored)
      diags.error({rel, 1, 1}, "stale: the labels or decisions of sample " + sample +
                                   " changed since this table was exported; run 'qualrank corpus labels export --sample " + sample + "'");
  }
  if (diags.has_errors()) return std::nullopt;
  LabelTable table;
  if (!tables.empty()) {
    LabelVocabulary vocabulary{&taxonomy, &resolve, 1};
    table = read_label_files(tables, workspace, LabelColumns{}, vocabulary, diags);
    if (diags.has_errors()) return std::nullopt;
    if (!table.has_consensus) {
      diags.error({table.files.empty() ? std::string("codebooks/labels") : table.files.front(), 1, 1},
                  "the label tables have no Final_Label column");
      return std::nullopt;
    }
  }
  // Re-source the units by the SOURCE of SOURCE#ID (the corpus's sources first, then any other in order met).
  const std::vector<int> unit_sample = table.unit_source;  // the label table (sample) each unit came from
  auto resource = [&sources](LabelTable& t) {
    std::map<std::string, int> source_index;
    t.sources = sources;
    for (std::size_t s = 0; s < sources.size(); ++s) source_index.emplace(sources[s], static_cast<int>(s));
    for (std::int64_t u = 0; u < t.units(); ++u) {
      const auto id = t.unit_id(u);
      const std::string source(id.substr(0, id.find('#')));
      auto [it, fresh] = source_index.emplace(source, static_cast<int>(t.sources.size()));
      if (fresh) t.sources.push_back(source);
      t.unit_source[static_cast<std::size_t>(u)] = it->second;
    }
    t.files.clear();
    for (const auto& s : t.sources) t.files.push_back(store_path(s));
  };
  resource(table);
  // Periods: the year of each unit's document; and per source the documents stored and in the retrieval's
  // window (one pass over each stored file).
  std::vector<std::unordered_map<std::string, bool>> wanted(table.sources.size());
  for (std::int64_t u = 0; u < table.units(); ++u)
    wanted[static_cast<std::size_t>(table.unit_source[static_cast<std::size_t>(u)])].emplace(std::string(table.unit_id(u)), true);
  const std::string from = provenance ? provenance->from : std::string(), to = provenance ? provenance->to : std::string();
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> stored_in_window;  // source -> (stored, in window)
  std::vector<PeriodList> periods;
  for (std::size_t s = 0; s < table.sources.size(); ++s) {
    const std::string rel = store_path(table.sources[s]);
    if (!files::exists(workspace / rel)) continue;  // units of a source not in the corpus: no period
    std::string why;
    auto text = files::read_inside(workspace, rel, &why);
    if (!text) {
      diags.error({rel, 0, 0}, why);
      continue;
    }
    std::map<std::string, std::size_t> by_year;
    auto& counts = stored_in_window[table.sources[s]];
    for_each_stored(*text, rel, diags, [&](const DocumentView& v) {
      ++counts.first;
      if (in_window(v.created, from, to)) ++counts.second;
      if (wanted[s].empty()) return;
      const std::string ref = doc_ref(table.sources[s], v.id);
      if (!wanted[s].count(ref) || !four_digits(v.created)) return;
      const std::string year(v.created.substr(0, 4));
      auto [it, fresh] = by_year.emplace(year, periods.size());
      if (fresh) periods.push_back({table.sources[s], year, rel, {}});
      periods[it->second].ids.emplace_back(ref, v.line);
    });
  }
  if (diags.has_errors()) return std::nullopt;
  // Built this way the lists name no unit twice and no unknown source: corpus_table's only message left is
  // its warning about units "in no period list", which here are the documents without a date (the "no
  // period" column says how many).
  Diagnostics counting;
  CorpusTable out = corpus_table(table, taxonomy, level, periods, counting);
  const auto status = screening_status(retrieved, screeners, rule);
  // Labelled units that are no longer retrieved documents, or that screening now excludes, are not counted
  // silently.
  {
    std::unordered_map<std::string, bool> kept;
    for (const auto& r : retrieved) kept.emplace(r.doc, true);
    for (const auto& d : status.excluded_docs) kept[d] = false;
    std::vector<std::string> gone, excluded;
    for (std::int64_t u = 0; u < table.units(); ++u) {
      const std::string id(table.unit_id(u));
      auto it = kept.find(id);
      if (it == kept.end()) gone.push_back(id);
      else if (!it->second) excluded.push_back(id);
    }
    auto some = [](const std::vector<std::string>& v) {
      std::string s;
      for (std::size_t i = 0; i < v.size() && i < 5; ++i) s += (i ? ", " : "") + v[i];
      return s + (v.size() > 5 ? ", ..." : "");
    };
    if (!gone.empty())
      diags.error({rr, 0, 0}, std::to_string(gone.size()) + " labelled unit(s) are not retrieved documents (" + some(gone) +
                                  "): the retrieval changed since their sample was drawn; retrieve again as it was, or draw the sample again");
    if (!excluded.empty())
      diags.error({"corpus/screening", 0, 0}, std::to_string(excluded.size()) + " labelled unit(s) are false positives under the rule '" +
                                                  std::string(rule == ExclusionRule::majority ? "majority" : "unanimous") + "' (" + some(excluded) + "): screening changed since their sample was drawn");
    if (!gone.empty() || !excluded.empty()) return std::nullopt;
  }
  // Retrieval and screening per source.
  auto add_screening = [&](CorpusTable& t) {
    t.screening = true;
    t.rule = rule == ExclusionRule::majority ? "majority" : "unanimous";
    t.window = window_text(from, to);
    for (auto& row : t.rows) {
      if (auto it = stored_in_window.find(row.source); it != stored_in_window.end())
        std::tie(row.stored, row.in_window) = it->second;
      for (const auto& ss : status.sources)
        if (ss.source == row.source) {
          row.retrieved = static_cast<std::int64_t>(ss.retrieved);
          row.screened = static_cast<std::int64_t>(ss.screened);
          row.screened_out = static_cast<std::int64_t>(ss.excluded);
          row.kept = row.retrieved - row.screened_out;
        }
    }
    for (const auto& row : t.rows) {
      t.total.stored += row.stored;
      t.total.in_window += row.in_window;
      t.total.screened += row.screened;
      t.total.retrieved += row.retrieved;
      t.total.screened_out += row.screened_out;
      t.total.kept += row.kept;
    }
  };
  add_screening(out);
  // Each sample apart: its units alone, with the period lists cut to them (corpus_table orders the periods).
  if (apart)
    for (std::size_t k = 0; k < tables.size(); ++k) {
      LabelTable one;
      one.coders = table.coders;
      one.categories = table.categories;
      one.has_consensus = table.has_consensus;
      one.ratings.coders = table.ratings.coders;
      one.ratings.categories = table.ratings.categories;
      const auto width = static_cast<std::size_t>(table.ratings.coders);
      std::unordered_map<std::string_view, bool> ids;
      for (std::int64_t u = 0; u < table.units(); ++u) {
        const auto i = static_cast<std::size_t>(u);
        if (unit_sample[i] != static_cast<int>(k)) continue;
        one.ratings.codes.insert(one.ratings.codes.end(), table.ratings.codes.begin() + static_cast<std::ptrdiff_t>(i * width),
                                 table.ratings.codes.begin() + static_cast<std::ptrdiff_t>((i + 1) * width));
        ++one.ratings.units;
        one.consensus.push_back(table.consensus[i]);
        one.unit_line.push_back(table.unit_line[i]);
        one.unit_source.push_back(0);
        one.unit_key.push_back(one.unit_ids.intern(table.unit_id(u)));
        ids.emplace(table.unit_id(u), true);
      }
      resource(one);
      std::vector<PeriodList> its;
      for (const auto& p : periods) {
        PeriodList q{p.source, p.period, p.file, {}};
        for (const auto& id : p.ids)
          if (ids.count(id.first)) q.ids.push_back(id);
        if (!q.ids.empty()) its.push_back(std::move(q));
      }
      Diagnostics quiet;
      CorpusTable t = corpus_table(one, taxonomy, level, its, quiet);
      add_screening(t);
      t.screening = false;  // the corpus's screening is the whole table's, shown once
      apart->emplace_back(tables[k].stem().string(), std::move(t));
    }
  return out;
}

}  // namespace qualrank::corpus
