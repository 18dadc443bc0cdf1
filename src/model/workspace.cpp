#include "qualrank/model/workspace.h"

#include <algorithm>
#include <map>
#include <set>

#include "qualrank/util/files.h"
#include "qualrank/util/parallel.h"
#include "qualrank/util/edit_distance.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace fs = std::filesystem;

const Transcript* Workspace::participant(const std::string& id) const {
  for (const auto& t : transcripts)
    if (t.participant == id) return &t;
  return nullptr;
}

std::vector<std::string> Workspace::roles() const { return attribute_levels("role"); }

std::vector<std::string> Workspace::attribute_levels(const std::string& attribute) const {
  std::vector<std::string> out;
  std::set<std::string> present;
  for (const auto& t : transcripts) {
    if (attribute == "role") present.insert(t.role);
    else if (auto it = t.attributes.find(attribute); it != t.attributes.end() && !it->second.empty()) present.insert(it->second);
  }
  std::vector<std::string> preferred;
  if (attribute == "role") preferred = guideline.roles;
  else if (guideline.experience && guideline.experience->attribute == attribute) preferred = guideline.experience->levels;
  for (const auto& p : preferred)
    if (present.count(p)) out.push_back(p);
  for (const auto& p : present)
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  return out;
}

namespace {

// Finds exactly one file with `suffix` in `dir`, skipping names that end in any of `skip`.
std::optional<fs::path> find_single(const fs::path& root, const std::string& dir, const std::string& what,
                                    const std::vector<std::string>& skip, Diagnostics& diags) {
  std::vector<fs::path> found;
  for (auto ext : {".yaml", ".yml"})
    for (auto& p : files::list_files(root / dir, ext)) {
      auto name = p.filename().string();
      bool skipped = std::any_of(skip.begin(), skip.end(), [&](const std::string& s) {
        return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
      });
      if (!skipped) found.push_back(p);
    }
  if (found.empty()) {
    diags.error({dir + "/", 0, 0}, "no " + what + " found (a .yaml file in " + dir + "/)");
    return std::nullopt;
  }
  if (found.size() > 1) {
    diags.error({files::display_path(found[1], root), 0, 0},
                "more than one " + what + " in " + dir + "/ (" + found[0].filename().string() + ", " +
                    found[1].filename().string() + "); a workspace has exactly one");
    return std::nullopt;
  }
  return found.front();
}

void derive_experience(Workspace& ws, Transcript& t, Diagnostics& diags) {
  if (!ws.guideline.experience) return;
  const auto& scheme = *ws.guideline.experience;
  auto have = t.attributes.find(scheme.attribute);
  if (have != t.attributes.end() && !have->second.empty()) {
    if (std::find(scheme.levels.begin(), scheme.levels.end(), have->second) == scheme.levels.end())
      diags.error(t.attribute_where[scheme.attribute], "unknown " + scheme.attribute + " level '" + have->second +
                                                          "' (the guideline's levels: " + text::join(scheme.levels, ", ") + ")");
    return;
  }
  if (scheme.from.empty()) return;
  auto from = t.attributes.find(scheme.from);
  if (from == t.attributes.end() || from->second.empty()) return;
  try {
    std::size_t used = 0;
    double v = std::stod(from->second, &used);
    if (used != from->second.size()) throw std::invalid_argument("");
    t.attributes[scheme.attribute] = scheme.level_for(v);
  } catch (...) {
    diags.error(t.attribute_where[scheme.from], "attribute '" + scheme.from + "' must be a number to derive " +
                                                    scheme.attribute + ", not '" + from->second + "'");
  }
}

void check_transcript(Workspace& ws, Transcript& t, Diagnostics& diags) {
  const auto& g = ws.guideline;
  if (!t.role.empty() && std::find(g.roles.begin(), g.roles.end(), t.role) == g.roles.end())
    diags.error(t.role_where, "unknown role '" + t.role + "' (the guideline's roles: " + text::join(g.roles, ", ") + ")");
  std::map<std::string, Location> seen_sections;
  for (const auto& s : t.sections) {
    if (s.question.empty()) continue;
    const Question* q = g.find(s.question);
    if (!q) {
      std::string hint;
      std::size_t best = 3;
      for (const auto& cand : g.questions) {
        auto d = text::edit_distance_at_most(cand.id, s.question, 2);
        if (d < best) { best = d; hint = " (did you mean '" + cand.id + "'?)"; }
      }
      diags.error(s.where, "section names question '" + s.question + "', which the guideline lacks" + hint);
      continue;
    }
    if (!t.role.empty() && !q->asked_to(t.role))
      diags.error(s.where, "question '" + s.question + "' is not asked to role '" + t.role + "'");
    auto [it, fresh] = seen_sections.emplace(s.question, s.where);
    if (!fresh) diags.warning(s.where, "question '" + s.question + "' has a second section (first at line " + std::to_string(it->second.line) + ")");
  }
  std::set<std::string> ranked;
  for (const auto& r : t.rankings) {
    const Question* q = g.find(r.question);
    if (q && q->kind != QuestionKind::ranking)
      diags.error(r.line, "@rank in the section of question '" + r.question + "', which is not a ranking question");
    if (!ranked.insert(r.question).second) diags.error(r.line, "a second ranking for question '" + r.question + "'");
  }
  for (const auto& a : t.answers) {
    const Question* q = g.find(a.question);
    if (!q) continue;
    if (q->kind != QuestionKind::background) {
      diags.error(a.where, "@answer in the section of question '" + a.question + "', which is not a background question");
      continue;
    }
    if (!q->attribute.empty() && !t.attributes.count(q->attribute)) {
      t.attributes[q->attribute] = a.value;
      t.attribute_where[q->attribute] = a.where;
    }
  }
  for (const auto& turn : t.turns)
    if (!turn.interviewer && turn.text.empty() && turn.codes.empty())
      diags.warning({t.file, turn.line, 1}, "empty participant turn");
}

}  // namespace

std::optional<Workspace> load_workspace_design(const fs::path& root, Diagnostics& diags) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    diags.error({root.string(), 0, 0}, "not a workspace folder");
    return std::nullopt;
  }
  Workspace ws;
  ws.root = root;
  auto tax_path = find_single(root, "codebooks", "taxonomy", {".history.yaml", ".history.yml"}, diags);
  auto guide_path = find_single(root, "guidelines", "guideline", {}, diags);
  if (!tax_path) return std::nullopt;
  ws.taxonomy_path = files::display_path(*tax_path, root);
  auto tax_text = files::read(*tax_path);
  if (!tax_text) {
    diags.error({ws.taxonomy_path, 0, 0}, "cannot read the file");
    return std::nullopt;
  }
  if (auto bad = text::find_invalid_utf8(*tax_text)) {
    diags.error({ws.taxonomy_path, bad->line, bad->column}, "invalid UTF-8");
    return std::nullopt;
  }
  auto tax = load_taxonomy(*tax_text, ws.taxonomy_path, diags);
  if (!tax) return std::nullopt;
  ws.taxonomy = std::move(*tax);
  {
    auto stem = tax_path->stem().string();
    ws.history_path = "codebooks/" + stem + ".history.yaml";
  }
  if (!guide_path) return std::nullopt;
  auto guide_display = files::display_path(*guide_path, root);
  auto guide_text = files::read(*guide_path);
  if (!guide_text) {
    diags.error({guide_display, 0, 0}, "cannot read the file");
    return std::nullopt;
  }
  if (auto bad = text::find_invalid_utf8(*guide_text)) {
    diags.error({guide_display, bad->line, bad->column}, "invalid UTF-8");
    return std::nullopt;
  }
  auto g = load_guideline(*guide_text, guide_display, ws.taxonomy, diags);
  if (!g) return std::nullopt;
  ws.guideline = std::move(*g);
  return ws;
}

std::optional<Workspace> load_workspace(const fs::path& root, Diagnostics& diags) {
  auto loaded = load_workspace_design(root, diags);
  if (!loaded) return std::nullopt;
  Workspace ws = std::move(*loaded);
  std::map<std::string, const Transcript*> by_participant;
  // Transcripts are read and parsed on several threads (parse_transcript is reentrant), each into its own
  // slot; they and their diagnostics are then taken in file order, as one thread would have produced them.
  const auto paths = files::list_files(root / "transcripts", ".md");
  std::vector<std::optional<Transcript>> parsed(paths.size());
  std::vector<Diagnostics> parse_diags(paths.size());
  parallel_for(paths.size(), [&](std::size_t i) {
    auto display = files::display_path(paths[i], root);
    auto content = files::read(paths[i]);
    if (!content) parse_diags[i].error({display, 0, 0}, "cannot read the file");
    else parsed[i] = parse_transcript(*content, display, parse_diags[i]);
  });
  ws.transcripts.reserve(paths.size());
  for (std::size_t i = 0; i < paths.size(); ++i) {
    diags.append(parse_diags[i]);
    if (parsed[i]) ws.transcripts.push_back(std::move(*parsed[i]));
  }
  for (auto& t : ws.transcripts) {
    check_transcript(ws, t, diags);
    derive_experience(ws, t, diags);
    if (t.participant.empty()) continue;
    auto [it, fresh] = by_participant.emplace(t.participant, &t);
    if (!fresh)
      diags.error(t.participant_where, "duplicate participant id '" + t.participant + "' (also in " + it->second->file + ")");
  }
  for (const auto& path : files::list_files(root / "transcripts", ".codes")) {
    auto display = files::display_path(path, root);
    auto content = files::read(path);
    if (!content) continue;
    auto s = parse_standoff(*content, display, diags);
    if (!s) continue;
    Transcript* target = nullptr;
    for (auto& t : ws.transcripts)
      if (fs::path(t.file).stem().string() == s->transcript_stem) target = &t;
    if (!target) {
      // A transcript that exists but failed to parse has been reported already.
      if (!std::filesystem::exists(root / "transcripts" / (s->transcript_stem + ".md")))
        diags.error({display, 1, 1}, "no transcript '" + s->transcript_stem + ".md' for these codings");
      continue;
    }
    apply_standoff(*target, *s, diags);
  }
  for (const auto& p : files::list_files(root / "codebooks" / "labels", ".csv"))
    ws.label_tables.push_back(files::display_path(p, root));
  return ws;
}

}  // namespace qualrank
