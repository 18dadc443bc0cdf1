// Codes to taxonomy nodes. Without a taxonomy the codebook becomes one: ids from id prefixes in the code
// names when every code has a distinct prefix, else by position; names, definitions, criteria, aliases and
// keywords from the name and Description (refi::parse_code_description); labels made unambiguous. With a
// taxonomy, each code maps to a node by, in order: the mapping file (name or GUID), qualrank's own GUID for
// the node, an id prefix naming an existing node, the whole name or the name after the prefix as a node
// name or alias. The codebook's differences from the taxonomy (new, renamed, redefined, moved, missing
// nodes) are computed for proposals.
#include <algorithm>
#include <functional>

#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/uuid.h"
#include "qualrank/util/yaml_emit.h"
#include "qualrank/util/yaml_source.h"
#include "refi_import_internal.h"

namespace qualrank::refi_import {

namespace {

std::string letters_id(std::size_t k) {  // 0 -> A, 25 -> Z, 26 -> AA
  std::string s;
  ++k;
  while (k > 0) {
    --k;
    s.insert(s.begin(), static_cast<char>('A' + k % 26));
    k /= 26;
  }
  return s;
}

std::string roman(std::size_t n) {  // lower case, 1..3999
  static const std::pair<int, const char*> table[] = {{1000, "m"}, {900, "cm"}, {500, "d"}, {400, "cd"}, {100, "c"},
                                                      {90, "xc"},  {50, "l"},   {40, "xl"},  {10, "x"},   {9, "ix"},
                                                      {5, "v"},    {4, "iv"},   {1, "i"}};
  std::string s;
  for (const auto& [v, r] : table)
    while (n >= static_cast<std::size_t>(v)) {
      s += r;
      n -= static_cast<std::size_t>(v);
    }
  return s;
}

// The id of the k-th (0-based) child at `depth` under `parent`: A; A.1; A.1.i; deeper levels numbered.
std::string positional_id(const std::string& parent, int depth, std::size_t k) {
  if (depth == 1) return letters_id(k);
  return parent + "." + (depth == 3 ? roman(k + 1) : std::to_string(k + 1));
}

void write_node(std::string& out, const Taxonomy& t, const std::string& id, int depth) {
  const TaxonomyNode* n = t.find(id);
  std::string pad(static_cast<std::size_t>(2 + 4 * (depth - 1)), ' ');
  out += pad + "- id: " + yaml::quote(n->id) + "\n";
  pad += "  ";
  out += pad + "name: " + yaml::quote(n->name) + "\n";
  if (!n->definition.empty()) out += pad + "definition: " + yaml::quote(n->definition) + "\n";
  if (!n->inclusion.empty()) out += pad + "inclusion: " + yaml::quote(n->inclusion) + "\n";
  if (!n->exclusion.empty()) out += pad + "exclusion: " + yaml::quote(n->exclusion) + "\n";
  if (!n->aliases.empty()) out += pad + "aliases: " + yaml::flow_list(n->aliases) + "\n";
  if (!n->keywords.empty()) out += pad + "keywords: " + yaml::flow_list(n->keywords) + "\n";
  auto children = t.children(id);
  if (children.empty()) return;
  out += pad + "children:\n";
  for (const auto& c : children) write_node(out, t, c, depth + 1);
}

// Name after the id prefix when the prefix is `id`, else the whole name.
std::string name_without_id(const std::string& code_name, const std::string& id) {
  auto pre = refi::split_id_prefix(code_name);
  if (pre && text::fold_case(pre->first) == text::fold_case(id)) return pre->second;
  return std::string(text::trim(code_name));
}

}  // namespace

std::string norm_guid(const std::string& guid) {
  auto n = uuid::normalise(guid);
  return n.empty() ? guid : n;
}

std::vector<FlatCode> flatten(const std::vector<refi::Code>& codes) {
  std::vector<FlatCode> out;
  std::function<void(const std::vector<refi::Code>&, const std::string&, int)> walk =
      [&](const std::vector<refi::Code>& list, const std::string& parent, int depth) {
        for (const auto& c : list) {
          std::string guid = norm_guid(c.guid);
          out.push_back({&c, guid, parent, depth});
          walk(c.children, guid, depth + 1);
        }
      };
  walk(codes, "", 1);
  return out;
}

std::optional<std::vector<MapEntry>> read_map_file(const std::filesystem::path& path, Diagnostics& diags) {
  std::string display = path.string();
  std::string why;
  auto content = files::read_input(path, files::kYamlInput, &why);
  if (!content) {
    diags.error({display, 0, 0}, why == "cannot read the file" ? "cannot read the mapping file" : why);
    return std::nullopt;
  }
  auto root = yaml::parse(*content, display, diags);
  if (!root) return std::nullopt;
  std::vector<MapEntry> out;
  if (root->IsNull()) return out;
  if (!root->IsMap()) {
    diags.error({display, 1, 1}, "a mapping file is a map of 'other tool's code name or GUID: node id'");
    return std::nullopt;
  }
  for (const auto& kv : *root) {
    if (!kv.first.IsScalar() || !kv.second.IsScalar()) {
      diags.error(yaml::where(kv.first, display), "expected 'code name or GUID: node id'");
      continue;
    }
    out.push_back({kv.first.Scalar(), kv.second.Scalar(), yaml::where(kv.first, display)});
  }
  return out;
}

std::optional<CreatedTaxonomy> taxonomy_from_codebook(const refi::Project& project, const std::string& name,
                                                      const std::string& title, const std::string& file,
                                                      const std::vector<MapEntry>& explicit_map, Diagnostics& diags) {
  auto flat = flatten(project.codes);
  Location codebook{project.xml_file, 0, 0};
  if (flat.empty()) {
    diags.error(codebook, "the project has no codes, and the workspace has no taxonomy to import codings into");
    return std::nullopt;
  }
  bool use_prefix = true;
  std::set<std::string> prefixes;
  for (const auto& f : flat) {
    auto pre = refi::split_id_prefix(f.code->name);
    if (!pre || !prefixes.insert(text::fold_case(pre->first)).second) use_prefix = false;
  }
  // A mapping file names the id of the codes it lists (the other tool's name or GUID -> the new node's id).
  std::map<std::string, std::string> mapped_id;  // code guid -> id
  std::set<std::size_t> entries_used;
  for (const auto& f : flat)
    for (std::size_t k = 0; k < explicit_map.size(); ++k)
      if (explicit_map[k].key == f.code->name || norm_guid(explicit_map[k].key) == f.guid) {
        mapped_id.emplace(f.guid, std::string(text::trim(explicit_map[k].value)));
        entries_used.insert(k);
      }
  for (std::size_t k = 0; k < explicit_map.size(); ++k)
    if (!entries_used.count(k)) diags.warning(explicit_map[k].where, "'" + explicit_map[k].key + "' matches no code of the project");
  if (!use_prefix && !prefixes.empty() && mapped_id.size() < flat.size())
    diags.note(codebook, "not every code name starts with a distinct id; node ids are assigned by position (A, A.1, A.1.i, ...)");

  CreatedTaxonomy out;
  Taxonomy& t = out.taxonomy;
  t.name = name;
  t.title = title;
  t.file = file;
  std::map<std::string, std::string> id_of;         // code guid -> id
  std::map<std::string, std::size_t> child_count;   // parent guid -> children so far
  std::map<std::string, std::string> owner;         // folded label -> node id
  for (const auto& f : flat) {
    TaxonomyNode n;
    std::string parent_id = f.parent_guid.empty() ? "" : id_of[f.parent_guid];
    if (auto m = mapped_id.find(f.guid); m != mapped_id.end()) {
      n.id = m->second;
      auto pre = refi::split_id_prefix(f.code->name);
      n.name = pre && pre->first == n.id ? pre->second : std::string(text::trim(f.code->name));
    } else if (use_prefix) {
      auto pre = refi::split_id_prefix(f.code->name);
      n.id = pre->first;
      n.name = pre->second;
    } else {
      n.id = positional_id(parent_id, f.depth, child_count[f.parent_guid]);
      n.name = std::string(text::trim(f.code->name));
      out.positional.insert(n.id);
    }
    ++child_count[f.parent_guid];
    if (n.name.empty()) n.name = n.id;
    auto fields = refi::parse_code_description(f.code->description);
    n.definition = fields.definition;
    n.inclusion = fields.inclusion;
    n.exclusion = fields.exclusion;
    n.parent = parent_id;
    Location at{project.xml_file, f.code->line, 0};
    owner.emplace(text::fold_case(n.id), n.id);
    if (auto [it, fresh] = owner.emplace(text::fold_case(n.name), n.id); !fresh && it->second != n.id) {
      diags.warning(at, "code name '" + n.name + "' is also node " + it->second + "'s; this node is named '" + n.name +
                            " (" + n.id + ")'");
      n.name += " (" + n.id + ")";
      owner.emplace(text::fold_case(n.name), n.id);
    }
    n.keywords = fields.keywords;
    for (const auto& a : fields.aliases) {
      auto [it, fresh] = owner.emplace(text::fold_case(a), n.id);
      if (!fresh && it->second != n.id) diags.warning(at, "alias '" + a + "' of " + n.id + " already names " + it->second + "; left out");
      else n.aliases.push_back(a);
    }
    id_of[f.guid] = n.id;
    out.map.node_of[f.guid] = n.id;
    if (!t.add(n)) {
      diags.error(at, "cannot make node '" + n.id + "' from this code (its id is taken or its parent is missing)");
      return std::nullopt;
    }
  }
  t.reindex();

  out.yaml = "# Made by qualrank import from the REFI-QDA codebook of " + std::filesystem::path(project.xml_file).filename().string() + ".\n";
  out.yaml += "taxonomy: " + yaml::quote(name) + "\n";
  if (!title.empty()) out.yaml += "title: " + yaml::quote(title) + "\n";
  out.yaml += "nodes:\n";
  for (const auto& root : t.roots()) write_node(out.yaml, t, root, 1);
  Diagnostics check;
  if (!load_taxonomy(out.yaml, file, check)) {
    for (const auto& d : check.items())
      diags.error(d.where, "the taxonomy made from the codebook does not load: " + d.message);
    return std::nullopt;
  }
  return out;
}

CodeMap map_codes(const refi::Project& project, const Taxonomy& taxonomy, const std::vector<MapEntry>& explicit_map,
                  const std::set<std::string>& used, bool report_unused, Diagnostics& diags) {
  CodeMap out;
  std::map<std::string, std::string> own_guids;  // qualrank's GUID of each node -> id
  for (const auto& id : taxonomy.order()) own_guids[refi::code_guid(taxonomy.name, id)] = id;
  auto flat = flatten(project.codes);
  std::set<std::size_t> entries_used;
  auto resolve_id = [&](const std::string& token) -> std::optional<std::string> {
    auto r = taxonomy.resolve(token);
    if (r && text::fold_case(*r) == text::fold_case(text::trim(token))) return r;
    return std::nullopt;
  };
  std::map<std::string, std::pair<std::string, int>> first_code;  // node id -> the first code on it (name, line)
  for (const auto& f : flat) {
    const auto& c = *f.code;
    Location at{project.xml_file, c.line, 0};
    std::optional<std::string> node;
    bool by_map = false;
    for (std::size_t k = 0; k < explicit_map.size() && !node; ++k) {
      const auto& e = explicit_map[k];
      if (e.key != c.name && norm_guid(e.key) != f.guid) continue;
      entries_used.insert(k);
      by_map = true;
      node = taxonomy.resolve(e.value);
      if (!node) diags.error(e.where, "'" + e.value + "' is not a node of the taxonomy");
    }
    if (!node)
      if (auto it = own_guids.find(f.guid); it != own_guids.end()) node = it->second;
    auto pre = refi::split_id_prefix(c.name);
    if (!node && pre) node = resolve_id(pre->first);
    if (!node) node = resolve_id(c.name);
    if (!node) node = taxonomy.resolve(c.name);
    if (!node && pre) node = taxonomy.resolve(pre->second);
    if (node) {
      out.node_of[f.guid] = *node;
      // Two codes on one node: both code it, but only the first is compared with it (a .qdc's differences).
      auto [first, fresh] = first_code.emplace(*node, std::make_pair(c.name, c.line));
      if (!fresh) {
        out.second_to_node.insert(f.guid);
        if (!by_map)
          diags.warning(at, "codes '" + first->second.first + "' (line " + std::to_string(first->second.second) +
                                ") and '" + c.name + "' both map to node " + *node + "; this one is compared as the same node "
                                "(name it in a --map file to map it elsewhere)");
      }
      if (pre) {
        auto by_name = taxonomy.resolve(pre->second);
        if (by_name && *by_name != *node)
          diags.warning(at, "code '" + c.name + "' maps to " + *node + ", but its name is that of " + *by_name);
      }
      continue;
    }
    std::string why = "code '" + c.name + "' does not map to a taxonomy node (no id prefix, name or alias matches; "
                      "name it in a --map file)";
    ++out.unmatched;
    if (used.count(f.guid)) diags.error(at, why);
    else if (report_unused) diags.warning(at, why + "; no coding uses it");
  }
  for (std::size_t k = 0; k < explicit_map.size(); ++k)
    if (!entries_used.count(k)) diags.warning(explicit_map[k].where, "'" + explicit_map[k].key + "' matches no code of the project");
  return out;
}

std::vector<CodebookDifference> codebook_differences(const refi::Project& project, const Taxonomy& taxonomy,
                                                     const CodeMap& map, Diagnostics& diags) {
  std::vector<std::string> flat_but_nested;  // top-level codes on nested nodes: no move proposed
  using Kind = CodebookDifference::Kind;
  std::vector<CodebookDifference> out;
  std::map<std::string, std::string> new_ids;  // guid of a new code -> its id
  std::set<std::string> mapped_nodes, taken;
  for (const auto& id : taxonomy.order()) taken.insert(text::fold_case(id));
  std::map<std::string, std::size_t> added_under;  // parent id -> new children so far
  for (const auto& f : flatten(project.codes)) {
    const auto& c = *f.code;
    Location at{project.xml_file, c.line, 0};
    auto fields = refi::parse_code_description(c.description);
    std::string parent;
    if (!f.parent_guid.empty()) {
      if (auto it = map.node_of.find(f.parent_guid); it != map.node_of.end()) parent = it->second;
      else parent = new_ids[f.parent_guid];
    }
    auto it = map.node_of.find(f.guid);
    if (it == map.node_of.end()) {
      CodebookDifference d;
      d.kind = Kind::added;
      d.parent = parent;
      d.top_level_name = taxonomy.level_name(1);
      d.where = at;
      d.fields = fields;
      auto pre = refi::split_id_prefix(c.name);
      if (pre && !taken.count(text::fold_case(pre->first))) {
        d.node = pre->first;
        d.name = pre->second;
      } else {
        std::size_t k = (parent.empty() ? taxonomy.roots().size() : taxonomy.children(parent).size()) + added_under[parent];
        const TaxonomyNode* p = parent.empty() ? nullptr : taxonomy.find(parent);
        int depth = parent.empty() ? 1 : p ? p->level + 1 : f.depth;  // a new parent: as deep as in the codebook
        do d.node = positional_id(parent, depth, k++);
        while (taken.count(text::fold_case(d.node)));
        d.name = std::string(text::trim(c.name));
      }
      ++added_under[parent];
      taken.insert(text::fold_case(d.node));
      new_ids[f.guid] = d.node;
      out.push_back(std::move(d));
      continue;
    }
    if (map.second_to_node.count(f.guid)) continue;  // compared once, as the first code on its node
    const TaxonomyNode* n = taxonomy.find(it->second);
    mapped_nodes.insert(n->id);
    std::string name = name_without_id(c.name, n->id);
    // A code named by one of the node's aliases (matched by it) is that node under another label, not a rename.
    bool an_alias = std::any_of(n->aliases.begin(), n->aliases.end(),
                                [&](const std::string& a) { return text::fold_case(a) == text::fold_case(name); });
    if (!name.empty() && name != n->name && !an_alias) {
      CodebookDifference d;
      d.kind = Kind::renamed;
      d.node = n->id;
      d.name = name;
      d.old_name = n->name;
      d.where = at;
      out.push_back(std::move(d));
    }
    bool parent_known = f.parent_guid.empty() || map.node_of.count(f.parent_guid);
    if (parent_known && parent.empty() && !n->parent.empty()) {
      // The history moves a node only under another node; a code at the codebook's top level (a flat
      // codebook's every code) says nothing about where its node belongs.
      flat_but_nested.push_back(n->id);
    } else if (parent_known && parent != n->parent) {
      CodebookDifference d;
      d.kind = Kind::moved;
      d.node = n->id;
      d.parent = parent;
      d.where = at;
      out.push_back(std::move(d));
    }
    // Redefine only what the description states (another tool's empty criteria do not clear ours).
    refi::DescriptionFields changed;
    bool any = false;
    auto diff = [&](const std::string& theirs, const std::string& ours, std::string& into) {
      if (!theirs.empty() && theirs != ours) {
        into = theirs;
        any = true;
      }
    };
    diff(fields.definition, n->definition, changed.definition);
    diff(fields.inclusion, n->inclusion, changed.inclusion);
    diff(fields.exclusion, n->exclusion, changed.exclusion);
    if (!fields.aliases.empty() && fields.aliases != n->aliases) changed.aliases = fields.aliases, any = true;
    if (!fields.keywords.empty() && fields.keywords != n->keywords) changed.keywords = fields.keywords, any = true;
    if (any) {
      CodebookDifference d;
      d.kind = Kind::redefined;
      d.node = n->id;
      d.fields = changed;
      d.where = at;
      out.push_back(std::move(d));
    }
  }
  if (!flat_but_nested.empty())
    diags.note({project.xml_file, 0, 0}, std::to_string(flat_but_nested.size()) + " codes at the top level of the codebook map to nested nodes (" +
                                             text::join(flat_but_nested, ", ") + "); they are not proposed as moves");
  // Nodes not in the codebook are deprecated, children before their parent (a node is deprecated only when
  // its children are); a node whose subtree keeps a node of the codebook stays.
  std::set<std::string> keeps;  // nodes with a mapped node at or below them
  for (const auto& id : mapped_nodes)
    for (const TaxonomyNode* n = taxonomy.find(id); n; n = n->parent.empty() ? nullptr : taxonomy.find(n->parent))
      keeps.insert(n->id);
  std::vector<std::string> kept_parents;
  const auto& order = taxonomy.order();
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const TaxonomyNode* n = taxonomy.find(*it);
    if (mapped_nodes.count(*it) || n->status == "deprecated") continue;
    if (keeps.count(*it)) {
      kept_parents.push_back(*it);
      continue;
    }
    CodebookDifference d;
    d.kind = Kind::removed;
    d.node = *it;
    d.old_name = n->name;
    d.where = {project.xml_file, 1, 0};
    out.push_back(std::move(d));
  }
  if (!kept_parents.empty()) {
    std::reverse(kept_parents.begin(), kept_parents.end());
    diags.note({project.xml_file, 0, 0}, std::to_string(kept_parents.size()) + " nodes are not in the codebook but nodes under them are (" +
                                             text::join(kept_parents, ", ") + "); they are not proposed for deprecation");
  }
  return out;
}

}  // namespace qualrank::refi_import

namespace qualrank {

std::string CodebookDifference::summary() const {
  switch (kind) {
    case Kind::added: return "add " + node + " '" + name + "'" + (parent.empty() ? " at the top level (" + top_level_name + ")" : " under " + parent);
    case Kind::renamed: return "rename " + node + " '" + old_name + "' -> '" + name + "'";
    case Kind::redefined: return "redefine " + node;
    case Kind::moved: return "move " + node + (parent.empty() ? " to the top level" : " under " + parent);
    case Kind::removed: return "deprecate " + node + " '" + old_name + "' (not in the codebook)";
  }
  return "";
}

}  // namespace qualrank
