// Writing a taxonomy version as a plain taxonomy file (the nested form of docs/formats.md), so that
// load_taxonomy reads it back with the same nodes, order and fields.
#include "qualrank/model/history/history.h"
#include "qualrank/util/yaml_emit.h"

namespace qualrank {

namespace {

void write_node(const Taxonomy& t, const std::string& id, std::size_t indent, std::string& out) {
  const TaxonomyNode& n = *t.find(id);
  std::string pad(indent, ' ');
  out += pad + "- id: " + yaml::quote(n.id) + "\n";
  out += pad + "  name: " + yaml::quote(n.name) + "\n";
  auto field = [&](const char* key, const std::string& value) {
    if (!value.empty()) out += pad + "  " + key + ": " + yaml::quote(value) + "\n";
  };
  field("definition", n.definition);
  field("inclusion", n.inclusion);
  field("exclusion", n.exclusion);
  if (!n.aliases.empty()) out += pad + "  aliases: " + yaml::flow_list(n.aliases) + "\n";
  if (!n.keywords.empty()) out += pad + "  keywords: " + yaml::flow_list(n.keywords) + "\n";
  if (n.status != "active") field("status", n.status);
  auto children = t.children(id);
  if (children.empty()) return;
  out += pad + "  children:\n";
  for (const auto& c : children) write_node(t, c, indent + 4, out);
}

}  // namespace

std::string taxonomy_to_yaml(const Taxonomy& taxonomy, const std::string& comment) {
  std::string out;
  std::size_t start = 0;
  while (start < comment.size()) {
    auto nl = comment.find('\n', start);
    out += "# " + comment.substr(start, nl == std::string::npos ? std::string::npos : nl - start) + "\n";
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  out += "taxonomy: " + yaml::quote(taxonomy.name) + "\n";
  if (!taxonomy.title.empty()) out += "title: " + yaml::quote(taxonomy.title) + "\n";
  if (!taxonomy.level_names.empty()) {
    out += "levels: [";
    for (std::size_t i = 0; i < taxonomy.level_names.size(); ++i) out += (i ? ", " : "") + yaml::quote(taxonomy.level_names[i]);
    out += "]\n";
  }
  out += "nodes:\n";
  for (const auto& id : taxonomy.order())
    if (taxonomy.find(id)->parent.empty()) write_node(taxonomy, id, 2, out);
  return out;
}

}  // namespace qualrank
