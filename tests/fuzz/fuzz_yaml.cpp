// The YAML loader every design file goes through (util/yaml_source): the parsed tree is walked in full,
// aliases expanded, as a careless consumer would; the loader's limits must keep that bounded.
#include "fuzz_target.h"
#include "qualrank/util/yaml_source.h"

namespace {
std::size_t walk(const YAML::Node& n, int depth) {
  if (depth > 1000) std::abort();  // the loader's nesting limit was not applied
  std::size_t bytes = 0;
  switch (n.Type()) {
    case YAML::NodeType::Scalar: return n.Scalar().size();
    case YAML::NodeType::Sequence:
      for (const auto& item : n) bytes += walk(item, depth + 1);
      return bytes + 1;
    case YAML::NodeType::Map:
      for (const auto& kv : n) bytes += walk(kv.first, depth + 1) + walk(kv.second, depth + 1);
      return bytes + 1;
    default: return 1;
  }
}
}  // namespace

QUALRANK_FUZZ_TARGET(yaml) {
  using namespace qualrank;
  Diagnostics diags;
  auto node = yaml::parse(std::string(reinterpret_cast<const char*>(data), size), "fuzz.yaml", diags);
  fuzz::check_located(diags);
  if (node) (void)walk(*node, 0);
  return 0;
}
