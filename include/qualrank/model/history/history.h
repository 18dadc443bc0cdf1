// The taxonomy's edit history: an append-only file `codebooks/<name>.history.yaml` next to the taxonomy.
// Proposals (add, rename, redefine, move, merge, split, deprecate) and decisions (accept, reject) are separate
// entries, each carrying a SHA-256 hash over its content and the previous entry's hash. The taxonomy at
// version V is the base file (version 1) with the edits accepted into versions 2..V replayed in acceptance
// order. Codes written in transcripts keep the node id they were written with and are migrated through the
// accepted edits (see migrating_resolver). docs/taxonomy-history.md describes the file and the commands.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "qualrank/model/node_resolver.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank {

enum class EditOp { add, rename, redefine, move, merge, split, deprecate };
enum class EditStatus { proposed, accepted, rejected };

std::string_view to_string(EditOp op);
std::string_view to_string(EditStatus status);
std::optional<EditOp> parse_edit_op(std::string_view name);

// Who proposed an edit and where: a participant and a transcript line (`FILE:LINE`, FILE workspace-relative).
struct Provenance {
  std::string participant;
  std::string source;  // as written: FILE:LINE
  std::string file;    // parsed from `source`
  int line = 0;
  std::string quote;   // the participant's words on that line when proposed (markup removed); "" in older
                       // entries. When the transcript is edited above it, loading re-anchors `line` by it.
  Location where;      // where `source` is written in the history file
};
// Parses "FILE:LINE" (LINE >= 1). Returns false when it has no line number.
bool parse_source(const std::string& source, std::string& file, int& line);

struct SplitPart {
  std::string id;
  std::string name;
};

// The codings of a split node go to one successor, or are marked for re-coding.
inline constexpr std::string_view kRecode = "recode";

struct TaxonomyEdit {
  std::string id;  // E0001, E0002, ...: stable forever
  EditOp op = EditOp::add;

  // Arguments. add: node (the new id), parent (empty = a new root), name, definition, inclusion, exclusion,
  // aliases, keywords. rename: node, name and/or new_id. redefine: node and any of definition, inclusion,
  // exclusion, aliases, keywords. move: node, parent. merge: from, into. split: node, parts, codings_to.
  // deprecate: node.
  std::string node;
  std::string parent;
  std::optional<std::string> name;
  std::optional<std::string> new_id;
  std::optional<std::string> definition, inclusion, exclusion;
  std::optional<std::vector<std::string>> aliases, keywords;
  std::vector<std::string> from;
  std::string into;
  std::vector<SplitPart> parts;
  std::string codings_to;  // a successor id, or kRecode

  // The record.
  std::string author, date, rationale;
  std::vector<Provenance> provenance;
  EditStatus status = EditStatus::proposed;
  int version = 0;  // the version it was accepted into (0 unless accepted)
  std::string decided_by, decided_date, reject_reason;
  Location where;          // the proposal entry
  Location decided_where;  // the accept/reject entry

  // Every node id named in the arguments (the edited node, parents, merge sources/target, successors).
  std::vector<std::string> nodes_mentioned() const;
  // One line for logs: "add A.2.iii 'Parameter Interaction Guidance' under A.2".
  std::string summary() const;
};

struct HistoryVersion {
  int number = 1;
  std::string name;  // optional
  Location where;    // the accept entry that opened it (none for version 1)
};

struct TaxonomyHistory {
  std::string file;       // workspace-relative path
  bool exists = false;    // false: there is no history file (the workspace has version 1 only)
  std::string taxonomy;   // the `history:` name (the taxonomy's short name)
  std::vector<TaxonomyEdit> edits;     // in proposal order
  std::vector<std::size_t> accepted;   // indexes into `edits` in acceptance order = replay order
  std::vector<HistoryVersion> versions;  // version 1, 2, ... ascending (always holds version 1)
  std::string last_hash;  // the hash of the last entry ("" when there is none)
  int entries = 0;

  int latest_version() const { return versions.empty() ? 1 : versions.back().number; }
  const TaxonomyEdit* find(std::string_view edit_id) const;
  // A version given as a number or a name; nullopt when there is no such version.
  std::optional<int> version_number(std::string_view number_or_name) const;
  // "2 (after interviews)" or "1".
  std::string version_label(int number) const;
  // The id the next proposal gets (one more than the largest E-number).
  std::string next_edit_id() const;
};

// ---------------------------------------------------------------------------------------------------------
// The file (history_file.cpp)

// Parses a history file's text and checks it: the entries' structure and arguments, decisions naming an
// earlier undecided proposal, versions accepted in order (into the latest version or the next one), and the
// hash chain. The first entry whose hash does not match its content is reported at its FILE:LINE. Returns
// nullopt on any error (all reported to `diags`).
std::optional<TaxonomyHistory> parse_history(const std::string& text, const std::string& file, Diagnostics& diags);

// Reads `ws.history_path`. A missing file gives an empty history (exists = false); a symlink (even a dangling
// one) is an error, kHistorySymlinkMessage, and never opened. Also checks provenance:
// a source outside the workspace is an error; a missing file, a line past its end, or a participant who is
// not the transcript's are warnings (the history is append-only, so they cannot be corrected in place).
std::optional<TaxonomyHistory> load_history(const Workspace& ws, Diagnostics& diags);
inline constexpr const char* kHistorySymlinkMessage =
    "is a symlink: qualrank neither reads nor writes the history through one (replace it by the file)";

// The hash of an entry: SHA-256 over the previous entry's hash, a newline, and the entry's canonical JSON
// (sorted keys, every scalar a string, the `hash` field left out).
std::string history_entry_hash(const std::string& canonical_json, const std::string& previous_hash);

// `text` (a history file) with every entry's `hash` recomputed over the entry as it now reads, in order: for a
// copy whose content was changed on purpose (a pseudonymised replication package, history_rechain.cpp). Each
// old hash value is replaced where it is written; nullopt (errors in `diags`) when the text does not parse or
// an entry has no 64-hex-digit hash of its own.
std::optional<std::string> rechain_history(const std::string& text, const std::string& file, Diagnostics& diags);

// Records a proposal: takes an exclusive lock on `<history>.lock`, re-reads the history under it, checks the
// edit against the latest version (replay + the edit; an unknown node or a broken invariant is an error; nodes
// that pending `add` proposals introduce count as present, so a node and its children can be proposed
// together, and are required again at acceptance) and its provenance (inside the workspace, an existing line, the transcript's participant), assigns the next
// edit id, appends the entry and writes the file atomically. A provenance's `quote` is the words of its line,
// unless the caller gave words that are on that line (a selection): those are kept. `edit.id` and `edit.status` are ignored; an
// empty `edit.date` becomes files::today_utc(). Returns the new edit id, or nullopt with errors in `diags`.
std::optional<std::string> append_proposal(const std::filesystem::path& ws_root, TaxonomyEdit edit,
                                           Diagnostics& diags);

// Records several proposals at once, all or none: each is checked as append_proposal checks one (nodes added by
// earlier proposals of the batch count as pending), then every entry is appended in one atomic write. Files in
// `planned_files` (workspace-relative path -> content, written by the caller next) count as present for the
// provenance check. With `check_only` nothing is written. Returns the ids the edits get (E0007, E0008, ...),
// or nullopt with every problem in `diags` and the history unchanged. When `on_refused` is set, the problems of
// each refused edit go to it (with the edit's index) instead of `diags`, for callers that locate them.
using RefusalHandler = std::function<void(std::size_t index, const Diagnostics& problems)>;
std::optional<std::vector<std::string>> append_proposals(const std::filesystem::path& ws_root,
                                                        std::vector<TaxonomyEdit> edits, Diagnostics& diags,
                                                        const std::map<std::string, std::string>& planned_files = {},
                                                        bool check_only = false,
                                                        const RefusalHandler& on_refused = {});

struct HistoryDecision {
  bool accept = true;
  std::optional<int> into_version;  // accept: default = a new version (latest + 1)
  std::string version_name;         // accept: names the version (optional)
  std::string reason;               // reject: required
  std::string author, date;         // empty date = files::today_utc()
};

// Records a decision on a proposal, under the same lock. Accepting replays the edit on the latest version
// first and refuses when it no longer applies (located at the proposal). A version accepts edits until a
// later version exists. Returns false with errors in `diags`.
bool append_decision(const std::filesystem::path& ws_root, const std::string& edit_id, const HistoryDecision& decision,
                     Diagnostics& diags);

// A complete history file: every edit's proposal in order, then the decisions on the accepted (in order,
// with their `version`) and rejected ones, hash-chained. For tests and benchmarks that need a large valid
// file; the CLI appends one entry at a time instead.
std::string render_history(const std::string& taxonomy_name, const std::string& taxonomy_path,
                           const std::vector<TaxonomyEdit>& edits);

// ---------------------------------------------------------------------------------------------------------
// Replay and migration (history_replay.cpp)

// Where a node that no longer exists went.
struct NodeFate {
  enum class Kind { renamed, merged, split };
  Kind kind = Kind::renamed;
  std::string to;                       // renamed: the new id; merged: the target; split: the successor ("" = recode)
  std::vector<std::string> successors;  // split
  std::string edit;                     // the edit that retired it
  int version = 0;
};

// What a version knows about nodes that are gone or not there yet, to resolve codes written earlier.
struct MigrationMap {
  int version = 1;
  std::unordered_map<std::string, NodeFate> fates;          // retired id -> where it went
  std::unordered_map<std::string, std::string> old_labels;  // folded retired name/alias -> the id that had it
  std::unordered_map<std::string, std::string> not_yet;     // id added later or only proposed -> why
};

// Replays edits on a taxonomy, checking the invariants before each edit: ids unique and never reused, names
// and aliases unambiguous, parents exist, no cycles, no edit on a deprecated or merged-away node. An invalid
// edit is reported at its proposal entry and leaves the taxonomy unchanged. Nodes removed by merge and split
// stay as tombstones until finish(), and indexes are rebuilt once there, so a replay is linear in the edits.
class TaxonomyReplay {
 public:
  explicit TaxonomyReplay(const Taxonomy& base);
  // Applies `edit` (as if accepted into `version`); false and a located error when it breaks an invariant.
  bool apply(const TaxonomyEdit& edit, int version, Diagnostics& diags);
  // Whether `edit` would apply, with apply's errors, leaving the replay as it is (an `add` is checked in
  // place; other edits on a copy).
  bool check(const TaxonomyEdit& edit, int version, Diagnostics& diags) const;
  // The taxonomy so far (tombstones removed, reindexed), leaving the replay usable.
  Taxonomy snapshot() const;
  // The taxonomy at the end; the replay is spent afterwards.
  Taxonomy finish();
  const MigrationMap& migration() const { return migration_; }
  MigrationMap& migration() { return migration_; }

 private:
  bool live(const std::string& id) const;
  bool check_live(const TaxonomyEdit& e, const std::string& id, bool allow_deprecated, Diagnostics& diags) const;
  bool check_new_id(const TaxonomyEdit& e, const std::string& id, Diagnostics& diags) const;
  bool check_label(const TaxonomyEdit& e, const std::string& label, const std::string& owner, Diagnostics& diags) const;
  std::vector<std::string> labels_of(const TaxonomyNode& n) const;
  void register_labels(const TaxonomyNode& n);
  void unregister_labels(const TaxonomyNode& n, bool keep_as_old);
  void retire(const std::string& id, NodeFate fate);

  bool add_allowed(const TaxonomyEdit& e, Diagnostics& diags) const;
  bool add(const TaxonomyEdit& e, Diagnostics& diags);
  bool rename(const TaxonomyEdit& e, int version, Diagnostics& diags);
  bool redefine(const TaxonomyEdit& e, Diagnostics& diags);
  bool move(const TaxonomyEdit& e, Diagnostics& diags);
  bool merge(const TaxonomyEdit& e, int version, Diagnostics& diags);
  bool split(const TaxonomyEdit& e, int version, Diagnostics& diags);
  bool deprecate(const TaxonomyEdit& e, Diagnostics& diags);

  Taxonomy taxonomy_;
  std::unordered_map<std::string, std::string> labels_;  // folded id/name/alias of a node in the taxonomy -> id
  std::unordered_set<std::string> ever_;                  // every id any node has had
  std::vector<std::string> tombstones_;
  MigrationMap migration_;
};

struct MaterialisedVersion {
  int number = 1;
  Taxonomy taxonomy;
  std::shared_ptr<const MigrationMap> migration;
};

// The taxonomy at `version` (1..latest): `base` with the edits accepted into versions <= `version`
// replayed. Returns nullopt when an edit breaks an invariant (located at its proposal).
std::optional<MaterialisedVersion> materialise(const Taxonomy& base, const TaxonomyHistory& history, int version,
                                               Diagnostics& diags);

// Resolves a code as written at any version to a node of `at` (the taxonomy at migration->version): ids,
// names and aliases of `at` first; then retired ids and labels through the accepted edits (renamed -> the
// new id, merged -> the target, moved -> the same node, split -> the named successor, or
// needs_recoding). A node that is deprecated, added later, only proposed or unknown gives a `problem`.
// `at` must outlive the resolver.
NodeResolver migrating_resolver(const Taxonomy& at, std::shared_ptr<const MigrationMap> migration);

// ---------------------------------------------------------------------------------------------------------
// Diff (history_diff.cpp)

// The codes of one coded segment as written (a whole turn's @code codes, or one span's), for counting how
// many segments a change touches: views into the workspace's transcripts (keep it alive), in no particular
// order (only counts are taken from them).
struct CodedRef {
  std::vector<std::string_view> written;
};
std::vector<CodedRef> coded_refs(const Workspace& ws);

struct TaxonomyChange {
  std::string kind;  // added, renamed, moved, redefined, merged, split, deprecated
  std::string node;  // the node's id at `from` (added: at `to`)
  std::string node_after;               // its id at `to` (renamed: the new id; merged: the target)
  std::string name_before, name_after;
  std::string parent_before, parent_after;
  std::vector<std::string> targets;     // merged: the target; split: the successors
  std::string codings_to;               // split: the successor receiving codings, or "recode"
  std::vector<std::string> fields;      // redefined: definition, inclusion, exclusion, aliases, keywords
  std::vector<const TaxonomyEdit*> edits;  // the accepted edits behind the change, in acceptance order
  int segments = 0;                     // coded segments whose codes resolve to the node (at `from`; added: `to`)
  std::string detail() const;           // one sentence
};

struct TaxonomyVersionSummary {
  int number = 1;
  std::string name;
  std::vector<int> per_level;  // active nodes per level (index 0 = level 1)
  std::vector<std::string> level_names;  // the taxonomy's name of each of those levels (Taxonomy::level_name)
  int deprecated = 0;
};

struct TaxonomyDiff {
  TaxonomyVersionSummary from, to;
  int edits = 0;  // accepted edits between the versions
  std::vector<TaxonomyChange> changes;  // in kind order, then taxonomy order
  std::vector<const TaxonomyEdit*> not_accepted;  // when `to` is the latest version: rejected and pending proposals
  std::shared_ptr<const TaxonomyHistory> history;  // keeps the edits the changes point to alive
};

// Two versions materialised in one replay (the first as a snapshot on the way to the second), with the
// accepted edits between them.
struct VersionPair {
  int from = 1, to = 1;
  Taxonomy before, after;
  std::shared_ptr<const MigrationMap> before_migration, after_migration;
  std::vector<const TaxonomyEdit*> range;  // accepted into (from, to], in acceptance order
};
// nullopt on versions out of range (from must not be later than to) or an invalid edit (located).
std::optional<VersionPair> replay_versions(const Taxonomy& base, const TaxonomyHistory& history, int from, int to,
                                           Diagnostics& diags);

// The net changes between the versions of `pair`: each node of `from` followed to `to` through renames,
// merges and splits, and nodes of `to` with no origin in `from` as added. Each change lists the accepted
// edits behind it (with their provenance) and, when `refs` is given, how many coded segments have a code that
// resolves to the node. `history` is the one `pair` was replayed from.
TaxonomyDiff compare_versions(const VersionPair& pair, std::shared_ptr<const TaxonomyHistory> history,
                              const std::vector<CodedRef>* refs);

// replay_versions + compare_versions.
std::optional<TaxonomyDiff> diff_versions(const Taxonomy& base, std::shared_ptr<const TaxonomyHistory> history,
                                          int from, int to, const std::vector<CodedRef>* refs, Diagnostics& diags);

// The first version against the latest of a loaded workspace (for reports): counts segments from the
// workspace's transcripts. Without a history file the diff has no changes. nullopt on a broken history.
std::optional<TaxonomyDiff> workspace_taxonomy_diff(const Workspace& ws, Diagnostics& diags);

// Active node counts per level, e.g. {3, 18, 69}, and the deprecated count.
TaxonomyVersionSummary summarize_version(const Taxonomy& taxonomy, int number, const std::string& name);
// The count of each level under the taxonomy's own level names, "Area 3, Practice 9, Habit 20" ("Level 1 3,
// Level 2 18" when the file names no levels), + ", N deprecated"; "no nodes" when empty.
std::string describe_counts(const TaxonomyVersionSummary& summary);

// ---------------------------------------------------------------------------------------------------------
// Export (history_export.cpp)

// A taxonomy as a plain taxonomy file (nested `children`, loadable by load_taxonomy), with `comment` lines
// on top.
std::string taxonomy_to_yaml(const Taxonomy& taxonomy, const std::string& comment);

}  // namespace qualrank
