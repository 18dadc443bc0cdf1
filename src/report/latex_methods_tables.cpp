// The LaTeX tables of report.json's methods evidence (methods_output.h: the same data as methods.md):
// participants, the interview guide x codes matrix, the codebook and the chain of evidence.
#include "latex_internal.h"

#include <algorithm>

#include "qualrank/util/text.h"

namespace qualrank::latex::detail {

namespace {

const std::string kRagged = ">{\\raggedright\\arraybackslash}";  // a text column, not justified

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
  Table t;
  t.columns = {{"Participant", "l"}, {"Role", "l"}};
  std::vector<std::string> attributes;
  for (const auto& a : p["attributes"]) attributes.push_back(a.get<std::string>());
  // An attribute whose values are all short is a column as wide as they are; one with longer values (lists of
  // tools, say) shares the rest of the line with the others.
  std::size_t chars = 0;
  for (const auto& a : attributes) {
    std::size_t widest = 0;
    for (const auto& r : p["rows"])
      if (r["values"].contains(a)) widest = std::max(widest, r["values"][a].get<std::string>().size());
    chars += widest * p["rows"].size();
    t.columns.push_back({escape(a), widest > 14 ? "X" : "l"});
  }
  for (const auto& r : p["rows"]) {
    std::vector<std::string> row{escape(str(r, "participant")), escape(str(r, "role"))};
    for (const auto& a : attributes) row.push_back(r["values"].contains(a) ? escape(r["values"][a].get<std::string>()) : "");
    t.rows.push_back(std::move(row));
  }
  t.caption = "Participants (" + std::to_string(t.rows.size()) + "): " +
              escape(by_role(ws.value("participants_by_role", Json::object()), ws.value("role_plurals", Json::object()))) + ".";
  // A table too tall for a page breaks across pages: many rows, or much text (about 40 lines of wrapped values).
  t.long_table = t.rows.size() > kFloatRows || chars > 2400;
  out.push_back(table_file(stems.take("participants"), "Participants: role and attributes", std::move(t)));
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
  t.long_table = t.rows.size() > kFloatRows;
  out.push_back(table_file(stems.take("guide-codes"), "Interview guide x codes: coded segments per question and top-level node",
                           std::move(t)));
}

void codebook(const Json& m, Stems& stems, std::vector<File>& out) {
  const Json& book = m["codebook"];
  if (!book.is_array() || book.empty()) return;
  Table t;
  t.long_table = true;
  t.columns = {{"Code", "l"}, {"Name", kRagged + "p{0.19\\linewidth}"}, {"Definition and rules", kRagged + "p{0.26\\linewidth}"},
               {"Segments", "r"}, {"Exemplar", kRagged + "p{0.20\\linewidth}"}};
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
      ex = "``{}" + escape(str(e, "quote")) + "{}'' (" + escape(str(e, "participant")) + ", " + escape(str(e, "source")) + ")";
    }
    t.rows.push_back({escape(str(n, "id")), name, def, integer(n["segments"]), ex});
  }
  t.caption = "Codebook: every code with its definition, rules, the coded segments that carry it and an exemplar quote.";
  out.push_back(table_file(stems.take("codebook"), "Codebook: definitions, rules, coded segments, an exemplar", std::move(t)));
}

std::string quotes_cell(const Json& quotes, bool mark_exemplar) {
  std::vector<std::string> lines;
  for (const auto& q : quotes)
    lines.push_back("``{}" + escape(str(q, "quote")) + "{}'' (" + escape(str(q, "participant")) + ", " + escape(str(q, "role")) + "; " +
                    escape(str(q, "node")) + "; " + escape(str(q, "source")) +
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
  t.columns = {{"Finding", kRagged + "p{0.20\\linewidth}"}, {"Rests on", kRagged + "p{0.18\\linewidth}"},
               {"Quotes", kRagged + "p{0.30\\linewidth}"}, {"Counter-evidence", kRagged + "p{0.18\\linewidth}"}};
  for (const auto& f : m["findings"]) {
    const Json& s = f["support"];
    const Json& c = f["counter"];
    std::string rests = text::join(ids(s["nodes"]), ", ") + ": " + integer(s["segments"]) + " coded segments from " +
                        escape(by_role(s["participants_by_role"], plurals));
    std::string counter;
    if (!c["nodes"].is_array() || c["nodes"].empty()) counter = "none named";
    else if (c["segments"].is_number() && c["segments"].get<long long>() == 0)
      counter = "no segment is coded with " + text::join(ids(c["nodes"]), ", ");
    else {
      counter = text::join(ids(c["nodes"]), ", ") + ": " + integer(c["segments"]) + " coded segments from " +
                escape(by_role(c["participants_by_role"], plurals));
      if (!c["quotes"].empty()) counter += "\\newline " + quotes_cell(c["quotes"], false);
    }
    t.rows.push_back({"\\textbf{" + escape(str(f, "id")) + "}: " + escape(str(f, "claim")), rests, quotes_cell(s["quotes"], true), counter});
  }
  t.caption = "Chain of evidence: each finding with the codes it rests on, the participants behind it, its quotes and its "
              "counter-evidence (of " + escape(by_role(ws.value("participants_by_role", Json::object()), plurals)) + ").";
  out.push_back(table_file(stems.take("evidence"), "Chain of evidence of the findings (findings.yaml)", std::move(t)));
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
