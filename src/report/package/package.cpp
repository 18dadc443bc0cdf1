// build_package (report/package/package.h). The workspace's inputs are read, pseudonymised in memory (paths too) and
// written into a hidden staging folder beside the package, which is then a workspace of its own: the report
// and the exports are made from it, so every output is pseudonymised by construction. The README, manifest
// and SHA256SUMS follow; the zip is written to a temp file; then the staging folder is renamed into place and
// the zip after it.
#include <unistd.h>

#include <set>

#include "package_internal.h"
#include "qualrank/model/history/history.h"
#include "qualrank/model/inputs/workspace_inputs.h"
#include "qualrank/report/package/package.h"
#include "qualrank/report/package/pseudonymise.h"
#include "qualrank/util/files.h"
#include "qualrank/util/parallel.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"
#include "qualrank/util/zip.h"

namespace qualrank {

namespace fs = std::filesystem;
using namespace package_detail;

namespace {

fs::path canonical_or_self(const fs::path& p) {
  std::error_code ec;
  auto c = fs::weakly_canonical(fs::absolute(p), ec);
  return ec ? fs::absolute(p).lexically_normal() : c;
}

// Whether `inner` is `outer` or lies below it (both canonical).
bool within(const fs::path& inner, const fs::path& outer) {
  auto rel = inner.lexically_relative(outer);
  return !rel.empty() && *rel.begin() != "..";
}


// qualrank's own words that hold a surname (the methods, tests and citations its outputs name), each as the
// outputs write it. A listed name found inside one of them in an output is the tool's text, not the study's:
// `Holm` or `Chen` on the names list is replaced in the study's inputs and the package is written (the
// outputs say "Holm p" and "Guest, Namey & Chen"). Anywhere else, and anywhere in an input, it is a leak.
// Each phrase is also tried as HTML, XML and LaTeX write its '&' and '\''.
constexpr std::string_view kToolPhrases[] = {
    "Holm p", "Holm's", "Holm-adjusted", "Holm across", "Holm)", "Cohen's", "Fleiss'", "out of Fleiss", "Fleiss 1975",
    "Krippendorff's", "Spearman's", "Spearman p", "Kendall's", "Kendall p", "Mann-Whitney", "Mann--Whitney",
    "Mann–Whitney", "Wald test", "Cliff's", "Plackett-Luce", "Plackett--Luce", "Plackett–Luce", "Cochran 1977",
    "Guest, Namey & Chen", "Efron's", "Holm\\\\",
    // report.json's keys and values
    "p_holm", "mann_whitney", "kendall_w", "kendall_tau", "fleiss_kappa", "spearman_p", "spearman_rho",
    "krippendorff_alpha", "cohen_kappa", "\"efron\"", "plackett-luce",
};

// Whether the name found at text[begin, end) lies inside one of kToolPhrases (in one of its spellings).
bool in_tool_phrase(std::string_view text, std::size_t begin, std::size_t end) {
  const std::string_view name = text.substr(begin, end - begin);
  auto variants = [](std::string_view p) {
    std::vector<std::string> out{std::string(p)};
    auto replaced = [&](std::string_view from, std::string_view to) {
      std::string s(p);
      for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) s.replace(at, from.size(), to);
      if (s != p) out.push_back(s);
    };
    replaced("&", "&amp;");
    replaced("&", "\\&");
    replaced("'", "&apos;");
    replaced("'", "&#39;");
    replaced("'", "\xE2\x80\x99");
    return out;
  };
  for (std::string_view phrase : kToolPhrases)
    for (const auto& v : variants(phrase))
      for (std::size_t at = v.find(name); at != std::string::npos; at = v.find(name, at + 1))
        if (begin >= at && text.substr(begin - at, v.size()) == v) return true;
  return false;
}

bool is_tool_output(const std::string& rel) {
  return rel.starts_with("reports/") || rel.starts_with("exports/") || rel == "README.md" || rel == "qualrank-package.json";
}

// The final check of a package's files (package-relative path -> bytes, as written below `staging`): every
// listed name still in one of them is an error located in it (a zip entry as "FILE!ENTRY"). False when any.
// Files are checked on several threads, each into its own slot, reported in path order.
bool leak_check(const std::map<std::string, std::string>& files, const fs::path& staging, const Pseudonymiser& p,
                Diagnostics& diags) {
  std::vector<const std::pair<const std::string, std::string>*> items;
  for (const auto& kv : files) items.push_back(&kv);
  std::vector<Diagnostics> found(items.size());
  parallel_for(items.size(), [&](std::size_t i) {
    const auto& [rel, bytes] = *items[i];
    Diagnostics& d = found[i];
    const bool output = is_tool_output(rel);
    auto check = [&](const std::string& where, std::string_view text, bool is_path) {
      for (const auto& n : p.find_names(text))
        if (!(output && !is_path && in_tool_phrase(text, n.begin, n.end)))  // (qualrank's own words: not the study's)
          d.error({where, is_path ? 0 : n.line, is_path ? 0 : n.column},
                  std::string(is_path ? "its path holds" : "still holds") + " the listed name '" + n.name->name +
                      "' (as '" + text::escape_controls(text.substr(n.begin, n.end - n.begin)) +
                      "': an input writes it so that the replacement cannot read it, e.g. split by coding markup); "
                      "change that spelling in the input; nothing written");
    };
    check(rel, rel, true);
    if (!bytes.starts_with("PK\x03\x04")) {
      check(rel, bytes, false);
      return;
    }
    zip::Reader reader(staging / rel);
    if (!reader.ok())
      d.error({rel, 0, 0}, "cannot be read for the check of listed names (" + reader.error() + "); nothing written");
    for (const auto& entry : reader.names()) {
      check(rel + "!" + entry, entry, true);
      if (auto content = reader.read(entry))
        check(rel + "!" + entry, *content, false);
      else
        d.error({rel + "!" + entry, 0, 0},
                "cannot be read for the check of listed names (" + reader.error() + "); nothing written");
    }
  });
  bool clean = true;
  for (const auto& d : found) {
    clean = clean && !d.has_errors();
    diags.append(d);
  }
  return clean;
}

bool is_history(const std::string& rel) {
  return rel.starts_with("codebooks/") && rel.find('/', 10) == std::string::npos &&
         (rel.ends_with(".history.yaml") || rel.ends_with(".history.yml"));
}

}  // namespace

bool build_package(const fs::path& workspace, const PackageOptions& options, Diagnostics& diags,
                   PackageSummary& summary) {
  const fs::path root = canonical_or_self(workspace);
  const fs::path out = canonical_or_self(options.output_dir);
  const std::string out_name = out.filename().string();
  const fs::path zip_path = out.parent_path() / (out_name + ".zip");
  const std::string shown = options.output_dir.string();
  if (out_name.empty() || out_name == "." || out_name == ".." || within(root, out)) {
    diags.error({shown, 0, 0}, "the package folder cannot be the workspace or a folder that holds it");
    return false;
  }
  std::error_code ec;
  if (fs::exists(fs::symlink_status(out, ec))) {
    bool replaceable = fs::is_directory(out, ec) && (fs::exists(out / kManifest, ec) || fs::is_empty(out, ec));
    if (!replaceable) {
      diags.error({shown, 0, 0}, "exists and is not a qualrank package (no " + std::string(kManifest) +
                                     "); remove it or choose another folder; nothing written");
      return false;
    }
  }
  // The write policy: the zip and the key replace only a regular file (or nothing), checked before anything
  // is written.
  if (auto problem = files::output_problem(zip_path); !problem.empty()) {
    diags.error({zip_path.string(), 0, 0}, problem);
    return false;
  }
  if (options.key_file)
    if (auto problem = files::output_problem(*options.key_file); !problem.empty()) {
      diags.error({options.key_file->string(), 0, 0}, problem);
      return false;
    }
  std::optional<fs::path> key;
  if (options.key_file) {
    key = canonical_or_self(*options.key_file);
    if (within(*key, out) || *key == zip_path) {
      diags.error({options.key_file->string(), 0, 0},
                  "the key may not be written into the package (" + shown + "); keep it outside");
      return false;
    }
  }

  // The names list.
  std::vector<NameEntry> names;
  std::optional<fs::path> names_path;
  if (options.names_file) {
    names_path = canonical_or_self(*options.names_file);
    std::string why;
    auto text = files::read_input(*options.names_file, files::kListInput, &why);
    if (!text) {
      diags.error({options.names_file->string(), 0, 0}, why == "cannot read the file" ? "cannot read the names list" : why);
      return false;
    }
    auto parsed = parse_names_list(*text, options.names_file->string(), diags);
    if (!parsed) return false;
    names = std::move(*parsed);
  }
  if (key && names_path && *key == *names_path) {
    diags.error({options.key_file->string(), 0, 0}, "the key would overwrite the names list; write it elsewhere");
    return false;
  }

  // The inputs, pseudonymised.
  const auto inputs = input_files(root, diags);
  if (diags.has_errors()) return false;
  Pseudonymiser pseudonymiser(names);
  std::map<std::string, std::string> package_files;  // package-relative path -> bytes
  std::map<std::string, std::string> renamed_from;
  std::map<std::string, std::string> file_hashes;  // a changed input's SHA-256 -> its copy's
  std::map<std::string, std::string> original_hashes;  // each input's SHA-256 in the workspace
  for (const auto& rel : inputs) {
    const fs::path abs = canonical_or_self(root / rel);
    if ((names_path && abs == *names_path) || (key && abs == *key)) {
      diags.error({rel, 0, 0}, std::string(names_path && abs == *names_path ? "the names list" : "the key file") +
                                   " is one of the workspace's inputs; keep it outside codebooks/, guidelines/ and transcripts/");
      return false;
    }
    std::string why;
    // The history never through a symlink (load_history): said so, not followed even inside the workspace.
    auto bytes = is_history(rel) ? files::read_input(root / rel, files::kYamlInput, &why, files::Links::refuse)
                                 : files::read_inside(root, rel, &why);
    if (!bytes) {
      diags.error({rel, 0, 0}, is_history(rel) && fs::is_symlink(fs::symlink_status(root / rel, ec)) ? kHistorySymlinkMessage : why);
      continue;
    }
    // Near misses (a listed name without its accents) are warned of where they stand, in the path or the text.
    std::vector<NameFound> near_in_path, near;
    std::string new_rel = pseudonymiser.apply(rel, &near_in_path);
    std::string content = pseudonymiser.apply(*bytes, &near);
    auto warn = [&](const NameFound& n, std::string_view text, bool in_path) {
      diags.warning({rel, in_path ? 0 : n.line, in_path ? 0 : n.column},
                    std::string(in_path ? "its path holds '" : "'") +
                        text::escape_controls(text.substr(n.begin, n.end - n.begin)) + "', the listed name '" +
                        n.name->name +
                        "' without its accents; not replaced: list that spelling too if it is the same name");
    };
    for (const auto& n : near_in_path) warn(n, rel, true);
    for (const auto& n : near) warn(n, *bytes, false);
    summary.near_misses += near_in_path.size() + near.size();
    if (is_history(rel)) {
      auto rechained = rechain_history(content, new_rel, diags);
      if (!rechained) continue;
      content = std::move(*rechained);
    }
    const std::string original = sha256_hex(*bytes);
    original_hashes[rel] = original;
    if (content != *bytes) file_hashes[original] = sha256_hex(content);
    if (auto [it, fresh] = renamed_from.emplace(new_rel, rel); !fresh) {
      diags.error({rel, 0, 0}, "becomes " + new_rel + " once pseudonymised, as " + it->second + " does; give them different pseudonyms");
      continue;
    }
    package_files[new_rel] = std::move(content);
  }
  if (diags.has_errors()) return false;
  std::vector<std::string> package_inputs;
  for (const auto& kv : package_files) package_inputs.push_back(kv.first);

  // Staging: the pseudonymised workspace, then every output made from it.
  remove_stale(out.parent_path(), "." + out_name + ".", {".staging", ".old"});
  const fs::path staging = out.parent_path() / ("." + out_name + "." + std::to_string(::getpid()) + ".staging");
  fs::remove_all(staging, ec);
  files::RemoveTreeOnExit cleanup{staging};
  if (!fs::create_directories(staging, ec)) {
    diags.error({staging.string(), 0, 0}, "cannot create the staging folder: " + ec.message());
    return false;
  }
  std::string err;
  for (const auto& [rel, bytes] : package_files)
    if (!files::write_atomic(staging / rel, bytes, &err)) {
      diags.error({(staging / rel).string(), 0, 0}, "cannot write: " + err);
      return false;
    }
  // The hashes the inputs record of each other, true of the copies as they were of the originals.
  if (!rehash_recorded(root, staging, renamed_from, file_hashes, package_files, diags)) return false;
  Settings settings;
  settings.resamples = options.resamples;
  settings.seed = options.seed;
  settings.coder = pseudonymiser.apply(options.coder);  // a coder named in the list is counted by pseudonym
  if (long long e = files::source_date_epoch(-1); e >= 0) settings.source_date_epoch = e;
  Diagnostics run;
  auto outputs = make_outputs(staging, staging, settings, run);
  if (!outputs) {
    diags.append(run);
    diags.note({}, "the pseudonymised copy of the workspace has errors (`qualrank validate` shows the workspace's "
                   "own; an error only here comes from a replaced name)");
    return false;
  }
  diags.append(run);  // warnings
  std::vector<std::string> output_names;
  for (auto& [rel, bytes] : outputs->files) {  // (moved: the package's bytes are held once)
    output_names.push_back(rel);
    package_files[rel] = std::move(bytes);
  }
  nlohmann::ordered_json pseudo = {{"names_listed", names.size()},
                                   {"names_found", pseudonymiser.names_found()},
                                   {"addresses", pseudonymiser.addresses()},
                                   {"replacements", pseudonymiser.replacements()}};
  auto manifest = manifest_json(settings, pseudo, package_inputs, output_names, inputs_digest(original_hashes));
  package_files[kManifest] = manifest.dump(2) + "\n";
  std::vector<std::string> listed;
  for (const auto& kv : package_files) listed.push_back(kv.first);
  for (const char* extra : {kReadme, kChecksums}) listed.push_back(extra);
  std::sort(listed.begin(), listed.end());
  package_files[kReadme] = readme(*outputs, nlohmann::json::parse(package_files[kManifest]), listed);
  package_files[kChecksums] = checksums(package_files);
  for (const char* name : {kManifest, kReadme, kChecksums})
    if (!files::write_atomic(staging / name, package_files[name], &err)) {
      diags.error({(staging / name).string(), 0, 0}, "cannot write: " + err);
      return false;
    }

  // Nothing listed may survive: a name the replacement could not see in an input (split by coding markup,
  // say) but that an output shows is refused. Every file, its path and every entry of a zip file (the
  // workbooks' sheets and strings, the REFI project) is read decoded, as the replacement reads (character
  // references, escapes, comments and emphasis as what they show), and every leak is named.
  if (!names.empty() && !leak_check(package_files, staging, pseudonymiser, diags)) return false;

  // The zip, then the key, then the renames. Its members sit under the fixed folder kZipFolder, never under the
  // folder name -o chose (a user's path must not travel with the published zip).
  std::map<std::string, std::string> entries;  // (package_files moved into it: not needed after)
  for (auto& [rel, bytes] : package_files) entries[std::string(kZipFolder) + "/" + rel] = std::move(bytes);
  // All or nothing: the zip and the key are complete temp files before the folder is renamed into place; the
  // folder is taken back when the zip cannot follow it.
  files::AtomicOutput zip_out(zip_path);
  if (!zip_out.refused().empty() ||
      !zip::write(zip_out.temp_path(), entries, files::source_date_epoch(kFallbackEpoch), &err)) {
    diags.error({zip_path.string(), 0, 0}, zip_out.refused().empty() ? "cannot write: " + err : zip_out.refused());
    return false;
  }
  files::StagedFiles key_out;
  if (key && !key_out.stage(*key, pseudonymiser.key_csv(), &err)) {
    diags.error({options.key_file->string(), 0, 0}, "cannot write the key: " + err);
    return false;
  }
  const fs::path old = out.parent_path() / ("." + out_name + "." + std::to_string(::getpid()) + ".old");
  bool had_old = fs::exists(out, ec);
  if (had_old) {
    fs::remove_all(old, ec);
    fs::rename(out, old, ec);
    if (ec) {
      diags.error({shown, 0, 0}, "cannot replace the old package: " + ec.message());
      return false;
    }
  }
  fs::rename(staging, out, ec);
  if (ec) {
    diags.error({shown, 0, 0}, "cannot rename the package into place: " + ec.message());
    if (had_old) fs::rename(old, out, ec);
    return false;
  }
  if (!zip_out.commit(&err)) {
    diags.error({zip_path.string(), 0, 0}, "cannot write: " + err + "; nothing written");
    fs::rename(out, staging, ec);  // (removed by cleanup)
    if (had_old) fs::rename(old, out, ec);
    return false;
  }
  cleanup.dir.clear();
  if (had_old) fs::remove_all(old, ec);
  if (key && !key_out.commit(&err)) {
    diags.error({options.key_file->string(), 0, 0}, "cannot write the key: " + err + " (the package is written)");
    return false;
  }
  summary.zip = zip_path;
  summary.files = listed;
  summary.names_listed = names.size();
  summary.names_found = pseudonymiser.names_found();
  summary.addresses = pseudonymiser.addresses();
  summary.replacements = pseudonymiser.replacements();
  return true;
}

}  // namespace qualrank
