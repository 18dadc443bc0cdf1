// Element and attribute lookup by local name (the part after a namespace prefix: <w:p>, <r:id>, <qda:Code>),
// for readers of other tools' XML, which write the same namespace with whatever prefix they like.
#pragma once
#include <pugixml.hpp>

#include <string_view>
#include <vector>

namespace qualrank::xml {

inline std::string_view local_name(std::string_view name) {
  auto colon = name.find(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

inline std::string_view local_name(const pugi::xml_node& n) { return local_name(std::string_view(n.name())); }

// The first child element of `n` with local name `name`, or an empty node.
inline pugi::xml_node child(const pugi::xml_node& n, std::string_view name) {
  for (auto c : n.children())
    if (c.type() == pugi::node_element && local_name(c) == name) return c;
  return {};
}

// Every child element of `n` with local name `name`, in document order.
inline std::vector<pugi::xml_node> children(const pugi::xml_node& n, std::string_view name) {
  std::vector<pugi::xml_node> out;
  for (auto c : n.children())
    if (c.type() == pugi::node_element && local_name(c) == name) out.push_back(c);
  return out;
}

// The attribute of `n` with local name `name`, or an empty attribute.
inline pugi::xml_attribute attribute(const pugi::xml_node& n, std::string_view name) {
  for (auto a : n.attributes())
    if (local_name(std::string_view(a.name())) == name) return a;
  return {};
}

}  // namespace qualrank::xml
