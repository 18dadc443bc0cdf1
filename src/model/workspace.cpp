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

// files::list_files, less the files that lead outside the workspace through a symlink (a cloned repository can
// carry "transcripts/U99.md -> /etc/passwd") and those whose name is not valid UTF-8 (no output could name
// them): each of those is an error, and never read.
std::vector<fs::path> list_inside(const fs::path& root, const fs::path& dir, std::string_view suffix, Diagnostics& diags) {
  std::vector<fs::path> out;
  for (auto& p : files::list_files(dir, suffix)) {
    if (auto problem = files::file_name_problem(p); !problem.empty())
      diags.error({text::escape_invalid_utf8(p.lexically_relative(root).generic_string()), 0, 0}, problem);
    else if (files::resolved_inside(root, p)) out.push_back(std::move(p));
    else diags.error({p.lexically_relative(root).generic_string(), 0, 0}, "leads outside the workspace through a symlink; not read");
  }
  return out;
}

// Finds exactly one file with `suffix` in `dir`, skipping names that end in any of `skip`.
std::optional<fs::path> find_single(const fs::path& root, const std::string& dir, const std::string& what,
                                    const std::vector<std::string>& skip, Diagnostics& diags) {
  std::vector<fs::path> found;
  for (auto ext : {".yaml", ".yml"})
    for (auto& p : list_inside(root, root / dir, ext, diags)) {
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

// " (did you mean 'x'?)" when one of `choices` is close to `given`, else " (the guideline's WHAT: a, b)".
std::string choices_hint(const std::string& given, const std::vector<std::string>& choices, const char* what) {
  auto hint = text::closest(given, choices);
  if (!hint.empty()) return " (did you mean '" + hint + "'?)";
  return std::string(" (the guideline's ") + what + ": " + text::join(choices, ", ") + ")";
}

void derive_experience(const Guideline& g, Transcript& t, Diagnostics& diags) {
  if (!g.experience) return;
  const auto& scheme = *g.experience;
  auto have = t.attributes.find(scheme.attribute);
  if (have != t.attributes.end() && !have->second.empty()) {
    if (std::find(scheme.levels.begin(), scheme.levels.end(), have->second) == scheme.levels.end()) {
      diags.error(t.attribute_where[scheme.attribute], "unknown " + scheme.attribute + " level '" + have->second + "'" +
                                                          choices_hint(have->second, scheme.levels, "levels"));
      return;
    }
    // A stated level and a number it is otherwise derived from should agree; the stated level is used.
    if (scheme.from.empty()) return;
    auto from = t.attributes.find(scheme.from);
    if (from == t.attributes.end() || from->second.empty()) return;
    char* end = nullptr;
    double v = std::strtod(from->second.c_str(), &end);
    if (end == from->second.c_str() || *end != '\0') return;
    auto derived = scheme.level_for(v);
    if (derived != have->second) {
      const auto& fw = t.attribute_where[scheme.from];
      diags.warning(t.attribute_where[scheme.attribute],
                    scheme.attribute + " '" + have->second + "' is stated here, but " + scheme.from + " " + from->second +
                        " (" + fw.file + ":" + std::to_string(fw.line) + ":" + std::to_string(fw.column) +
                        ") puts the participant in '" + derived + "'; the stated level is used");
    }
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

void check_transcript(const Guideline& g, Transcript& t, Diagnostics& diags) {
  if (!t.role.empty() && std::find(g.roles.begin(), g.roles.end(), t.role) == g.roles.end())
    diags.error(t.role_where, "unknown role '" + t.role + "'" + choices_hint(t.role, g.roles, "roles"));
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

// Coder names compare case-insensitively ("Jonas" and "jonas" are one coder): every coding gets the form the
// coder is first written in (transcripts in file order: the front matter's coder, then the codes in file
// order, inline before standoff), and each other form is a warning at the first coding written in it.
// The coders' spellings of one transcript in the order they first appear (its `coder:` first, then its codings
// turn by turn), each with the location of its first coding (none for the front matter's).
struct CoderSpellings {
  std::vector<std::pair<std::string, std::optional<Location>>> first;
};

CoderSpellings coder_spellings(const Transcript& t) {
  CoderSpellings out;
  auto note = [&](const std::string& coder, const Location* where) {
    auto known = [&](std::pair<std::string, std::optional<Location>>& entry) {
      if (entry.first != coder) return false;
      if (!entry.second && where) entry.second = *where;  // the first coding of the front matter's coder
      return true;
    };
    if (!out.first.empty() && known(out.first.back())) return;  // most codings repeat the one before
    for (auto& entry : out.first)
      if (known(entry)) return;
    out.first.emplace_back(coder, where ? std::optional<Location>(*where) : std::nullopt);
  };
  note(t.coder, nullptr);
  for (const auto& turn : t.turns) {
    for (const auto& c : turn.codes) note(c.coder, &c.where);
    for (const auto& span : turn.spans)
      for (const auto& c : span.codes) note(c.coder, &c.where);
  }
  return out;
}

// Coder names compare case-insensitively: every spelling becomes the first one met in file order, and each
// other spelling gets one warning at its first coding. Works on the spellings gathered per transcript (on the
// loading threads); only a transcript with a spelling to change is walked again.
void unify_coder_names(Workspace& ws, const std::vector<CoderSpellings>& spellings, Diagnostics& diags) {
  std::map<std::string, std::string> display;  // folded -> first form
  std::set<std::string> warned;
  for (std::size_t i = 0; i < ws.transcripts.size(); ++i) {
    std::map<std::string, std::string> renamed;  // this transcript's spellings that change
    for (const auto& [coder, where] : spellings[i].first) {
      auto [it, fresh] = display.emplace(text::fold_case(coder), coder);
      if (fresh || it->second == coder) continue;
      if (where && warned.insert(coder).second)
        diags.warning(*where, "coder '" + coder + "' is written '" + it->second + "' elsewhere; counted as one coder '" +
                                  it->second + "'");
      renamed[coder] = it->second;
    }
    if (renamed.empty()) continue;
    Transcript& t = ws.transcripts[i];
    auto unify = [&](auto& coder) {  // a std::string (the transcript's) or a SharedText (a coding's)
      if (auto it = renamed.find(coder); it != renamed.end()) coder = it->second;
    };
    unify(t.coder);
    for (auto& turn : t.turns) {
      for (auto& c : turn.codes) unify(c.coder);
      for (auto& span : turn.spans)
        for (auto& c : span.codes) unify(c.coder);
    }
  }
}

}  // namespace

void complete_attributes(const Guideline& guideline, Transcript& t, Diagnostics& diags) {
  check_transcript(guideline, t, diags);
  derive_experience(guideline, t, diags);
}

std::optional<Workspace> load_workspace_design(const fs::path& root, Diagnostics& diags) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    diags.error({root.string(), 0, 0}, "not a workspace folder");
    return std::nullopt;
  }
  Workspace ws;
  ws.root = root;
  auto tax_path = find_single(root, "codebooks", "taxonomy", {".history.yaml", ".history.yml"}, diags);
  // A study of issue reports alone (stage one: `init --stage-one`) has no guideline and no transcript: its
  // guideline is empty. A transcript without a guideline is still an error (its roles and sections need one).
  const bool stage_one = files::list_files(root / "guidelines", ".yaml").empty() &&
                         files::list_files(root / "guidelines", ".yml").empty() &&
                         files::list_files(root / "transcripts", ".md").empty();
  auto guide_path = stage_one ? std::optional<fs::path>() : find_single(root, "guidelines", "guideline", {}, diags);
  if (!tax_path) return std::nullopt;
  ws.taxonomy_path = files::display_path(*tax_path, root);
  std::string why;
  auto tax_text = files::read_input(*tax_path, files::kYamlInput, &why);
  if (!tax_text) {
    diags.error({ws.taxonomy_path, 0, 0}, why);
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
  if (stage_one) {
    ws.guideline.taxonomy = ws.taxonomy.name;
    return ws;
  }
  if (!guide_path) return std::nullopt;
  auto guide_display = files::display_path(*guide_path, root);
  auto guide_text = files::read_input(*guide_path, files::kYamlInput, &why);
  if (!guide_text) {
    diags.error({guide_display, 0, 0}, why);
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

std::optional<Workspace> load_workspace(const fs::path& root, Diagnostics& diags, const LoadOptions& options) {
  auto loaded = load_workspace_design(root, diags);
  if (!loaded) return std::nullopt;
  Workspace ws = std::move(*loaded);
  // Transcripts are read, parsed and checked on several threads (every step is reentrant and reads only the
  // guideline), each with its `.codes` files, into its own slot; they and their diagnostics are then taken in
  // file order, as one thread would have produced them.
  auto paths = list_inside(root, root / "transcripts", ".md", diags);
  // A file name with an invisible or direction-changing character reads as another name (a `.codes` file's
  // holds its coder's: "be\u200Bn" would print as "ben"): refused, not read.
  auto drop_invisible_names = [&](std::vector<fs::path>& list) {
    list.erase(std::remove_if(list.begin(), list.end(), [&](const fs::path& p) {
                 const std::string name = p.filename().string();
                 auto why = text::invisible_character_problem(name);
                 if (why.empty()) return false;
                 diags.error({"transcripts/" + text::escape_controls(name), 0, 0}, "the file name " + why + "; rename it");
                 return true;
               }),
               list.end());
  };
  drop_invisible_names(paths);
  auto standoff_paths = list_inside(root, root / "transcripts", ".codes", diags);
  drop_invisible_names(standoff_paths);
  std::map<std::string, std::size_t> transcript_of_stem;  // the transcript a `.codes` file belongs to
  for (std::size_t i = 0; i < paths.size(); ++i) transcript_of_stem[paths[i].stem().string()] = i;
  std::vector<std::vector<fs::path>> standoff_of(paths.size());
  std::vector<fs::path> orphans;  // `.codes` files named for no transcript file
  for (const auto& path : standoff_paths) {
    // A `.codes` file is named `<stem>.<coder>.codes`; the stem is what parse_standoff reads from the name.
    auto name = path.filename().string();
    auto dot = name.find('.');
    auto it = dot == std::string::npos ? transcript_of_stem.end() : transcript_of_stem.find(name.substr(0, dot));
    if (it != transcript_of_stem.end()) {
      standoff_of[it->second].push_back(path);
      ws.standoff_files.push_back(files::display_path(path, root));
    } else {
      orphans.push_back(path);
    }
  }
  // What one transcript gives on its thread: the transcript (when it parses), its diagnostics, whether its
  // participant says nothing (worked out before `options.trim`), and its coders' spellings.
  struct Slot {
    std::optional<Transcript> transcript;
    Diagnostics diags;
    bool silent = false;
    CoderSpellings spellings;
    std::vector<ConsensusRecord> consensus;
  };
  const Guideline& guideline = ws.guideline;
  std::vector<Slot> slots(paths.size());
  parallel_for(paths.size(), [&](std::size_t i) {
    Slot& slot = slots[i];
    auto display = files::display_path(paths[i], root);
    std::string why;
    if (auto content = files::read_input(paths[i], files::kTranscriptInput, &why))
      slot.transcript = parse_transcript(*content, display, slot.diags,
                                         {/*text_runs=*/options.text_runs || !standoff_of[i].empty()});
    else slot.diags.error({display, 0, 0}, why);
    if (slot.transcript) {
      complete_attributes(guideline, *slot.transcript, slot.diags);
    }
    for (const auto& path : standoff_of[i]) {
      auto content = files::read_input(path, files::kCodesInput, &why);
      if (!content) {
        slot.diags.error({files::display_path(path, root), 0, 0}, why);
        continue;
      }
      auto s = parse_standoff(*content, files::display_path(path, root), slot.diags);
      // A transcript that failed to parse has been reported already.
      if (s && slot.transcript) apply_standoff(*slot.transcript, *s, slot.diags);
      if (s && slot.transcript && text::fold_case(s->coder) == "consensus") {
        slot.consensus.push_back(read_consensus_record(*content, s->file, slot.diags));
        slot.consensus.back().transcript = slot.transcript->file;
      }
    }
    if (!slot.transcript) return;
    const Transcript& t = *slot.transcript;
    slot.silent = t.rankings.empty() && t.answers.empty() && std::none_of(t.turns.begin(), t.turns.end(), [](const Turn& turn) {
                    return !turn.interviewer && (!turn.text.empty() || !turn.codes.empty());
                  });
    slot.spellings = coder_spellings(t);
    // A reconciled transcript keeps its text: the consensus check (analysis/consensus_plan.h) reads its spans.
    if (options.trim && slot.consensus.empty()) options.trim(guideline, *slot.transcript);
  });
  for (const auto& slot : slots) diags.append(slot.diags);
  std::map<std::string, const Transcript*> by_participant;
  for (const auto& slot : slots) {
    if (!slot.transcript || slot.transcript->participant.empty()) continue;
    const Transcript& t = *slot.transcript;
    auto [it, fresh] = by_participant.emplace(t.participant, &t);
    if (!fresh)
      diags.error(t.participant_where, "duplicate participant id '" + t.participant + "' (also in " + it->second->file + ")");
  }
  // A transcript in which the participant says nothing (front matter only, or a skeleton not filled in yet)
  // is not a participant: it would add a participant and an empty group to every count.
  std::vector<CoderSpellings> spellings;  // per transcript kept
  ws.transcripts.reserve(slots.size());
  for (auto& slot : slots) {
    if (!slot.transcript) continue;
    if (slot.silent) {
      diags.warning({slot.transcript->file, 1, 1}, "the participant says nothing here (no turn with text); "
                                                   "not counted as a participant");
      continue;
    }
    ws.transcripts.push_back(std::move(*slot.transcript));
    spellings.push_back(std::move(slot.spellings));
    for (auto& c : slot.consensus) ws.consensus.push_back(std::move(c));
  }
  for (const auto& path : orphans) {
    auto display = files::display_path(path, root);
    std::string why;
    auto content = files::read_input(path, files::kCodesInput, &why);
    if (!content) {
      diags.error({display, 0, 0}, why);
      continue;
    }
    auto s = parse_standoff(*content, display, diags);
    if (s) diags.error({display, 1, 1}, "no transcript '" + s->transcript_stem + ".md' for these codings");
  }
  unify_coder_names(ws, spellings, diags);
  for (const auto& p : list_inside(root, root / "codebooks" / "labels", ".csv", diags))
    ws.label_tables.push_back(files::display_path(p, root));
  return ws;
}

}  // namespace qualrank
