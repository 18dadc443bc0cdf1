// Writing YAML by hand, for files people review in git (the taxonomy history, exported taxonomies): block
// style, keys in the writer's order, scalars plain when that reads back as the same string, else
// double-quoted with escapes.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace qualrank::yaml {

// `s` as a YAML scalar that yaml-cpp reads back as exactly `s` (as a string, never null).
std::string quote(std::string_view s);

// A flow sequence of scalars: [a, "b, c"].
std::string flow_list(const std::vector<std::string>& items);

}  // namespace qualrank::yaml
