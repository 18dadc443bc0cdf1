// The listing, quote list, counts and matrix of `qualrank query` (see query_output.h). Wrapping counts code
// points; ANSI escapes are added only when ListingOptions::highlight is set (the CLI sets it for a terminal).
#include "qualrank/report/outputs/query_output.h"

#include <cstdio>

#include <algorithm>
#include <set>
#include <sstream>

#include "qualrank/util/csv.h"
#include "qualrank/util/text.h"

namespace qualrank {

using Json = nlohmann::ordered_json;

namespace {

constexpr const char* kMatchOn = "\x1b[1;7m";  // bold, reverse
constexpr const char* kBoldOn = "\x1b[1m";
constexpr const char* kOff = "\x1b[0m";

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

std::string node_label(const Taxonomy& taxonomy, const std::string& id) {
  const TaxonomyNode* n = taxonomy.find(id);
  return n && !n->name.empty() ? id + " " + n->name : id;
}

// Greedy word wrap of `s` into lines of at most `width` code points after `prefix` (a longer word gets a line
// of its own). Bytes inside `ranges` are wrapped in kMatchOn/kOff when `highlight`; escapes never span lines.
std::string wrap(const std::string& s, const std::vector<TextRange>& ranges, std::size_t width, const std::string& prefix,
                 bool highlight) {
  const std::size_t indent = text::count_code_points(prefix);
  const std::size_t room = std::max<std::size_t>(width > indent ? width - indent : 0, 20);
  auto inside = [&](std::size_t b) {
    return highlight && std::any_of(ranges.begin(), ranges.end(), [&](const TextRange& r) { return b >= r.begin && b < r.end; });
  };
  std::string out, line;
  std::size_t used = 0;
  bool on = false;
  auto emit = [&](std::size_t b) {
    bool want = inside(b);
    if (want != on) {
      line += want ? kMatchOn : kOff;
      on = want;
    }
    line += s[b];
  };
  auto end_line = [&] {
    if (on) line += kOff;
    on = false;
    out += prefix + line + "\n";
    line.clear();
    used = 0;
  };
  std::size_t i = 0;
  while (i < s.size()) {
    std::size_t gap = i;
    while (i < s.size() && is_space(s[i])) ++i;
    if (i >= s.size()) break;
    std::size_t word = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    std::size_t n = text::count_code_points(std::string_view(s).substr(word, i - word));
    if (used > 0 && used + 1 + n > room) end_line();
    if (used > 0) {
      // the separator: highlighted when the match runs across it
      bool want = inside(gap) && inside(word);
      if (want != on) {
        line += want ? kMatchOn : kOff;
        on = want;
      }
      line += ' ';
      ++used;
    }
    for (std::size_t b = word; b < i; ++b) emit(b);
    used += n;
  }
  if (used > 0 || out.empty()) end_line();
  return out;
}

std::string one_line(std::string s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (is_space(c)) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string md_escape(const std::string& s) { return text::markdown_escape(s); }

std::vector<std::string> distinct_memo_list(const CodedSegment& s) {
  std::vector<std::string> m;
  for (const auto& c : s.codes)
    if (!c.memo.empty() && std::find(m.begin(), m.end(), c.memo) == m.end()) m.push_back(c.memo);
  return m;
}

std::size_t participants_of(const QueryResult& r) {
  std::set<std::string> p;
  for (const auto& s : r.segments) p.insert(s.participant);
  return p.size();
}

using text::plural;

std::string counts_line(const QueryResult& r, bool turns = false) {
  return plural(r.segments.size(), turns ? "uncoded turn" : "segment", turns ? "uncoded turns" : "segments") + " from " + plural(participants_of(r), "participant", "participants");
}

}  // namespace

std::string query_listing(const QueryResult& result, const Taxonomy& taxonomy, const ListingOptions& options) {
  std::ostringstream out;
  for (std::size_t k = 0; k < result.segments.size(); ++k) {
    const CodedSegment& s = result.segments[k];
    // The turn number is what `code add --turn` and `annotate` take.
    std::string head = s.participant + (s.turn > 0 ? " t" + std::to_string(s.turn) : "") + (s.role.empty() ? "" : " (" + s.role + ")");
    if (!s.question.empty()) head += " · " + s.question;
    head += " · " + s.source.file + ":" + std::to_string(s.source.line);
    if (k) out << '\n';
    out << (options.highlight ? kBoldOn + head + kOff : head) << '\n';
    if (!s.codes.empty()) {
      std::vector<std::string> labels;
      for (const auto& node : s.nodes(taxonomy)) {
        bool exemplar = std::any_of(s.codes.begin(), s.codes.end(), [&](const AppliedCode& c) { return c.node == node && c.exemplar; });
        labels.push_back(node_label(taxonomy, node) + (exemplar ? " (exemplar)" : ""));
      }
      out << wrap("codes: " + text::join(labels, ", ") + " · by " + text::join(s.coders(), ", "), {}, options.width, "  ", false);
    } else {
      bool any = false;
      if (!s.suggested.empty()) {
        std::vector<std::string> labels;
        for (const auto& node : s.suggested) labels.push_back(node_label(taxonomy, node));
        out << wrap("suggested: " + text::join(labels, ", "), {}, options.width, "  ", false);
        any = true;
      }
      if (options.learned && k < options.learned->size() && !(*options.learned)[k].empty()) {
        std::vector<std::string> labels;
        for (const auto& c : (*options.learned)[k]) {
          char conf[16];
          std::snprintf(conf, sizeof conf, " (%.2f)", c.confidence);
          labels.push_back(node_label(taxonomy, c.code) + conf);
        }
        out << wrap("learned: " + text::join(labels, ", "), {}, options.width, "  ", false);
        any = true;
      }
      if (!any) out << "  (no codes)\n";
    }
    for (const auto& m : distinct_memo_list(s)) out << wrap("memo: " + m, {}, options.width, "  ", false);
    static const std::vector<TextRange> none;
    out << wrap(s.text, k < result.highlights.size() ? result.highlights[k] : none, options.width, "  │ ", options.highlight);
  }
  if (!result.segments.empty()) out << '\n';
  out << counts_line(result, options.turns) << '\n';
  return out.str();
}

std::string query_markdown(const QueryResult& result, const Taxonomy& taxonomy) {
  std::ostringstream out;
  for (const auto& s : result.segments) {
    std::vector<std::string> who;
    who.push_back(s.participant + (s.role.empty() ? "" : " (" + s.role + ")"));
    if (!s.question.empty()) who.push_back(s.question);
    std::vector<std::string> labels;
    for (const auto& node : s.nodes(taxonomy)) labels.push_back(node_label(taxonomy, node));
    if (!labels.empty()) who.push_back(text::join(labels, ", "));
    out << "> " << md_escape(one_line(s.text)) << "\n>\n> — " << md_escape(text::join(who, ", ")) << "\n\n";
  }
  return out.str();
}

std::string query_count(const QueryResult& result, const std::string& format) {
  if (format == "json") {
    nlohmann::ordered_json j = {{"segments", result.segments.size()}, {"participants", participants_of(result)}};
    return j.dump(2) + "\n";
  }
  if (format == "csv")
    return "segments,participants\n" + std::to_string(result.segments.size()) + "," + std::to_string(participants_of(result)) + "\n";
  return counts_line(result) + "\n";
}

nlohmann::ordered_json query_matrix_json(const QueryMatrix& m, const Taxonomy& taxonomy) {
  auto cell = [](const QueryCell& c) { return Json{{"participants", c.participants}, {"segments", c.segments}}; };
  auto row_json = [&](const QueryMatrixRow& r) {
    Json j;
    if (!r.node.empty()) {
      const TaxonomyNode* n = taxonomy.find(r.node);
      j["node"] = r.node;
      j["name"] = n ? n->name : "";
      j["level"] = n ? n->level : 0;
    }
    j["cells"] = Json::array();
    for (const auto& c : r.cells) j["cells"].push_back(cell(c));
    j["all"] = cell(r.all);
    return j;
  };
  Json out;
  out["by"] = m.by;
  out["groups"] = Json::array();
  for (std::size_t g = 0; g < m.groups.size(); ++g) out["groups"].push_back({{"value", m.groups[g]}, {"participants", m.group_sizes[g]}});
  out["rows"] = Json::array();
  for (const auto& r : m.rows) out["rows"].push_back(row_json(r));
  out["total"] = row_json(m.total);
  return out;
}

std::string query_matrix_csv(const QueryMatrix& m, const Taxonomy& taxonomy) {
  std::string out = csv::format_record({"node", "name", "group", "participants", "segments"}, true);
  auto rows = m.rows;
  rows.push_back(m.total);
  for (const auto& r : rows) {
    std::string node = r.node.empty() ? "all" : r.node;
    const TaxonomyNode* n = r.node.empty() ? nullptr : taxonomy.find(r.node);
    std::string name = r.node.empty() ? "every segment found" : (n ? n->name : "");
    for (std::size_t g = 0; g < m.groups.size(); ++g)
      out += csv::format_record({node, name, m.by + "=" + m.groups[g], std::to_string(r.cells[g].participants),
                                 std::to_string(r.cells[g].segments)},
                                true);
    out += csv::format_record({node, name, "all", std::to_string(r.all.participants), std::to_string(r.all.segments)}, true);
  }
  return out;
}

std::string query_matrix_table(const QueryMatrix& m, const Taxonomy& taxonomy, bool markdown) {
  std::vector<std::string> head = {"node"};
  for (std::size_t g = 0; g < m.groups.size(); ++g)
    head.push_back((m.groups[g].empty() ? std::string("(no value)") : m.groups[g]) + " (n=" + std::to_string(m.group_sizes[g]) + ")");
  head.push_back("all");
  std::vector<std::vector<std::string>> body;
  auto cell = [](const QueryCell& c) { return std::to_string(c.participants) + "/" + std::to_string(c.segments); };
  auto rows = m.rows;
  rows.push_back(m.total);
  for (const auto& r : rows) {
    std::vector<std::string> line = {r.node.empty() ? std::string("every segment found") : node_label(taxonomy, r.node)};
    for (const auto& c : r.cells) line.push_back(cell(c));
    line.push_back(cell(r.all));
    body.push_back(std::move(line));
  }
  std::ostringstream out;
  out << "Codes of the segments found by " << m.by << " (participants/segments; a node counts only where it was applied itself)\n\n";
  if (markdown) {
    auto row = [&](const std::vector<std::string>& cells) {
      out << "|";
      for (const auto& c : cells) out << " " << md_escape(c) << " |";
      out << "\n";
    };
    row(head);
    out << "|---|";
    for (std::size_t i = 1; i < head.size(); ++i) out << "---:|";
    out << "\n";
    for (const auto& b : body) row(b);
    return out.str();
  }
  std::vector<std::size_t> widths(head.size(), 0);
  auto measure = [&](const std::vector<std::string>& cells) {
    for (std::size_t i = 0; i < cells.size(); ++i) widths[i] = std::max(widths[i], text::count_code_points(cells[i]));
  };
  measure(head);
  for (const auto& b : body) measure(b);
  widths[0] = std::min<std::size_t>(widths[0], 36);
  auto fit = [](const std::string& s, std::size_t w, bool right) {
    std::size_t n = text::count_code_points(s);
    if (n > w) {  // cut, on a code point boundary
      std::string cut;
      std::size_t k = 0;
      for (char c : s) {
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80 && ++k > w - 1) break;
        cut += c;
      }
      return cut + "…";
    }
    std::string pad(w - n, ' ');
    return right ? pad + s : s + pad;
  };
  auto print = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) line += (i ? "  " : "") + fit(cells[i], widths[i], i > 0);
    out << line << "\n";
  };
  print(head);
  for (const auto& b : body) print(b);
  return out.str();
}

nlohmann::ordered_json exemplar_json(const ExemplarQuote& e) {
  return {{"quote", e.quote}, {"participant", e.participant}, {"segment", e.segment},
          {"source", e.source}};
}

nlohmann::ordered_json what_is_coded_json(const Study& study) {
  // Segments without codes (keyword suggestions only) add to no node's row: no need to leave them out.
  const Taxonomy& tax = study.taxonomy();
  auto matrix = query_matrix(study, study.segments, "role");
  auto exemplars = exemplar_quotes(study.segments);
  Json out;
  out["by"] = "role";
  out["groups"] = Json::array();
  for (std::size_t g = 0; g < matrix.groups.size(); ++g)
    out["groups"].push_back({{"value", matrix.groups[g]}, {"participants", matrix.group_sizes[g]}});
  out["codes"] = Json::array();
  for (const auto& r : matrix.rows) {
    const TaxonomyNode* n = tax.find(r.node);
    Json code;
    code["node"] = r.node;
    code["name"] = n ? n->name : "";
    code["level"] = n ? n->level : 0;
    code["segments"] = r.all.segments;
    code["participants"] = Json::object();
    for (std::size_t g = 0; g < matrix.groups.size(); ++g) code["participants"][matrix.groups[g]] = r.cells[g].participants;
    code["exemplars"] = Json::array();
    if (auto it = exemplars.find(r.node); it != exemplars.end())
      for (const auto& e : it->second) code["exemplars"].push_back(exemplar_json(e));
    out["codes"].push_back(std::move(code));
  }
  return out;
}

}  // namespace qualrank
