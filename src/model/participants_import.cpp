// `qualrank participants import`: a classification sheet merged into the transcripts' front matter.
// 1. The sheet (CSV or one .xlsx sheet) becomes text cells, each with its location (participant_sheet.cpp).
// 2. Columns are resolved: the id column, --map COLUMN=ATTRIBUTE, and headers equal to a known attribute.
// 3. Every cell is converted (trimmed; roles and experience levels matched case-insensitively against the
//    guideline; years through parse_years) and compared with the transcript's own front matter.
// 4. Each transcript with a change is edited by splices of its front-matter lines only, and the result is
//    parsed again: the same body bytes, the same turns, and exactly the new values, or the plan fails.
// Nothing is written unless every step succeeded for every row (write_participants_import).
#include "qualrank/model/participants_import.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <set>

#include "qualrank/util/files.h"
#include "qualrank/util/workspace_lock.h"
#include "qualrank/util/text.h"
#include "qualrank/util/yaml_emit.h"

#include <yaml-cpp/yaml.h>

namespace qualrank {

namespace fs = std::filesystem;

// ---- editing front matter ----------------------------------------------------------------------------

namespace {

// A transcript's lines, each with its own line ending, so that unchanged lines are kept byte for byte.
struct FrontMatterEditor {
  std::vector<std::string> lines;  // with endings
  std::size_t close = 0;           // index of the closing '---' line
  std::string nl = "\n";

  static std::optional<FrontMatterEditor> open(const std::string& content) {
    FrontMatterEditor e;
    std::size_t start = 0;
    while (start < content.size()) {
      auto end = content.find('\n', start);
      end = end == std::string::npos ? content.size() : end + 1;
      e.lines.push_back(content.substr(start, end - start));
      start = end;
    }
    auto bare = [](const std::string& l) {
      std::string_view v(l);
      if (v.substr(0, 3) == "\xEF\xBB\xBF") v.remove_prefix(3);
      return text::trim(v);
    };
    if (e.lines.empty() || bare(e.lines[0]) != "---") return std::nullopt;
    if (e.lines[0].size() >= 2 && e.lines[0][e.lines[0].size() - 2] == '\r') e.nl = "\r\n";
    for (std::size_t k = 1; k < e.lines.size(); ++k)
      if (bare(e.lines[k]) == "---") {
        e.close = k;
        return e;
      }
    return std::nullopt;
  }
  std::string text() const {
    std::string out;
    for (const auto& l : lines) out += l;
    return out;
  }
  static std::size_t indent(const std::string& l) {
    std::size_t i = 0;
    while (i < l.size() && (l[i] == ' ' || l[i] == '\t')) ++i;
    return i;
  }
  static bool blank(const std::string& l) {
    auto t = text::trim(l);
    return t.empty() || t.front() == '#';
  }
  std::string ending(std::size_t k) const {
    const auto& l = lines[k];
    if (l.size() >= 2 && l.compare(l.size() - 2, 2, "\r\n") == 0) return "\r\n";
    if (!l.empty() && l.back() == '\n') return "\n";
    return nl;
  }
  // The line `key:` at indentation `ind` in [from, to); npos when absent.
  std::size_t find_key(std::size_t from, std::size_t to, std::size_t ind, const std::string& key) const {
    for (std::size_t k = from; k < to; ++k) {
      const auto& l = lines[k];
      if (blank(l) || indent(l) != ind) continue;
      std::string_view rest = std::string_view(l).substr(ind);
      for (std::string form : {key, "\"" + key + "\"", "'" + key + "'"})
        if (rest.substr(0, form.size()) == form && rest.size() > form.size() && rest[form.size()] == ':') return k;
    }
    return std::string::npos;
  }
  // The end of the entry starting on line k: the lines after it indented deeper (or blank before such).
  std::size_t entry_end(std::size_t k, std::size_t to) const {
    std::size_t ind = indent(lines[k]);
    std::size_t end = k + 1, scan = k + 1;
    while (scan < to) {
      if (blank(lines[scan])) { ++scan; continue; }
      bool deeper = indent(lines[scan]) > ind || (ind == 0 && lines[scan][0] == '-');
      if (!deeper) break;
      end = ++scan;
    }
    return end;
  }
  void replace(std::size_t k, std::size_t end, const std::string& line) {
    std::string e = ending(end - 1);
    lines.erase(lines.begin() + static_cast<long>(k), lines.begin() + static_cast<long>(end));
    lines.insert(lines.begin() + static_cast<long>(k), line + e);
    close -= end - k - 1;
  }
  void insert(std::size_t k, const std::string& line) {
    lines.insert(lines.begin() + static_cast<long>(k), line + nl);
    ++close;
  }

  void set_top_level(const std::string& key, const std::string& value) {
    auto k = find_key(1, close, 0, key);
    std::string line = yaml::quote(key) + ": " + yaml::quote(value);
    if (k == std::string::npos) insert(close, line);
    else replace(k, entry_end(k, close), line);
  }

  // Sets attributes.KEY; returns an error message when the attributes cannot be edited safely.
  std::optional<std::string> set_attribute(const std::string& key, const std::string& value) {
    auto a = find_key(1, close, 0, "attributes");
    if (a == std::string::npos) {
      insert(close, "attributes:");
      insert(close, "  " + yaml::quote(key) + ": " + yaml::quote(value));
      return std::nullopt;
    }
    std::string_view l(lines[a]);
    auto rest = text::trim(l.substr(l.find(':') + 1));
    if (!rest.empty() && rest.front() != '#') {
      // A flow map on the same line becomes a block map, one attribute a line.
      YAML::Node flow;
      try {
        flow = YAML::Load(std::string(rest));
      } catch (const YAML::Exception&) {
        return "the 'attributes' map cannot be edited (a flow map over several lines); write one attribute per line";
      }
      if (!flow.IsMap()) return "the 'attributes' map cannot be edited (a flow map over several lines); write one attribute per line";
      std::vector<std::string> block{"attributes:"};
      for (const auto& kv : flow) {
        if (!kv.first.IsScalar() || !(kv.second.IsScalar() || kv.second.IsNull()))
          return "the 'attributes' flow map holds a list or map; write one attribute per line";
        block.push_back("  " + yaml::quote(kv.first.Scalar()) + ": " + (kv.second.IsNull() ? "" : yaml::quote(kv.second.Scalar())));
      }
      std::string e = ending(a);
      lines.erase(lines.begin() + static_cast<long>(a));
      for (std::size_t i = 0; i < block.size(); ++i) lines.insert(lines.begin() + static_cast<long>(a + i), block[i] + e);
      close += block.size() - 1;
    }
    std::size_t end = entry_end(a, close);
    std::size_t ind = 2;
    for (std::size_t k = a + 1; k < end; ++k)
      if (!blank(lines[k])) {
        ind = indent(lines[k]);
        break;
      }
    std::string line = std::string(ind, ' ') + yaml::quote(key) + ": " + yaml::quote(value);
    auto k = find_key(a + 1, end, ind, key);
    if (k != std::string::npos) {
      replace(k, entry_end(k, end), line);
      return std::nullopt;
    }
    std::size_t last = a;
    for (std::size_t j = a + 1; j < end; ++j)
      if (!blank(lines[j])) last = j;
    if (!lines[last].empty() && lines[last].back() != '\n') lines[last] += nl;
    insert(last + 1, line);
    return std::nullopt;
  }
};

bool is_attribute_name(const std::string& s) {
  if (s.empty() || s.size() > 64 || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
  });
}


// The candidate equal to `value` ignoring case, or "".
std::string match_ci(const std::string& value, const std::vector<std::string>& candidates) {
  for (const auto& c : candidates)
    if (text::fold_trimmed(c) == text::fold_trimmed(value)) return c;
  return "";
}

std::string hint(const std::string& value, const std::vector<std::string>& candidates) {
  auto h = text::closest(value, candidates);
  return h.empty() ? "" : " (did you mean '" + h + "'?)";
}

struct TranscriptFile {
  std::string file;
  std::string content;
  Transcript parsed;
};

}  // namespace

// ---- planning ----------------------------------------------------------------------------------------

std::optional<ParticipantImportPlan> plan_participants_import(const fs::path& root, const ParticipantSheet& sheet,
                                                              const ParticipantImportOptions& options,
                                                              Diagnostics& diags) {
  int before = diags.error_count();
  auto ws = load_workspace_design(root, diags);
  if (!ws) return std::nullopt;
  const auto& g = ws->guideline;
  const Location sheet_at = sheet.header_where.empty() ? Location{sheet.source, 1, 1} : sheet.header_where.front();

  // Transcripts, parsed without anything derived: their own front-matter values.
  std::vector<TranscriptFile> transcripts;
  std::map<std::string, std::size_t> by_id;
  std::set<std::string> known_attributes;
  for (const auto& p : files::list_files(root / "transcripts", ".md")) {
    TranscriptFile tf;
    tf.file = files::display_path(p, root);
    auto content = files::read_inside(root, p);  // one leading outside through a symlink is not read
    Diagnostics scratch;
    std::optional<Transcript> t;
    if (content) t = parse_transcript(*content, tf.file, scratch);
    if (!t) {
      diags.error({tf.file, 1, 1}, "cannot be read as a transcript; 'qualrank validate' says why");
      continue;
    }
    tf.content = std::move(*content);
    tf.parsed = std::move(*t);
    for (const auto& [k, v] : tf.parsed.attributes) known_attributes.insert(k);
    if (tf.parsed.participant.empty()) continue;
    auto [it, fresh] = by_id.emplace(tf.parsed.participant, transcripts.size());
    if (!fresh) {
      diags.error(tf.parsed.participant_where, "duplicate participant id '" + tf.parsed.participant + "' (also in " +
                                                   transcripts[it->second].file + ")");
      continue;
    }
    transcripts.push_back(std::move(tf));
  }

  // Columns.
  ParticipantImportPlan plan;
  auto column_of = [&](const std::string& name) -> int {
    for (std::size_t c = 0; c < sheet.header.size(); ++c)
      if (text::fold_trimmed(sheet.header[c]) == text::fold_trimmed(name)) return static_cast<int>(c);
    return -1;
  };
  int id_col = column_of(options.id_column);
  if (id_col < 0)
    diags.error(sheet_at, "no column '" + options.id_column + "' for the participant ids" + hint(options.id_column, sheet.header) +
                              " (columns: " + text::join(sheet.header, ", ") + ")");
  std::map<int, std::string> attribute_of;  // column -> attribute
  for (const auto& [col_name, attr] : options.map) {
    int c = column_of(col_name);
    if (c < 0) {
      diags.error(sheet_at, "--map: no column '" + col_name + "'" + hint(col_name, sheet.header) + " (columns: " +
                                text::join(sheet.header, ", ") + ")");
      continue;
    }
    if (!is_attribute_name(attr)) {
      diags.error(sheet_at, "--map: '" + attr + "' is not an attribute name (letters, digits, '_', '-', '.'; starting with a letter)");
      continue;
    }
    if (c == id_col) {
      diags.error(sheet_at, "--map: column '" + col_name + "' holds the participant ids");
      continue;
    }
    attribute_of[c] = attr == "participant" ? "" : attr;
    if (attr == "participant") diags.error(sheet_at, "--map: the participant id comes from --id-column, not from --map");
  }
  std::vector<std::string> known{"role"};
  if (g.experience) {
    known.push_back(g.experience->attribute);
    if (!g.experience->from.empty()) known.push_back(g.experience->from);
  }
  for (const auto& q : g.questions)
    if (q.kind == QuestionKind::background && !q.attribute.empty()) known.push_back(q.attribute);
  known.insert(known.end(), known_attributes.begin(), known_attributes.end());
  for (std::size_t c = 0; c < sheet.header.size(); ++c) {
    int ci = static_cast<int>(c);
    if (ci == id_col || attribute_of.count(ci)) continue;
    auto m = match_ci(sheet.header[c], known);
    if (!m.empty()) attribute_of[ci] = m;
    else if (!text::trim(sheet.header[c]).empty()) {
      plan.ignored_columns.push_back(sheet.header[c]);
      // A column of names or contact details is never offered as an attribute: transcripts are what a
      // package publishes (pseudonymised), and a "did you mean" would invite writing real names into them.
      static const char* const kPersonal[] = {"name", "names", "first name", "last name", "full name", "surname",
                                              "given name", "family name", "first_name", "last_name", "full_name",
                                              "email", "e-mail", "mail", "phone", "telephone", "address"};
      const std::string folded = text::fold_trimmed(sheet.header[c]);
      if (std::any_of(std::begin(kPersonal), std::end(kPersonal), [&](const char* k) { return folded == k; })) continue;
      auto near = text::closest(folded, known);
      if (!near.empty())
        diags.warning(sheet.header_where[c], "column '" + sheet.header[c] + "' is ignored (did you mean '" + near +
                                                 "'? --map \"" + sheet.header[c] + "=" + near + "\" imports it)");
    }
  }
  std::map<std::string, int> column_for;
  for (const auto& [c, attr] : attribute_of) {
    auto [it, fresh] = column_for.emplace(attr, c);
    if (!fresh)
      diags.error(sheet.header_where[static_cast<std::size_t>(c)], "columns '" + sheet.header[static_cast<std::size_t>(it->second)] +
                                                                      "' and '" + sheet.header[static_cast<std::size_t>(c)] +
                                                                      "' both set attribute '" + attr + "'");
    plan.columns.emplace_back(sheet.header[static_cast<std::size_t>(c)], attr);
  }
  if (diags.error_count() > before) return std::nullopt;

  // Rows.
  std::map<std::string, std::vector<AttributeChange>> per_file;
  std::map<std::string, Location> rows_seen;
  std::set<std::string> matched;
  for (const auto& row : sheet.rows) {
    const auto id_at = row.where[static_cast<std::size_t>(id_col)];
    std::string id(text::trim(row.cells[static_cast<std::size_t>(id_col)]));
    if (id.empty()) {
      bool other = std::any_of(row.cells.begin(), row.cells.end(), [](const std::string& s) { return !text::trim(s).empty(); });
      if (other) diags.error(id_at, "a row without a participant id (column '" + sheet.header[static_cast<std::size_t>(id_col)] + "')");
      continue;
    }
    ++plan.rows;
    auto [seen, fresh] = rows_seen.emplace(id, id_at);
    if (!fresh) {
      diags.error(id_at, "participant '" + id + "' has a second row (the first at " + seen->second.file + ":" +
                             std::to_string(seen->second.line) + ":" + std::to_string(seen->second.column) + ")");
      continue;
    }
    auto t_it = by_id.find(id);
    if (t_it == by_id.end()) {
      std::vector<std::string> ids;
      for (const auto& [pid, _] : by_id) ids.push_back(pid);
      auto ci = match_ci(id, ids);
      if (!ci.empty()) t_it = by_id.find(ci);
      else {
        auto near = text::closest(id, ids, 1);
        diags.warning(id_at, "participant '" + id + "' has no transcript in transcripts/" +
                                 (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; row skipped");
        plan.sheet_only.push_back(id);
        continue;
      }
    }
    const auto& tf = transcripts[t_it->second];
    matched.insert(tf.parsed.participant);
    for (const auto& [c, attr] : attribute_of) {
      const auto& at = row.where[static_cast<std::size_t>(c)];
      std::string value(text::trim(row.cells[static_cast<std::size_t>(c)]));
      if (value.empty()) continue;
      const std::string column = "column '" + sheet.header[static_cast<std::size_t>(c)] + "'";
      if (attr == "role") {
        auto m = match_ci(value, g.roles);
        if (m.empty()) {
          diags.error(at, column + ": unknown role '" + value + "'" + hint(value, g.roles) + " (the guideline's roles: " +
                              text::join(g.roles, ", ") + ")");
          continue;
        }
        value = m;
      } else if (g.experience && attr == g.experience->attribute) {
        auto m = match_ci(value, g.experience->levels);
        if (m.empty()) {
          diags.error(at, column + ": unknown " + attr + " level '" + value + "'" + hint(value, g.experience->levels) +
                              " (the guideline's levels: " + text::join(g.experience->levels, ", ") + ")");
          continue;
        }
        value = m;
      } else if (g.experience && attr == g.experience->from) {
        auto years = parse_years(value);
        if (!years) {
          diags.error(at, column + ": '" + value + "' is not a number of years (write e.g. 3, 1.5, 1,5, 3 years, 2 yrs, 8 months; docs/participants.md)");
          continue;
        }
        value = format_years(*years);
      }
      std::string old;
      if (attr == "role") old = tf.parsed.role;
      else if (auto it = tf.parsed.attributes.find(attr); it != tf.parsed.attributes.end()) old = it->second;
      if (old == value) {
        ++plan.unchanged;
        continue;
      }
      AttributeChange ch{tf.parsed.participant, tf.file, attr, old, value, at};
      plan.changes.push_back(ch);
      per_file[tf.file].push_back(ch);
    }
  }
  for (const auto& tf : transcripts)
    if (!matched.count(tf.parsed.participant)) {
      diags.warning(tf.parsed.participant_where, "participant '" + tf.parsed.participant + "' has no row in " + sheet.source);
      plan.transcript_only.push_back(tf.parsed.participant);
    }
  if (diags.error_count() > before) return std::nullopt;

  // Edits, each checked by parsing its result.
  for (const auto& tf : transcripts) {
    auto it = per_file.find(tf.file);
    if (it == per_file.end()) continue;
    auto editor = FrontMatterEditor::open(tf.content);
    if (!editor) {
      diags.error({tf.file, 1, 1}, "cannot find the front matter to edit");
      continue;
    }
    const std::string body_before = tf.content.substr(tf.content.size() - [&] {
      std::size_t n = 0;
      for (std::size_t k = editor->close; k < editor->lines.size(); ++k) n += editor->lines[k].size();
      return n;
    }());
    bool ok = true;
    for (const auto& ch : it->second) {
      if (ch.attribute == "role") editor->set_top_level("role", ch.new_value);
      else if (auto problem = editor->set_attribute(ch.attribute, ch.new_value)) {
        diags.error({tf.file, tf.parsed.participant_where.line, 1}, *problem);
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    std::string result = editor->text();
    Diagnostics scratch;
    auto back = parse_transcript(result, tf.file, scratch);
    bool same = back && back->participant == tf.parsed.participant && back->turns.size() == tf.parsed.turns.size() &&
                back->sections.size() == tf.parsed.sections.size() && result.size() >= body_before.size() &&
                result.compare(result.size() - body_before.size(), body_before.size(), body_before) == 0;
    for (const auto& ch : it->second) {
      if (!same) break;
      same = ch.attribute == "role" ? back->role == ch.new_value
                                    : back->attributes.count(ch.attribute) && back->attributes.at(ch.attribute) == ch.new_value;
    }
    if (!same) {
      diags.error({tf.file, 1, 1}, "the front matter could not be edited safely (the edited file does not read back as planned); nothing written");
      continue;
    }
    plan.files[tf.file] = std::move(result);
    plan.originals[tf.file] = tf.content;
  }
  if (diags.error_count() > before) return std::nullopt;
  return plan;
}

bool write_participants_import(const fs::path& root, const ParticipantImportPlan& plan, std::string* error) {
  files::WorkspaceLock lock(root);  // against every other qualrank writer of transcripts (no lost update)
  if (!lock.locked()) {
    if (error) *error = lock.why();
    return false;
  }
  files::StagedFiles staged(root);  // every file written before any is renamed into place (journaled)
  for (const auto& [rel, content] : plan.files)
    if (!staged.stage_inside(rel, content, error)) return false;
  for (const auto& [rel, original] : plan.originals) {
    auto now = files::read_inside(root, rel);
    if (!now || *now != original) {
      if (error) *error = rel + " changed while the import was planned; nothing written (run it again)";
      return false;
    }
  }
  return staged.commit(error);
}

}  // namespace qualrank
