// Appending to the history: proposals and decisions. Every append runs under an exclusive lock on
// `<history>.lock`: it re-reads the file, checks the whole chain and the new entry (replaying the accepted
// edits), renders the entry, parses the new text once more as a guard, and replaces the file atomically
// (temp file + rename). Concurrent writers are serialised by the lock, so none is lost or interleaved; earlier
// entries are kept byte for byte, so a git diff of the history shows only added lines.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "history_internal.h"
#include "qualrank/model/history/history.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/yaml_emit.h"
#include "qualrank/util/yaml_source.h"

namespace qualrank {

using nlohmann::json;

namespace history_detail {

json proposal_entry(const TaxonomyEdit& e) {
  json args = json::object();
  auto put = [&](const char* key, const std::optional<std::string>& v) {
    if (v) args[key] = *v;
  };
  auto put_list = [&](const char* key, const std::optional<std::vector<std::string>>& v) {
    if (v) args[key] = *v;
  };
  switch (e.op) {
    case EditOp::add:
      args["id"] = e.node;
      if (!e.parent.empty()) args["parent"] = e.parent;
      put("name", e.name);
      put("definition", e.definition);
      put("inclusion", e.inclusion);
      put("exclusion", e.exclusion);
      put_list("aliases", e.aliases);
      put_list("keywords", e.keywords);
      break;
    case EditOp::rename:
      args["node"] = e.node;
      put("new_id", e.new_id);
      put("name", e.name);
      break;
    case EditOp::redefine:
      args["node"] = e.node;
      put("definition", e.definition);
      put("inclusion", e.inclusion);
      put("exclusion", e.exclusion);
      put_list("aliases", e.aliases);
      put_list("keywords", e.keywords);
      break;
    case EditOp::move:
      args["node"] = e.node;
      args["parent"] = e.parent;
      break;
    case EditOp::merge:
      args["from"] = e.from;
      args["into"] = e.into;
      break;
    case EditOp::split:
      args["node"] = e.node;
      args["into"] = json::array();
      for (const auto& p : e.parts) args["into"].push_back({{"id", p.id}, {"name", p.name}});
      args["codings_to"] = e.codings_to;
      break;
    case EditOp::deprecate:
      args["node"] = e.node;
      break;
  }
  json entry = {{"propose", e.id}, {"op", std::string(to_string(e.op))}, {"args", args}};
  if (!e.rationale.empty()) entry["rationale"] = e.rationale;
  if (!e.provenance.empty()) {
    entry["provenance"] = json::array();
    for (const auto& p : e.provenance) {
      json item = {{"participant", p.participant}};
      if (!p.source.empty()) item["source"] = p.source;
      if (!p.quote.empty()) item["quote"] = p.quote;
      entry["provenance"].push_back(item);
    }
  }
  if (!e.author.empty()) entry["author"] = e.author;
  if (!e.date.empty()) entry["date"] = e.date;
  return entry;
}

json decision_entry(const std::string& edit_id, const HistoryDecision& d, int version) {
  json entry = json::object();
  if (d.accept) {
    entry["accept"] = edit_id;
    entry["version"] = std::to_string(version);
    if (!d.version_name.empty()) entry["version_name"] = d.version_name;
  } else {
    entry["reject"] = edit_id;
    entry["reason"] = d.reason;
  }
  if (!d.author.empty()) entry["author"] = d.author;
  if (!d.date.empty()) entry["date"] = d.date;
  return entry;
}

namespace {

// Keys in the order a reader wants them; keys not listed follow in sorted order.
const std::vector<std::string>& key_order() {
  static const std::vector<std::string> order = {
      "propose", "accept", "reject", "op", "version", "version_name", "reason", "args", "id", "node", "new_id",
      "parent", "name", "definition", "inclusion", "exclusion", "aliases", "keywords", "from", "into",
      "codings_to", "rationale", "provenance", "participant", "source", "quote", "author", "date", "hash"};
  return order;
}

std::vector<std::string> ordered_keys(const json& o) {
  std::vector<std::string> keys;
  for (const auto& k : key_order())
    if (o.contains(k)) keys.push_back(k);
  for (auto it = o.begin(); it != o.end(); ++it)
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) keys.push_back(it.key());
  return keys;
}

bool scalar_list(const json& a) {
  for (const auto& item : a)
    if (!item.is_string()) return false;
  return true;
}

// Writes the map `o` in block style; the first key goes after `first_prefix` (e.g. "  - "), the others after
// `indent` spaces.
void render_map(const json& o, const std::string& first_prefix, std::size_t indent, std::string& out) {
  bool first = true;
  for (const auto& key : ordered_keys(o)) {
    out += first ? first_prefix : std::string(indent, ' ');
    first = false;
    out += key + ":";
    const json& v = o.at(key);
    if (v.is_string()) {
      out += " " + yaml::quote(v.get<std::string>()) + "\n";
    } else if (v.is_array() && scalar_list(v)) {
      out += " " + yaml::flow_list(v.get<std::vector<std::string>>()) + "\n";
    } else if (v.is_array()) {
      out += "\n";
      for (const auto& item : v) render_map(item, std::string(indent + 2, ' ') + "- ", indent + 4, out);
    } else if (v.is_object()) {
      out += "\n";
      render_map(v, std::string(indent + 2, ' '), indent + 2, out);
    } else {
      out += " \"\"\n";
    }
  }
}

}  // namespace

std::string render_entry(const json& entry) {
  std::string out;
  render_map(entry, "  - ", 4, out);
  return out;
}

std::string file_header(const std::string& taxonomy_name, const std::string& taxonomy_path) {
  return "# The edit history of " + taxonomy_path + " (version 1). Written by `qualrank taxonomy propose|accept|reject`;\n"
         "# append-only: each entry's hash covers its content and the previous entry's hash (docs/taxonomy-history.md).\n"
         "history: " + yaml::quote(taxonomy_name) + "\nentries:\n";
}

}  // namespace history_detail

std::string render_history(const std::string& taxonomy_name, const std::string& taxonomy_path,
                           const std::vector<TaxonomyEdit>& edits) {
  std::string out = history_detail::file_header(taxonomy_name, taxonomy_path);
  std::string previous;
  auto append = [&](json entry) {
    entry["hash"] = history_entry_hash(entry.dump(), previous);
    previous = entry["hash"].get<std::string>();
    out += history_detail::render_entry(entry);
  };
  for (const auto& e : edits) append(history_detail::proposal_entry(e));
  for (const auto& e : edits) {
    if (e.status == EditStatus::proposed) continue;
    HistoryDecision d;
    d.accept = e.status == EditStatus::accepted;
    d.reason = e.reject_reason;
    d.author = e.decided_by;
    d.date = e.decided_date;
    append(history_detail::decision_entry(e.id, d, e.version));
  }
  return out;
}

namespace {

// The history as read under the lock, with the workspace it belongs to.
struct LockedHistory {
  Workspace ws;
  std::string path_text;  // the file's content ("" when new)
  TaxonomyHistory history;
};

std::optional<LockedHistory> reread(const Workspace& ws, Diagnostics& diags) {
  LockedHistory out{ws, "", {}};
  if (auto content = files::read_input(ws.path(ws.history_path), files::kYamlInput, nullptr, files::Links::refuse))
    out.path_text = *content;
  Diagnostics local;
  auto h = load_history(ws, local);
  diags.append(local);
  if (!h) {
    diags.error({ws.history_path, 0, 0}, "the history has errors (above); fix them before adding entries");
    return std::nullopt;
  }
  out.history = std::move(*h);
  return out;
}

// Appends `entries` (their hashes set here, chained) and writes the file atomically after parsing the result
// once more: all of them or, on any failure, none.
bool write_entries(LockedHistory& locked, std::vector<nlohmann::json> entries, Diagnostics& diags) {
  const Workspace& ws = locked.ws;
  std::string text = locked.path_text;
  if (text.empty()) text = history_detail::file_header(ws.taxonomy.name, ws.taxonomy_path);
  if (text.back() != '\n') text += '\n';
  std::string previous = locked.history.last_hash;
  for (auto& entry : entries) {
    entry.erase("hash");
    entry["hash"] = history_entry_hash(entry.dump(), previous);
    previous = entry["hash"].get<std::string>();
    text += history_detail::render_entry(entry);
  }
  // A history past the YAML limit would not load again: refused before it is parsed or written.
  if (text.size() > yaml::kMaxBytes) {
    diags.error({ws.history_path, 0, 0},
                std::to_string(entries.size()) + (entries.size() == 1 ? " entry" : " entries") + " would grow the history to " +
                    std::to_string(text.size()) + " bytes; the limit is " + std::to_string(yaml::kMaxBytes / (1024 * 1024)) +
                    " MiB (the limit on a YAML text); nothing written");
    return false;
  }
  Diagnostics check;
  auto reparsed = parse_history(text, ws.history_path, check);
  if (!reparsed || reparsed->entries != locked.history.entries + static_cast<int>(entries.size())) {
    diags.append(check);
    diags.error({ws.history_path, 0, 0}, "internal error: the appended entries do not read back; nothing written");
    return false;
  }
  std::string err;
  if (!files::write_atomic(ws.path(ws.history_path), text, &err)) {
    diags.error({ws.history_path, 0, 0}, err);
    return false;
  }
  return true;
}

bool write_entry(LockedHistory& locked, nlohmann::json entry, Diagnostics& diags) {
  return write_entries(locked, {std::move(entry)}, diags);
}

// The latest version's replay, ready to check one more edit.
bool replay_latest(const Workspace& ws, const TaxonomyHistory& h, TaxonomyReplay& replay, Diagnostics& diags) {
  bool ok = true;
  for (auto index : h.accepted) ok = replay.apply(h.edits[index], h.edits[index].version, diags) && ok;
  if (!ok) diags.error({ws.history_path, 0, 0}, "the accepted edits do not replay (above); fix the history first");
  return ok;
}

}  // namespace

// The history and its lock are never read or written through a symlink (README, "Safety and limits").
static bool history_files_safe(const Workspace& ws, Diagnostics& diags) {
  for (const std::string& rel : {ws.history_path, ws.history_path + ".lock"}) {
    std::error_code ec;
    auto st = std::filesystem::symlink_status(ws.path(rel), ec);
    if (std::filesystem::is_symlink(st)) {
      diags.error({rel, 0, 0}, kHistorySymlinkMessage);
      return false;
    }
  }
  return true;
}

std::optional<std::vector<std::string>> append_proposals(const std::filesystem::path& ws_root,
                                                        std::vector<TaxonomyEdit> edits, Diagnostics& diags,
                                                        const std::map<std::string, std::string>& planned_files,
                                                        bool check_only, const RefusalHandler& on_refused) {
  auto ws = load_workspace_design(ws_root, diags);
  if (!ws) return std::nullopt;
  // A check writes nothing, not even the lock file (the write that follows takes the lock and checks again).
  if (!history_files_safe(*ws, diags)) return std::nullopt;
  std::optional<files::FileLock> lock;
  if (!check_only) {
    lock.emplace(ws->path(ws->history_path + ".lock"));
    if (!lock->locked()) {
      diags.error({ws->history_path + ".lock", 0, 0}, "cannot lock the history");
      return std::nullopt;
    }
  }
  auto locked = reread(*ws, diags);
  if (!locked) return std::nullopt;
  const TaxonomyHistory& h = locked->history;
  TaxonomyReplay replay(ws->taxonomy);
  if (!replay_latest(*ws, h, replay, diags)) return std::nullopt;
  // Files the caller writes together with these entries count as present for their provenance.
  history_detail::SourceCache cache;
  for (const auto& [rel, content] : planned_files) {
    history_detail::SourceFile f;
    f.exists = true;
    f.lines = static_cast<int>(std::count(content.begin(), content.end(), '\n')) +
              (content.empty() || content.back() == '\n' ? 0 : 1);
    if (rel.size() > 3 && rel.compare(rel.size() - 3, 3, ".md") == 0) {
      Diagnostics scratch;
      f.transcript = parse_transcript(content, rel, scratch);  // for the quote a provenance keeps
    }
    cache[rel] = std::move(f);
  }
  // Nodes that pending `add` proposals introduce (those of this batch included) may be named by another
  // proposal, so that a new node and its children can be proposed together, and a batch may deprecate a node
  // after its children; each is checked again, alone, when it is accepted. Pending proposals only ever help: a proposal valid at the latest version is recorded.
  TaxonomyReplay with_pending = replay;
  for (const auto& other : h.edits) {
    Diagnostics ignored;
    if (other.status == EditStatus::proposed && other.op == EditOp::add)
      with_pending.apply(other, h.latest_version() + 1, ignored);
  }
  bool refused = false;
  std::vector<std::string> ids;
  std::vector<nlohmann::json> entries;
  std::size_t index = 0;
  long long number = std::stoll(h.next_edit_id().substr(1));
  for (auto& edit : edits) {
    Diagnostics own;
    Diagnostics& diags_of_edit = on_refused ? own : diags;
    int errors_before = diags_of_edit.error_count();
    char id[32];
    std::snprintf(id, sizeof id, "E%04lld", number++);
    edit.id = id;
    edit.status = EditStatus::proposed;
    edit.version = 0;
    edit.where = {ws->history_path, 0, 0};
    if (edit.date.empty()) edit.date = files::today_utc();
    if (text::trim(edit.rationale).empty()) diags_of_edit.error(edit.where, "a proposal needs a rationale");
    for (auto& p : edit.provenance) {
      p.where = edit.where;
      if (text::trim(p.participant).empty()) diags_of_edit.error(edit.where, "a provenance needs a participant id");
      if (p.source.empty()) continue;
      if (!parse_source(p.source, p.file, p.line)) {
        diags_of_edit.error(edit.where, "source '" + p.source + "' is not FILE:LINE");
        continue;
      }
      bool outside = false;
      auto problem = history_detail::provenance_problem(ws->root, p, outside, cache);
      if (!problem.empty()) diags_of_edit.error(outside ? edit.where : Location{p.file, p.line, 0}, "--source: " + problem);
      else if (auto line = history_detail::quote_at(cache[p.file], p.line); p.quote.empty() || line.find(p.quote) == std::string::npos)
        p.quote = std::move(line);  // the words of that line (re-anchors the source if lines move); a quote given
                                    // by the caller (the words selected in annotate) is kept when it is on it
    }
    Diagnostics check;
    if (!replay.check(edit, h.latest_version() + 1, check)) {
      bool applies = false;
      if (edit.op == EditOp::add || edit.op == EditOp::move || edit.op == EditOp::merge || edit.op == EditOp::deprecate) {
        Diagnostics ignored;
        applies = with_pending.check(edit, h.latest_version() + 1, ignored);
      }
      if (!applies)
        for (auto d : check.items()) {
          d.message += " (at version " + h.version_label(h.latest_version()) + ")";
          diags_of_edit.add(d);
        }
    }
    if (edit.op == EditOp::add || edit.op == EditOp::deprecate) {  // the batch's own: children deprecated first
      Diagnostics ignored;
      with_pending.apply(edit, h.latest_version() + 1, ignored);
    }
    if (diags_of_edit.error_count() > errors_before) {
      refused = true;
      if (on_refused) on_refused(index, own);
    }
    ++index;
    ids.push_back(edit.id);
    entries.push_back(history_detail::proposal_entry(edit));
  }
  if (refused) return std::nullopt;
  if (check_only || entries.empty()) return ids;
  if (!write_entries(*locked, std::move(entries), diags)) return std::nullopt;
  return ids;
}

std::optional<std::string> append_proposal(const std::filesystem::path& ws_root, TaxonomyEdit edit,
                                           Diagnostics& diags) {
  auto ids = append_proposals(ws_root, {std::move(edit)}, diags);
  if (!ids || ids->empty()) return std::nullopt;
  return ids->front();
}

bool append_decision(const std::filesystem::path& ws_root, const std::string& edit_id, const HistoryDecision& d,
                     Diagnostics& diags) {
  auto ws = load_workspace_design(ws_root, diags);
  if (!ws) return false;
  if (!history_files_safe(*ws, diags)) return false;
  files::FileLock lock(ws->path(ws->history_path + ".lock"));
  if (!lock.locked()) {
    diags.error({ws->history_path + ".lock", 0, 0}, "cannot lock the history");
    return false;
  }
  auto locked = reread(*ws, diags);
  if (!locked) return false;
  const TaxonomyHistory& h = locked->history;
  Location here{ws->history_path, 0, 0};
  const TaxonomyEdit* e = h.find(edit_id);
  if (!e) {
    diags.error(here, "no edit '" + edit_id + "' in the history" + (h.edits.empty() ? "" : " (the last is " + h.edits.back().id + ")"));
    return false;
  }
  if (e->status != EditStatus::proposed) {
    diags.error(e->decided_where, edit_id + " was already " + std::string(to_string(e->status)));
    return false;
  }
  HistoryDecision decision = d;
  if (decision.date.empty()) decision.date = files::today_utc();
  int version = 0;
  if (!decision.accept) {
    if (text::trim(decision.reason).empty()) {
      diags.error(here, "a rejection needs a reason");
      return false;
    }
  } else {
    int latest = h.latest_version();
    version = decision.into_version.value_or(latest + 1);
    if (version < 2 || version < latest || version > latest + 1) {
      diags.error(here, "cannot accept into version " + std::to_string(version) + ": the latest version is " +
                            std::to_string(latest) + "; accept into " + (latest >= 2 ? std::to_string(latest) + " or " : "") +
                            std::to_string(latest + 1));
      return false;
    }
    if (!decision.version_name.empty()) {
      auto clash = h.version_number(decision.version_name);
      bool digits = std::all_of(decision.version_name.begin(), decision.version_name.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (digits || (clash && *clash != version)) {
        diags.error(here, "version name '" + decision.version_name + "' " +
                              (digits ? std::string("is a number") : "already names version " + std::to_string(*clash)));
        return false;
      }
      if (version == latest && !h.versions.back().name.empty() && h.versions.back().name != decision.version_name) {
        diags.error(here, "version " + std::to_string(version) + " is already named '" + h.versions.back().name + "'");
        return false;
      }
    }
    TaxonomyReplay replay(ws->taxonomy);
    if (!replay_latest(*ws, h, replay, diags)) return false;
    if (!replay.apply(*e, version, diags)) {
      for (const auto& id : e->nodes_mentioned())
        for (const auto& other : h.edits)
          if (other.status == EditStatus::proposed && other.id != e->id && other.op == EditOp::add && other.node == id)
            diags.note(e->where, "node '" + id + "' is only proposed, in " + other.id + ": accept that first");
      return false;
    }
  }
  return write_entry(*locked, history_detail::decision_entry(edit_id, decision, version), diags);
}

}  // namespace qualrank
