// Reading the history file. The file is YAML: a header (`history: NAME`) and `entries:`, a list in which
// every item is a proposal (`propose: E0001`, op, args, rationale, provenance, author, date) or a decision
// (`accept: E0001` with version and optional version_name, or `reject: E0001` with reason). Each entry has
// `hash` = SHA-256(previous entry's hash + "\n" + the entry's canonical JSON). The canonical JSON is built from
// the parsed YAML (sorted keys, every scalar a string, `hash` left out), so reformatting whitespace or
// quoting keeps the chain valid while any change of content, order, or a removed entry breaks it at the first
// affected entry. (Cutting entries off the end cannot be detected from the file alone; git shows it.)
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "qualrank/model/history/history.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"
#include "qualrank/util/yaml_source.h"

namespace qualrank {

using nlohmann::json;

std::string history_entry_hash(const std::string& canonical_json, const std::string& previous_hash) {
  return sha256_hex(previous_hash + "\n" + canonical_json);
}

namespace {

json to_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      json o = json::object();
      for (const auto& kv : n) o[kv.first.Scalar()] = to_json(kv.second);
      return o;
    }
    case YAML::NodeType::Sequence: {
      json a = json::array();
      for (const auto& item : n) a.push_back(to_json(item));
      return a;
    }
    case YAML::NodeType::Scalar: return n.Scalar();
    default: return nullptr;
  }
}

bool valid_edit_id(const std::string& id) {
  return id.size() >= 2 && id.size() <= 12 && id[0] == 'E' &&
         std::all_of(id.begin() + 1, id.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Reads one entry's fields, reporting unknown keys and missing required ones.
class EntryReader {
 public:
  EntryReader(const YAML::Node& node, const std::string& file, Diagnostics& diags)
      : node_(node), file_(file), diags_(diags) {}

  Location where() const { return yaml::where(node_, file_); }
  Location where(const char* key) const { return node_[key] ? yaml::where(node_[key], file_) : where(); }
  bool has(const char* key) const { return static_cast<bool>(node_[key]); }

  std::string text(const char* key, bool required) {
    used_.insert(key);
    auto v = node_[key];
    if (!v || v.IsNull()) {
      if (required) error(where(), std::string("missing '") + key + "'");
      return {};
    }
    if (!v.IsScalar()) {
      error(yaml::where(v, file_), std::string("expected text for '") + key + "'");
      return {};
    }
    if (required && text::trim(v.Scalar()).empty()) error(yaml::where(v, file_), std::string("empty '") + key + "'");
    return v.Scalar();
  }
  std::optional<std::string> optional_text(const char* key) {
    if (!has(key)) {
      used_.insert(key);
      return std::nullopt;
    }
    return text(key, false);
  }
  std::optional<std::vector<std::string>> optional_list(const char* key) {
    used_.insert(key);
    if (!has(key)) return std::nullopt;
    return yaml::get_string_list(node_, key, file_, diags_);
  }
  YAML::Node child(const char* key) {
    used_.insert(key);
    return node_[key];
  }
  void check_unknown_keys(const char* what) {
    for (const auto& kv : node_)
      if (!used_.count(kv.first.Scalar()))
        error(yaml::where(kv.first, file_), "unknown key '" + kv.first.Scalar() + "' in " + what);
  }
  void error(Location where, std::string message) {
    diags_.error(std::move(where), std::move(message));
    ok_ = false;
  }
  bool ok() const { return ok_; }

 private:
  const YAML::Node& node_;
  const std::string& file_;
  Diagnostics& diags_;
  std::set<std::string> used_;
  bool ok_ = true;
};

void read_args(const YAML::Node& args, TaxonomyEdit& e, const std::string& file, Diagnostics& diags, bool& ok) {
  if (!args || !args.IsMap()) {
    diags.error(args ? yaml::where(args, file) : e.where, "expected 'args', a map of the operation's arguments");
    ok = false;
    return;
  }
  EntryReader r(args, file, diags);
  auto what = "the arguments of " + std::string(to_string(e.op));
  switch (e.op) {
    case EditOp::add:
      e.node = r.text("id", true);
      e.parent = r.text("parent", false);
      e.name = r.text("name", true);
      e.definition = r.optional_text("definition");
      e.inclusion = r.optional_text("inclusion");
      e.exclusion = r.optional_text("exclusion");
      e.aliases = r.optional_list("aliases");
      e.keywords = r.optional_list("keywords");
      break;
    case EditOp::rename:
      e.node = r.text("node", true);
      e.name = r.optional_text("name");
      e.new_id = r.optional_text("new_id");
      if (!e.name && !e.new_id) r.error(r.where(), "a rename needs 'name', 'new_id' or both");
      break;
    case EditOp::redefine:
      e.node = r.text("node", true);
      e.definition = r.optional_text("definition");
      e.inclusion = r.optional_text("inclusion");
      e.exclusion = r.optional_text("exclusion");
      e.aliases = r.optional_list("aliases");
      e.keywords = r.optional_list("keywords");
      if (!e.definition && !e.inclusion && !e.exclusion && !e.aliases && !e.keywords)
        r.error(r.where(), "a redefine needs at least one of definition, inclusion, exclusion, aliases, keywords");
      break;
    case EditOp::move:
      e.node = r.text("node", true);
      e.parent = r.text("parent", true);
      break;
    case EditOp::merge:
      e.from = r.optional_list("from").value_or(std::vector<std::string>{});
      if (e.from.empty()) r.error(r.where("from"), "a merge needs 'from', the nodes merged away");
      e.into = r.text("into", true);
      break;
    case EditOp::split: {
      e.node = r.text("node", true);
      e.codings_to = r.text("codings_to", true);
      auto into = r.child("into");
      if (!into || !into.IsSequence()) {
        r.error(r.where("into"), "a split needs 'into', a list of {id, name}");
        break;
      }
      for (const auto& item : into) {
        if (!item.IsMap()) {
          r.error(yaml::where(item, file), "expected {id, name}");
          continue;
        }
        EntryReader part(item, file, diags);
        SplitPart p{part.text("id", true), part.text("name", true)};
        part.check_unknown_keys("a split successor");
        if (!part.ok()) ok = false;
        e.parts.push_back(std::move(p));
      }
      break;
    }
    case EditOp::deprecate:
      e.node = r.text("node", true);
      break;
  }
  r.check_unknown_keys(what.c_str());
  if (!r.ok()) ok = false;
}

bool read_proposal(EntryReader& r, const YAML::Node& entry, const std::string& file, Diagnostics& diags,
                   TaxonomyEdit& e) {
  bool ok = true;
  e.where = r.where();
  e.id = r.text("propose", true);
  if (!e.id.empty() && !valid_edit_id(e.id)) r.error(r.where("propose"), "edit id '" + e.id + "' is not E followed by digits");
  auto op_name = r.text("op", true);
  auto op = parse_edit_op(op_name);
  if (!op_name.empty() && !op)
    r.error(r.where("op"), "unknown operation '" + op_name + "' (add, rename, redefine, move, merge, split, deprecate)");
  if (op) {
    e.op = *op;
    read_args(r.child("args"), e, file, diags, ok);
  } else {
    r.child("args");
  }
  e.rationale = r.text("rationale", false);
  e.author = r.text("author", false);
  e.date = r.text("date", false);
  r.text("hash", true);
  auto prov = r.child("provenance");
  if (prov && !prov.IsNull()) {
    if (!prov.IsSequence()) {
      r.error(yaml::where(prov, file), "expected 'provenance', a list of {participant, source}");
    } else {
      for (const auto& item : prov) {
        if (!item.IsMap()) {
          r.error(yaml::where(item, file), "expected {participant, source}");
          continue;
        }
        EntryReader pr(item, file, diags);
        Provenance p;
        p.participant = pr.text("participant", true);
        p.source = pr.text("source", false);
        p.quote = pr.text("quote", false);
        p.where = pr.where("source");
        pr.check_unknown_keys("a provenance");
        if (!p.source.empty() && !parse_source(p.source, p.file, p.line))
          pr.error(p.where, "source '" + p.source + "' is not FILE:LINE");
        if (!pr.ok()) ok = false;
        e.provenance.push_back(std::move(p));
      }
    }
  }
  (void)entry;
  r.check_unknown_keys("a proposal");
  return ok && r.ok();
}

}  // namespace

static std::optional<TaxonomyHistory> parse_history_unguarded(const std::string& content, const std::string& file, Diagnostics& diags) {
  int errors_before = diags.error_count();
  TaxonomyHistory h;
  h.file = file;
  h.exists = true;
  h.versions.push_back({1, "", {}});
  if (auto bad = text::find_invalid_utf8(content)) {
    diags.error({file, bad->line, bad->column}, "invalid UTF-8");
    return std::nullopt;
  }
  auto root = yaml::parse(content, file, diags);
  if (!root) return std::nullopt;
  if (!root->IsMap()) {
    diags.error({file, 1, 1}, "a history file is a map with 'history' and 'entries'");
    return std::nullopt;
  }
  h.taxonomy = yaml::get_string(*root, "history", file, diags, true);
  for (const auto& kv : *root) {
    auto key = kv.first.Scalar();
    if (key != "history" && key != "entries") diags.error(yaml::where(kv.first, file), "unknown key '" + key + "' in a history file");
  }
  auto entries = (*root)["entries"];
  if (entries && !entries.IsNull() && !entries.IsSequence()) {
    diags.error(yaml::where(entries, file), "expected 'entries', a list");
    return std::nullopt;
  }

  // The hash chain first: one broken entry makes every later check meaningless for review purposes, but the
  // structure is still checked so that all other problems are reported in the same run.
  std::string previous;
  bool chain_broken = false;
  std::map<std::string, std::size_t> by_id;
  for (const auto& entry : entries) {
    ++h.entries;
    if (!entry.IsMap()) {
      diags.error(yaml::where(entry, file), "expected an entry (a map)");
      continue;
    }
    json canonical = to_json(entry);
    std::string stored = canonical.contains("hash") && canonical["hash"].is_string() ? canonical["hash"].get<std::string>() : "";
    canonical.erase("hash");
    std::string expected = history_entry_hash(canonical.dump(), previous);
    if (!chain_broken && stored != expected) {
      chain_broken = true;
      auto kind = entry["propose"] ? "proposal" : entry["accept"] ? "acceptance" : entry["reject"] ? "rejection" : "entry";
      std::string id = "?";
      for (const char* key : {"propose", "accept", "reject"})
        if (canonical.contains(key)) {
          // A truncated entry (`accept:` with no value) is null here; its id is reported as missing below.
          if (canonical[key].is_string() && !canonical[key].get<std::string>().empty()) id = canonical[key].get<std::string>();
          break;
        }
      diags.error(yaml::where(entry, file),
                  "history entry " + std::to_string(h.entries) + " (" + kind + " of " + id +
                      ") does not match its hash: the history was edited here, or an entry before it was removed or "
                      "reordered; restore the file from version control (the history is append-only)");
    }
    previous = stored;

    EntryReader r(entry, file, diags);
    int kinds = r.has("propose") + r.has("accept") + r.has("reject");
    if (kinds != 1) {
      diags.error(r.where(), "an entry has exactly one of 'propose', 'accept', 'reject'");
      continue;
    }
    if (r.has("propose")) {
      TaxonomyEdit e;
      if (!read_proposal(r, entry, file, diags, e)) continue;
      if (by_id.count(e.id)) {
        diags.error(r.where("propose"), "edit id '" + e.id + "' is used twice (first at line " +
                                            std::to_string(h.edits[by_id[e.id]].where.line) + ")");
        continue;
      }
      by_id[e.id] = h.edits.size();
      h.edits.push_back(std::move(e));
      continue;
    }
    bool accept = r.has("accept");
    std::string id = r.text(accept ? "accept" : "reject", true);
    std::string version_text = accept ? r.text("version", true) : "";
    std::string version_name = accept ? r.text("version_name", false) : "";
    std::string reason = accept ? "" : r.text("reason", true);
    std::string author = r.text("author", false), date = r.text("date", false);
    r.text("hash", true);
    r.check_unknown_keys(accept ? "an acceptance" : "a rejection");
    if (!r.ok()) continue;
    auto it = by_id.find(id);
    if (it == by_id.end()) {
      diags.error(r.where(accept ? "accept" : "reject"), "no proposal '" + id + "' before this decision");
      continue;
    }
    TaxonomyEdit& e = h.edits[it->second];
    if (e.status != EditStatus::proposed) {
      diags.error(r.where(), "edit " + id + " was already " + std::string(to_string(e.status)) + " at line " +
                                 std::to_string(e.decided_where.line));
      continue;
    }
    e.decided_by = author;
    e.decided_date = date;
    e.decided_where = r.where();
    if (!accept) {
      e.status = EditStatus::rejected;
      e.reject_reason = reason;
      continue;
    }
    int latest = h.latest_version();
    int v = 0;
    bool numeric = !version_text.empty() && version_text.size() < 9 &&
                   std::all_of(version_text.begin(), version_text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (numeric) v = std::stoi(version_text);
    if (!numeric || v < 2 || v > latest + 1 || v < latest) {
      diags.error(r.where("version"), "edit " + id + " is accepted into version '" + version_text +
                                          "'; it must be the latest version (" + std::to_string(std::max(latest, 2)) +
                                          ") or the next one (" + std::to_string(latest + 1) + ")" +
                                          (latest >= 2 ? "" : " and at least 2 (version 1 is the base file)"));
      continue;
    }
    if (v == latest + 1) h.versions.push_back({v, "", r.where()});
    auto& info = h.versions.back();
    if (!version_name.empty()) {
      bool digits = std::all_of(version_name.begin(), version_name.end(), [](char c) { return c >= '0' && c <= '9'; });
      auto clash = h.version_number(version_name);
      if (digits) {
        diags.error(r.where("version_name"), "a version name may not be a number");
      } else if (clash && *clash != v) {
        diags.error(r.where("version_name"), "version name '" + version_name + "' already names version " + std::to_string(*clash));
      } else if (!info.name.empty() && info.name != version_name) {
        diags.error(r.where("version_name"), "version " + std::to_string(v) + " is already named '" + info.name + "'");
      } else {
        info.name = version_name;
      }
    }
    e.status = EditStatus::accepted;
    e.version = v;
    h.accepted.push_back(it->second);
  }
  h.last_hash = previous;
  if (diags.error_count() > errors_before) return std::nullopt;
  return h;
}

std::optional<TaxonomyHistory> parse_history(const std::string& content, const std::string& file, Diagnostics& diags) {
  return yaml::guarded(file, diags, 1, [&] { return parse_history_unguarded(content, file, diags); });  // (a located error, not an internal one)
}

}  // namespace qualrank

