// A string member of a JSON object as the report's writers read report.json (HTML, LaTeX, figures, methods): a
// member that is missing or not a string, or asked of a value that is not an object, reads as "".
#pragma once
#include <nlohmann/json.hpp>

#include <string>

namespace qualrank::json_member {

inline std::string str(const nlohmann::ordered_json& j, const char* key) {
  if (!j.is_object()) return {};
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace qualrank::json_member
