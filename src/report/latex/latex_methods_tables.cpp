// The LaTeX tables of report.json's methods evidence (methods_output.h: the same data as methods.md):
// participants, the interview guide x codes matrix, the codebook and the chain of evidence.
#include "latex_internal.h"

#include <algorithm>

#include "qualrank/util/text.h"

namespace qualrank::latex::detail {

namespace {

// "2 managers, 1 in role employee", as methods.md says it: the guideline's plural where given.
std::string by_role(const Json& counts, const Json& plurals) {
  std::vector<std::string> parts;
  if (counts.is_object())
    for (auto it = counts.begin(); it != counts.end(); ++it) {
      const long long n = it.value().is_number() ? it.value().get<long long>() : 0;
      if (n == 1 || !plurals.is_object() || !plurals.contains(it.key())) parts.push_back(std::to_string(n) + " in role " + it.key());
      else parts.push_back(std::to_string(n) + " " + plurals[it.key()].get<std::string>());
    }
  return parts.empty() ? "none" : text::join(parts, ", ");
}

void participants(const Json& report, const Json& m, Stems& stems, std::vector<File>& out) {
  const Json& p = m["participants"];
  if (!p.is_object() || !p["rows"].is_array()) return;
  const Json& ws = report["workspace"];
  std::vector<std::string> attributes;
  for (const auto& a : p["attributes"]) attributes.push_back(a.get<std::string>());
  auto value = [](const Json& r, const std::string& a) {
    return r["values"].contains(a) ? r["values"][a].get<std::string>() : std::string();
  };
  // An attribute whose values are all short is a column as wide as they are, headed by its label; those with
  // longer values (lists of tools, say) share one column of wrapped text, each value after its label.
  std::vector<std::string> short_attributes, long_attributes;
  std::size_t chars = 0;
  for (const auto& a : attributes) {
    std::size_t widest = 0;
    for (const auto& r : p["rows"]) widest = std::max(widest, value(r, a).size());
    chars += widest * p["rows"].size();
    (widest > 14 ? long_attributes : short_attributes).push_back(a);
  }
  Table brief;  // participant, role and the short attributes
  brief.columns = {{"Participant", "l"}, {"Role", "l"}};
  // A column of numbers (years, say) is right-aligned.
  auto numeric = [&](const std::string& a) {
    bool any = false;
    for (const auto& r : p["rows"]) {
      const std::string v = value(r, a);
      if (v.empty()) continue;
      if (v.find_first_not_of("0123456789.") != std::string::npos || v.front() == '.' || v.back() == '.') return false;
      any = true;
    }
    return any;
  };
  for (const auto& a : short_attributes) brief.columns.push_back({attribute_label(a), numeric(a) ? "r" : "l"});
  Table full = brief;
  if (!long_attributes.empty()) full.columns.push_back({"Other attributes", "X"});
  for (const auto& r : p["rows"]) {
    std::vector<std::string> row{escape(str(r, "participant")), escape(str(r, "role"))};
    for (const auto& a : short_attributes) row.push_back(escape(value(r, a)));
    brief.rows.push_back(row);
    std::vector<std::string> others;
    for (const auto& a : long_attributes)
      if (!value(r, a).empty()) others.push_back("\\emph{" + attribute_label(a) + ":} " + escape(value(r, a)));
    if (!long_attributes.empty()) row.push_back(text::join(others, "; "));
    full.rows.push_back(std::move(row));
  }
  full.caption = "Participants (" + std::to_string(full.rows.size()) + "): " +
                 escape(by_role(ws.value("participants_by_role", Json::object()), ws.value("role_plurals", Json::object()))) + ".";
  brief.caption = full.caption;
  const std::string what = "Participants: role and attributes";
  // A table too tall for a page (many rows, or much text: about 40 lines of wrapped values) is a float of the
  // participants' roles and short attributes, and whole in the appendix. Wrapped values, or more than two
  // attributes beside the role, need both columns of a two-column paper.
  if (full.rows.size() <= kFloatRows && chars <= 2400) {
    add_table("participants", what, std::move(full), stems, out, !long_attributes.empty() || short_attributes.size() > 2);
    return;
  }
  const std::size_t total = brief.rows.size();
  if (total > kFloatRows) brief.rows.resize(kFloatRows);
  brief.note = (total > kFloatRows ? "The first " + std::to_string(kFloatRows) + " of " + std::to_string(total) + " participants; all" : std::string("All")) +
               (long_attributes.empty() ? std::string(" of them in ") : std::string(" of them, with their other attributes, in ")) + kAppendix +
               " (appendix).";
  add_with_appendix("participants", what, std::move(brief), what, std::move(full), stems, out, short_attributes.size() > 2);
}

void guide_codes(const Json& m, Stems& stems, std::vector<File>& out) {
  const Json& gm = m["guide_matrix"];
  if (!gm.is_object() || !gm["rows"].is_array() || gm["rows"].empty()) return;
  Table t;
  t.columns = {{"Question", "X"}, {"Segments", "r"}};
  std::vector<std::string> legend;
  for (const auto& n : gm["nodes"]) {
    t.columns.push_back({escape(str(n, "id")), "r"});
    legend.push_back(escape(str(n, "id")) + "~" + escape(str(n, "name")));
  }
  for (const auto& r : gm["rows"]) {
    std::vector<std::string> row{escape(str(r, "question")) + " " + escape(str(r, "text")), integer(r["segments"])};
    for (const auto& c : r["counts"]) row.push_back(integer(c));
    t.rows.push_back(std::move(row));
  }
  t.caption = "Coded segments answering each question of the interview guide, per top-level node (a segment counts once per "
              "node)" + (legend.empty() ? std::string(".") : ": " + text::join(legend, "; ") + ".");
  const bool wide = t.columns.size() > 6;  // more than four top-level nodes: both columns of a two-column paper
  add_table("guide-codes", "Interview guide x codes: coded segments per question and top-level node", std::move(t), stems, out, wide);
}

void codebook(const Json& m, Stems& stems, std::vector<File>& out) {
  const Json& book = m["codebook"];
  if (!book.is_array() || book.empty()) return;
  Table t;
  t.long_table = true;
  t.columns = {{"Code", "l"}, {"Name", "X"}, {"Definition and rules", "X"}, {"Segments", "r"}, {"Exemplar", "X"}};
  for (const auto& n : book) {
    std::string def = escape(str(n, "definition"));
    auto add = [&](const char* key, const char* title) {
      if (str(n, key).empty()) return;
      def += (def.empty() ? "" : " ") + std::string("\\emph{") + title + ":} " + escape(str(n, key));
    };
    add("inclusion", "Include");
    add("exclusion", "Exclude");
    add("decision_rules", "Decision rules");
    const std::string name = escape(str(n, "name"));
    std::string ex;
    if (n["exemplar"].is_object()) {
      const Json& e = n["exemplar"];
      ex = "``{}" + escape(str(e, "quote")) + "{}'' (" + cite(str(e, "participant"), str(e, "source")) + ")";
    }
    t.rows.push_back({escape(str(n, "id")), name, def, integer(n["segments"]), ex});
  }
  t.caption = "Codebook: every code with its definition, rules, the coded segments that carry it and an exemplar quote.";
  // In the paper's body: the codes, their names and segments (the first kFloatRows); the whole codebook is a
  // longtable for the appendix.
  Table brief;
  brief.columns = {{"Code", "l"}, {"Name", "X"}, {"Segments", "r"}};
  for (std::size_t i = 0; i < t.rows.size() && i < kFloatRows; ++i) brief.rows.push_back({t.rows[i][0], t.rows[i][1], t.rows[i][3]});
  brief.caption = "Codebook: the codes and the coded segments that carry each.";
  brief.note = (t.rows.size() > kFloatRows ? "The first " + std::to_string(kFloatRows) + " of " + std::to_string(t.rows.size()) + " codes. "
                                           : std::string()) +
               "Every code with its definition, rules and an exemplar quote: " + kAppendix + " (appendix).";
  add_with_appendix("codebook", "Codebook: codes and coded segments", std::move(brief), "Codebook: definitions, rules, coded segments, an exemplar",
                    std::move(t), stems, out);
}

std::string quotes_cell(const Json& quotes, bool mark_exemplar) {
  std::vector<std::string> lines;
  for (const auto& q : quotes)
    lines.push_back("``{}" + escape(str(q, "quote")) + "{}'' (" + cite(str(q, "participant"), str(q, "source")) + "; " +
                    escape(str(q, "role")) + "; " + escape(str(q, "node")) +
                    (mark_exemplar && q.value("exemplar", false) ? "; exemplar" : "") + ")");
  return text::join(lines, "\\newline ");
}

std::vector<std::string> ids(const Json& nodes) {
  std::vector<std::string> out;
  for (const auto& n : nodes) out.push_back(escape(n.get<std::string>()));
  return out;
}

void evidence(const Json& report, const Json& m, Stems& stems, std::vector<File>& out) {
  if (!m["findings"].is_array() || m["findings"].empty()) return;
  const Json& ws = report["workspace"];
  const Json plurals = ws.value("role_plurals", Json::object());
  Table t;
  t.long_table = true;
  Table brief;  // in the paper's body: the findings, what they rest on and the counter-evidence, without quotes
  brief.columns = {{"Finding", "X"}, {"Rests on", "X"}, {"Counter-evidence", "X"}};
  t.columns = {{"Finding", "X"}, {"Rests on", "X"}, {"Quotes", "X"}, {"Counter-evidence", "X"}};
  for (const auto& f : m["findings"]) {
    const Json& s = f["support"];
    const Json& c = f["counter"];
    std::string rests = text::join(ids(s["nodes"]), ", ") + ": " + integer(s["segments"]) + " coded segments from " +
                        escape(by_role(s["participants_by_role"], plurals));
    std::string counter, counter_brief;
    if (!c["nodes"].is_array() || c["nodes"].empty()) counter = "none named";
    else if (c["segments"].is_number() && c["segments"].get<long long>() == 0)
      counter = "no segment is coded with " + text::join(ids(c["nodes"]), ", ");
    else {
      counter = text::join(ids(c["nodes"]), ", ") + ": " + integer(c["segments"]) + " coded segments from " +
                escape(by_role(c["participants_by_role"], plurals));
      counter_brief = counter;
      if (!c["quotes"].empty()) counter += "\\newline " + quotes_cell(c["quotes"], false);
    }
    if (counter_brief.empty()) counter_brief = counter;
    t.rows.push_back({"\\textbf{" + escape(str(f, "id")) + "}: " + escape(str(f, "claim")), rests, quotes_cell(s["quotes"], true), counter});
    brief.rows.push_back({t.rows.back()[0], rests, counter_brief});
  }
  t.caption = "Chain of evidence: each finding with the codes it rests on, the participants behind it, its quotes and its "
              "counter-evidence (of " + escape(by_role(ws.value("participants_by_role", Json::object()), plurals)) + ").";
  brief.caption = "Chain of evidence: each finding with the codes it rests on, the participants behind it and its counter-evidence.";
  const std::size_t total = brief.rows.size();
  if (total > kFloatRows) brief.rows.resize(kFloatRows);
  brief.note = (total > kFloatRows ? "The first " + std::to_string(kFloatRows) + " of " + std::to_string(total) + " findings. " : std::string()) +
               "Each with its quotes: " + kAppendix + " (appendix).";
  add_with_appendix("evidence", "Chain of evidence of the findings (findings.yaml), without quotes", std::move(brief),
                    "Chain of evidence of the findings (findings.yaml)", std::move(t), stems, out);
}

}  // namespace

void methods_tables(const Json& report, Stems& stems, std::vector<File>& out) {
  if (!report.contains("methods") || !report["methods"].is_object()) return;
  const Json& m = report["methods"];
  participants(report, m, stems, out);
  guide_codes(m, stems, out);
  codebook(m, stems, out);
  evidence(report, m, stems, out);
}

}  // namespace qualrank::latex::detail
