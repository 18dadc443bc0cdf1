// Loading a sample's labels from the workspace (analysis/corpus/corpus_labels.h: load_sample_labels), the progress
// line the labelling commands print, and the published layout of the labels (published_layout: a label table
// per source keyed by the documents' urls, and the urls per source and year; docs/corpus.md, "The published
// layout").
#include <algorithm>
#include <unordered_map>

#include "qualrank/analysis/corpus/corpus_labels.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/files.h"

namespace qualrank::corpus {

std::string grouped(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string progress_text(std::size_t done, std::size_t total) { return grouped(done) + " of " + grouped(total) + " labelled"; }

std::optional<SampleLabels> load_sample_labels(const std::filesystem::path& workspace, const std::string& sample,
                                               const Taxonomy& taxonomy, const NodeResolver& resolve, Diagnostics& diags) {
  auto list = load_sample_list(workspace, sample, diags);
  if (!list) return std::nullopt;
  auto coders = read_all_labels(workspace, sample, diags);
  std::vector<LabelDecision> decisions;
  const std::string drel = decisions_path(sample);
  std::string why;
  if (files::exists(workspace / drel)) {
    auto dtext = files::read_inside(workspace, drel, &why);
    if (!dtext) diags.error({drel, 0, 0}, why);
    else decisions = read_decisions(*dtext, drel, diags);
  }
  if (diags.has_errors()) return std::nullopt;
  auto s = resolve_sample_labels(list->docs, coders, decisions, drel, sample, taxonomy, resolve, diags);
  if (diags.has_errors()) return std::nullopt;
  s.sample_stamp = std::move(list->stamp);
  return s;
}

namespace {

// The year of an ISO 8601 date ("2024-03-01T..."): its first four characters when they are digits, else "".
std::string published_year(std::string_view created) {
  if (created.size() < 4 || !std::all_of(created.begin(), created.begin() + 4, [](char c) { return c >= '0' && c <= '9'; }))
    return {};
  return std::string(created.substr(0, 4));
}

}  // namespace

std::optional<PublishedLayout> published_layout(const std::vector<const SampleLabels*>& samples,
                                                const std::map<std::string, PublishedDocument>& documents, Diagnostics& diags) {
  PublishedLayout out;
  for (const auto* s : samples)
    for (const auto& c : s->coders)
      if (std::find(out.coders.begin(), out.coders.end(), c) == out.coders.end()) out.coders.push_back(c);
  std::sort(out.coders.begin(), out.coders.end());
  struct Row {
    std::vector<std::string> cells;  // url, Label1.., Final_Label
    std::string year;
  };
  std::map<std::string, std::vector<Row>> by_source;
  std::map<std::string, std::map<std::string, std::string>> url_of;  // source -> url -> the doc that has it
  std::unordered_map<std::string, bool> seen;
  std::string first_year, last_year;
  for (const auto* s : samples) {
    std::vector<std::size_t> column(s->coders.size());
    for (std::size_t c = 0; c < s->coders.size(); ++c)
      column[c] = static_cast<std::size_t>(std::find(out.coders.begin(), out.coders.end(), s->coders[c]) - out.coders.begin());
    for (std::size_t d = 0; d < s->docs.size(); ++d) {
      const std::string& doc = s->docs[d];
      const std::string source = doc.substr(0, doc.find('#'));
      if (!seen.emplace(doc, true).second) {
        diags.error({"corpus/samples", 0, 0}, doc + " is in two of the samples exported: a published table has one row per document");
        continue;
      }
      auto it = documents.find(doc);
      if (it == documents.end()) {
        diags.error({store_path(source), 0, 0}, doc + " is not a stored document (the corpus changed since the sample was drawn)");
        continue;
      }
      const auto& [url, created] = it->second;
      if (url.empty()) {
        diags.error({store_path(source), 0, 0}, doc + " has no url: the published layout names each document by its url");
        continue;
      }
      if (auto [u, fresh] = url_of[source].emplace(url, doc); !fresh) {
        diags.error({store_path(source), 0, 0}, doc + " has the url of " + u->second + " (" + url + "): a unit is one url");
        continue;
      }
      Row row;
      row.cells.assign(out.coders.size() + 2, std::string());
      row.cells.front() = url;
      for (std::size_t c = 0; c < s->coders.size(); ++c) row.cells[1 + column[c]] = s->round_categories[d][c];  // as decided
      row.cells.back() = final_category(*s, d);
      row.year = published_year(created);
      if (row.year.empty()) ++out.undated;
      else {
        if (first_year.empty() || row.year < first_year) first_year = row.year;
        if (last_year.empty() || row.year > last_year) last_year = row.year;
      }
      by_source[source].push_back(std::move(row));
      ++out.units;
    }
  }
  if (diags.has_errors()) return std::nullopt;
  std::vector<std::string> header{"Issue_URL"};
  for (std::size_t c = 0; c < out.coders.size(); ++c) header.push_back("Label" + std::to_string(c + 1));
  header.push_back("Final_Label");
  for (const auto& [source, rows] : by_source) {
    out.sources.push_back(source);
    std::string table = csv::format_record(header, false);
    for (const auto& r : rows) table += csv::format_record(r.cells, false);
    out.files.push_back({source + "/" + source + ".csv", std::move(table)});
    if (first_year.empty()) continue;
    for (int y = std::stoi(first_year); y <= std::stoi(last_year); ++y) {
      const std::string year = std::to_string(y);
      std::string list;
      for (const auto& r : rows)
        if (r.year == year) list += r.cells.front() + '\n';
      out.files.push_back({source + "/" + source + "_" + year + ".txt", std::move(list)});
    }
  }
  return out;
}

std::optional<PublishedLayout> load_published_layout(const std::filesystem::path& workspace,
                                                     const std::vector<const SampleLabels*>& samples, Diagnostics& diags) {
  std::map<std::string, std::unordered_map<std::string, bool>> wanted;  // source -> its ids in the samples
  for (const auto* s : samples)
    for (const auto& doc : s->docs) {
      const auto hash = doc.find('#');
      wanted[doc.substr(0, hash)].emplace(doc.substr(hash + 1), true);
    }
  std::map<std::string, PublishedDocument> documents;
  for (const auto& [source, ids] : wanted) {
    const std::string rel = store_path(source);
    if (!files::exists(workspace / rel)) continue;  // its documents are reported as not stored
    std::string why;
    auto text = files::read_inside(workspace, rel, &why);
    if (!text) {
      diags.error({rel, 0, 0}, why);
      continue;
    }
    for_each_stored(*text, rel, diags, [&](const DocumentView& v) {
      if (ids.count(std::string(v.id))) documents[doc_ref(source, v.id)] = {std::string(v.url), std::string(v.created)};
    });
  }
  if (diags.has_errors()) return std::nullopt;
  return published_layout(samples, documents, diags);
}

}  // namespace qualrank::corpus
