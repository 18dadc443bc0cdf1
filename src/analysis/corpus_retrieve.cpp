// Keyword retrieval, the first step of building a corpus from issue reports by mining software repositories:
// per source a list of terms, a document retrieved when one matches (the way the study of the keyword lists
// in docs/corpus.md selected its issues). Terms are compiled into one Aho-Corasick automaton per source (Aho &
// Corasick 1975; analysis/autocode.cpp), each with its own whole-word and case rules; every field of a
// document is scanned once. Which term matched where is kept for a reviewer to audit.
#include "qualrank/analysis/corpus_retrieve.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "qualrank/analysis/autocode.h"
#include "qualrank/model/corpus.h"

namespace qualrank::corpus {

std::string hit_field(const KeywordHit& h) {
  switch (h.field) {
    case KeywordHit::title: return "title";
    case KeywordHit::body: return "body";
    default: return "comment " + std::to_string(h.comment);
  }
}

SourceRetrieval retrieve_source(std::string_view stored, const std::string& file, const std::string& source,
                                const std::vector<KeywordTerm>* terms, std::string_view from, std::string_view to,
                                Diagnostics& diags) {
  SourceRetrieval r;
  r.source = source;
  r.whole = terms == nullptr;
  std::vector<KeywordRule> rules;
  if (terms)
    for (const auto& t : *terms) rules.push_back({t.term, {}, t.whole_word, t.case_sensitive});
  KeywordMatcher matcher(rules, MatcherOptions{true});
  r.term_documents.assign(rules.size(), 0);
  std::vector<KeywordHit> hits;
  std::vector<std::size_t> last_doc_of_term(rules.size(), static_cast<std::size_t>(-1));
  auto scan_field = [&](std::string_view text, KeywordHit::Field field, std::size_t comment) {
    if (text.empty()) return;
    const std::size_t first = hits.size();
    scan_spans(matcher, text, [&](std::size_t rule, std::size_t begin, std::size_t) {
      for (std::size_t k = first; k < hits.size(); ++k)
        if (hits[k].term == rule) {
          ++hits[k].count;
          return;
        }
      hits.push_back({rule, comment, field, begin, 1});
    });
  };
  for_each_stored(stored, file, diags, [&](const DocumentView& d) {
    ++r.documents;
    if (!in_window(d.created, from, to)) return;
    ++r.in_window;
    if (r.whole) {
      r.retrieved.push_back({std::string(d.id), {}});
      return;
    }
    hits.clear();
    scan_field(d.title, KeywordHit::title, 0);
    scan_field(d.body, KeywordHit::body, 0);
    for (std::size_t c = 0; c < d.comments.size(); ++c) scan_field(d.comments[c].body, KeywordHit::comment_body, c + 1);
    if (hits.empty()) return;
    std::stable_sort(hits.begin(), hits.end(), [](const KeywordHit& a, const KeywordHit& b) { return a.term < b.term; });
    const std::size_t index = r.retrieved.size();
    for (const auto& h : hits)
      if (last_doc_of_term[h.term] != index) {
        last_doc_of_term[h.term] = index;
        ++r.term_documents[h.term];
      }
    r.retrieved.push_back({std::string(d.id), hits});
  });
  return r;
}

std::string retrieved_lines(const SourceRetrieval& r, const std::vector<KeywordTerm>* terms) {
  using ojson = nlohmann::ordered_json;
  std::string out;
  for (const auto& d : r.retrieved) {
    ojson j = ojson::object();
    j["doc"] = doc_ref(r.source, d.id);
    j["source"] = r.source;
    j["id"] = d.id;
    j["whole"] = r.whole;
    ojson matches = ojson::array();
    for (const auto& h : d.hits) {
      ojson m = ojson::object();
      m["term"] = terms ? (*terms)[h.term].term : std::string();
      m["in"] = hit_field(h);
      m["at"] = h.at;
      m["count"] = h.count;
      matches.push_back(std::move(m));
    }
    j["matches"] = std::move(matches);
    out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += '\n';
  }
  return out;
}

std::vector<RetrievedRef> read_retrieved(std::string_view text, const std::string& file, Diagnostics& diags) {
  std::vector<RetrievedRef> out;
  int line = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    ++line;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    auto row = text.substr(pos, end - pos);
    pos = end + 1;
    if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto j = nlohmann::json::parse(row, nullptr, false);
    if (!j.is_object() || !j.contains("doc") || !j["doc"].is_string() || !j.contains("source") || !j["source"].is_string()) {
      diags.error({file, line, 1}, "not a retrieved document ({\"doc\": ..., \"source\": ...})");
      continue;
    }
    out.push_back({j["doc"].get<std::string>(), j["source"].get<std::string>()});
  }
  return out;
}

}  // namespace qualrank::corpus
