// The versioned taxonomy for people and programs: a version as a tree or JSON, the history log, and the diff
// between two versions as Markdown or JSON (`qualrank taxonomy show|log|diff`, and the report's
// "taxonomy changes" section).
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "qualrank/model/history/history.h"
#include "qualrank/model/taxonomy.h"

namespace qualrank {

// {"version": N, "version_name": "...", "levels": ["<level 1 name>", ...] (Taxonomy::level_name),
//  "counts": {"level_1","level_2",...,"deprecated"} (active nodes per level),
//  "nodes": [{"id","name","level","parent" (null for a root),"status"}]} in taxonomy order.
nlohmann::ordered_json taxonomy_version_json(const Taxonomy& taxonomy, const TaxonomyVersionSummary& summary);

// A header line ("remote-work version 2 (after coding round 1): Area 3, Topic 9, ...") and one line per
// node, indented by level, deprecated nodes marked.
std::string taxonomy_tree_text(const Taxonomy& taxonomy, const TaxonomyVersionSummary& summary);

// The history's edits in proposal order (or those touching `node`, following renames), each with status,
// version, author, date, rationale and provenance.
std::string history_log_text(const TaxonomyHistory& history, const std::optional<std::string>& node);
nlohmann::ordered_json history_log_json(const TaxonomyHistory& history, const std::optional<std::string>& node);
// The edits `history_log_*` lists.
std::vector<const TaxonomyEdit*> history_log_edits(const TaxonomyHistory& history, const std::optional<std::string>& node);

// One edit as JSON: {"id","op","summary","args":{...},"status","version","author","date","rationale",
//  "provenance":[{"participant","source"}],"decided_by","decided_date","reject_reason"}.
nlohmann::ordered_json edit_json(const TaxonomyEdit& edit);

// The diff as Markdown: a heading, the two versions' counts, then one table per kind of change (node,
// change, edits, proposed by / source, rationale, coded segments touched), and the proposals not accepted
// (when `to` is the latest version). `heading_level` is the number of '#' of the top heading.
std::string taxonomy_diff_markdown(const TaxonomyDiff& diff, int heading_level = 1);

// {"from": {"version","name","counts"}, "to": {...}, "edits": N,
//  "changes": [{"kind","node","node_after","name_before","name_after","parent_before","parent_after",
//               "targets","codings_to","fields","detail","segments","edits":[edit_json...]}],
//  "not_accepted": [edit_json...]}   (rejected and pending proposals, when "to" is the latest version)
nlohmann::ordered_json taxonomy_diff_json(const TaxonomyDiff& diff);

}  // namespace qualrank
