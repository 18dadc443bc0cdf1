// A corpus of documents (issue reports) in the workspace: corpus/<source>.jsonl, one document per line sorted
// by id (natural order), fields in a fixed order, plus corpus/manifest.json (per source: documents, SHA-256 of
// the stored file, import date). Importing the exports researchers already make (`gh issue list --json ...`,
// `gh api repos/O/R/issues`, JSON Lines, CSV) into that store: src/model/corpus/corpus_import.cpp. The formats and
// limits are in docs/corpus.md.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank::corpus {

namespace fs = std::filesystem;

// Limits of an import (docs/corpus.md, "Limits"): larger inputs are refused with a located error.
inline constexpr std::size_t kMaxImportBytes = 512u * 1024u * 1024u;  // one export file (parsed whole: ~3x in memory)
inline constexpr std::size_t kMaxDocuments = 1000000;                   // documents in one export / one source
inline constexpr std::size_t kMaxFieldBytes = 1024u * 1024u;            // one title, body, comment, label, id
inline constexpr std::size_t kMaxComments = 10000;                      // comments of one document

struct Comment {
  std::string author;   // the login (gh's author.login), or as given
  std::string created;  // ISO 8601 as exported
  std::string body;
  bool operator==(const Comment&) const = default;
};

struct Document {
  std::string id;       // the issue number as text ("1234"), or the CSV's id, or the url when there is no id
  std::string url;
  std::string created;  // ISO 8601 as exported ("2024-03-01T10:00:00Z"); "" when unknown
  std::string title;
  std::string body;
  std::vector<std::string> labels;
  std::vector<Comment> comments;
  nlohmann::json extra = nlohmann::json::object();  // every other field of the export, kept as it was
  bool operator==(const Document&) const = default;
};

// A document's name across the corpus: "SOURCE#ID" ("atlas#1234"), what screening files, retrieved.jsonl
// and sample lists hold.
inline std::string doc_ref(std::string_view source, std::string_view id) {
  std::string r(source);
  r += '#';
  r += id;
  return r;
}

// A source name is 1-64 characters of [A-Za-z0-9._-], not starting with '.' or '-', and not one of the names
// the corpus's own files have (retrieved, manifest, keywords, screening, samples, labels, in any case): it
// names a file.
// Returns "" when fine, else why not.
std::string source_name_problem(std::string_view name);
// The rule every name that names a file of the corpus follows (a source, a screener, a sample, a coder): 1-64
// characters of [A-Za-z0-9._-], not starting with '.' or '-'. "" when fine, else why not ("a WHAT name ...").
std::string file_name_chars_problem(std::string_view name, std::string_view what);

// The repository a document's url names, lower-cased: "github.com/acme/atlas" for
// https://github.com/acme/atlas/issues/12 (also /pull/N, GitLab's /-/issues/N); "" when the url names none.
std::string repository_of(std::string_view url);

// The stored line of one document (no newline): {"id","url","created","title","body","labels","comments",
// "extra"} in that order, comments as {"author","created","body"}, UTF-8 unescaped, extra's keys sorted.
std::string store_line(const Document& doc);

// Reads one stored source file (corpus/<source>.jsonl as written by store_line; any JSON whitespace and key
// order accepted). Errors are located (FILE:LINE:COL) in `diags`, a duplicate id among them; returns the
// documents read (in file order).
// `keep_extra` false skips the extra fields (faster: retrieval does not need them).
std::vector<Document> read_store(std::string_view text, const std::string& file, Diagnostics& diags,
                                 bool keep_extra = true);

// A stored document as retrieval sees it: views into the file's text where a field has no escapes, else into
// a per-document buffer; valid during the call only.
struct CommentView {
  std::string_view author, created, body;
};
struct DocumentView {
  std::string_view id, url, created, title, body;
  std::vector<std::string_view> labels;
  std::vector<CommentView> comments;
  std::string_view extra;  // the raw JSON text of "extra" ("" when absent)
  int line = 0;
};
// Calls on_document once per stored line, in file order; stops and returns false after a located error.
// One pass, no allocation per field without escapes: what `corpus retrieve` reads (bench/corpus_timing.sh).
// `first_line`: the line number of text's first line (a piece of a file read on its own).
bool for_each_stored(std::string_view text, const std::string& file, Diagnostics& diags,
                     const std::function<void(const DocumentView&)>& on_document, int first_line = 1);

struct SourceEntry {
  std::size_t documents = 0;
  std::string sha256;    // of corpus/<source>.jsonl
  std::string imported;  // YYYY-MM-DD (SOURCE_DATE_EPOCH when set)
  std::string from;      // the export's file name, as given
};

// corpus/manifest.json: {"format": 1, "sources": {NAME: {"documents", "sha256", "imported", "from"}}}.
struct Manifest {
  std::map<std::string, SourceEntry> sources;
};
std::optional<Manifest> read_manifest(const fs::path& workspace, Diagnostics& diags);  // nullopt: no corpus yet
std::string manifest_text(const Manifest& m);

// The sources of the workspace's corpus: the manifest's, in name order. Empty (and an error "no corpus yet:
// run 'qualrank corpus import'") when there is none.
std::vector<std::string> corpus_sources(const fs::path& workspace, Diagnostics& diags);

// What corpus retrieve remembers of the stored files' SHA-256, which the readers of the workspace's inputs
// consult (util/hash_cache.h; docs/formats.md).
inline constexpr const char* kHashCacheFile = "corpus/.sha256-cache";

// Path of a source's stored file, relative to the workspace: "corpus/<source>.jsonl".
std::string store_path(std::string_view source);

// What an import parsed: documents in input order, and each one's location in the export.
struct ParsedExport {
  std::vector<Document> documents;
  std::vector<Location> where;
  std::vector<std::string> sources;  // per document: its own source (CSV/JSONL "source" field), "" when none
};

// Parses an export (format from the name and content: .csv -> CSV, .jsonl/.ndjson -> JSON Lines, otherwise a
// JSON array as gh writes it). Every problem is a located error (FILE:LINE:COL, for JSON from the parser's byte
// position); duplicate ids name both places. All-or-nothing: the caller writes nothing when diags has errors.
// How an import treats what it cannot read as meant. lenient_dates: a created date that is not ISO 8601
// (text::iso_datetime_problem) is a warning and the document is kept without a date (default: a located error).
struct ImportOptions {
  bool lenient_dates = false;
};
ParsedExport parse_export(std::string_view text, const std::string& file, Diagnostics& diags, const ImportOptions& options = {});

struct MergeCounts {
  std::size_t added = 0, updated = 0, unchanged = 0, kept = 0;  // kept: stored before, not in this export
};
// Merges `incoming` into `stored` by id: new ids added, changed documents replaced, the rest kept; returns the
// merged documents sorted by id (text::natural_less) and the counts.
std::vector<Document> merge_documents(std::vector<Document> stored, std::vector<Document> incoming,
                                      MergeCounts& counts);

// Imports the export `text` (named `file` in messages) into the workspace's corpus, all-or-nothing: every
// document's source is its own "source" field, else `source` (--source); both absent, or different, is an
// error. The changed source files and the manifest are written together (files::StagedFiles), or nothing when
// diags has errors. Returns the counts per source touched; nullopt after errors.
std::optional<std::map<std::string, MergeCounts>> import_export(const fs::path& workspace, std::string_view text,
                                                               const std::string& file, const std::string& source,
                                                               Diagnostics& diags, const ImportOptions& options = {});

// The stored text of a source: one store_line per document, each followed by "\n".
std::string store_text(const std::vector<Document>& sorted_documents);

}  // namespace qualrank::corpus
