// Private helpers of the REFI-QDA export (pugixml): building elements with XML-safe text, the nested Code
// elements shared by the codebook and the project, serialising a document.
#pragma once
#include <pugixml.hpp>

#include <string>

#include "qualrank/model/taxonomy.h"

namespace qualrank::refi_xml {

// A child element `name` of `parent`.
pugi::xml_node add(pugi::xml_node parent, const char* name);
// Sets attribute `name` to `value` with characters XML 1.0 forbids removed.
void set(pugi::xml_node node, const char* name, const std::string& value);
// A child element holding `text` (characters XML 1.0 forbids removed).
pugi::xml_node add_text(pugi::xml_node parent, const char* name, const std::string& text);
// Appends one <Code> per root of `taxonomy` (children nested, taxonomy order) to `codes`.
void append_codes(pugi::xml_node codes, const Taxonomy& taxonomy);
// The document as UTF-8 with an XML declaration, two-space indentation and a final newline.
std::string serialise(const pugi::xml_document& doc);

}  // namespace qualrank::refi_xml
