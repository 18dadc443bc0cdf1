#include "qualrank/model/findings.h"

#include <set>

#include "qualrank/util/files.h"
#include "qualrank/util/yaml_source.h"

namespace qualrank {

namespace {

std::vector<CitedCode> cited(const YAML::Node& map, const char* key, const std::string& file, Diagnostics& diags) {
  std::vector<CitedCode> out;
  const YAML::Node list = map[key];
  if (!list) return out;
  if (list.IsScalar()) {
    out.push_back({list.Scalar(), yaml::where(list, file)});
    return out;
  }
  if (!list.IsSequence()) {
    diags.error(yaml::where(list, file), std::string("'") + key + "' takes a list of node ids, e.g. [COM.1, WELL.2]");
    return out;
  }
  for (const auto& item : list) {
    if (!item.IsScalar()) {
      diags.error(yaml::where(item, file), std::string("'") + key + "' lists node ids (plain text)");
      continue;
    }
    out.push_back({item.Scalar(), yaml::where(item, file)});
  }
  return out;
}

}  // namespace

std::vector<Finding> parse_findings(const std::string& text, const std::string& file, Diagnostics& diags) {
  auto read = [&]() -> std::optional<std::vector<Finding>> {
    auto doc = yaml::parse(text, file, diags);
    if (!doc) return std::nullopt;
    std::vector<Finding> out;
    if (!doc->IsMap() || !(*doc)["findings"]) {
      diags.error(yaml::where(*doc, file), "expected 'findings:' followed by a list of findings (id, claim, codes)");
      return out;
    }
    const YAML::Node list = (*doc)["findings"];
    if (!list.IsSequence()) {
      diags.error(yaml::where(list, file), "'findings' takes a list of findings (id, claim, codes)");
      return out;
    }
    if (list.size() > kMaxFindings) {
      diags.error(yaml::where(list, file), "more than " + std::to_string(kMaxFindings) + " findings (the limit is in README, \"Safety and limits\")");
      return out;
    }
    std::set<std::string> ids;
    for (const auto& item : list) {
      if (!item.IsMap()) {
        diags.error(yaml::where(item, file), "expected a finding (a map with id, claim and codes)");
        continue;
      }
      Finding f;
      f.where = yaml::where(item, file);
      f.id = yaml::get_string(item, "id", file, diags, true);
      f.claim = yaml::get_string(item, "claim", file, diags, true);
      f.codes = cited(item, "codes", file, diags);
      f.counter = cited(item, "counter", file, diags);
      if (f.codes.empty() && item["codes"]) diags.error(yaml::where(item["codes"], file), "finding '" + f.id + "' cites no code");
      else if (!item["codes"]) diags.error(f.where, "finding '" + f.id + "' needs 'codes': the codes its claim rests on");
      for (const auto& kv : item) {
        const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
        if (key != "id" && key != "claim" && key != "codes" && key != "counter")
          diags.warning(yaml::where(kv.first, file), "unknown key '" + key + "' in a finding (known: id, claim, codes, counter)");
      }
      if (!f.id.empty() && !ids.insert(f.id).second) diags.error(yaml::where(item["id"], file), "finding id '" + f.id + "' is used twice");
      out.push_back(std::move(f));
    }
    return out;
  };
  auto result = yaml::guarded(file, diags, 1, read);
  return result ? std::move(*result) : std::vector<Finding>{};
}

std::vector<Finding> load_findings(const std::filesystem::path& root, Diagnostics& diags) {
  const auto path = root / kFindingsFile;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return {};
  std::string why;
  auto text = files::read_inside(root, kFindingsFile, &why, files::kYamlInput);  // relative: from the workspace
  if (!text) {
    diags.error({kFindingsFile, 0, 0}, why.empty() ? "cannot read" : why);
    return {};
  }
  return parse_findings(*text, kFindingsFile, diags);
}

}  // namespace qualrank
