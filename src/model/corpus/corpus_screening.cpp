// Screening files: corpus/screening/<screener>.csv, RFC 4180, one row per document the screener decided on.
#include "qualrank/model/corpus/corpus_screening.h"

#include <algorithm>
#include <map>

#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_keywords.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/yaml_source.h"

namespace qualrank::corpus {

std::string screener_name_problem(std::string_view name) {
  auto why = file_name_chars_problem(name, "screener");
  if (why.empty()) return {};
  return "a screener name has 1 to 64 characters: letters, digits, '.', '_' and '-', not first '.' or '-'";
}

bool doc_less(std::string_view a, std::string_view b) {
  auto ha = a.find('#'), hb = b.find('#');
  auto sa = a.substr(0, ha), sb = b.substr(0, hb);
  if (sa != sb) return sa < sb;
  auto ia = ha == std::string_view::npos ? std::string_view() : a.substr(ha + 1);
  auto ib = hb == std::string_view::npos ? std::string_view() : b.substr(hb + 1);
  if (text::natural_less(ia, ib)) return true;
  if (text::natural_less(ib, ia)) return false;
  return ia < ib;
}

std::vector<ScreeningDecision> read_screening(std::string_view text, const std::string& file, Diagnostics& diags) {
  std::vector<ScreeningDecision> out;
  auto table = csv::parse(text, file, diags);
  int doc = table.column("doc"), decision = table.column("decision"), reason = table.column("reason"), note = table.column("note");
  if (doc < 0 || decision < 0) {
    diags.error({file, table.header_line, 1}, "a screening file has the columns doc, decision, reason, note");
    return out;
  }
  std::map<std::string, int> seen;
  for (const auto& r : table.rows) {
    ScreeningDecision d;
    d.doc = std::string(text::trim(r.fields[static_cast<std::size_t>(doc)]));
    d.line = r.line;
    const std::string dec(text::trim(r.fields[static_cast<std::size_t>(decision)]));
    if (reason >= 0) d.reason = std::string(text::trim(r.fields[static_cast<std::size_t>(reason)]));
    if (note >= 0) d.note = r.fields[static_cast<std::size_t>(note)];
    if (d.doc.find('#') == std::string::npos) {
      diags.error({file, r.line, 1}, "'" + d.doc + "' is not a document (SOURCE#ID)");
      continue;
    }
    if (dec == "relevant") {
      d.decision = Decision::relevant;
    } else if (dec == "false-positive") {
      d.decision = Decision::false_positive;
      if (d.reason.empty()) diags.error({file, r.line, 1}, "a false positive without a reason");
    } else {
      diags.error({file, r.line, 1}, "decision is 'relevant' or 'false-positive', not '" + dec + "'");
      continue;
    }
    auto [it, fresh] = seen.emplace(d.doc, r.line);
    if (!fresh) {
      diags.error({file, r.line, 1}, "'" + d.doc + "' is screened twice (first on line " + std::to_string(it->second) + ")");
      continue;
    }
    out.push_back(std::move(d));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return doc_less(a.doc, b.doc); });
  return out;
}

std::string screening_text(const std::vector<ScreeningDecision>& decisions) {
  std::string out = "doc,decision,reason,note\n";
  for (const auto& d : decisions)
    out += csv::format_record({d.doc, d.decision == Decision::relevant ? "relevant" : "false-positive", d.reason, d.note}, false);
  return out;
}

std::vector<ScreenerDecisions> read_all_screening(const std::filesystem::path& workspace, Diagnostics& diags) {
  std::vector<ScreenerDecisions> out;
  for (const auto& p : files::list_files(workspace / "corpus/screening", ".csv")) {
    std::string name = p.stem().string();
    std::string rel = "corpus/screening/" + p.filename().string();
    if (!screener_name_problem(name).empty()) continue;
    std::string why;
    auto text = files::read_inside(workspace, rel, &why);
    if (!text) {
      diags.error({rel, 0, 0}, why);
      continue;
    }
    out.push_back({name, read_screening(*text, rel, diags)});
  }
  return out;
}

std::vector<std::string> screening_reasons(const std::filesystem::path& workspace, Diagnostics& diags) {
  for (const char* rel : {"corpus/screening.yaml", "corpus/keywords.yaml"}) {
    if (!files::exists(workspace / rel)) continue;
    std::string why;
    auto text = files::read_inside(workspace, rel, &why);
    if (!text) {
      diags.error({rel, 0, 0}, why);
      return {};
    }
    auto root = yaml::parse(*text, rel, diags);
    if (!root) return {};
    auto reasons = yaml::guarded(rel, diags, 1, [&]() -> std::optional<std::vector<std::string>> {
      if (!root->IsMap() || !(*root)["reasons"]) return std::nullopt;
      return yaml::get_string_list(*root, "reasons", rel, diags);
    });
    if (reasons && !reasons->empty()) return *reasons;
    if (std::string(rel) == "corpus/screening.yaml" && !diags.has_errors())
      diags.error({rel, 1, 1}, "corpus/screening.yaml has no 'reasons:' list");
  }
  return kDefaultReasons;
}

bool set_decision(std::vector<ScreeningDecision>& decisions, ScreeningDecision d) {
  auto it = std::lower_bound(decisions.begin(), decisions.end(), d.doc,
                             [](const ScreeningDecision& a, const std::string& doc) { return doc_less(a.doc, doc); });
  if (it != decisions.end() && it->doc == d.doc) {
    *it = std::move(d);
    return true;
  }
  decisions.insert(it, std::move(d));
  return false;
}

}  // namespace qualrank::corpus
