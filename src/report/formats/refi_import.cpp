// REFI-QDA import, the orchestration: read the file, look at the workspace (has it a taxonomy? a guideline?),
// map or create the codes, check every GUID reference (the schema does not), then turn each text source
// into a transcript with front matter from its case. Nothing is written until the whole plan is free of
// errors; write_refi_import then writes every file to a temp file before renaming any into place.
#include <algorithm>
#include <set>

#include "qualrank/model/history/history.h"
#include "qualrank/report/formats/refi_import.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/files.h"
#include "qualrank/util/workspace_lock.h"
#include "qualrank/util/text.h"
#include "qualrank/util/yaml_source.h"
#include "refi_import_internal.h"

namespace qualrank {

namespace fs = std::filesystem;
using namespace refi_import;

namespace {

// Keeps letters, digits, '_', '-' and non-ASCII; anything else (spaces, ':', '/', '.') becomes '_'.
std::string safe_name(const std::string& s) {
  std::string out;
  for (unsigned char c : std::string(text::trim(s)))
    out += (std::isalnum(c) || c == '_' || c == '-' || c >= 0x80) ? static_cast<char>(c) : '_';
  return out;
}

struct GuidelineInfo {
  bool found = false;
  std::string taxonomy;
  std::vector<std::string> roles;
  std::vector<std::pair<std::string, Location>> node_refs;  // node ids in `about`, `items`, `children_of`
};

// Collects the node ids a guideline names (`about: [..]`, `items: [..]`, `items: {children_of: ..}`), with
// their locations, walking the parsed YAML to a bounded depth.
void collect_node_refs(const YAML::Node& n, const std::string& file, int depth, GuidelineInfo& g) {
  if (depth > 16) return;
  if (n.IsMap()) {
    for (const auto& kv : n) {
      if (!kv.first.IsScalar()) continue;
      const std::string key = kv.first.Scalar();
      const YAML::Node& v = kv.second;
      if ((key == "about" || key == "items") && v.IsSequence()) {
        for (const auto& item : v)
          if (item.IsScalar()) g.node_refs.emplace_back(item.Scalar(), yaml::where(item, file));
      } else if (key == "children_of" && v.IsScalar()) {
        g.node_refs.emplace_back(v.Scalar(), yaml::where(v, file));
      } else {
        collect_node_refs(v, file, depth + 1, g);
      }
    }
  } else if (n.IsSequence()) {
    for (const auto& item : n) collect_node_refs(item, file, depth + 1, g);
  }
}

// The guideline's taxonomy name, roles and node references, read without a taxonomy (load_guideline needs one).
GuidelineInfo guideline_info(const std::string& text_, const std::string& file) {
  GuidelineInfo g;
  Diagnostics ignore;
  auto node = yaml::parse(text_, file, ignore);
  if (!node || !node->IsMap()) return g;
  g.found = true;
  if ((*node)["taxonomy"] && (*node)["taxonomy"].IsScalar()) g.taxonomy = (*node)["taxonomy"].Scalar();
  g.roles = yaml::get_string_list(*node, "roles", "", ignore);
  collect_node_refs(*node, file, 0, g);
  return g;
}

GuidelineInfo read_guideline_info(const fs::path& root, bool& exists) {
  std::vector<fs::path> found = files::list_files(root / "guidelines", ".yaml");
  for (auto& p : files::list_files(root / "guidelines", ".yml")) found.push_back(p);
  exists = !found.empty();
  if (found.size() != 1) return {};
  auto text_ = files::read_inside(root, found.front());
  return text_ ? guideline_info(*text_, "guidelines/" + found.front().filename().string()) : GuidelineInfo{};
}

// Restores the taxonomy (with its history) and, when the workspace has none, the guideline from the design
// files a qualrank .qdpx carries. Codes map to nodes by their id prefix, checked against qualrank's GUID.
bool restore_design(const refi::Project& project, bool has_guideline, const std::set<std::string>& used,
                    GuidelineInfo& guide, RefiImportPlan& plan, CodeMap& map, Diagnostics& diags) {
  std::string tax_file, tax_name;
  std::set<std::string> ids;  // every node id the carried taxonomy and its history ever name
  for (const auto& [rel, bytes] : project.workspace_files) {
    if (rel.rfind("guidelines/", 0) == 0) {
      if (has_guideline) continue;
      plan.files[rel] = bytes;
      guide = guideline_info(bytes, rel);
      continue;
    }
    plan.files[rel] = bytes;
    if (rel.find(".history.") != std::string::npos) {
      Diagnostics ignore;  // the history is checked with the whole planned workspace
      if (auto h = parse_history(bytes, rel, ignore))
        for (const auto& e : h->edits)
          for (const auto& id : e.nodes_mentioned()) ids.insert(id);
      continue;
    }
    tax_file = rel;
    Diagnostics check;
    auto t = load_taxonomy(bytes, rel, check);
    if (!t) {
      for (const auto& d : check.items()) diags.error(d.where, "the taxonomy carried in the archive: " + d.message);
      return false;
    }
    tax_name = t->name;
    for (const auto& id : t->order()) ids.insert(id);
  }
  plan.taxonomy_file = tax_file;
  // Codes are the carried taxonomy's nodes by qualrank's GUID (name-based on the taxonomy and the node id), at
  // whatever version the project was exported: every id the taxonomy or its history names is a candidate.
  std::map<std::string, std::string> id_of_guid;
  for (const auto& id : ids) id_of_guid[norm_guid(refi::code_guid(tax_name, id))] = id;
  for (const auto& f : flatten(project.codes)) {
    if (auto it = id_of_guid.find(f.guid); it != id_of_guid.end()) map.node_of[f.guid] = it->second;
    else if (used.count(f.guid)) diags.error({project.xml_file, f.code->line, 0}, "code '" + f.code->name + "' is not a node of the carried taxonomy");
  }
  return true;
}

bool has_taxonomy_file(const fs::path& root) {
  for (auto ext : {".yaml", ".yml"})
    for (const auto& p : files::list_files(root / "codebooks", ext)) {
      auto name = p.filename().string();
      if (name.find(".history.") == std::string::npos) return true;
    }
  return false;
}

std::string description_taxonomy_name(const std::string& description) {
  const std::string key = "qualrank taxonomy: ";
  auto p = description.find(key);
  if (p == std::string::npos) return "";
  auto end = description.find('\n', p);
  return std::string(text::trim(description.substr(p + key.size(), end == std::string::npos ? end : end - p - key.size())));
}

}  // namespace

std::optional<RefiImportPlan> plan_refi_import(const fs::path& root, const fs::path& input, const std::string& display,
                                               const RefiImportOptions& options, Diagnostics& diags) {
  auto project = refi::read_file(input, display, diags);
  if (!project || diags.has_errors()) return std::nullopt;
  if (!project->ignored.empty())
    diags.note({project->xml_file, 0, 0}, "not imported: " + text::join(project->ignored, ", "));
  const std::string& xml = project->xml_file;

  // The workspace.
  bool has_guideline = false;
  auto guide = read_guideline_info(root, has_guideline);
  std::optional<Workspace> ws;
  std::unique_ptr<TaxonomyVersion> version;
  if (has_taxonomy_file(root)) {
    Diagnostics wsd;
    ws = load_workspace(root, wsd);
    if (ws) version = taxonomy_at(*ws, std::nullopt, wsd);
    if (!ws || !version) {
      diags.append(wsd);
      diags.error({xml, 0, 0}, "the workspace does not load; fix it before importing");
      return std::nullopt;
    }
    guide.found = true;
    guide.roles = ws->guideline.roles;
  }
  std::vector<MapEntry> explicit_map;
  if (options.map) {
    auto m = read_map_file(*options.map, diags);
    if (!m) return std::nullopt;
    explicit_map = std::move(*m);
  }
  std::set<std::string> used;
  for (const auto& s : project->sources)
    for (const auto& sel : s.selections)
      for (const auto& c : sel.codings) used.insert(norm_guid(c.code_guid));

  RefiImportPlan plan;
  auto flat = flatten(project->codes);
  if (project->is_codebook && flat.empty()) {
    diags.error({xml, 0, 0}, "the codebook has no codes; nothing to import");
    return std::nullopt;
  }
  plan.codes = static_cast<int>(flat.size());
  std::string stem = safe_name(input.stem().string());
  std::string tax_name = !guide.taxonomy.empty() ? guide.taxonomy : description_taxonomy_name(project->description);
  if (tax_name.empty()) tax_name = stem;
  std::string title = project->is_codebook ? input.stem().string() : project->name;

  std::optional<CreatedTaxonomy> created;
  CodeMap map;
  const Taxonomy* taxonomy = nullptr;
  bool carried = std::any_of(project->workspace_files.begin(), project->workspace_files.end(), [](const auto& kv) {
    return kv.first.rfind("codebooks/", 0) == 0 && kv.first.find(".history.") == std::string::npos;
  });
  if (!version && carried) {
    if (!restore_design(*project, has_guideline, used, guide, plan, map, diags)) return std::nullopt;
  } else if (!version) {
    std::string file = "codebooks/" + safe_name(tax_name) + ".yaml";
    created = taxonomy_from_codebook(*project, tax_name, title, file, explicit_map, diags);
    if (!created) return std::nullopt;
    // The guideline's questions name node ids; they must keep meaning what they meant, never be rebound to
    // whatever code happens to sit at that position of another tool's codebook.
    std::vector<std::pair<std::string, Location>> by_position;  // named ids that are positional or missing
    for (const auto& ref : guide.node_refs)
      if (created->positional.count(ref.first) || !created->taxonomy.find(ref.first)) by_position.push_back(ref);
    if (!by_position.empty() && !created->positional.empty()) {
      const auto& [id, at] = by_position.front();
      diags.error(at, "the guideline names node '" + id + "'" +
                          (by_position.size() > 1 ? " (and " + std::to_string(by_position.size() - 1) + " more)" : "") +
                          ", but " + display + "'s codes carry no ids: ids given by position would point the guideline's "
                          "questions at unrelated codes; give each code its id in a --map file (code name: node id)");
      return std::nullopt;
    }
    for (const auto& [id, at] : guide.node_refs)
      if (!created->taxonomy.find(id))
        diags.error(at, "the guideline names node '" + id + "', which the codebook of " + display + " lacks");
    if (diags.has_errors()) return std::nullopt;
    plan.files[file] = created->yaml;
    plan.taxonomy_file = file;
    map = created->map;
    taxonomy = &created->taxonomy;
  } else {
    taxonomy = &version->taxonomy;
    map = map_codes(*project, *taxonomy, explicit_map, used, !project->is_codebook, diags);
    plan.unmatched = map.unmatched;
    plan.second_codes = static_cast<int>(map.second_to_node.size());
  }
  plan.is_codebook = project->is_codebook;
  if (project->is_codebook) {
    if (version) {
      plan.differences = codebook_differences(*project, *taxonomy, map, diags);
      if (!plan.differences.empty()) {
        // Kept as the proposals' provenance: never overwrite an earlier copy that differs.
        auto bytes = files::read_input(input, files::kArchiveInput).value_or("");
        std::string base = "codebooks/imports/" + safe_name(input.stem().string());
        plan.codebook_copy = base + ".qdc";
        for (int k = 2;; ++k) {
          auto existing = files::read_inside(root, plan.codebook_copy);
          if (!existing || *existing == bytes) break;
          plan.codebook_copy = base + "-" + std::to_string(k) + ".qdc";
        }
        plan.files[plan.codebook_copy] = bytes;
      }
    }
    if (diags.has_errors()) return std::nullopt;
    return plan;
  }

  // Every GUID reference must resolve.
  std::map<std::string, std::string> users, variables, notes;  // normalised GUID -> name / text
  for (const auto& u : project->users) users[norm_guid(u.guid)] = safe_name(u.name.empty() ? "user-" + u.guid.substr(0, 8) : u.name);
  for (const auto& v : project->variables) variables[norm_guid(v.guid)] = v.name;
  std::set<std::string> exemplar_notes;  // notes that mark an exemplar pick (refi::kExemplarNote)
  for (const auto& n : project->notes) {
    notes[norm_guid(n.guid)] = n.text;
    if (n.name == refi::kExemplarNote) exemplar_notes.insert(norm_guid(n.guid));
  }
  std::set<std::string> codes;
  for (const auto& f : flat) codes.insert(f.guid);
  auto user = [&](const std::string& guid, int line) -> std::optional<std::string> {
    if (guid.empty()) return std::nullopt;
    auto it = users.find(norm_guid(guid));
    if (it == users.end()) {
      diags.error({xml, line, 0}, "unknown user GUID '" + guid + "' (not in <Users>)");
      return std::nullopt;
    }
    return it->second;
  };
  std::set<std::string> source_guids;
  for (const auto& s : project->sources) source_guids.insert(norm_guid(s.guid));
  std::map<std::string, const refi::Case*> case_of;  // source GUID -> case
  for (const auto& c : project->cases)
    for (const auto& [guid, line] : c.source_refs) {
      if (!source_guids.count(norm_guid(guid)))
        diags.error({xml, line, 0}, "unknown source GUID '" + guid + "' in case '" + c.name + "'");
      else if (!case_of.emplace(norm_guid(guid), &c).second)
        diags.warning({xml, line, 0}, "a second case for one source; the first case ('" + case_of[norm_guid(guid)]->name + "') is used");
    }
  for (const auto& c : project->cases)
    for (const auto& [guid, value] : c.values)
      if (!variables.count(norm_guid(guid))) diags.error({xml, c.line, 0}, "unknown variable GUID '" + guid + "' in case '" + c.name + "'");
  if (!project->creating_user.empty()) user(project->creating_user, 1);

  // Carried transcripts are compared with the sources as a loaded workspace reads them: nodes resolved through
  // the history, attributes completed by the guideline. Into an empty workspace, that is the design this
  // import restores (its planned files, read from memory).
  std::optional<Workspace> restored_ws;
  std::unique_ptr<TaxonomyVersion> restored_version;
  if (!version && !project->carried_transcripts.empty()) {
    files::ReadOverlay overlay(root, plan.files);
    Diagnostics ignore;  // the planned workspace is checked as a whole later
    restored_ws = load_workspace_design(root, ignore);
    if (restored_ws) restored_version = taxonomy_at(*restored_ws, std::nullopt, ignore);
  }
  const Workspace* design = ws ? &*ws : restored_ws ? &*restored_ws : nullptr;
  const TaxonomyVersion* resolving = version ? version.get() : restored_version.get();

  std::set<std::string> seen;
  for (const auto& s : project->sources) {
    Location at{xml, s.line, 0};
    const int errors_before = diags.error_count();
    for (const auto& c : s.whole_source_codings)
      diags.warning({xml, c.line, 0}, "a coding of the whole source '" + s.name + "' is not imported (code a selection instead)");
    const refi::Case* kase = case_of.count(norm_guid(s.guid)) ? case_of[norm_guid(s.guid)] : nullptr;
    TranscriptSpec spec;
    spec.interviewer_names = options.interviewers;
    std::string written = kase && !kase->name.empty() ? kase->name : fs::path(s.name.empty() ? s.guid : s.name).stem().string();
    spec.participant = safe_name(written);
    if (spec.participant.empty()) spec.participant = "source-" + s.guid.substr(0, 8);
    if (spec.participant != written) diags.note(at, "participant '" + written + "' is written '" + spec.participant + "'");
    spec.stem = spec.participant;
    if (!seen.insert(spec.participant).second) {
      diags.error(at, "a second source for participant '" + spec.participant + "' (qualrank has one transcript per participant)");
      continue;
    }
    if (kase)
      for (const auto& [guid, value] : kase->values) {
        auto it = variables.find(norm_guid(guid));
        if (it == variables.end()) continue;
        std::string name = it->second;
        if (text::fold_case(name) == "role") spec.role = value;
        else if (text::fold_case(name) == "interviewer") spec.interviewer_labels = text::split_nonempty(value, ',');
        else if (!name.empty()) spec.attributes.emplace_back(name, value);
      }
    std::sort(spec.attributes.begin(), spec.attributes.end());
    if (spec.role.empty()) spec.role = options.default_role;
    if (spec.role.empty())
      diags.error(at, "case '" + spec.participant + "' has no 'role' variable; give one with --role");
    else if (!guide.roles.empty() && std::find(guide.roles.begin(), guide.roles.end(), spec.role) == guide.roles.end())
      diags.error(at, "case '" + spec.participant + "' has role '" + spec.role + "', which the guideline lacks (" + text::join(guide.roles, ", ") + ")");

    // Codings, with their coder and memos.
    std::map<std::string, int> per_coder;
    std::vector<PlacedCoding> placed;
    auto source_user = user(s.user_guid, s.line);
    for (const auto& sel : s.selections) {
      auto sel_user = user(sel.user_guid, sel.line);
      for (const auto& c : sel.codings) {
        auto code = norm_guid(c.code_guid);
        if (!codes.count(code)) {
          diags.error({xml, c.line, 0}, "unknown code GUID '" + c.code_guid + "' (not in the codebook)");
          continue;
        }
        std::vector<std::string> memo;
        bool exemplar = false;
        for (const auto* refs : {&c.note_refs, &sel.note_refs})
          for (const auto& [guid, line] : *refs) {
            auto n = notes.find(norm_guid(guid));
            if (n == notes.end()) diags.error({xml, line, 0}, "unknown note GUID '" + guid + "'");
            else if (refs == &c.note_refs && exemplar_notes.count(n->first)) exemplar = true;
            else if (!n->second.empty()) memo.push_back(n->second);
          }
        auto coder = user(c.user_guid, c.line);
        if (!coder) coder = sel_user ? sel_user : source_user;
        auto node = map.node_of.find(code);
        if (node == map.node_of.end()) continue;  // reported by map_codes
        PlacedCoding p{sel.start, sel.end, node->second, coder.value_or(""), text::join(memo, "\n"), {xml, sel.line, 0}, exemplar};
        ++per_coder[p.coder];
        placed.push_back(std::move(p));
      }
    }
    spec.coder = source_user.value_or("");
    if (spec.coder.empty() && !per_coder.empty())
      spec.coder = std::max_element(per_coder.begin(), per_coder.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
    if (spec.coder.empty()) spec.coder = "coder";
    for (auto& p : placed)
      if (p.coder.empty()) p.coder = spec.coder;

    if (diags.error_count() > errors_before) continue;
    auto built = build_transcript(s, spec, placed, diags);
    if (!built) continue;
    // The transcript as it was exported, when it still says what the source says (line numbers kept).
    if (resolving && design)
      keep_carried_transcript(*built, "transcripts/" + spec.stem + ".md", *project, resolving->resolve, &design->guideline);
    // A file that already holds exactly the planned bytes (an import killed half-way, run again) is no clash.
    auto check_new = [&](const std::string& rel, const std::string& content) {
      if (options.force || !fs::exists(root / rel)) return;
      if (files::read_inside(root, rel) != std::optional<std::string>(content))
        diags.error(at, rel + " exists; not overwritten (use --force to replace it)");
    };
    std::string md = "transcripts/" + spec.stem + ".md";
    check_new(md, built->markdown);
    if (ws)
      for (const auto& t : ws->transcripts)
        if (t.participant == spec.participant && t.file != md)
          diags.error(at, "participant '" + spec.participant + "' already has a transcript, " + t.file);
    plan.files[md] = built->markdown;
    for (const auto& [coder, content] : built->standoff) {
      std::string rel = "transcripts/" + spec.stem + "." + coder + ".codes";
      check_new(rel, content);
      plan.files[rel] = content;
    }
    if (options.force)
      for (const auto& p : files::list_files(root / "transcripts", ".codes")) {
        auto rel = "transcripts/" + p.filename().string();
        if (p.filename().string().rfind(spec.stem + ".", 0) == 0 && !plan.files.count(rel))
          diags.warning(at, rel + " is left as it was and now codes the imported transcript");
      }
    ++plan.transcripts;
    plan.codings += built->codings;
  }
  if (diags.has_errors()) return std::nullopt;
  return plan;
}

bool write_refi_import(const fs::path& root, const RefiImportPlan& plan, std::string* error) {
  files::WorkspaceLock lock(root);  // against every other qualrank writer of transcripts (no lost update)
  if (!lock.locked()) {
    if (error) *error = lock.why();
    return false;
  }
  files::StagedFiles staged(root);  // every file written before any is renamed into place (journaled)
  for (const auto& [rel, content] : plan.files)
    if (!staged.stage_inside(rel, content, error)) return false;
  return staged.commit(error);
}

}  // namespace qualrank
