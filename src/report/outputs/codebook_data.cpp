// Gathers the codebook's rows from a study, and prints the matrix / co-occurrence tables as JSON or CSV.
#include "qualrank/report/outputs/codebook_data.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "qualrank/analysis/study.h"
#include "qualrank/report/outputs/query_output.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

std::string distinct_memos(const CodedSegment& s) {
  std::vector<std::string> m;
  for (const auto& c : s.codes)
    if (!c.memo.empty() && std::find(m.begin(), m.end(), c.memo) == m.end()) m.push_back(c.memo);
  return text::join(m, " | ");
}

std::string prompt_category(const Guideline& g, const CodedSegment& s) {
  if (const Question* q = g.find(s.question)) return q->id + " " + q->text_for(s.role);
  if (const GuidelinePart* p = g.part(s.part)) return p->id + " " + p->title;
  return s.question;
}

// One decimal, as the sheets show percentages.
double percent(std::size_t count, std::size_t of) { return std::round(1000.0 * count / of) / 10.0; }

std::string format_percent(std::size_t count, std::size_t of) {
  if (of == 0) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", percent(count, of));
  return buf;
}

}  // namespace

std::vector<CrosstabParticipant> CodebookData::crosstab_participants() const {
  std::vector<CrosstabParticipant> out;
  for (const auto& p : participants) {
    CrosstabParticipant c{p.id, p.attributes};
    c.attributes["role"] = p.role;
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<CodedSegment> CodebookData::coded_segments() const {
  std::vector<CodedSegment> out;
  out.reserve(segments.size());
  for (const auto& s : segments) out.push_back(*s.segment);
  return out;
}

std::string group_label(const ParticipantGroup& group, const std::string& experience_attribute) {
  std::string dimension = group.attribute == "role"                 ? std::string("Role")
                          : group.attribute == experience_attribute ? std::string("Experience Level")
                                                                    : group.attribute;
  return dimension + ": " + (group.value.empty() ? std::string("(not set)") : group.value);
}

std::string CodebookSegment::source_text() const {
  if (!source.empty() || !segment) return source;
  return segment->source.file + ":" + std::to_string(segment->source.line);
}

CodebookData codebook_data(const Study& study, const CodebookOptions& options) {
  CodebookData data;
  const Workspace& ws = study.workspace;
  data.taxonomy = &study.taxonomy();
  data.guideline = &ws.guideline;
  data.version = study.version->number;
  data.version_name = study.version->name;
  data.origin = "workspace";
  if (ws.guideline.experience) data.experience_attribute = ws.guideline.experience->attribute;
  data.context = codebook_context(options, ws.guideline);
  data.study_segments = &study.segments;
  for (const auto& t : ws.transcripts) {
    CodebookParticipant p;
    p.id = t.participant;
    p.role = t.role;
    p.attributes = t.attributes;
    p.attribute_where = t.attribute_where;
    p.coder = t.coder;
    p.where = t.participant_where.file.empty() ? Location{t.file, 1, 0} : t.participant_where;
    data.participants.push_back(std::move(p));
  }
  // Each participant's transcript (the first of an id, as Workspace::participant gives), looked up once per
  // segment: a linear search here was 2,000 x 240,000 string comparisons on a large study.
  std::unordered_map<std::string_view, const Transcript*> transcript_of;
  if (data.context.enabled())
    for (const auto& t : ws.transcripts) transcript_of.emplace(t.participant, &t);
  data.segments.reserve(static_cast<std::size_t>(
      std::count_if(study.segments.begin(), study.segments.end(), [](const CodedSegment& s) { return !s.codes.empty(); })));
  std::unordered_map<std::string, std::shared_ptr<const std::string>> prompts;
  std::shared_ptr<const std::string> last_prompt;
  // An attribute's value as SharedText: a transcript's segments share one attribute map, so the same string
  // (by address) comes row after row and is interned once.
  std::unordered_map<const std::string*, SharedText> shared_values;
  auto shared = [&](const std::string& value) -> const SharedText& {
    auto [it, fresh] = shared_values.try_emplace(&value);
    if (fresh) it->second = SharedText(value);
    return it->second;
  };
  const CodedSegment* last_asked = nullptr;  // the last row's segment: the same question, part and role give its prompt
  for (const auto& s : study.segments) {
    if (s.codes.empty()) continue;
    CodebookSegment row;
    row.segment = &s;
    if (last_asked && s.question == last_asked->question && s.part == last_asked->part && s.role == last_asked->role) {
      row.prompt = last_prompt;
    } else {
      last_asked = &s;
      // Rows with the same prompt share one string (found by its text; a row mostly repeats the last row's).
      std::string prompt = prompt_category(ws.guideline, s);
      if (!last_prompt || *last_prompt != prompt) {
        auto [it, fresh] = prompts.try_emplace(prompt);
        if (fresh) it->second = std::make_shared<const std::string>(std::move(prompt));
        last_prompt = it->second;
      }
      row.prompt = last_prompt;
    }
    if (data.context.enabled()) {
      row.context_where = s.source;
      if (auto it = s.attributes.find(data.context.attribute); it != s.attributes.end()) row.context = shared(it->second);
      if (auto t = transcript_of.find(s.participant); t != transcript_of.end())
        if (auto it = t->second->attribute_where.find(data.context.attribute); it != t->second->attribute_where.end())
          row.context_where = it->second;
    }
    if (!data.experience_attribute.empty())
      if (auto it = s.attributes.find(data.experience_attribute); it != s.attributes.end()) row.experience = shared(it->second);
    row.memo = distinct_memos(s);
    data.segments.push_back(std::move(row));
  }
  return data;
}

CodebookTables codebook_tables(const CodebookData& data, const CodebookOptions& options) {
  auto participants = data.crosstab_participants();
  std::vector<CodedSegment> copied;
  if (!data.study_segments) copied = data.coded_segments();
  const std::vector<CodedSegment>& segments = data.study_segments ? *data.study_segments : copied;
  auto exemplars = exemplar_quotes(segments);
  // Shown where the Source column says (for an imported table: as the table gives it, not the table's row): the
  // first row of each quote's segment. Only the few quotes are indexed, not the rows.
  std::unordered_map<std::string_view, std::vector<ExemplarQuote*>> unshown;
  for (auto& [node, quotes] : exemplars)
    for (auto& q : quotes) unshown[q.segment].push_back(&q);
  for (const auto& s : data.segments) {
    if (unshown.empty()) break;
    if (auto it = unshown.find(s.segment->id); it != unshown.end()) {
      for (ExemplarQuote* q : it->second) q->source = s.source_text();
      unshown.erase(it);
    }
  }
  return {node_crosstab(*data.taxonomy, segments, participants, study_groups(participants, *data.guideline)),
          cooccurrence(*data.taxonomy, segments, options.level), std::move(exemplars)};
}

nlohmann::ordered_json codebook_tables_json(const CodebookData& data, const CodebookOptions& options) {
  return codebook_tables_json(data, options, codebook_tables(data, options));
}

nlohmann::ordered_json codebook_tables_json(const CodebookData& data, const CodebookOptions&,
                                            const CodebookTables& tables) {
  const Taxonomy& tax = *data.taxonomy;
  const auto& [matrix, co, exemplars] = tables;

  nlohmann::ordered_json out;
  out["taxonomy"] = {{"name", tax.name}, {"version", data.version}};
  out["counting"] = "aggregate: a node's counts include the codes applied to its descendants";
  out["participants"] = matrix.participants;
  out["coded_segments"] = data.segments.size();
  auto groups = nlohmann::ordered_json::array();
  for (const auto& g : matrix.groups)
    groups.push_back({{"attribute", g.attribute}, {"value", g.value},
                      {"label", group_label(g, data.experience_attribute)}, {"participants", g.size}});
  auto rows = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < matrix.nodes.size(); ++i) {
    const auto& n = matrix.nodes[i];
    const TaxonomyNode* node = tax.find(n.node);
    nlohmann::ordered_json r;
    r["node"] = n.node;
    r["level"] = node->level;
    r["name"] = node->name;
    r["segments"] = n.segments;
    r["participants"] = n.participants;
    r["counts"] = n.by_group;
    auto pcts = nlohmann::ordered_json::array();
    for (std::size_t g = 0; g < matrix.groups.size(); ++g)
      pcts.push_back(matrix.groups[g].size ? nlohmann::ordered_json(percent(n.by_group[g], matrix.groups[g].size))
                                           : nlohmann::ordered_json(nullptr));
    r["percents"] = std::move(pcts);
    r["exemplars"] = nlohmann::ordered_json::array();
    if (auto it = exemplars.find(n.node); it != exemplars.end())
      for (const auto& e : it->second) r["exemplars"].push_back(exemplar_json(e));
    rows.push_back(std::move(r));
  }
  out["matrix"] = {{"groups", std::move(groups)}, {"rows", std::move(rows)}};
  out["cooccurrence"] = {{"level", co.level},
                         {"nodes", co.nodes},
                         {"counts", co.counts},
                         {"segments_above_level", co.segments_above_level}};
  return out;
}

std::string codebook_tables_csv(const CodebookData& data, const CodebookOptions& options) {
  auto tables = codebook_tables(data, options);
  const auto& matrix = tables.matrix;
  const auto& co = tables.cooccurrence;

  std::string out = csv::format_record({"table", "row", "column", "count", "group_size", "percent"}, true);
  for (const auto& n : matrix.nodes) {
    out += csv::format_record({"matrix", n.node, "all", std::to_string(n.participants),
                               std::to_string(matrix.participants), format_percent(n.participants, matrix.participants)},
                              true);
    for (std::size_t g = 0; g < matrix.groups.size(); ++g) {
      const auto& grp = matrix.groups[g];
      out += csv::format_record({"matrix", n.node, grp.attribute + "=" + grp.value, std::to_string(n.by_group[g]),
                                 std::to_string(grp.size), format_percent(n.by_group[g], grp.size)},
                                true);
    }
  }
  for (std::size_t a = 0; a < co.nodes.size(); ++a)
    for (std::size_t b = 0; b < co.nodes.size(); ++b)
      out += csv::format_record({"cooccurrence", co.nodes[a], co.nodes[b], std::to_string(co.counts[a][b]), "", ""},
                                true);
  return out;
}

}  // namespace qualrank
