// A replication package (docs/package.md): a folder and its zip holding the workspace's inputs with names and
// e-mail addresses replaced by pseudonyms (report/package/pseudonymise.h), every output made from those pseudonymised
// inputs (the report, the codebook as xlsx, CSV and REFI .qdc, the REFI .qdpx project), a README describing
// every file, `qualrank-package.json` (the settings of the run) and `SHA256SUMS`; and its verification, which
// re-runs the analysis from the package's own inputs and compares every output byte for byte.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank {

struct PackageOptions {
  std::filesystem::path output_dir;                 // the package folder (absolute or from the process)
  std::optional<std::filesystem::path> names_file;  // the names list (CSV); none: e-mail addresses only
  std::optional<std::filesystem::path> key_file;    // where the key goes; none: no key written
  int resamples = 10000;                            // as `qualrank report`
  std::uint64_t seed = 20250101;
  std::string coder = "consensus";
};

struct PackageSummary {
  std::filesystem::path zip;       // output_dir + ".zip"
  std::vector<std::string> files;  // package-relative, sorted
  std::size_t names_listed = 0, names_found = 0, addresses = 0, replacements = 0;
  std::size_t near_misses = 0;     // listed names without their accents, left as written (each warned of)
};

// Builds the package of `workspace` into options.output_dir and writes output_dir + ".zip" beside it (entries
// "package/…" whatever the folder's name, so no chosen name travels in the zip; same inputs and
// SOURCE_DATE_EPOCH, same bytes). Everything is made in a
// hidden staging folder beside output_dir (".NAME.PID.staging") and renamed into place at the end; an
// existing output_dir is replaced only when it is a package (holds qualrank-package.json) or empty. Refused, with
// nothing written: a workspace with errors (as `report`), a bad names list (located), an output_dir that is
// the workspace or holds it, a key file inside the package folder or its zip, a names list or key file that is
// one of the inputs, two inputs whose pseudonymised paths coincide. Returns false with errors in `diags`.
bool build_package(const std::filesystem::path& workspace, const PackageOptions& options, Diagnostics& diags,
                   PackageSummary& summary);

struct VerifySummary {
  std::size_t checksums = 0;  // files checked against SHA256SUMS
  std::size_t outputs = 0;    // outputs re-made and compared
};

// Verifies the package folder `dir`: every file named in SHA256SUMS has that SHA-256 (else "DIR/PATH: error:
// SHA-256 differs from SHA256SUMS" or "... is missing"), files not named there are warnings; then the
// analysis is re-run from the package's inputs with the settings of qualrank-package.json (into a hidden
// ".verify.PID" folder inside `dir`, removed afterwards) and each output, README.md included, is compared
// byte for byte: "DIR/PATH:LINE:COL: error: differs from the re-run (first difference at byte N)". Returns
// true when nothing differs.
bool verify_package(const std::filesystem::path& dir, Diagnostics& diags, VerifySummary& summary);

}  // namespace qualrank
