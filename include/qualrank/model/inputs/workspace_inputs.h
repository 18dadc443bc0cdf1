// The files of a workspace that a study is computed from, and their SHA-256: what `package` copies (the study's
// inputs) and what report.json records as its provenance (those and the corpus's), so that `qualrank status`
// can tell which changed since (analysis/corpus/study_status.h).
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

// Workspace-relative paths, sorted: codebooks/*.yaml|yml (taxonomies and histories), codebooks/labels/*.csv,
// guidelines/*.yaml|yml, transcripts/*.md and *.codes, findings.yaml; with `corpus`, when corpus/manifest.json
// exists, also corpus/*.json|yaml (the manifest: each stored source's SHA-256), corpus/retrieved.jsonl,
// corpus/screening/*.csv, corpus/samples/*.txt and corpus/labels/*/*.csv. Hidden files are skipped; a name that is not UTF-8, a history behind a symlink, or a
// file that resolves outside the workspace is a located error (and left out).
std::vector<std::string> workspace_input_files(const std::filesystem::path& root, Diagnostics& diags, bool corpus = false);

// What a replication package copies: workspace_input_files with the corpus, and each stored source the corpus
// manifest lists (corpus/<source>.jsonl), sorted.
std::vector<std::string> package_input_files(const std::filesystem::path& root, Diagnostics& diags);

// One SHA-256 over a set of files' hashes (path -> SHA-256): of the lines "PATH\tHASH\n" in path order. A
// package records it of the workspace's inputs (one value: it names no file of the unpseudonymised study).
std::string inputs_digest(const std::map<std::string, std::string>& hashes);

// The SHA-256 of each of `files` (workspace-relative), by path; a file that cannot be read has "".
std::map<std::string, std::string> input_hashes(const std::filesystem::path& root, const std::vector<std::string>& files);

}  // namespace qualrank
