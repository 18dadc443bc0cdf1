// Private parts shared by package.cpp (building) and package_verify.cpp (re-running): what the inputs are,
// how the outputs are made, the manifest and the README.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank::package_detail {

namespace fs = std::filesystem;

inline constexpr const char* kManifest = "qualrank-package.json";
inline constexpr const char* kChecksums = "SHA256SUMS";
// Lines of SHA256SUMS that package verify reads, at most (README "Safety and limits"): a package lists far fewer.
inline constexpr std::size_t kMaxChecksumLines = 10000;
inline constexpr const char* kReadme = "README.md";
inline constexpr const char* kZipFolder = "package";  // every member of the zip is "package/<path>", whatever -o says
inline constexpr long long kFallbackEpoch = 1735689600;  // 2025-01-01T00:00:00Z, as `export` and the workbooks

// How the outputs are made; stored in the manifest so that a re-run makes the same bytes.
struct Settings {
  int resamples = 10000;
  std::uint64_t seed = 20250101;
  std::string coder = "consensus";
  std::optional<long long> source_date_epoch;  // SOURCE_DATE_EPOCH when the package was made (none: unset)
};

// One transcript as the README describes it.
struct TranscriptInfo {
  std::string file, participant, role, coder;
};

// The outputs of one run: package-relative path -> bytes, and what the README says about the inputs.
struct Outputs {
  std::map<std::string, std::string> files;
  std::vector<TranscriptInfo> transcripts;
  std::string title, taxonomy, guideline;
  int version = 1;
};

// The workspace-relative paths of the inputs under `root` that a package copies (sorted): codebooks/*.yaml|yml
// (the taxonomy and its history), codebooks/labels/*.csv, guidelines/*.yaml|yml, transcripts/*.md and
// *.codes, findings.yaml, and the corpus when there is one (workspace_input_files with the corpus, and each
// stored source the manifest lists). A file that leads outside through a symlink is an error.
std::vector<std::string> input_files(const fs::path& root, Diagnostics& diags);

// Makes the hashes the inputs record of each other true of their pseudonymised copies written in `staging`
// (package_files: package-relative path -> bytes, updated and rewritten there): the 64-digit SHA-256 values in
// corpus/manifest.json, corpus/retrieved.jsonl's first line and the samples' `#` lines that `file_hashes` maps
// (a workspace file's hash -> its copy's), and each consensus decision's hash that matched its unit's codings
// in the workspace (the same unit's hash in the copy). A hash that was stale in the workspace stays as written.
// `renamed_from` maps a copy's path to the workspace's. False with an error when a file cannot be rewritten.
bool rehash_recorded(const fs::path& root, const fs::path& staging, const std::map<std::string, std::string>& renamed_from,
                     const std::map<std::string, std::string>& file_hashes, std::map<std::string, std::string>& package_files,
                     Diagnostics& diags);

// Runs the analysis of the workspace `root` with `settings`: `qualrank report` into out_root/reports, and the
// exports into out_root/exports (project.qdpx, codebook.qdc, codebook-tables.csv, segments.csv). Returns every
// file it wrote (package-relative path -> bytes), or nullopt with errors in `diags`.
std::optional<Outputs> make_outputs(const fs::path& root, const fs::path& out_root, const Settings& settings,
                                    Diagnostics& diags);

// The manifest (kManifest) of a package; `made_from`: inputs_digest of the workspace's own (unpseudonymised)
// inputs, recorded as "made_from" so that `qualrank status` can tell when the package is stale.
nlohmann::ordered_json manifest_json(const Settings& settings, const nlohmann::ordered_json& pseudonymisation,
                                     const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
                                     const std::string& made_from = "");
// Reads the settings back; nullopt with an error located in `file` when they, the version string or the
// pseudonymisation counts (what readme() reads) are missing or malformed.
std::optional<Settings> settings_from_manifest(const nlohmann::json& manifest, const std::string& file, Diagnostics& diags);

// README.md: what the package is, how to re-run it, how it was pseudonymised, and every file of `files`
// (package-relative paths, kManifest, kChecksums and README.md included) with what it holds.
std::string readme(const Outputs& outputs, const nlohmann::json& manifest, const std::vector<std::string>& files);

// SHA256SUMS in sha256sum(1) format: "HEX  PATH\n" per file, in path order.
std::string checksums(const std::map<std::string, std::string>& files);

// Removes what a killed run left in `dir`: folders named PREFIX + PID + SUFFIX (for each suffix) whose process
// no longer runs (files::process_gone).
void remove_stale(const fs::path& dir, const std::string& prefix, const std::vector<std::string>& suffixes);

// Sets SOURCE_DATE_EPOCH to a value (or unsets it) for its lifetime, restoring the old state afterwards.
class ScopedEpoch {
 public:
  explicit ScopedEpoch(const std::optional<long long>& epoch);
  ~ScopedEpoch();
  ScopedEpoch(const ScopedEpoch&) = delete;
  ScopedEpoch& operator=(const ScopedEpoch&) = delete;

 private:
  std::optional<std::string> old_;
};

}  // namespace qualrank::package_detail
