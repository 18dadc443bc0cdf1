// Methods evidence: see methods_output.h. The checklist's items and levels follow the ACM SIGSOFT Empirical
// Standard for qualitative surveys (interview studies) and its inter-rater reliability supplement
// (https://github.com/acmsigsoft/EmpiricalStandards): essential, desirable and extraordinary attributes.
#include "qualrank/report/outputs/methods_output.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "qualrank/report/figures/svg_charts.h"
#include "qualrank/util/json_member.h"
#include "qualrank/util/text.h"

namespace qualrank {

using Json = nlohmann::ordered_json;

namespace {

Json side_json(const EvidenceSide& s) {
  Json quotes = Json::array();
  for (const auto& q : s.quotes)
    quotes.push_back({{"quote", q.quote}, {"participant", q.participant}, {"role", q.role}, {"node", q.node}, {"source", q.source},
                      {"exemplar", q.exemplar}});
  return {{"nodes", s.nodes}, {"segments", s.segments}, {"participants_by_role", s.participants_by_role}, {"quotes", quotes}};
}

// Text for one Markdown line or table cell: newlines become spaces, markup is escaped.
std::string md(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '\r', ' ');
  return text::markdown_escape(s);
}

using json_member::str;

std::string num(const Json& v, int digits) {
  return v.is_number() ? text::fixed(v.get<double>(), digits) : std::string("n/a");
}

// "2 managers, 1 employee" in the guideline's plurals where given, else "participants in role X: n".
std::string by_role(const Json& counts, const Json& plurals) {
  std::vector<std::string> parts;
  for (auto it = counts.begin(); it != counts.end(); ++it) {
    const int n = it.value().get<int>();
    if (n == 1 || !plurals.contains(it.key())) parts.push_back(std::to_string(n) + " in role " + it.key());
    else parts.push_back(std::to_string(n) + " " + plurals[it.key()].get<std::string>());
  }
  return parts.empty() ? "none" : text::join(parts, ", ");
}

// "a, b and c".
std::string stage_one_listing(const std::vector<std::string>& v) {
  if (v.empty()) return "none";
  if (v.size() == 1) return v[0];
  return text::join(std::vector<std::string>(v.begin(), v.end() - 1), ", ") + " and " + v.back();
}

std::string stage_one_plural(const Json& n, const std::string& one, const std::string& many) {
  return n.dump() + " " + (n.is_number() && n.get<double>() == 1 ? one : many);
}

// Stage one of a study of issue reports as a method section reports it, every number from report.json's
// "corpus" (Table I) and "stage_one". Empty without them.
std::string stage_one_markdown(const Json& report) {
  if (!report.contains("corpus") || !report.contains("stage_one") || !report["stage_one"].is_object()) return "";
  const Json& t = report["corpus"];
  const Json& s = report["stage_one"];
  auto percent = [](const Json& v) { return v.is_number() ? text::fixed(100.0 * v.get<double>(), 2) + " %" : std::string("n/a"); };
  std::string o = "## Stage one: retrieval, screening, sampling and labelling\n\n";
  // Keywords and window.
  std::vector<std::string> sources, whole, files;
  for (const auto& r : s["retrieval"]) {
    sources.push_back(md(str(r, "source")));
    if (r["whole"].get<bool>()) whole.push_back(md(str(r, "source")));
  }
  for (const auto& f : s["keywords"]["files"]) files.push_back(md(str(f, "file")) + ", " + stage_one_plural(f["terms"], "term", "terms"));
  const Json& total = t["total"];
  o += "We retrieved the documents of " + stage_one_plural(Json(sources.size()), "source", "sources") + " (" + stage_one_listing(sources) + ") created in the window " +
       md(str(s["keywords"]["window"], "text")) + " by " + stage_one_plural(s["keywords"]["terms"], "keyword", "keywords") +
       (files.empty() ? std::string() : " (" + text::join(files, "; ") + ")") + ", matched in a document's title, body or comments";
  if (!whole.empty()) o += "; " + stage_one_listing(whole) + (whole.size() == 1 ? " has" : " have") + " no keyword list and " + (whole.size() == 1 ? "was" : "were") + " taken whole";
  o += ". Of " + total["stored"].dump() + " documents stored, " + total["in_window"].dump() + " lie in the window and " + total["retrieved"].dump() +
       " were retrieved (per keyword: ";
  std::vector<std::string> per;
  for (const auto& r : s["retrieval"])
    for (const auto& k : r["keywords"]) per.push_back(md(str(r, "source")) + " “" + md(str(k, "term")) + "” " + k["documents"].dump());
  o += (per.empty() ? std::string("none") : text::join(per, ", ")) + ").\n\n";
  // Screening.
  const Json& sc = s["screening"];
  std::vector<std::string> screeners;
  for (const auto& x : sc["screeners"]) screeners.push_back(md(str(x, "name")));
  o += stage_one_plural(Json(screeners.size()), "screener", "screeners") + " (" + stage_one_listing(screeners) + ") screened " + sc["screened"].dump() +
       " of the retrieved documents as relevant or false positive; a document was excluded when " +
       (str(sc, "rule") == "majority" ? "more than half of those who screened it" : "every screener who screened it") +
       " judged it a false positive (rule: " + md(str(sc, "rule")) + "). Over the " +
       stage_one_plural(sc["screened_by_all"], "document", "documents") + " every screener decided on, they all agreed on " + sc["agreeing"].dump() + " (" + percent(sc["percent_all_agree"]) +
       "); Cohen's kappa " + num(sc["cohen_kappa"], 3) + ", Fleiss' kappa " + num(sc["fleiss_kappa"], 3) + "." +
       (sc.contains("percent_agreement") ? " Percent agreement (the mean share of agreeing screener pairs, over the " +
                                               stage_one_plural(sc.value("screened_by_two", Json(0)), "document", "documents") + " two or more screeners decided on): " +
                                               num(sc["percent_agreement"], 3) + "."
                                         : std::string()) +
       " " +
       stage_one_plural(sc["excluded"], "document was", "documents were") + " excluded";
  std::vector<std::string> reasons;
  for (auto it = sc["excluded_by_reason"].begin(); it != sc["excluded_by_reason"].end(); ++it) reasons.push_back(md(it.key()) + " " + it.value().dump());
  if (!reasons.empty()) o += " (" + text::join(reasons, ", ") + ")";
  int rated = 0;
  for (const auto& r : t["rows"]) rated += r.value("retrieved", Json(0)).get<std::int64_t>() > 0;
  o += ", leaving " + total["kept"].dump() + "; the false-positive rate is " + percent(t.value("fp_rate_pooled", Json())) +
       " pooled over the sources (all screened out / all retrieved) and " + percent(t.value("fp_rate_mean_of_sources", Json())) +
       " as the mean of the " + std::to_string(rated) + " sources' rates.\n\n";
  // Samples, labels, reconciliation.
  for (const auto& sm : s["samples"]) {
    const std::string name = md(str(sm, "name"));
    std::vector<std::string> alloc, apart;
    for (auto it = sm["allocation"].begin(); it != sm["allocation"].end(); ++it) alloc.push_back(md(it.key()) + " " + it.value().dump());
    for (const auto& a : sm["drawn_apart_from"]) apart.push_back(md(a.get<std::string>()));
    o += "Sample " + name + ": " + stage_one_plural(sm["n"], "document", "documents") + " drawn at random (seed " +
         (sm["seed"].is_string() ? md(sm["seed"].get<std::string>()) : std::string("not recorded")) + ") from the N = " +
         (sm["population"].is_number() ? sm["population"].dump() : std::string("n/a")) + " kept documents" +
         (apart.empty() ? std::string() : " not in sample " + stage_one_listing(apart));
    if (sm["cochran"].is_object()) {
      const auto& c = sm["cochran"];
      o += "; its size by Cochran's formula for a proportion p = " + num(c["p"], 2) + " within a margin of error e = " + num(c["e"], 2) +
           " at " + num(Json(100.0 * c["confidence"].get<double>()), 0) + " % confidence (z = " + num(c["z"], 4) + ", n0 = " + num(c["n0"], 2) +
           ", with the finite-population correction for N = " + c["N"].dump() + ": n = " + c["n"].dump() + ")";
    } else if (sm["size"].is_string()) {
      o += "; its size given (" + md(sm["size"].get<std::string>()) + ")";
    }
    std::vector<std::string> later;  // the samples drawn apart from this one: it was their pilot
    for (const auto& other : s["samples"])
      for (const auto& a : other["drawn_apart_from"])
        if (a == sm["name"]) later.push_back(md(str(other, "name")));
    if (!later.empty()) o += "; the pilot of sample " + stage_one_listing(later) + ", drawn apart from it";
    o += (str(sm, "stratify") == "source" ? "; allocated to the sources in proportion to their share: " : "; per source: ") + text::join(alloc, ", ") + ".";
    if (!sm["labels"].is_object()) {
      o += " Not labelled yet.\n\n";
      continue;
    }
    const auto& l = sm["labels"];
    std::vector<std::string> coders;
    for (const auto& c : l["coders"]) coders.push_back(md(c.get<std::string>()));
    o += " " + stage_one_plural(Json(coders.size()), "coder", "coders") + " (" + stage_one_listing(coders) + ") labelled it independently (" +
         l["labelled"].dump() + " documents labelled); before reconciliation, over the " + l["labelled_by_all"].dump() +
         " documents every coder labelled, they gave the same label to " + l["agreeing"].dump() +
         (l.contains("all_agree") ? " (" + percent(l["all_agree"]) + ")" : std::string()) + ", Fleiss' kappa " + num(l["fleiss_kappa"], 3);
    if (l["cohen_kappa"].is_number()) o += ", Cohen's kappa " + num(l["cohen_kappa"], 3);
    o += "; percent agreement (the mean share of agreeing coder pairs, over the " +
         (l.contains("labelled_by_two") ? l["labelled_by_two"].dump() + " documents two or more coders labelled" : std::string("documents")) +
         ") " + num(l["percent_agreement"], 3);
    std::vector<std::string> cats;
    for (auto it = l["per_category"].begin(); it != l["per_category"].end(); ++it) cats.push_back(md(it.key()) + " " + num(it.value(), 3));
    if (!cats.empty()) o += "; Fleiss' kappa per category: " + text::join(cats, ", ");
    o += ".";
    const auto& r = sm["reconciliation"];
    std::vector<std::string> deciders;
    for (auto it = r["by_decider"].begin(); it != r["by_decider"].end(); ++it) deciders.push_back(md(it.key()) + " " + it.value().dump());
    const int others = r["decisions"].get<int>() - r["disagreements_decided"].get<int>();
    o += " The coders labelled " + stage_one_plural(r["disagreements"], "document", "documents") + " differently; the reconciliation decided " +
         r["decisions"].dump() + " (" + r["disagreements_decided"].dump() + " of those" +
         (others > 0 ? ", " + std::to_string(others) + " labelled by some coders only or otherwise decided" : std::string()) + "): " +
         r["by_majority"].dump() + " by the majority label, " + r["by_keeping_a_coder"].dump() +
         " by keeping one coder's label, " + r["by_other"].dump() + " by another label" +
         (deciders.empty() ? std::string() : "; decided by " + text::join(deciders, ", ")) + "; " + r["open"].dump() +
         (r["open"].get<int>() == 1 ? " labelled document is" : " labelled documents are") + " still open.\n\n";
  }
  return o;
}

}  // namespace

Json methods_json(const Study& study, const std::vector<CodedSegment>& segments, const CodebookTables& tables) {
  const Workspace& ws = study.workspace;
  const Guideline& g = ws.guideline;
  const Taxonomy& tax = study.taxonomy();
  Json out;
  // Participants: the experience level, then the attributes the guideline's background questions set.
  std::vector<std::string> attributes;
  if (g.experience) attributes.push_back(g.experience->attribute);
  for (const auto& q : g.questions)
    if (q.kind == QuestionKind::background && !q.attribute.empty() &&
        std::find(attributes.begin(), attributes.end(), q.attribute) == attributes.end())
      attributes.push_back(q.attribute);
  Json rows = Json::array();
  for (const auto& t : ws.transcripts) {
    Json values = Json::object();
    for (const auto& a : attributes)
      if (auto it = t.attributes.find(a); it != t.attributes.end()) values[a] = it->second;
    rows.push_back({{"participant", t.participant}, {"role", t.role}, {"values", values}});
  }
  out["participants"] = {{"attributes", attributes}, {"rows", rows}};
  // The guideline question x code matrix: segments answering each question, per top-level node.
  std::vector<std::string> tops;
  for (const auto& id : tax.order())
    if (tax.find(id)->level == 1) tops.push_back(id);
  auto top_of = [&](const std::string& node) { return tax.ancestor_at(node, 1).value_or(node); };
  Json nodes = Json::array();
  for (const auto& id : tops) nodes.push_back({{"id", id}, {"name", tax.find(id)->name}});
  // One pass over the segments: each question's row found by its id, each node's top-level node worked out once.
  std::vector<const Question*> listed;
  std::unordered_map<std::string_view, std::vector<std::size_t>> rows_of;  // question id -> its rows
  for (const auto& q : g.questions) {
    if (q.kind == QuestionKind::ranking || q.kind == QuestionKind::background) continue;
    rows_of[q.id].push_back(listed.size());
    listed.push_back(&q);
  }
  std::vector<std::vector<int>> counts(listed.size(), std::vector<int>(tops.size(), 0));
  std::vector<int> totals(listed.size(), 0);
  std::unordered_map<std::string_view, std::ptrdiff_t> top_index;  // node -> index in tops, or -1
  std::vector<std::ptrdiff_t> here;
  for (const auto& s : segments) {
    if (s.codes.empty()) continue;
    const auto question_rows = rows_of.find(s.question);
    if (question_rows == rows_of.end()) continue;
    here.clear();
    for (const auto& c : s.codes) {
      auto [at, fresh] = top_index.try_emplace(c.node, -1);
      if (fresh) {
        const auto it = std::find(tops.begin(), tops.end(), top_of(c.node));
        at->second = it == tops.end() ? -1 : it - tops.begin();
      }
      if (at->second >= 0 && std::find(here.begin(), here.end(), at->second) == here.end()) here.push_back(at->second);
    }
    for (std::size_t row : question_rows->second) {
      ++totals[row];
      for (auto top : here) ++counts[row][static_cast<std::size_t>(top)];
    }
  }
  Json qrows = Json::array();
  for (std::size_t row = 0; row < listed.size(); ++row) {
    const Question& q = *listed[row];
    qrows.push_back({{"question", q.id}, {"part", q.part}, {"text", q.text}, {"segments", totals[row]}, {"counts", counts[row]}});
  }
  out["guide_matrix"] = {{"nodes", nodes}, {"rows", qrows}};
  // The codebook: every node in taxonomy order, its rules, how often it is coded (the codebook matrix's count),
  // its first exemplar.
  std::map<std::string, std::size_t> coded;
  for (const auto& n : tables.matrix.nodes) coded[n.node] = n.segments;
  const auto& exemplars = tables.exemplars;
  Json book = Json::array();
  for (const auto& id : tax.order()) {
    const TaxonomyNode* n = tax.find(id);
    Json e = nullptr;
    if (auto it = exemplars.find(id); it != exemplars.end() && !it->second.empty()) {
      const auto& q = it->second.front();
      e = {{"quote", q.quote}, {"participant", q.participant}, {"role", q.role}, {"source", q.source}};
    }
    book.push_back({{"id", n->id}, {"name", n->name}, {"level", n->level}, {"definition", n->definition}, {"inclusion", n->inclusion},
                    {"exclusion", n->exclusion}, {"decision_rules", n->decision_rules}, {"segments", coded[id]}, {"exemplar", e}});
  }
  out["codebook"] = book;
  // The chain of evidence.
  if (study.findings.empty()) {
    out["findings"] = nullptr;
  } else {
    Json list = Json::array();
    for (const auto& f : finding_evidence(study.findings, tax, study.version->resolve, segments))
      list.push_back({{"id", f.id}, {"claim", f.claim}, {"support", side_json(f.support)}, {"counter", side_json(f.counter)}});
    out["findings"] = list;
  }
  return out;
}

Json reporting_checklist(const Json& report) {
  const Json& m = report["methods"];
  Json out = Json::array();
  auto item = [&](const std::string& what, const char* level, bool ok, const std::string& evidence) {
    out.push_back({{"item", what}, {"level", level}, {"supported", ok}, {"evidence", evidence}});
  };
  const auto& prow = m["participants"]["rows"];
  item("How the interviewees were chosen (sampling strategy)", "essential", false,
       "not in the workspace: describe how and why the participants were chosen (and who declined)");
  item("A description of the interviewees (roles, experience, background)", "essential", !prow.empty(),
       prow.empty() ? "no participants" : std::to_string(prow.size()) + " participants with role and " +
                                              std::to_string(m["participants"]["attributes"].size()) + " attributes (Participants table)");
  const bool findings = m["findings"].is_array() && !m["findings"].empty();
  item("A chain of evidence from quotations to findings", "essential", findings,
       findings ? std::to_string(m["findings"].size()) + " findings with their quotes and participants (Chain of evidence)"
                : "missing: list the claims and the codes they rest on in findings.yaml (docs/findings.md)");
  const Json& sat = report.contains("saturation") ? report["saturation"] : Json();
  const bool sat_ok = sat.is_object() && sat["all"]["saturated_at"].is_number();
  item("Evidence of saturation", "essential", sat_ok,
       sat.is_object() ? str(sat["all"], "statement") : std::string("missing: no interviews"));
  item("The interview guide", "desirable", !m["guide_matrix"]["rows"].empty(),
       std::to_string(m["guide_matrix"]["rows"].size()) + " questions, with the codes their answers carry (Interview guide)");
  int used = 0, defined = 0, ruled = 0, exemplified = 0;
  for (const auto& n : m["codebook"]) {
    if (n["segments"].get<int>() == 0) continue;
    ++used;
    if (!str(n, "definition").empty()) ++defined;
    if (!str(n, "decision_rules").empty()) ++ruled;
    if (!n["exemplar"].is_null()) ++exemplified;
  }
  item("The coding scheme with definitions, examples and decision rules", "desirable", used > 0 && defined == used && ruled == used && exemplified == used,
       "of " + std::to_string(used) + " codes used: " + std::to_string(defined) + " defined, " + std::to_string(exemplified) +
           " with an exemplar quote, " + std::to_string(ruled) + " with decision rules (Codebook)");
  item("Chain-of-evidence tables", "desirable", findings, findings ? "Chain of evidence" : "missing: findings.yaml");
  const Json& agr = report.contains("agreement") ? report["agreement"] : Json();
  const bool several = agr.is_object();
  item("Several coders, with an inter-rater agreement analysis", "extraordinary", several,
       several ? "agreement of the coders (Agreement)" : "one coder per transcript: double-code some transcripts (docs/team-coding.md)");
  std::size_t reconciled = 0;  // rounds of reconciled transcripts (the not-yet-reconciled group is no round)
  if (several && agr.contains("rounds"))
    for (const auto& r : agr["rounds"])
      if (str(r, "round") != "not reconciled yet") ++reconciled;
  item("Agreement per analysis cycle (coding round), not only the best measure", "extraordinary", reconciled > 0,
       reconciled > 0 ? std::to_string(reconciled) + (reconciled == 1 ? " reconciled round" : " reconciled rounds") + " (Agreement)"
                      : "no reconciled round yet (qualrank reconcile)");
  return out;
}

std::string methods_markdown(const Json& report) {
  const Json& ws = report["workspace"];
  const Json& m = report["methods"];
  const Json plurals = ws.value("role_plurals", Json::object());
  std::string o;
  o += "# Methods and evidence: " + md(str(ws, "title")) + "\n\n";
  o += "_A draft written by qualrank " + md(str(report, "qualrank")) + " from report.json: edit it, keep its numbers._\n\n";
  if (report.contains("coding") && report["coding"].is_object())  // whose coding every count below is of
    o += "Coding counted: " + md(str(report["coding"], "description")) + ".\n\n";
  o += stage_one_markdown(report);
  // Participants.
  const auto& attrs = m["participants"]["attributes"];
  const auto& prow = m["participants"]["rows"];
  o += "## Participants\n\n" + std::to_string(prow.size()) + " participants: " + by_role(ws["participants_by_role"], plurals) + ".\n\n";
  o += "| Participant | Role |";
  for (const auto& a : attrs) o += " " + md(a.get<std::string>()) + " |";
  o += "\n|---|---|";
  for (std::size_t i = 0; i < attrs.size(); ++i) o += "---|";
  o += "\n";
  for (const auto& r : prow) {
    o += "| " + md(str(r, "participant")) + " | " + md(str(r, "role")) + " |";
    for (const auto& a : attrs) o += " " + md(r["values"].contains(a.get<std::string>()) ? r["values"][a.get<std::string>()].get<std::string>() : "") + " |";
    o += "\n";
  }
  // Interview guide x codes.
  const auto& gm = m["guide_matrix"];
  o += "\n## Interview guide and codes\n\nCoded segments answering each question, per top-level node (a segment counts once per node).\n\n";
  o += "| Question | Segments |";
  for (const auto& n : gm["nodes"]) o += " " + md(str(n, "id")) + " " + md(str(n, "name")) + " |";
  o += "\n|---|---:|";
  for (std::size_t i = 0; i < gm["nodes"].size(); ++i) o += "---:|";
  o += "\n";
  for (const auto& r : gm["rows"]) {
    o += "| " + md(str(r, "question")) + " " + md(str(r, "text")) + " | " + r["segments"].dump() + " |";
    for (const auto& c : r["counts"]) o += " " + c.dump() + " |";
    o += "\n";
  }
  // Codebook.
  o += "\n## Codebook\n\n| Code | Name | Definition | Decision rules | Segments | Exemplar |\n|---|---|---|---|---:|---|\n";
  for (const auto& n : m["codebook"]) {
    std::string def = str(n, "definition");
    if (!str(n, "inclusion").empty()) def += (def.empty() ? "" : " ") + std::string("Include: ") + str(n, "inclusion");
    if (!str(n, "exclusion").empty()) def += (def.empty() ? "" : " ") + std::string("Exclude: ") + str(n, "exclusion");
    std::string ex = n["exemplar"].is_null() ? "" : "“" + str(n["exemplar"], "quote") + "” (" + str(n["exemplar"], "participant") + ", " +
                                                        str(n["exemplar"], "source") + ")";
    o += "| " + md(str(n, "id")) + " | " + md(str(n, "name")) + " | " + md(def) + " | " + md(str(n, "decision_rules")) + " | " +
         n["segments"].dump() + " | " + md(ex) + " |\n";
  }
  // Chain of evidence.
  o += "\n## Chain of evidence\n\n";
  if (!m["findings"].is_array()) {
    o += "No findings.yaml: list each claim of the paper with the codes it rests on (docs/findings.md), and this section shows "
         "its quotes, the participants behind it and its counter-evidence.\n";
  } else {
    for (const auto& f : m["findings"]) {
      const auto& s = f["support"];
      o += "### " + md(str(f, "id")) + ": " + md(str(f, "claim")) + "\n\n";
      std::vector<std::string> nodes;
      for (const auto& n : s["nodes"]) nodes.push_back(md(n.get<std::string>()));
      o += "Rests on " + text::join(nodes, ", ") + ": " + s["segments"].dump() + " coded segments from " +
           by_role(s["participants_by_role"], plurals) + " (of " + by_role(ws["participants_by_role"], plurals) + ").\n\n";
      for (const auto& q : s["quotes"])
        o += "> “" + md(str(q, "quote")) + "” (" + md(str(q, "participant")) + ", " + md(str(q, "role")) + "; " + md(str(q, "node")) + "; " +
             md(str(q, "source")) + (q["exemplar"].get<bool>() ? "; exemplar" : "") + ")\n>\n";
      if (!s["quotes"].empty()) o.resize(o.size() - 2), o += "\n";
      const auto& c = f["counter"];
      if (c["nodes"].empty()) {
        o += "Counter-evidence: none named (add `counter:` codes to the finding).\n\n";
      } else if (c["segments"].get<int>() == 0) {
        o += "Counter-evidence: no segment is coded with ";
        std::vector<std::string> cn;
        for (const auto& n : c["nodes"]) cn.push_back(md(n.get<std::string>()));
        o += text::join(cn, ", ") + ".\n\n";
      } else {
        o += "Counter-evidence: " + c["segments"].dump() + " coded segments from " + by_role(c["participants_by_role"], plurals) + ".\n\n";
        for (const auto& q : c["quotes"])
          o += "> “" + md(str(q, "quote")) + "” (" + md(str(q, "participant")) + ", " + md(str(q, "role")) + "; " + md(str(q, "node")) + "; " +
               md(str(q, "source")) + ")\n>\n";
        o.resize(o.size() - 2);
        o += "\n";
      }
    }
  }
  // Agreement.
  o += "\n## Agreement\n\n";
  const Json& agr = report.contains("agreement") ? report["agreement"] : Json();
  if (!agr.is_object()) {
    o += "One coder per transcript: no agreement to report.\n";
  } else {
    if (agr.contains("transcripts") && agr["transcripts"].is_object()) {
      const auto& t = agr["transcripts"];
      o += "Coders of the double-coded transcripts: Krippendorff's alpha " + num(t.value("krippendorff_alpha", Json()), 3) + ", Fleiss' kappa " +
           num(t.value("fleiss_kappa", Json()), 3) + " over " + t.value("units", Json(0)).dump() + " units (each code present or absent)";
      if (t.contains("units_identical"))
        o += "; the coders applied identical sets of codes to " + t["units_identical"].dump() + " of the " + t.value("units", Json(0)).dump() + " units";
      o += ".\n";
    }
    if (agr.contains("labels") && agr["labels"].is_object()) {
      const auto& l = agr["labels"];
      o += "Label tables: Fleiss' kappa " + num(l.value("fleiss_kappa", Json()), 3) + ", Krippendorff's alpha " +
           num(l.value("krippendorff_alpha", Json()), 3) + " over " + l.value("units", Json(0)).dump() + " units";
      if (l.contains("units_all_agree"))
        o += "; all coders gave the same label to " + l["units_all_agree"].dump() + " of the " +
             std::to_string(l.value("units", 0) - l.value("dropped_units", 0)) + " units every coder rated";
      o += ".\n";
    }
    if (agr.contains("rounds") && !agr["rounds"].empty()) {
      o += "\n| Round | Transcripts | Units | Fleiss' kappa | Krippendorff's alpha |\n|---|---:|---:|---:|---:|\n";
      for (const auto& r : agr["rounds"])
        o += "| " + md(str(r, "round")) + " | " + std::to_string(r["transcripts"].size()) + " | " + r["units"].dump() + " | " +
             num(r["fleiss_kappa"], 3) + " | " + num(r["krippendorff_alpha"], 3) + " |\n";
      bool frozen = false;  // (the open round is computed from the codings as they are)
      for (const auto& r : agr["rounds"]) frozen = frozen || str(r, "round") != "not reconciled yet";
      if (frozen)
        o += "\nA reconciled round's figures compare the codes its consensus files record each coder had when the "
           "team met; later edits change them only through a new decision.\n";
    }
    if (agr.contains("transcripts") && agr["transcripts"].is_object() && agr["transcripts"].contains("per_node") &&
        !agr["transcripts"]["per_node"].empty()) {
      const auto& t = agr["transcripts"];
      const std::string units = str(t, "unit") == "segment" ? "segments" : "turns";
      o += "\nPer node, over all " + t.value("units", Json(0)).dump() + " " + units + " compared, each node present or absent per coder "
           "(all measures shown, not only the best): units coded, the " + units + " at least one coder applied the node to; positive "
           "agreement on its presence, 2a / (2a + b + c) pooled over coder pairs (a: both coders applied it, b + c: one did); Fleiss' "
           "kappa, Krippendorff's alpha and per cent agreement (the mean share of agreeing coder pairs), which count agreeing that "
           "the node is absent too.\n\n| Node | Units coded | Positive agreement | Fleiss' kappa | Krippendorff's alpha | Per cent agreement |\n"
           "|---|---:|---:|---:|---:|---:|\n";
      const auto& per = t["per_node"];
      for (auto it = per.begin(); it != per.end(); ++it)
        o += "| " + md(it.key()) + " | " + it.value().value("units_coded", Json(0)).dump() + " | " + num(it.value().value("positive_agreement", Json()), 3) +
             " | " + num(it.value().value("fleiss_kappa", Json()), 3) + " | " + num(it.value().value("krippendorff_alpha", Json()), 3) + " | " +
             num(it.value().value("percent_agreement", Json()), 3) + " |\n";
    }
    if (agr.contains("labels") && agr["labels"].is_object() && agr["labels"].contains("per_category") &&
        !agr["labels"]["per_category"].empty()) {
      o += "\nLabel tables, per category:\n\n| Category | Fleiss' kappa |\n|---|---:|\n";
      const auto& per = agr["labels"]["per_category"];
      for (auto it = per.begin(); it != per.end(); ++it)
        o += "| " + md(it.key()) + " | " + num(it.value().value("fleiss_kappa", Json()), 3) + " |\n";
    }
  }
  // Saturation.
  o += "\n## Saturation\n\n";
  if (report.contains("saturation") && report["saturation"].is_object()) {
    const auto& sat = report["saturation"];
    o += md(str(sat["all"], "statement")) + "\n";
    for (auto it = sat["roles"].begin(); it != sat["roles"].end(); ++it) o += "\n- " + md(it.key()) + ": " + md(str(it.value(), "statement"));
    o += "\n";
  }
  // Checklist.
  o += "\n## Reporting checklist (ACM SIGSOFT Empirical Standard, qualitative surveys)\n\n| Item | Level | In the workspace | Where, or what is missing |\n|---|---|---|---|\n";
  for (const auto& c : m["checklist"])
    o += "| " + md(str(c, "item")) + " | " + str(c, "level") + " | " + (c["supported"].get<bool>() ? "yes" : "no") + " | " + md(str(c, "evidence")) + " |\n";
  return o;
}

std::string methods_html(const Json& report) {
  if (!report.contains("methods") || !report["methods"].is_object()) return "";
  const Json& m = report["methods"];
  const Json& ws = report["workspace"];
  const Json plurals = ws.value("role_plurals", Json::object());
  auto e = [](const std::string& s) { return svg::escape(s); };
  std::string h = "<h2 id=\"methods\">Methods evidence</h2><p class=\"muted\">The same as methods.md, which is written to paste "
                  "and edit: the participants, the chain of evidence of findings.yaml and the reporting checklist.</p>";
  // Participants.
  const auto& attrs = m["participants"]["attributes"];
  h += "<h3>Participants</h3><table class=\"participants\"><tr><th>Participant</th><th>Role</th>";
  for (const auto& a : attrs) h += "<th>" + e(a.get<std::string>()) + "</th>";
  h += "</tr>";
  for (const auto& r : m["participants"]["rows"]) {
    h += "<tr><td>" + e(str(r, "participant")) + "</td><td>" + e(str(r, "role")) + "</td>";
    for (const auto& a : attrs) {
      const auto key = a.get<std::string>();
      h += "<td>" + e(r["values"].contains(key) ? r["values"][key].get<std::string>() : "") + "</td>";
    }
    h += "</tr>";
  }
  h += "</table>";
  // Chain of evidence.
  h += "<h3>Chain of evidence</h3>";
  if (!m["findings"].is_array()) {
    h += "<p class=\"note\">No findings.yaml: list each claim with the codes it rests on (docs/findings.md) to see its quotes, "
         "the participants behind it and its counter-evidence here.</p>";
  } else {
    for (const auto& f : m["findings"]) {
      const auto& s = f["support"];
      std::vector<std::string> nodes;
      for (const auto& n : s["nodes"]) nodes.push_back(e(n.get<std::string>()));
      h += "<div class=\"finding\" data-finding=\"" + e(str(f, "id")) + "\" data-segments=\"" + s["segments"].dump() + "\"><p><b>" +
           e(str(f, "id")) + ": " + e(str(f, "claim")) + "</b><br>Rests on " + text::join(nodes, ", ") + ": " + s["segments"].dump() +
           " coded segments from " + e(by_role(s["participants_by_role"], plurals)) + " (of " + e(by_role(ws["participants_by_role"], plurals)) +
           ").</p>";
      for (const auto& q : s["quotes"])
        h += "<blockquote>“" + e(str(q, "quote")) + "” <span class=\"muted\">(" + e(str(q, "participant")) + ", " + e(str(q, "role")) +
             "; " + e(str(q, "node")) + "; " + e(str(q, "source")) + (q["exemplar"].get<bool>() ? "; exemplar" : "") + ")</span></blockquote>";
      const auto& c = f["counter"];
      if (c["nodes"].empty()) h += "<p class=\"muted\">Counter-evidence: none named.</p>";
      else
        h += "<p>Counter-evidence: " + c["segments"].dump() + " coded segments" +
             (c["segments"].get<int>() ? " from " + e(by_role(c["participants_by_role"], plurals)) : std::string()) + ".</p>";
      h += "</div>";
    }
  }
  // Checklist.
  h += "<h3>Reporting checklist (ACM SIGSOFT Empirical Standard, qualitative surveys)</h3><table class=\"checklist\"><tr><th>Item</th>"
       "<th>Level</th><th>In the workspace</th><th>Where, or what is missing</th></tr>";
  if (m.contains("checklist"))
    for (const auto& c : m["checklist"])
      h += std::string("<tr") + (c["supported"].get<bool>() ? "" : " class=\"flag\"") + "><td>" + e(str(c, "item")) + "</td><td>" +
           e(str(c, "level")) + "</td><td>" + (c["supported"].get<bool>() ? "yes" : "no") + "</td><td>" + e(str(c, "evidence")) + "</td></tr>";
  h += "</table>";
  return h;
}

}  // namespace qualrank
