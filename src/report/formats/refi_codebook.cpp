// The REFI-QDA codebook (.qdc) and the Code elements shared with the project export. Every node becomes a
// Code (inner nodes too, since transcripts code them directly); colours come from a fixed palette, one per
// root, inherited by its descendants, so the same taxonomy always gives the same bytes.
#include <sstream>

#include "qualrank/report/formats/refi.h"
#include "qualrank/report/formats/refi_export.h"
#include "qualrank/util/text.h"
#include "refi_xml.h"

namespace qualrank {

namespace refi_xml {

namespace {

const char* const kPalette[] = {"#1F77B4", "#D62728", "#2CA02C", "#FF7F0E", "#9467BD",
                                "#8C564B", "#E377C2", "#7F7F7F", "#BCBD22", "#17BECF"};

std::string clean(const std::string& s) {
  std::string out = s;
  text::strip_xml_invalid(out);
  return out;
}

void append_code(pugi::xml_node parent, const Taxonomy& taxonomy, const std::string& id, const char* color) {
  const TaxonomyNode* n = taxonomy.find(id);
  auto code = add(parent, "Code");
  set(code, "guid", refi::code_guid(taxonomy.name, id));
  set(code, "name", refi::code_name(*n));
  set(code, "isCodable", n->status == "deprecated" ? "false" : "true");
  set(code, "color", color);
  auto description = refi::code_description(*n);
  if (!description.empty()) add_text(code, "Description", description);
  for (const auto& child : taxonomy.children(id)) append_code(code, taxonomy, child, color);
}

}  // namespace

pugi::xml_node add(pugi::xml_node parent, const char* name) { return parent.append_child(name); }

void set(pugi::xml_node node, const char* name, const std::string& value) {
  node.append_attribute(name).set_value(clean(value).c_str());
}

pugi::xml_node add_text(pugi::xml_node parent, const char* name, const std::string& text_) {
  auto node = parent.append_child(name);
  node.append_child(pugi::node_pcdata).set_value(clean(text_).c_str());
  return node;
}

void append_codes(pugi::xml_node codes, const Taxonomy& taxonomy) {
  std::size_t k = 0;
  for (const auto& root : taxonomy.order()) {
    if (!taxonomy.find(root)->parent.empty()) continue;
    append_code(codes, taxonomy, root, kPalette[k++ % (sizeof kPalette / sizeof *kPalette)]);
  }
}

std::string serialise(const pugi::xml_document& doc) {
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
  return out.str();
}

}  // namespace refi_xml

std::string refi_codebook_xml(const Taxonomy& taxonomy) {
  pugi::xml_document doc;
  auto decl = doc.append_child(pugi::node_declaration);
  decl.append_attribute("version") = "1.0";
  decl.append_attribute("encoding") = "utf-8";
  auto book = doc.append_child("CodeBook");
  refi_xml::set(book, "xmlns", "urn:QDA-XML:codebook:1.0");
  refi_xml::set(book, "origin", "qualrank " QUALRANK_VERSION);
  auto codes = refi_xml::add(book, "Codes");
  refi_xml::append_codes(codes, taxonomy);
  return refi_xml::serialise(doc);
}

}  // namespace qualrank
