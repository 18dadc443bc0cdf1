// What a replication package holds besides its inputs, made the same way when it is built and when it is
// verified (package_internal.h): the report, the exports, the manifest and the checksums.
#include <cstdlib>

#include "package_internal.h"
#include "qualrank/analysis/coder_selection.h"
#include "qualrank/analysis/study.h"
#include "qualrank/model/findings.h"
#include "qualrank/model/history/history.h"
#include "qualrank/model/inputs/workspace_inputs.h"
#include "qualrank/report/outputs/codebook_data.h"
#include "qualrank/report/formats/refi_export.h"
#include "qualrank/report/outputs/segments_output.h"
#include "qualrank/report/study/study_report.h"
#include "qualrank/util/bury.h"
#include "qualrank/util/files.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"

namespace qualrank::package_detail {

std::vector<std::string> input_files(const fs::path& root, Diagnostics& diags) { return package_input_files(root, diags); }

std::optional<Outputs> make_outputs(const fs::path& root, const fs::path& out_root, const Settings& settings,
                                    Diagnostics& diags) {
  ScopedEpoch epoch(settings.source_date_epoch);
  Outputs o;
  StudyReportOptions ro;
  ro.output_dir = out_root / "reports";
  ro.resamples = settings.resamples;
  ro.seed = settings.seed;
  ro.coder = settings.coder;
  StudyReportSummary rs;
  {
    const NoBurial freed;  // the report's study freed here: the exports load their own next (util/bury.h)
    if (!build_study_report(root, ro, diags, rs)) return std::nullopt;
  }
  for (const auto& f : rs.files) {
    fs::path p(f);
    auto bytes = files::read(p);
    if (!bytes) {
      diags.error({p.string(), 0, 0}, "cannot read the file just written");
      return std::nullopt;
    }
    o.files["reports/" + p.lexically_relative(ro.output_dir).generic_string()] = std::move(*bytes);  // (latex/ inside)
  }

  // The exports, from the study the report counted (its warnings were reported by the report already).
  Diagnostics quiet;
  StudyOptions so;
  so.coding.suggestions = false;
  auto study = load_study(root, quiet, so);
  if (!study || quiet.has_errors()) {
    diags.append(quiet);
    return std::nullopt;
  }
  std::string err;
  const fs::path qdpx = out_root / "exports" / "project.qdpx";
  if (!write_qdpx(*study, qdpx, files::source_date_epoch(kFallbackEpoch), quiet, &err)) {
    diags.error({qdpx.string(), 0, 0}, "cannot write: " + err);
    return std::nullopt;
  }
  auto qdpx_bytes = files::read(qdpx);
  if (!qdpx_bytes) {
    diags.error({qdpx.string(), 0, 0}, "cannot read the file just written");
    return std::nullopt;
  }
  o.files["exports/project.qdpx"] = std::move(*qdpx_bytes);
  o.files["exports/codebook.qdc"] = refi_codebook_xml(study->taxonomy());
  o.files["exports/segments.csv"] = segments_csv(study->segments, study->taxonomy());
  CodebookOptions co;
  co.level = std::max(1, std::min(co.level, study->taxonomy().max_level()));
  const CodingChoice coding = select_coding(study->segments, settings.coder, study->consensus);
  auto data = codebook_data(*study, co);
  data.coding = coding.describe();
  o.files["exports/codebook-tables.csv"] = codebook_tables_csv(data, co);
  for (const char* name : {"exports/codebook.qdc", "exports/segments.csv", "exports/codebook-tables.csv"})
    if (!files::write_atomic(out_root / name, o.files[name], &err)) {
      diags.error({(out_root / name).string(), 0, 0}, "cannot write: " + err);
      return std::nullopt;
    }

  const auto& ws = study->workspace;
  for (const auto& t : ws.transcripts) o.transcripts.push_back({t.file, t.participant, t.role, t.coder});
  o.title = ws.taxonomy.title;
  o.taxonomy = ws.taxonomy.name;
  o.guideline = ws.guideline.name;
  o.version = study->version->number;
  return o;
}

nlohmann::ordered_json manifest_json(const Settings& settings, const nlohmann::ordered_json& pseudonymisation,
                                     const std::vector<std::string>& inputs, const std::vector<std::string>& outputs,
                                     const std::string& made_from) {
  nlohmann::ordered_json m;
  m["qualrank"] = QUALRANK_VERSION;
  m["settings"] = {{"resamples", settings.resamples},
                   {"seed", settings.seed},
                   {"coder", settings.coder},
                   {"source_date_epoch", settings.source_date_epoch ? nlohmann::ordered_json(*settings.source_date_epoch)
                                                                    : nlohmann::ordered_json(nullptr)}};
  m["pseudonymisation"] = pseudonymisation;
  m["inputs"] = inputs;
  m["outputs"] = outputs;
  if (!made_from.empty()) m["made_from"] = {{"inputs", inputs.size()}, {"sha256", made_from}};
  return m;
}

std::optional<Settings> settings_from_manifest(const nlohmann::json& manifest, const std::string& file,
                                               Diagnostics& diags) {
  Settings s;
  const auto bad = [&](const std::string& why) {
    diags.error({file, 0, 0}, why);
    return std::nullopt;
  };
  if (!manifest.is_object() || !manifest.contains("settings") || !manifest["settings"].is_object())
    return bad("no \"settings\" object; not a qualrank package manifest");
  if (!manifest.contains("qualrank") || !manifest["qualrank"].is_string()) return bad("\"qualrank\" is not a version string");
  const auto& p = manifest.contains("pseudonymisation") ? manifest["pseudonymisation"] : nlohmann::json(nullptr);
  if (!p.is_object()) return bad("no \"pseudonymisation\" object");
  for (const char* key : {"names_listed", "names_found", "addresses", "replacements"})
    if (!p.contains(key) || !p[key].is_number_unsigned()) return bad(std::string("pseudonymisation.") + key + " is not a whole number");
  const auto& j = manifest["settings"];
  if (!j.contains("resamples") || !j["resamples"].is_number_integer()) return bad("settings.resamples is not a whole number");
  if (!j.contains("seed") || !j["seed"].is_number_unsigned()) return bad("settings.seed is not a whole number");
  if (!j.contains("coder") || !j["coder"].is_string()) return bad("settings.coder is not a string");
  if (!j.contains("source_date_epoch")) return bad("settings.source_date_epoch is missing (null when it was unset)");
  const auto& e = j["source_date_epoch"];
  if (!e.is_null() && (!e.is_number_integer() || e.get<long long>() < 0 || e.get<long long>() > files::kMaxSourceDateEpoch))
    return bad("settings.source_date_epoch is neither null nor a valid SOURCE_DATE_EPOCH");
  s.resamples = j["resamples"].get<int>();
  if (s.resamples < 0 || s.resamples > 1000000) return bad("settings.resamples is not between 0 and 1000000");
  s.seed = j["seed"].get<std::uint64_t>();
  s.coder = j["coder"].get<std::string>();
  if (!e.is_null()) s.source_date_epoch = e.get<long long>();
  return s;
}

std::string checksums(const std::map<std::string, std::string>& files) {
  std::string out;
  for (const auto& [path, bytes] : files) out += sha256_hex(bytes) + "  " + path + "\n";
  return out;
}

void remove_stale(const fs::path& dir, const std::string& prefix, const std::vector<std::string>& suffixes) {
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    for (const auto& suffix : suffixes) {
      if (name.size() <= prefix.size() + suffix.size() || !name.starts_with(prefix) || !name.ends_with(suffix)) continue;
      std::string_view pid(name);
      pid = pid.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
      std::error_code rm;
      if (files::process_gone(pid)) fs::remove_all(it->path(), rm);
    }
  }
}

ScopedEpoch::ScopedEpoch(const std::optional<long long>& epoch) {
  if (const char* v = std::getenv("SOURCE_DATE_EPOCH")) old_ = v;
  if (epoch) ::setenv("SOURCE_DATE_EPOCH", std::to_string(*epoch).c_str(), 1);
  else ::unsetenv("SOURCE_DATE_EPOCH");
}

ScopedEpoch::~ScopedEpoch() {
  if (old_) ::setenv("SOURCE_DATE_EPOCH", old_->c_str(), 1);
  else ::unsetenv("SOURCE_DATE_EPOCH");
}

}  // namespace qualrank::package_detail
