// The codebook workbook: one function per sheet, each writing through the safe xlsx layer (xlsx_book.h), so
// every text is a string cell, stripped of XML-invalid characters and cut to Excel's cell limit with a located
// warning. Counts come from analysis/crosstab.h (aggregate rule: a node counts its descendants' codes).
#include "qualrank/report/outputs/codebook_workbook.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "qualrank/analysis/study.h"
#include "qualrank/report/xlsx/xlsx_book.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

using xlsx::CellStyle;
using xlsx::Column;

// Attribute values written as numbers: plain decimals without leading zeros ("0.5", "12"; not "007", "1e3").
bool plain_number(const std::string& s, double& value) {
  std::size_t i = 0, n = s.size();
  if (i < n && s[i] == '-') ++i;
  std::size_t int_start = i;
  while (i < n && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  std::size_t int_len = i - int_start;
  if (int_len == 0 || (int_len > 1 && s[int_start] == '0') || int_len > 15) return false;
  if (i < n && s[i] == '.') {
    std::size_t frac_start = ++i;
    while (i < n && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == frac_start) return false;
  }
  if (i != n) return false;
  value = std::stod(s);
  return true;
}

std::string location_text(const Location& l) {
  if (l.file.empty()) return "";
  return l.line > 0 ? l.file + ":" + std::to_string(l.line) : l.file.str();
}

// A node's exemplar quotes, one per line: "quote" (participant).
std::string exemplar_cell(const CodebookTables& tables, const std::string& node) {
  auto it = tables.exemplars.find(node);
  if (it == tables.exemplars.end()) return "";
  std::vector<std::string> lines;
  for (const auto& e : it->second) lines.push_back("\"" + e.quote + "\" (" + e.participant + ")");
  return text::join(lines, "\n");
}

void codebook_sheet(xlsx::Book& book, const CodebookData& data, const CodebookTables& tables) {
  const NodeCrosstab& usage = tables.matrix;
  const Taxonomy& tax = *data.taxonomy;
  auto& sheet = book.add_sheet("Codebook");
  std::vector<Column> columns = {
      {"Node", CellStyle::text, 14},
      {"Level", CellStyle::integer, 8},
      {"Parent", CellStyle::text, 12},
      {"Name", CellStyle::wrapped_text, 40},
      {"Definition", CellStyle::wrapped_text, 60},
      {"Inclusion criteria", CellStyle::wrapped_text, 50},
      {"Exclusion criteria", CellStyle::wrapped_text, 50},
      {"Exemplar quotes", CellStyle::wrapped_text, 60},
      {"Aliases", CellStyle::wrapped_text, 30},
      {"Status", CellStyle::text, 12},
      {"Segments (with sub-nodes)", CellStyle::integer, 14},
      {"Participants (with sub-nodes)", CellStyle::integer, 14},
  };
  for (const auto& g : usage.groups) columns.push_back({group_label(g, data.experience_attribute), CellStyle::integer, 16});
  sheet.header(columns, 1);
  int row = 1;
  for (const auto& count : usage.nodes) {
    const TaxonomyNode* n = tax.find(count.node);
    const Location& at = n->where;
    int col = 0;
    sheet.write_text(row, col++, n->id, at);
    sheet.write_number(row, col++, n->level);
    sheet.write_text(row, col++, n->parent, at);
    sheet.write_text(row, col++, n->name, at);
    sheet.write_text(row, col++, n->definition, at);
    sheet.write_text(row, col++, n->inclusion, at);
    sheet.write_text(row, col++, n->exclusion, at);
    auto exemplars = tables.exemplars.find(n->id);
    sheet.write_text(row, col++, exemplar_cell(tables, n->id),
                     exemplars == tables.exemplars.end() ? at : exemplars->second.front().where);
    sheet.write_text(row, col++, text::join(n->aliases, ", "), at);
    sheet.write_text(row, col++, n->status, at);
    sheet.write_number(row, col++, static_cast<double>(count.segments));
    sheet.write_number(row, col++, static_cast<double>(count.participants));
    for (auto v : count.by_group) sheet.write_number(row, col++, static_cast<double>(v));
    ++row;
  }
}

// The sheet to print first: every node with its name indented by level, its segments and participants (with
// its sub-nodes) and the participants per group; no long text, so it prints one page wide on a few pages.
void summary_sheet(xlsx::Book& book, const CodebookData& data, const NodeCrosstab& usage) {
  const Taxonomy& tax = *data.taxonomy;
  auto& sheet = book.add_sheet("Summary");
  sheet.print_title("Codebook " + tax.title + ": summary");
  std::vector<Column> columns = {{"Node", CellStyle::text, 10},
                                 {"Name", CellStyle::wrapped_text, 56},
                                 {"Segments (with sub-nodes)", CellStyle::integer, 11},
                                 {"Participants (with sub-nodes, n=" + std::to_string(usage.participants) + ")",
                                  CellStyle::integer, 14}};
  for (const auto& g : usage.groups)
    columns.push_back({group_label(g, data.experience_attribute) + " (n=" + std::to_string(g.size) + ")", CellStyle::integer, 12});
  sheet.header(columns, 1);
  int row = 1;
  for (const auto& count : usage.nodes) {
    const TaxonomyNode* n = tax.find(count.node);
    int col = 0;
    sheet.write_text(row, col++, n->id, n->where);
    sheet.write_text(row, col++, std::string(static_cast<std::size_t>(std::max(0, n->level - 1)) * 3, ' ') + n->name, n->where);
    sheet.write_number(row, col++, static_cast<double>(count.segments));
    sheet.write_number(row, col++, static_cast<double>(count.participants));
    for (auto v : count.by_group) sheet.write_number(row, col++, static_cast<double>(v));
    ++row;
  }
}

void segments_sheet(xlsx::Book& book, const CodebookData& data) {
  auto& sheet = book.add_sheet("Coded segments");
  std::vector<Column> columns = {{"Participant", CellStyle::text, 14},
                                 {"Role", CellStyle::text, 12},
                                 {"Experience Level", CellStyle::text, 16}};
  if (data.context.enabled()) columns.push_back({data.context.label, CellStyle::wrapped_text, 30});
  for (Column c : std::vector<Column>{{"Prompt Category", CellStyle::wrapped_text, 40},
                                      {"Thematic Quote", CellStyle::wrapped_text, 80},
                                      {"Linked Taxonomy Node(s)", CellStyle::text, 26},
                                      {"Research Insight", CellStyle::wrapped_text, 50},
                                      {"Coder", CellStyle::text, 16},
                                      {"Source", CellStyle::text, 30},
                                      {"Segment", CellStyle::text, 24},
                                      {"Exemplar for", CellStyle::text, 16}})
    columns.push_back(std::move(c));
  sheet.header(columns, 1);
  int row = 1;
  // Per row, into buffers reused from row to row (240,000 rows): the segment's nodes and coders
  // (CodedSegment::node_refs, coder_refs) and the nodes it is an exemplar quote for, each joined with ", ".
  std::vector<const std::string*> nodes, coders;
  std::string nodes_text, coders_text, picked_text;
  std::size_t nodes_n = 0, coders_n = 0, picked_n = 0;  // items joined so far (an item may be empty)
  auto join_into = [](std::string& out, std::size_t& n, const std::string& item) {
    if (n++ > 0) out += ", ";
    out += item;
  };
  for (const auto& r : data.segments) {
    const CodedSegment& s = *r.segment;
    const Location& at = s.source;
    const Location* memo_at = &at;
    for (const auto& c : s.codes)
      if (!c.memo.empty()) {
        memo_at = &c.where;
        break;
      }
    s.node_refs(*data.taxonomy, nodes);
    s.coder_refs(coders);
    nodes_text.clear();
    picked_text.clear();
    coders_text.clear();
    nodes_n = picked_n = coders_n = 0;
    for (const std::string* node : nodes) {
      join_into(nodes_text, nodes_n, *node);
      if (std::any_of(s.codes.begin(), s.codes.end(), [&](const AppliedCode& c) { return c.node == *node && c.exemplar; }))
        join_into(picked_text, picked_n, *node);
    }
    for (const std::string* coder : coders) join_into(coders_text, coders_n, *coder);
    int col = 0;
    sheet.write_text(row, col++, s.participant, at);
    sheet.write_text(row, col++, s.role, at);
    sheet.write_text(row, col++, r.experience, at);
    if (data.context.enabled()) sheet.write_text(row, col++, r.context, r.context_where.file.empty() ? at : r.context_where);
    sheet.write_text(row, col++, r.prompt ? *r.prompt : std::string(), at);
    sheet.write_text(row, col++, s.text, at);
    sheet.write_text(row, col++, nodes_text, at);
    sheet.write_text(row, col++, r.memo, *memo_at);
    sheet.write_text(row, col++, coders_text, at);
    sheet.write_text(row, col++, r.source_text(), at);
    sheet.write_text(row, col++, s.id, at);
    sheet.write_text(row, col++, picked_text, at);
    ++row;
  }
}

void participants_sheet(xlsx::Book& book, const CodebookData& data) {
  auto& sheet = book.add_sheet("Participants");
  std::set<std::string> names;
  for (const auto& p : data.participants)
    for (const auto& [k, v] : p.attributes) names.insert(k);
  std::vector<std::string> attributes;  // the experience level first, then the others by name
  if (names.erase(data.experience_attribute)) attributes.push_back(data.experience_attribute);
  attributes.insert(attributes.end(), names.begin(), names.end());

  std::vector<Column> columns = {{"Participant", CellStyle::text, 14}, {"Role", CellStyle::text, 12}};
  for (const auto& a : attributes) columns.push_back({a, CellStyle::wrapped_text, 40});
  columns.push_back({"Coder", CellStyle::text, 16});
  columns.push_back({"Coded segments", CellStyle::integer, 16});
  columns.push_back({"Source", CellStyle::text, 30});
  sheet.header(columns, 1);

  std::map<std::string, std::size_t> coded;
  for (const auto& s : data.segments) ++coded[s.segment->participant];
  int row = 1;
  for (const auto& p : data.participants) {
    int col = 0;
    sheet.write_text(row, col++, p.id, p.where);
    sheet.write_text(row, col++, p.role, p.where);
    for (const auto& a : attributes) {
      auto it = p.attributes.find(a);
      std::string value = it == p.attributes.end() ? "" : it->second;
      auto where = p.attribute_where.find(a);
      double number = 0;
      if (plain_number(value, number)) sheet.write_number(row, col, number, nullptr);
      else sheet.write_text(row, col, value, where == p.attribute_where.end() ? p.where : where->second);
      ++col;
    }
    sheet.write_text(row, col++, p.coder, p.where);
    sheet.write_number(row, col++, static_cast<double>(coded[p.id]));
    sheet.write_text(row, col++, location_text(p.where), p.where);
    ++row;
  }
}

void matrix_sheet(xlsx::Book& book, const CodebookData& data, const NodeCrosstab& usage) {
  const Taxonomy& tax = *data.taxonomy;
  auto& sheet = book.add_sheet("Matrix");
  std::vector<Column> columns = {{"Node", CellStyle::text, 14},
                                 {"Level", CellStyle::integer, 8},
                                 {"Name", CellStyle::wrapped_text, 40},
                                 {"All participants (n=" + std::to_string(usage.participants) + ")", CellStyle::integer, 16},
                                 {"All participants %", CellStyle::percent, 12}};
  for (const auto& g : usage.groups) {
    auto label = group_label(g, data.experience_attribute);
    columns.push_back({label + " (n=" + std::to_string(g.size) + ")", CellStyle::integer, 16});
    columns.push_back({label + " %", CellStyle::percent, 12});
  }
  sheet.header(columns, 1);
  int row = 1;
  for (std::size_t i = 0; i < usage.nodes.size(); ++i) {
    const auto& count = usage.nodes[i];
    const TaxonomyNode* n = tax.find(count.node);
    int col = 0;
    sheet.write_text(row, col++, n->id, n->where);
    sheet.write_number(row, col++, n->level);
    sheet.write_text(row, col++, n->name, n->where);
    sheet.write_number(row, col++, static_cast<double>(count.participants));
    sheet.write_number(row, col++, usage.participants ? static_cast<double>(count.participants) / usage.participants : NAN);
    for (std::size_t g = 0; g < usage.groups.size(); ++g) {
      sheet.write_number(row, col++, static_cast<double>(count.by_group[g]));
      sheet.write_number(row, col++, usage.share(i, g));
    }
    ++row;
  }
}

void cooccurrence_sheet(xlsx::Book& book, const CodebookData& data, const Cooccurrence& co) {
  const Taxonomy& tax = *data.taxonomy;
  auto& sheet = book.add_sheet("Co-occurrence");
  std::vector<Column> columns = {{"Node", CellStyle::text, 14}, {"Name", CellStyle::wrapped_text, 40}};
  for (const auto& id : co.nodes) columns.push_back({id, CellStyle::integer, 10});
  sheet.header(columns, 2);
  for (std::size_t a = 0; a < co.nodes.size(); ++a) {
    const TaxonomyNode* n = tax.find(co.nodes[a]);
    int row = static_cast<int>(a) + 1;
    sheet.write_text(row, 0, n->id, n->where);
    sheet.write_text(row, 1, n->name, n->where);
    for (std::size_t b = 0; b < co.nodes.size(); ++b)
      sheet.write_number(row, static_cast<int>(b) + 2, static_cast<double>(co.counts[a][b]));
  }
}

// "1 Area, 2 Practice, 3 Habit": the Level column's numbers with the taxonomy's names for them.
std::string level_list(const Taxonomy& tax) {
  std::vector<std::string> parts;
  for (int level = 1; level <= tax.max_level(); ++level) parts.push_back(std::to_string(level) + " " + tax.level_name(level));
  return text::join(parts, ", ");
}

void about_sheet(xlsx::Book& book, const CodebookData& data, const NodeCrosstab& usage, const Cooccurrence& co) {
  const Taxonomy& tax = *data.taxonomy;
  auto& sheet = book.add_sheet("About");
  sheet.header({{"Item", CellStyle::text, 24}, {"Value", CellStyle::wrapped_text, 100}});
  std::string version = std::to_string(data.version) + (data.version_name.empty() ? "" : " (" + data.version_name + ")");
  std::vector<std::pair<std::string, std::string>> rows = {
      {"Study", tax.title},
      {"Taxonomy", tax.name + ", version " + version},
      {"Coded from", data.origin},
      {"Coding counted", data.coding.empty() ? "the codes of the imported table" : data.coding},
      {"Participants", std::to_string(usage.participants)},
      {"Coded segments", std::to_string(data.segments.size())},
      {"Counting rule",
       "Aggregate: a node's counts include the codes applied to its sub-nodes (descendants). A segment counts "
       "once for a node however many of the node's sub-nodes it carries. A participant counts for a node when "
       "at least one of their segments does."},
      {"Matrix", "Participants who mentioned each node (aggregate rule), per group; % = share of the group's "
                 "participants (n in the column title)."},
      {"Co-occurrence", "Segments coded with both nodes, at taxonomy level " + std::to_string(co.level) + " (" +
                            tax.level_name(co.level) + ")" +
                            "; codes below the level roll up to their level-" + std::to_string(co.level) +
                            " ancestor; the diagonal counts segments coded with the node. " +
                            std::to_string(co.segments_above_level) +
                            " coded segment(s) carry only codes above this level and are left out."},
      {"Text safety", "Every text is a string cell, never a formula. Characters XML 1.0 forbids are removed and "
                      "text over 32,767 characters is cut with a marker; qualrank warns about both."},
      {"Levels", level_list(tax)},
  };
  int row = 1;
  for (const auto& [k, v] : rows) {
    sheet.write_text(row, 0, k);
    sheet.write_text(row, 1, v);
    ++row;
  }
}

}  // namespace

bool write_codebook_workbook(const CodebookData& data, const CodebookOptions& options, const std::filesystem::path& out,
                             Diagnostics& diags, const std::function<bool()>& may_commit) {
  return write_codebook_workbook(data, options, codebook_tables(data, options), out, diags, may_commit);
}

bool write_codebook_workbook(const CodebookData& data, const CodebookOptions&, const CodebookTables& tables,
                             const std::filesystem::path& out, Diagnostics& diags,
                             const std::function<bool()>& may_commit) {
  const auto& usage = tables.matrix;
  const auto& co = tables.cooccurrence;

  xlsx::BookProperties props;
  props.title = "Codebook: " + data.taxonomy->title;
  props.subject = "Taxonomy " + data.taxonomy->name + ", version " + std::to_string(data.version);
  props.comments = "Written by qualrank " QUALRANK_VERSION;
  props.streamed = true;  // 240,000 segments in 0.9 GB less memory; every sheet here is written row by row
  xlsx::Book book(out, props, diags);
  if (book.ok()) {
    summary_sheet(book, data, usage);
    codebook_sheet(book, data, tables);
    segments_sheet(book, data);
    participants_sheet(book, data);
    matrix_sheet(book, data, usage);
    cooccurrence_sheet(book, data, co);
    about_sheet(book, data, usage, co);
  }
  if (!book.ok() || !book.commit(may_commit)) {
    if (!book.error().empty()) diags.error({out.string(), 0, 0}, book.error());
    return false;
  }
  return true;
}

bool write_codebook_workbook(const Study& study, const CodebookOptions& options, const std::filesystem::path& out,
                             Diagnostics& diags) {
  return write_codebook_workbook(codebook_data(study, options), options, out, diags);
}

}  // namespace qualrank
