#include "qualrank/util/yaml_source.h"

#include "qualrank/util/text.h"

namespace qualrank::yaml {

namespace {

// yaml-cpp decodes the escapes "\N" and "\_" of double-quoted scalars to the single bytes 0x85 and 0xA0
// (not to U+0085 and U+00A0), so a file that is valid UTF-8 can still give scalars that are not. Reports
// each such scalar (keys too) at its mark; returns false when there was one.
bool check_scalars_utf8(const YAML::Node& node, const std::string& file, Diagnostics& diags, int first_line) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      if (text::find_invalid_utf8(node.Scalar())) {
        diags.error(where(node, file, first_line),
                    "this value is not valid UTF-8 once its escapes are decoded (\\N and \\_ give single bytes; "
                    "write the character itself)");
        return false;
      }
      return true;
    case YAML::NodeType::Sequence: {
      bool ok = true;
      for (const auto& item : node) ok = check_scalars_utf8(item, file, diags, first_line) && ok;
      return ok;
    }
    case YAML::NodeType::Map: {
      bool ok = true;
      for (const auto& kv : node) {
        ok = check_scalars_utf8(kv.first, file, diags, first_line) && ok;
        ok = check_scalars_utf8(kv.second, file, diags, first_line) && ok;
      }
      return ok;
    }
    default: return true;
  }
}

}  // namespace

std::optional<YAML::Node> parse(const std::string& text, const std::string& file, Diagnostics& diags,
                                int first_line) {
  try {
    YAML::Node root = YAML::Load(text);
    if (!check_scalars_utf8(root, file, diags, first_line)) return std::nullopt;
    return root;
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
