// rechain_history (model/history/history.h): the hash chain of a history copy whose content was changed on purpose
// (names replaced by pseudonyms in a replication package). The canonical JSON is built exactly as
// history_file.cpp builds it to check the chain, so the result passes parse_history's check.
#include <nlohmann/json.hpp>

#include <algorithm>

#include "qualrank/model/history/history.h"
#include "qualrank/util/yaml_source.h"

namespace qualrank {

namespace {

nlohmann::json canonical_json(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json o = nlohmann::json::object();
      for (const auto& kv : n) o[kv.first.Scalar()] = canonical_json(kv.second);
      return o;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& item : n) a.push_back(canonical_json(item));
      return a;
    }
    case YAML::NodeType::Scalar: return n.Scalar();
    default: return nullptr;
  }
}

bool hex64(const std::string& s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

}  // namespace

std::optional<std::string> rechain_history(const std::string& text, const std::string& file, Diagnostics& diags) {
  auto root = yaml::parse(text, file, diags);
  if (!root) return std::nullopt;
  if (!root->IsMap()) {
    diags.error({file, 1, 1}, "a history file is a map with 'history' and 'entries'");
    return std::nullopt;
  }
  auto entries = (*root)["entries"];
  if (!entries || entries.IsNull()) return text;
  if (!entries.IsSequence()) {
    diags.error(yaml::where(entries, file), "expected 'entries', a list");
    return std::nullopt;
  }
  std::string out = text, previous;
  std::size_t from = 0;  // entries are written in order: each old hash is looked for after the last one
  for (const auto& entry : entries) {
    nlohmann::json canonical = entry.IsMap() ? canonical_json(entry) : nlohmann::json(nullptr);
    std::string old = canonical.is_object() && canonical.contains("hash") && canonical["hash"].is_string()
                          ? canonical["hash"].get<std::string>() : "";
    auto at = hex64(old) ? out.find(old, from) : std::string::npos;
    if (at == std::string::npos) {
      diags.error(yaml::where(entry, file), "a history entry without its hash (64 hex digits)");
      return std::nullopt;
    }
    canonical.erase("hash");
    std::string fresh = history_entry_hash(canonical.dump(), previous);
    out.replace(at, old.size(), fresh);
    from = at + fresh.size();
    previous = fresh;
  }
  return out;
}

}  // namespace qualrank
