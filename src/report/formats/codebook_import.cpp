// The coded-quote table reader: CSV rows -> CodebookData (participants and coded segments), checking every
// linked node against the taxonomy version in use and reporting all problems before giving up.
#include "qualrank/report/formats/codebook_import.h"

#include <map>

#include "qualrank/util/csv.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

// A column of the table and the header names it accepts (case-insensitive).
struct ColumnNames {
  const char* key;
  std::vector<const char*> names;
  bool required;
};

const std::vector<ColumnNames>& table_columns() {
  static const std::vector<ColumnNames> columns = {
      {"participant", {"Participant"}, true},
      {"type", {"Role", "Type", "Type (role)"}, false},
      {"experience", {"Experience Level", "Experience"}, false},
      {"prompt", {"Prompt Category"}, false},
      {"quote", {"Thematic Quote", "Quote"}, false},
      {"nodes", {"Linked Taxonomy Node(s)", "Linked Taxonomy Nodes", "Linked Taxonomy Node"}, true},
      {"memo", {"Research Insight", "Memo"}, false},
      {"coder", {"Coder"}, false},
      {"source", {"Source"}, false},
      {"segment", {"Segment"}, false},
      {"exemplar", {"Exemplar for", "Exemplar"}, false},
  };
  return columns;
}

}  // namespace

std::optional<CodebookData> import_coded_table(const std::string& text_in, const std::string& file,
                                               const TaxonomyVersion& version, const Guideline& guideline,
                                               const CodebookOptions& options, Diagnostics& diags) {
  if (auto bad = text::find_invalid_utf8(text_in)) {
    diags.error({file, bad->line, bad->column}, "invalid UTF-8 (save the table as UTF-8 CSV)");
    return std::nullopt;
  }
  int errors_before = diags.error_count();
  auto table = csv::parse(text_in, file, diags);
  if (table.header.empty()) return std::nullopt;

  std::map<std::string, int> col;
  for (const auto& c : table_columns()) {
    int index = -1;
    for (const char* name : c.names)
      if ((index = table.column(name)) >= 0) break;
    if (index < 0 && c.required)
      diags.error({file, table.header_line, 0}, std::string("the table has no '") + c.names.front() +
                                                    "' column (its columns: " + text::join(table.header, ", ") + ")");
    col[c.key] = index;
  }
  // The context column: headed by the study's label or by the attribute's name.
  CodebookContext context = codebook_context(options, guideline);
  col["context"] = -1;
  if (context.enabled()) {
    col["context"] = table.column(context.label);
    if (col["context"] < 0) col["context"] = table.column(context.attribute);
  }
  if (diags.error_count() > errors_before) return std::nullopt;

  CodebookData data;
  data.taxonomy = &version.taxonomy;
  data.guideline = &guideline;
  data.version = version.number;
  data.version_name = version.name;
  data.origin = file;
  data.experience_attribute = guideline.experience ? guideline.experience->attribute : "experience";
  data.context = context;
  const std::string& context_attribute = context.attribute;

  std::map<std::string, std::size_t> participant_index;
  for (const auto& row : table.rows) {
    auto cell = [&](const char* key) -> std::string {
      int i = col[key];
      return i < 0 ? std::string() : std::string(text::trim(row.fields[i]));
    };
    Location at{file, row.line, 0};
    std::string participant = cell("participant");
    if (participant.empty()) {
      diags.error(at, "the row has no Participant");
      continue;
    }
    CodebookSegment out;
    auto owned = std::make_shared<CodedSegment>();
    out.owned = owned;
    out.segment = owned.get();
    CodedSegment& s = *owned;
    s.participant = participant;
    s.role = cell("type");
    out.experience = cell("experience");
    out.context = cell("context");
    out.context_where = at;
    out.prompt = std::make_shared<const std::string>(cell("prompt"));
    out.memo = cell("memo");
    out.source = cell("source").empty() ? file + ":" + std::to_string(row.line) : cell("source");
    if (!out.experience.empty()) s.attributes[data.experience_attribute] = out.experience;
    if (!out.context.empty()) s.attributes[context_attribute] = out.context;
    int quote_col = col["quote"];
    s.text = quote_col < 0 ? std::string() : row.fields[quote_col];  // the quote as written, spaces kept
    auto first_word = text::split_nonempty(*out.prompt, ' ');
    if (!first_word.empty())
      if (const Question* q = guideline.find(first_word.front())) {
        s.question = q->id;
        s.part = q->part;
      }
    s.id = cell("segment").empty() ? participant + "#row" + std::to_string(row.line) : cell("segment");
    s.source = at;
    // The participant: registered by their first row (even one without codes), completed by later rows.
    auto [it, fresh] = participant_index.emplace(participant, data.participants.size());
    if (fresh) {
      CodebookParticipant p;
      p.id = participant;
      p.where = at;
      p.coder = text::join(text::split_nonempty(cell("coder"), ','), ", ");
      data.participants.push_back(std::move(p));
    }
    CodebookParticipant& p = data.participants[it->second];
    auto merge = [&](const std::string& what, std::string& first, const std::string& here, const std::string& attribute) {
      if (here.empty()) return;
      if (first.empty()) {
        first = here;
        if (!attribute.empty()) p.attribute_where[attribute] = at;
      } else if (here != first) {
        diags.warning(at, "participant '" + participant + "' has " + what + " '" + here + "' here but '" + first +
                              "' on an earlier row; the first is used");
      }
    };
    merge("Role", p.role, s.role, "");
    if (!out.experience.empty()) merge("Experience Level", p.attributes[data.experience_attribute], out.experience, data.experience_attribute);
    if (!out.context.empty()) merge(context.label, p.attributes[context_attribute], out.context, context_attribute);

    auto coders = text::split_nonempty(cell("coder"), ',');
    if (coders.empty()) coders.push_back("");
    auto nodes = text::split_nonempty(cell("nodes"), ',');
    if (nodes.empty()) {
      diags.warning(at, "the row links no taxonomy node; left out");
      continue;
    }
    for (const auto& written : nodes) {
      auto r = version.resolve(written);
      if (!r.node) {
        diags.error(at, r.problem.empty() ? "unknown taxonomy node '" + written + "'" : r.problem);
        continue;
      }
      for (const auto& coder : coders) s.codes.push_back({*r.node, written, coder, out.memo, at});
    }
    if (s.codes.empty()) continue;  // reported above
    for (const auto& written : text::split_nonempty(cell("exemplar"), ',')) {  // the nodes the quote is picked for
      auto r = version.resolve(written);
      bool linked = false;
      for (auto& c : s.codes)
        if (r.node && c.node == *r.node) c.exemplar = linked = true;
      if (!linked) diags.warning(at, "Exemplar for '" + written + "', a node the row does not link; ignored");
    }
    data.segments.push_back(std::move(out));
  }
  if (diags.error_count() > errors_before) return std::nullopt;
  return data;
}

}  // namespace qualrank
