// Code suggestions and their cross-validation as JSON and text tables (see suggest_output.h).
#include "qualrank/report/outputs/suggest_output.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "qualrank/analysis/coding.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/text.h"

namespace qualrank {
namespace {

using json = nlohmann::ordered_json;

double round3(double v) { return std::round(v * 1000.0) / 1000.0; }

std::string fixed(double v, int decimals = 2) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string name_of(const Taxonomy& taxonomy, const std::string& id) {
  const auto* node = taxonomy.find(id);
  return node ? node->name : "";
}

// The first `width` code points of `s` on one line, "…" when cut.
std::string excerpt(const std::string& s, std::size_t width) {
  std::string flat = s;
  std::replace(flat.begin(), flat.end(), '\n', ' ');
  if (text::count_code_points(flat) <= width) return flat;
  std::string out;
  std::size_t n = 0;
  for (char c : flat) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && ++n > width - 1) break;
    out += c;
  }
  return out + "…";
}

json scores_json(const suggest::Scores& s) {
  return {{"precision", round3(s.precision)}, {"recall", round3(s.recall)}, {"f1", round3(s.f1)}};
}

std::string codes_list(const std::vector<std::pair<std::string, std::size_t>>& codes, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < codes.size() && i < max; ++i)
    out += (i ? ", " : "") + codes[i].first + " (" + std::to_string(codes[i].second) + ")";
  if (codes.size() > max) out += ", ...";
  return out;
}

}  // namespace

json suggestions_json(const std::vector<suggest::TurnSuggestion>& suggestions, const suggest::CodeSuggester& suggester) {
  json list = json::array();
  for (const auto& s : suggestions) {
    json j;
    j["segment"] = s.segment->id;
    j["participant"] = s.segment->participant;
    j["source"] = {{"file", s.segment->source.file}, {"line", s.segment->source.line}};
    j["codes"] = json::array();
    for (const auto& c : s.codes) j["codes"].push_back({{"node", c.code}, {"confidence", round3(c.confidence)}});
    j["keyword"] = s.keyword;
    list.push_back(std::move(j));
  }
  json out;
  out["suggestions"] = std::move(list);
  out["trained_on"] = {{"segments", suggester.segments()}, {"coded_segments", suggester.coded_segments()}};
  return out;
}

std::string suggestions_table(const std::vector<suggest::TurnSuggestion>& suggestions,
                              const suggest::CodeSuggester& suggester, const Taxonomy& taxonomy, int min_support) {
  // The code column is as wide as the widest code shown, so every block lines up.
  std::size_t code_width = 0;
  for (const auto& s : suggestions) {
    for (const auto& c : s.codes) code_width = std::max(code_width, text::count_code_points(c.code));
    for (const auto& k : s.keyword) code_width = std::max(code_width, text::count_code_points(k));
  }
  auto line = [&](const std::string& label, const std::string& code) {
    return "    " + std::string(7 - label.size(), ' ') + label + "  " + code +
           std::string(code_width - text::count_code_points(code), ' ') + "  " + name_of(taxonomy, code) + "\n";
  };
  std::string out;
  for (const auto& s : suggestions) {
    const auto& seg = *s.segment;
    out += seg.source.file + ":" + std::to_string(seg.source.line) + "  " + seg.participant + "  " + seg.id + "\n";
    out += "    \"" + excerpt(seg.text, 72) + "\"\n";
    for (const auto& c : s.codes) out += line(fixed(c.confidence), c.code);
    for (const auto& k : s.keyword) out += line("keyword", k);
    if (s.codes.empty() && s.keyword.empty()) out += "    (nothing to suggest)\n";
  }
  out += std::to_string(suggestions.size()) + (suggestions.size() == 1 ? " uncoded turn" : " uncoded turns") +
         ". Learned " + std::to_string(suggester.codes().size()) + " codes from " +
         std::to_string(suggester.segments()) + " coded segments" +
         (suggester.segments() < suggester.coded_segments()
              ? " (a sample of the " + std::to_string(suggester.coded_segments()) +
                    " there are: training is bounded; docs/suggest.md)"
              : std::string()) +
         " (codes with fewer than " + std::to_string(min_support) + " segments are never suggested).\n"
         "Confidence: the model's estimated probability that you would apply the code. Nothing is applied\n"
         "(qualrank code add --transcript FILE --turn N --node ID applies one).\n";
  return out;
}

json evaluation_json(const suggest::Evaluation& ev, const Taxonomy& taxonomy) {
  auto codes = ev.codes;
  std::stable_sort(codes.begin(), codes.end(), [&](const auto& a, const auto& b) {
    return taxonomy.rank_of(a.code) < taxonomy.rank_of(b.code);
  });
  json out;
  out["folds"] = ev.folds;
  out["seed"] = ev.seed;
  out["threshold"] = ev.threshold;
  out["min_support"] = ev.min_support;
  out["segments"] = ev.segments;
  out["participants"] = ev.groups;
  out["codes"] = json::object();
  for (const auto& c : codes) {
    json j = {{"support", c.support},
              {"precision", round3(c.scores.precision)},
              {"recall", round3(c.scores.recall)},
              {"f1", round3(c.scores.f1)}};
    j["true_positives"] = c.true_positives;
    j["false_positives"] = c.false_positives;
    j["false_negatives"] = c.false_negatives;
    out["codes"][c.code] = std::move(j);
  }
  out["micro"] = scores_json(ev.micro);
  out["macro"] = scores_json(ev.macro);
  out["chance"] = {{"micro_f1", round3(ev.chance_f1)}};
  auto rare = ev.too_rare;
  std::stable_sort(rare.begin(), rare.end(), [&](const auto& a, const auto& b) {
    return taxonomy.rank_of(a.first) < taxonomy.rank_of(b.first);
  });
  out["too_rare"] = json::object();
  for (const auto& [code, n] : rare) out["too_rare"][code] = n;
  return out;
}

std::string evaluation_table(const suggest::Evaluation& ev, const Taxonomy& taxonomy) {
  auto codes = ev.codes;
  std::stable_sort(codes.begin(), codes.end(), [&](const auto& a, const auto& b) {
    return taxonomy.rank_of(a.code) < taxonomy.rank_of(b.code);
  });
  std::string out = std::to_string(ev.folds) + "-fold cross-validation by participant (seed " + std::to_string(ev.seed) +
                    "): " + std::to_string(ev.groups) + " participants, " + std::to_string(ev.segments) +
                    " coded segments.\nA held-out segment gets its most confident code and every code with confidence >= " +
                    fixed(ev.threshold) + ".\n\n";
  std::vector<std::vector<std::string>> rows = {{"code", "segments", "precision", "recall", "F1", "name"}};
  for (const auto& c : codes)
    rows.push_back({c.code, std::to_string(c.support), fixed(c.scores.precision), fixed(c.scores.recall),
                    fixed(c.scores.f1), excerpt(name_of(taxonomy, c.code), 48)});
  rows.push_back({"micro", "", fixed(ev.micro.precision), fixed(ev.micro.recall), fixed(ev.micro.f1), ""});
  rows.push_back({"macro", "", fixed(ev.macro.precision), fixed(ev.macro.recall), fixed(ev.macro.f1), ""});
  out += text::columns(rows, {false, true, true, true, true, false});
  out += "\nChance level (random codes with the same frequencies): micro F1 " + fixed(ev.chance_f1) + ".\n";
  if (!ev.too_rare.empty()) {
    auto rare = ev.too_rare;
    std::stable_sort(rare.begin(), rare.end(), [&](const auto& a, const auto& b) {
      return taxonomy.rank_of(a.first) < taxonomy.rank_of(b.first);
    });
    out += std::to_string(rare.size()) + " codes with fewer than " + std::to_string(ev.min_support) +
           " segments are never suggested and not scored: " + codes_list(rare, 12) + ".\n";
  }
  return out;
}

}  // namespace qualrank
