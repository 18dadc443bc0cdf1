#include "qualrank/util/yaml_source.h"

namespace qualrank::yaml {

std::optional<YAML::Node> parse(const std::string& text, const std::string& file, Diagnostics& diags,
                                int first_line) {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    diags.error({file, e.mark.line + first_line, e.mark.column + 1}, "YAML syntax error: " + e.msg);
  } catch (const YAML::Exception& e) {
    diags.error({file, first_line, 1}, std::string("YAML error: ") + e.what());
  }
  return std::nullopt;
}

Location where(const YAML::Node& node, const std::string& file, int first_line) {
  auto m = node.Mark();
  if (m.line < 0) return {file, 0, 0};
  return {file, m.line + first_line, m.column + 1};
}

std::string get_string(const YAML::Node& map, const char* key, const std::string& file, Diagnostics& diags,
                       bool required, int first_line) {
  auto v = map[key];
  if (!v) {
    if (required) diags.error(where(map, file, first_line), std::string("missing '") + key + "'");
    return {};
  }
  if (!v.IsScalar()) {
    diags.error(where(v, file, first_line), std::string("expected text for '") + key + "'");
    return {};
  }
  return v.Scalar();
}

std::vector<std::string> get_string_list(const YAML::Node& map, const char* key, const std::string& file,
                                         Diagnostics& diags, int first_line) {
  std::vector<std::string> out;
  auto v = map[key];
  if (!v || v.IsNull()) return out;
  if (v.IsScalar()) {
    out.push_back(v.Scalar());
  } else if (v.IsSequence()) {
    for (const auto& item : v) {
      if (item.IsScalar())
        out.push_back(item.Scalar());
      else
        diags.error(where(item, file, first_line), std::string("expected text in the list '") + key + "'");
    }
  } else {
    diags.error(where(v, file, first_line), std::string("expected a list for '") + key + "'");
  }
  return out;
}

}  // namespace qualrank::yaml
