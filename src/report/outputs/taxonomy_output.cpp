#include "qualrank/report/outputs/taxonomy_output.h"

#include <algorithm>
#include <set>

#include "qualrank/util/text.h"

namespace qualrank {

using nlohmann::ordered_json;

namespace {

ordered_json counts_json(const TaxonomyVersionSummary& s) {
  ordered_json c = ordered_json::object();
  for (std::size_t i = 0; i < s.per_level.size(); ++i) {
    c["level_" + std::to_string(i + 1)] = s.per_level[i];
  }
  c["deprecated"] = s.deprecated;
  return c;
}

// The name of every level down to the deepest (Taxonomy::level_name: the file's `levels:`, else "Level N").
ordered_json levels_json(const Taxonomy& taxonomy, const TaxonomyVersionSummary& s) {
  ordered_json out = ordered_json::array();
  int depth = std::max(taxonomy.max_level(), static_cast<int>(s.per_level.size()));
  for (int level = 1; level <= depth; ++level) out.push_back(taxonomy.level_name(level));
  return out;
}

std::string version_title(const TaxonomyVersionSummary& s) {
  return "version " + std::to_string(s.number) + (s.name.empty() ? "" : " (" + s.name + ")");
}

std::string provenance_text(const TaxonomyEdit& e) {
  std::vector<std::string> parts;
  for (const auto& p : e.provenance) parts.push_back(p.participant + (p.source.empty() ? "" : " (" + p.source + ")"));
  return text::join(parts, ", ");
}

// A Markdown table cell: no newlines, '|' escaped.
std::string cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

ordered_json taxonomy_version_json(const Taxonomy& taxonomy, const TaxonomyVersionSummary& summary) {
  ordered_json out;
  out["taxonomy"] = taxonomy.name;
  out["version"] = summary.number;
  out["version_name"] = summary.name;
  out["levels"] = levels_json(taxonomy, summary);
  out["counts"] = counts_json(summary);
  out["nodes"] = ordered_json::array();
  for (const auto& id : taxonomy.order()) {
    const auto* n = taxonomy.find(id);
    ordered_json node;
    node["id"] = n->id;
    node["name"] = n->name;
    node["level"] = n->level;
    node["parent"] = n->parent.empty() ? ordered_json(nullptr) : ordered_json(n->parent);
    node["status"] = n->status;
    out["nodes"].push_back(std::move(node));
  }
  return out;
}

std::string taxonomy_tree_text(const Taxonomy& taxonomy, const TaxonomyVersionSummary& summary) {
  std::string out = taxonomy.name + " " + version_title(summary) + ": " + describe_counts(summary) + "\n";
  for (const auto& id : taxonomy.order()) {
    const auto* n = taxonomy.find(id);
    out += std::string(static_cast<std::size_t>(2 * (n->level - 1)), ' ') + n->id + "  " + n->name;
    if (n->status != "active") out += "  [" + n->status + "]";
    out += "\n";
  }
  return out;
}

std::vector<const TaxonomyEdit*> history_log_edits(const TaxonomyHistory& history, const std::optional<std::string>& node) {
  std::vector<const TaxonomyEdit*> out;
  std::set<std::string> ids;
  if (node) {
    // The node's identity across renames, merges into it and splits of it: grow the id set to a fixed point.
    ids.insert(*node);
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& e : history.edits) {
        if (e.op != EditOp::rename || !e.new_id || e.status == EditStatus::rejected) continue;
        bool a = ids.count(e.node) > 0, b = ids.count(*e.new_id) > 0;
        if (a != b) {
          ids.insert(e.node);
          ids.insert(*e.new_id);
          grew = true;
        }
      }
    }
  }
  for (const auto& e : history.edits) {
    if (node) {
      auto mentioned = e.nodes_mentioned();
      if (std::none_of(mentioned.begin(), mentioned.end(), [&](const std::string& id) { return ids.count(id) > 0; }))
        continue;
    }
    out.push_back(&e);
  }
  return out;
}

ordered_json edit_json(const TaxonomyEdit& e) {
  ordered_json j;
  j["id"] = e.id;
  j["op"] = std::string(to_string(e.op));
  j["summary"] = e.summary();
  j["status"] = std::string(to_string(e.status));
  j["version"] = e.version ? ordered_json(e.version) : ordered_json(nullptr);
  j["author"] = e.author;
  j["date"] = e.date;
  j["rationale"] = e.rationale;
  j["provenance"] = ordered_json::array();
  for (const auto& p : e.provenance) j["provenance"].push_back({{"participant", p.participant}, {"source", p.source}});
  j["nodes"] = e.nodes_mentioned();
  j["decided_by"] = e.decided_by;
  j["decided_date"] = e.decided_date;
  j["reject_reason"] = e.reject_reason;
  j["where"] = e.where.file + ":" + std::to_string(e.where.line);
  return j;
}

std::string history_log_text(const TaxonomyHistory& history, const std::optional<std::string>& node) {
  std::string out;
  auto edits = history_log_edits(history, node);
  for (const auto* e : edits) {
    out += e->id + "  " + std::string(to_string(e->status));
    if (e->status == EditStatus::accepted) out += " into version " + history.version_label(e->version);
    out += "  " + e->summary() + "\n";
    out += "    proposed by " + (e->author.empty() ? std::string("?") : e->author) + " on " + e->date + " (" +
           e->where.file + ":" + std::to_string(e->where.line) + ")\n";
    if (!e->provenance.empty()) out += "    from " + provenance_text(*e) + "\n";
    if (!e->rationale.empty()) out += "    rationale: " + e->rationale + "\n";
    if (e->status != EditStatus::proposed)
      out += "    " + std::string(to_string(e->status)) + " by " + (e->decided_by.empty() ? std::string("?") : e->decided_by) +
             " on " + e->decided_date + (e->reject_reason.empty() ? "" : ": " + e->reject_reason) + "\n";
  }
  int proposed = 0, accepted = 0, rejected = 0;
  for (const auto* e : edits)
    (e->status == EditStatus::proposed ? proposed : e->status == EditStatus::accepted ? accepted : rejected)++;
  out += std::to_string(edits.size()) + " edits (" + std::to_string(accepted) + " accepted, " + std::to_string(rejected) +
         " rejected, " + std::to_string(proposed) + " proposed); latest version " +
         history.version_label(history.latest_version()) + "\n";
  return out;
}

ordered_json history_log_json(const TaxonomyHistory& history, const std::optional<std::string>& node) {
  ordered_json out;
  out["file"] = history.file;
  out["latest_version"] = history.latest_version();
  out["versions"] = ordered_json::array();
  for (const auto& v : history.versions) out["versions"].push_back({{"number", v.number}, {"name", v.name}});
  out["edits"] = ordered_json::array();
  for (const auto* e : history_log_edits(history, node)) out["edits"].push_back(edit_json(*e));
  return out;
}

std::string taxonomy_diff_markdown(const TaxonomyDiff& diff, int heading_level) {
  std::string h1(static_cast<std::size_t>(std::max(1, heading_level)), '#');
  std::string h2 = h1 + "#";
  std::string out = h1 + " Taxonomy changes from " + version_title(diff.from) + " to " + version_title(diff.to) + "\n\n";
  out += "- " + version_title(diff.from) + ": " + describe_counts(diff.from) + "\n";
  out += "- " + version_title(diff.to) + ": " + describe_counts(diff.to) + "\n";
  out += "- " + std::to_string(diff.edits) + " accepted edits, " + std::to_string(diff.changes.size()) + " changes\n";
  static const std::vector<std::pair<std::string, std::string>> kinds = {
      {"added", "Added"}, {"renamed", "Renamed"}, {"moved", "Moved"}, {"redefined", "Redefined"},
      {"merged", "Merged"}, {"split", "Split"}, {"deprecated", "Deprecated"}};
  for (const auto& [kind, title] : kinds) {
    std::vector<const TaxonomyChange*> of_kind;
    for (const auto& c : diff.changes)
      if (c.kind == kind) of_kind.push_back(&c);
    if (of_kind.empty()) continue;
    out += "\n" + h2 + " " + title + " (" + std::to_string(of_kind.size()) + ")\n\n";
    out += "| Node | Change | Edits | Proposed by (source) | Rationale | Coded segments |\n";
    out += "|---|---|---|---|---|---|\n";
    for (const auto* c : of_kind) {
      std::vector<std::string> ids, provenance, rationale;
      for (const auto* e : c->edits) {
        ids.push_back(e->id + " (" + std::string(to_string(e->op)) + ", " + e->author + ", " + e->date + ")");
        if (!e->provenance.empty()) provenance.push_back(provenance_text(*e));
        if (!e->rationale.empty()) rationale.push_back(c->edits.size() > 1 ? e->id + ": " + e->rationale : e->rationale);
      }
      out += "| " + cell(c->kind == "added" ? c->node_after : c->node) + " | " + cell(c->detail()) + " | " +
             cell(text::join(ids, "; ")) + " | " + cell(provenance.empty() ? "-" : text::join(provenance, "; ")) + " | " +
             cell(rationale.empty() ? "-" : text::join(rationale, " ")) + " | " + std::to_string(c->segments) + " |\n";
    }
  }
  if (diff.changes.empty()) out += "\nNo changes.\n";
  if (!diff.not_accepted.empty()) {
    out += "\n" + h2 + " Proposals not accepted (" + std::to_string(diff.not_accepted.size()) + ")\n\n";
    out += "| Edit | Proposal | Proposed by (source) | Rationale | Status |\n";
    out += "|---|---|---|---|---|\n";
    for (const auto* e : diff.not_accepted) {
      std::string status = std::string(to_string(e->status));
      if (e->status == EditStatus::rejected)
        status += " by " + e->decided_by + ", " + e->decided_date + ": " + e->reject_reason;
      out += "| " + cell(e->id + " (" + e->author + ", " + e->date + ")") + " | " + cell(e->summary()) + " | " +
             cell(e->provenance.empty() ? "-" : provenance_text(*e)) + " | " + cell(e->rationale.empty() ? "-" : e->rationale) +
             " | " + cell(status) + " |\n";
    }
  }
  return out;
}

ordered_json taxonomy_diff_json(const TaxonomyDiff& diff) {
  auto version = [](const TaxonomyVersionSummary& s) {
    ordered_json v;
    v["version"] = s.number;
    v["name"] = s.name;
    v["levels"] = s.level_names;
    v["counts"] = counts_json(s);
    return v;
  };
  ordered_json out;
  out["from"] = version(diff.from);
  out["to"] = version(diff.to);
  out["edits"] = diff.edits;
  out["changes"] = ordered_json::array();
  for (const auto& c : diff.changes) {
    ordered_json j;
    j["kind"] = c.kind;
    j["node"] = c.node;
    j["node_after"] = c.node_after;
    j["name_before"] = c.name_before;
    j["name_after"] = c.name_after;
    j["parent_before"] = c.parent_before;
    j["parent_after"] = c.parent_after;
    j["targets"] = c.targets;
    j["codings_to"] = c.codings_to;
    j["fields"] = c.fields;
    j["detail"] = c.detail();
    j["segments"] = c.segments;
    j["edits"] = ordered_json::array();
    for (const auto* e : c.edits) j["edits"].push_back(edit_json(*e));
    out["changes"].push_back(std::move(j));
  }
  out["not_accepted"] = ordered_json::array();
  for (const auto* e : diff.not_accepted) out["not_accepted"].push_back(edit_json(*e));
  return out;
}

}  // namespace qualrank
