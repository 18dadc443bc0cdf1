// Stage one whole (analysis/corpus/corpus_stage_one.h): the retrieval's keywords and window, per keyword what it
// retrieved, screening's agreement and exclusions, each sample's size, allocation and seed, its labels'
// agreement before reconciliation and how the disagreements were resolved.
#include "qualrank/analysis/corpus/corpus_stage_one.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string_view>

#include <nlohmann/json.hpp>

#include "qualrank/analysis/corpus/corpus_retrieve.h"
#include "qualrank/analysis/corpus/corpus_sample.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_keywords.h"
#include "qualrank/model/corpus/corpus_labels.h"
#include "qualrank/util/files.h"

namespace qualrank::corpus {

namespace {

// A number recorded as text in a sample's provenance ("0.95"), or NaN.
double stage_one_number(const std::string& s) {
  try {
    std::size_t used = 0;
    const double x = std::stod(s, &used);
    return used == s.size() ? x : std::nan("");
  } catch (const std::exception&) {
    return std::nan("");
  }
}

}  // namespace

std::optional<StageOne> stage_one(const std::filesystem::path& workspace, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                  ExclusionRule rule, Diagnostics& diags) {
  auto sources = corpus_sources(workspace, diags);
  const std::string rr = "corpus/retrieved.jsonl";
  if (diags.has_errors() || sources.empty() || !files::exists(workspace / rr)) return std::nullopt;
  std::string why;
  auto text = files::read_inside(workspace, rr, &why);
  if (!text) {
    diags.error({rr, 0, 0}, why);
    return std::nullopt;
  }
  if (!check_retrieval_current(workspace, *text, diags, true)) return std::nullopt;
  StageOne out;
  const auto provenance = read_retrieval_provenance(std::string_view(*text).substr(0, text->find('\n')), rr, 1, diags);
  if (provenance) out.from = provenance->from, out.to = provenance->to;
  out.window = window_text(out.from, out.to);
  // The keyword lists: the files the retrieval recorded (unchanged since: check_retrieval_current), read again.
  std::map<std::string, std::vector<std::string>> listed;  // source -> terms
  bool lists_read = true;  // every keyword file read again (else a source without a list here may have one)
  if (provenance)
    for (const auto& [file, sha] : provenance->keyword_files) {
      std::size_t terms = 0;
      std::string kwhy;
      const bool inside = !std::filesystem::path(file).is_absolute();
      auto ktext = inside ? files::read_inside(workspace, file, &kwhy) : std::nullopt;
      if (ktext) {
        Diagnostics quiet;  // the retrieval read it already; what it said then is not repeated here
        if (auto config = read_keywords(*ktext, file, quiet))
          for (const auto& [s, list] : config->sources)
            for (const auto& t : list) {
              auto& v = listed[s];
              if (std::find(v.begin(), v.end(), t.term) == v.end()) v.push_back(t.term), ++terms;
            }
      }
      else lists_read = false;
      out.keyword_files.emplace_back(file, terms);
    }
  // Per source: retrieved documents, and per keyword the documents it matched.
  std::map<std::string, StageOneSource> by_source;
  for (const auto& s : sources) by_source[s].source = s;
  std::map<std::string, std::map<std::string, std::size_t>> matched;  // source -> term -> documents
  std::map<std::string, std::vector<std::string>> seen;               // source -> terms in first-match order
  std::size_t line_no = 0, from = 0;
  while (from < text->size()) {
    const std::size_t end = std::min(text->find('\n', from), text->size());
    const std::string_view line(text->data() + from, end - from);
    from = end + 1;
    if (++line_no == 1 || line.empty()) continue;
    auto j = nlohmann::json::parse(line.begin(), line.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("source") || !j["source"].is_string()) {
      diags.error({rr, static_cast<int>(line_no), 1}, "not a retrieved document's line");
      continue;
    }
    const std::string source = j["source"].get<std::string>();
    auto& src = by_source[source];
    src.source = source;
    ++src.retrieved;
    if (j.value("whole", false)) src.whole = true;
    std::set<std::string> terms;
    if (j.contains("matches") && j["matches"].is_array())
      for (const auto& m : j["matches"])
        if (m.contains("term") && m["term"].is_string()) terms.insert(m["term"].get<std::string>());
    for (const auto& t : terms) {
      if (!matched[source].count(t)) seen[source].push_back(t);
      ++matched[source][t];
    }
  }
  if (diags.has_errors()) return std::nullopt;
  for (auto& [s, src] : by_source) {
    const auto it = listed.find(s);
    const auto& terms = it != listed.end() ? it->second : seen[s];
    for (const auto& t : terms) src.keywords.emplace_back(t, matched[s].count(t) ? matched[s][t] : 0);
    if (it != listed.end()) src.whole = false;
    else if (lists_read) src.whole = true;
    out.keywords += src.keywords.size();
    out.sources.push_back(std::move(src));
  }
  // Screening.
  Diagnostics read_again;  // Table I read these files and said what they hold
  const auto retrieved = read_retrieved(*text, rr, read_again);
  const auto screeners = read_all_screening(workspace, diags);
  if (diags.has_errors()) return std::nullopt;
  out.rule = rule == ExclusionRule::majority ? "majority" : "unanimous";
  out.screening = screening_status(retrieved, screeners, rule);
  {
    std::set<std::string> in_retrieval;
    for (const auto& r : retrieved) in_retrieval.insert(r.doc);
    std::map<std::string, std::set<std::string>> reasons_of;  // excluded doc -> reasons its screeners gave
    for (const auto& d : out.screening.excluded_docs) reasons_of[d];
    std::map<std::string, std::size_t> decisions;
    for (const auto& sc : screeners)
      for (const auto& d : sc.decisions) {
        if (d.decision != Decision::false_positive || !in_retrieval.count(d.doc)) continue;
        ++decisions[d.reason];
        if (auto it = reasons_of.find(d.doc); it != reasons_of.end()) it->second.insert(d.reason);
      }
    std::map<std::string, std::size_t> excluded;
    for (const auto& [doc, reasons] : reasons_of) ++excluded[reasons.size() == 1 ? *reasons.begin() : std::string("reasons differ")];
    out.decisions_by_reason.assign(decisions.begin(), decisions.end());
    out.excluded_by_reason.assign(excluded.begin(), excluded.end());
  }
  // The samples, by name.
  for (const auto& p : files::list_files(workspace / "corpus/samples", ".txt")) {
    StageOneSample s;
    s.name = p.stem().string();
    const std::string rel = sample_path(s.name);
    auto stext = files::read_inside(workspace, rel, &why);
    if (!stext) {
      diags.error({rel, 0, 0}, why);
      continue;
    }
    const auto docs = read_sample(*stext, rel, diags);
    s.n = docs.size();
    std::map<std::string, std::size_t> allocation;
    for (const auto& d : docs) ++allocation[d.substr(0, d.find('#'))];
    s.allocation.assign(allocation.begin(), allocation.end());
    s.provenance = read_sample_provenance(*stext);
    if (s.provenance) {
      for (const auto& [name, sha] : s.provenance->excluded) s.drawn_apart_from.push_back(name);
      s.confidence = stage_one_number(s.provenance->confidence);
      s.margin = stage_one_number(s.provenance->margin);
      s.proportion = stage_one_number(s.provenance->proportion);
      s.cochran = s.provenance->size == "cochran";
      if (s.cochran) try {
          const auto size = cochran_sample_size(s.provenance->population, s.confidence, s.margin, s.proportion);
          s.z = size.z, s.n0 = size.n0, s.cochran_n = size.n;
        } catch (const std::invalid_argument& e) {
          diags.error({rel, 1, 1}, std::string("Cochran's inputs: ") + e.what());
        }
    }
    // Labels and reconciliation.
    if (files::exists(workspace / labels_dir(s.name))) {
      auto labels = load_sample_labels(workspace, s.name, taxonomy, resolve, diags);
      if (labels) {
        s.coders = labels->coders;
        s.agreement = sample_agreement(*labels);
        for (std::size_t d = 0; d < labels->docs.size(); ++d) {
          const bool some = std::any_of(labels->categories[d].begin(), labels->categories[d].end(), [](const std::string& c) { return !c.empty(); });
          s.labelled += some;
          if (some && final_category(*labels, d).empty()) ++s.open;
          const auto& dec = labels->decisions[d];
          if (!dec) continue;
          ++s.decisions;
          ++s.by_decider[dec->decider];
          if (dec->how == "majority") ++s.by_majority;
          else if (dec->how.rfind("coder:", 0) == 0) ++s.by_keeping_coder;
          else ++s.by_other;
        }
      }
    }
    out.samples.push_back(std::move(s));
  }
  if (diags.has_errors()) return std::nullopt;
  // A sample after the samples it was drawn apart from (the pilot before the main sample), else by name.
  std::vector<StageOneSample> ordered;
  std::set<std::string> placed;
  while (!out.samples.empty()) {
    auto next = std::find_if(out.samples.begin(), out.samples.end(), [&](const StageOneSample& x) {
      return std::all_of(x.drawn_apart_from.begin(), x.drawn_apart_from.end(), [&](const std::string& a) {
        return placed.count(a) || std::none_of(out.samples.begin(), out.samples.end(), [&](const StageOneSample& y) { return y.name == a; });
      });
    });
    if (next == out.samples.end()) next = out.samples.begin();  // (a cycle cannot be drawn; by name then)
    placed.insert(next->name);
    ordered.push_back(std::move(*next));
    out.samples.erase(next);
  }
  out.samples = std::move(ordered);
  return out;
}

}  // namespace qualrank::corpus
