// Loading YAML with locations: parse errors and node marks become qualrank Locations.
#pragma once
#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <vector>

#include "qualrank/util/diagnostics.h"

namespace qualrank::yaml {

// Limits (docs/formats.md, "Limits"): a YAML text over kMaxBytes, collections nested deeper than kMaxDepth,
// more than kMaxNodes nodes (scalars, lists, maps and aliases; yaml-cpp spends ~1.5 us and ~450 bytes on
// each), and aliases that expand to more than kMaxAliasExpansion bytes in all (each alias counts the scalar bytes
// of the node it names, plus one per node, its own aliases expanded) are refused, located, before any node is
// built; so is an alias inside the node it names.
inline constexpr std::size_t kMaxBytes = 4u * 1024u * 1024u;  // yaml-cpp takes ~0.3 s of CPU per MiB
inline constexpr int kMaxDepth = 64;
inline constexpr std::size_t kMaxNodes = 500000;
inline constexpr std::size_t kMaxAliasExpansion = 1024u * 1024u;

// Parses `text` (the contents of `file`, reported as `file`). `first_line` shifts line numbers, for YAML
// embedded in another file (front matter). Syntax errors are reported located; returns nullopt then. So is
// a scalar (key or value) that is not valid UTF-8 after its escapes are decoded: yaml-cpp turns "\N" and
// "\_" into the single bytes 0x85 and 0xA0, which would reach JSON, workbooks and HTML.
std::optional<YAML::Node> parse(const std::string& text, const std::string& file, Diagnostics& diags,
                                int first_line = 1);

// Location of a node (yaml-cpp marks are 0-based; Locations are 1-based).
Location where(const YAML::Node& node, const std::string& file, int first_line = 1);

// Scalar helpers: return the scalar text, or report "expected a string for KEY" and return fallback.
std::string get_string(const YAML::Node& map, const char* key, const std::string& file, Diagnostics& diags,
                       bool required, int first_line = 1);
// A scalar or a sequence of scalars, as a list of strings.
std::vector<std::string> get_string_list(const YAML::Node& map, const char* key, const std::string& file,
                                         Diagnostics& diags, int first_line = 1);

// Runs `read` (a loader walking the YAML nodes of `file`) and turns a yaml-cpp exception it throws, from an
// accessor that met a node of an unexpected kind (operator[] on a scalar, as<T> on a map), into a located
// error ("unexpected YAML structure here: ...") instead of an internal error (found by tests/fuzz). Returns
// what `read` returns (a std::optional), or nullopt after such an error. `first_line` as for parse().
template <class Read>
auto guarded(const std::string& file, Diagnostics& diags, int first_line, Read&& read) -> decltype(read()) {
  try {
    return read();
  } catch (const YAML::Exception& e) {
    const bool marked = e.mark.line >= 0;
    diags.error({file, marked ? e.mark.line + first_line : 0, marked ? e.mark.column + 1 : 0},
                "unexpected YAML structure here: " + e.msg);
    return std::nullopt;
  }
}

}  // namespace qualrank::yaml
