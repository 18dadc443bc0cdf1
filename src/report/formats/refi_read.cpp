// Reading QDA-XML with pugixml into the tool-neutral refi::Project. Element names are matched without a
// namespace prefix; lines come from pugixml's byte offsets (offset_debug) mapped through a line table.
// Only what qualrank imports is read: users, codes, variables, cases, text sources with their selections
// and codings, notes. Other element kinds are recorded in Project::ignored so the importer can say so.
#include <pugixml.hpp>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <unordered_map>
#include <utility>

#include "qualrank/report/formats/refi.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/encoding.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/xml_names.h"
#include "qualrank/util/zip.h"

namespace qualrank::refi {

namespace {

using xml::child;
using xml::children;
using xml::local_name;

struct Reader {
  const std::string& xml;
  std::string file;
  Diagnostics& diags;
  const std::function<std::optional<std::string>(const std::string&)>& read_source;
  std::vector<std::size_t> line_starts;
  bool told_bare_project = false;  // the first internal:// source of a bare .qde explained what to pass instead

  int line_of(const pugi::xml_node& n) const {
    auto off = n.offset_debug();
    if (off < 0) return 0;
    auto it = std::upper_bound(line_starts.begin(), line_starts.end(), static_cast<std::size_t>(off));
    return static_cast<int>(it - line_starts.begin());
  }
  Location at(const pugi::xml_node& n) const { return {file, line_of(n), 0}; }

  std::string required(const pugi::xml_node& n, const char* attr) {
    auto a = n.attribute(attr);
    if (!a) diags.error(at(n), std::string("<") + n.name() + "> without the required attribute '" + attr + "'");
    return a.value();
  }
  // The element's GUID, which no other element of the file may carry (a GUID names one code, source,
  // selection, user, variable or note; a second use would make every reference to it ambiguous).
  std::unordered_map<std::string, std::pair<std::string, int>> guids;  // GUID (lower case) -> element, line
  std::string guid(const pugi::xml_node& n) {
    std::string g = required(n, "guid");
    if (g.empty()) return g;
    std::string key = g;
    for (char& ch : key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    auto [it, fresh] = guids.emplace(key, std::pair<std::string, int>{n.name(), line_of(n)});
    if (!fresh)
      diags.error(at(n), std::string("<") + n.name() + "> has the guid '" + g + "' of the <" + it->second.first + "> at line " +
                             std::to_string(it->second.second) + "; a GUID names one element, so references to it would be ambiguous");
    return g;
  }
  std::vector<std::pair<std::string, int>> refs(const pugi::xml_node& n, std::string_view name) {
    std::vector<std::pair<std::string, int>> out;
    for (auto r : children(n, name)) out.emplace_back(required(r, "targetGUID"), line_of(r));
    return out;
  }

  Code code(const pugi::xml_node& n) {
    Code c;
    c.guid = guid(n);
    c.name = required(n, "name");
    c.line = line_of(n);
    std::string codable = n.attribute("isCodable").value();
    c.codable = !(codable == "false" || codable == "0");
    c.color = n.attribute("color").value();
    if (auto d = child(n, "Description")) c.description = d.text().get();
    for (auto k : children(n, "Code")) c.children.push_back(code(k));
    return c;
  }

  CodingRef coding(const pugi::xml_node& n) {
    CodingRef c;
    c.guid = n.attribute("guid").value();
    c.user_guid = n.attribute("creatingUser").value();
    c.line = line_of(n);
    if (auto ref = child(n, "CodeRef")) c.code_guid = required(ref, "targetGUID");
    else diags.error(at(n), "<Coding> without a <CodeRef>");
    c.note_refs = refs(n, "NoteRef");
    return c;
  }

  long long position(const pugi::xml_node& n, const char* attr) {
    std::string v = required(n, attr);
    try {
      std::size_t used = 0;
      long long x = std::stoll(v, &used);
      if (used == v.size()) return x;
    } catch (...) {
    }
    if (!v.empty()) diags.error(at(n), std::string("'") + attr + "' must be an integer, not '" + v + "'");
    return -1;
  }

  // The text of a TextSource or Note: PlainTextContent, or plainTextPath "internal://NAME" in the archive.
  bool load_text(const pugi::xml_node& n, std::string& text, std::string& text_file, bool required_text) {
    if (auto content = child(n, "PlainTextContent")) {
      text = content.text().get();
      text_file = file;
      return true;
    }
    std::string path = n.attribute("plainTextPath").value();
    if (path.empty()) {
      if (required_text) diags.error(at(n), std::string("<") + n.name() + "> without PlainTextContent or plainTextPath");
      return false;
    }
    const std::string scheme = "internal://";
    if (path.rfind(scheme, 0) == 0 && !read_source) {
      // A project file read alone (a .qde taken out of its .qdpx): its sources stayed in the archive.
      diags.error(at(n), "source text '" + path + "' is in the project's archive, not in this file" +
                             (std::exchange(told_bare_project, true)
                                  ? std::string()
                                  : std::string(": a .qde is the project file inside a .qdpx archive, which also holds "
                                                "the sources; import the .qdpx (or a .qdc for the codebook alone)")));
      return false;
    }
    if (path.rfind(scheme, 0) != 0 || !read_source) {
      diags.error(at(n), "source text '" + path + "' is not inside the project (only internal:// sources are imported)");
      return false;
    }
    std::string name = "sources/" + path.substr(scheme.size());
    const int errors_before = diags.error_count();
    auto bytes = read_source(name);
    if (!bytes) {
      if (diags.error_count() > errors_before) return false;  // read_source said why (a limit, damage)
      diags.error(at(n), "source text '" + path + "' is missing from the archive (" + name + ")");
      return false;
    }
    text_file = file.substr(0, file.rfind(':') == std::string::npos ? file.size() : file.rfind(':')) + ":" + name;
    auto decoded = encoding::decode_to_utf8(*bytes, text_file, diags);
    if (!decoded) return false;
    text = std::move(*decoded);
    return true;
  }

  Source source(const pugi::xml_node& n) {
    Source s;
    s.guid = guid(n);
    s.name = n.attribute("name").value();
    s.user_guid = n.attribute("creatingUser").value();
    s.line = line_of(n);
    s.has_text = load_text(n, s.text, s.text_file, true);
    for (auto sel : children(n, "PlainTextSelection")) {
      Selection x;
      x.guid = guid(sel);
      x.name = sel.attribute("name").value();
      x.user_guid = sel.attribute("creatingUser").value();
      x.start = position(sel, "startPosition");
      x.end = position(sel, "endPosition");
      x.line = line_of(sel);
      for (auto c : children(sel, "Coding")) x.codings.push_back(coding(c));
      x.note_refs = refs(sel, "NoteRef");
      s.selections.push_back(std::move(x));
    }
    for (auto c : children(n, "Coding")) s.whole_source_codings.push_back(coding(c));
    return s;
  }

  void project(const pugi::xml_node& root, Project& p) {
    p.name = required(root, "name");
    p.origin = root.attribute("origin").value();
    p.creating_user = root.attribute("creatingUserGUID").value();
    for (auto top : root.children()) {
      if (top.type() != pugi::node_element) continue;
      auto kind = local_name(top);
      if (kind == "Users") {
        for (auto u : children(top, "User"))
          p.users.push_back({guid(u), u.attribute("name") ? u.attribute("name").value() : u.attribute("id").value(), line_of(u)});
      } else if (kind == "CodeBook") {
        if (auto codes = child(top, "Codes"))
          for (auto c : children(codes, "Code")) p.codes.push_back(code(c));
      } else if (kind == "Variables") {
        for (auto v : children(top, "Variable"))
          p.variables.push_back({guid(v), required(v, "name"), v.attribute("typeOfVariable").value(), line_of(v)});
      } else if (kind == "Cases") {
        for (auto c : children(top, "Case")) {
          Case k;
          k.guid = guid(c);
          k.name = c.attribute("name").value();
          k.line = line_of(c);
          for (auto vv : children(c, "VariableValue")) {
            auto ref = child(vv, "VariableRef");
            if (!ref) {
              diags.error(at(vv), "<VariableValue> without a <VariableRef>");
              continue;
            }
            std::string value;
            for (auto v : vv.children())
              if (v.type() == pugi::node_element && local_name(v) != "VariableRef") value = v.text().get();
            k.values.emplace_back(required(ref, "targetGUID"), value);
          }
          k.source_refs = refs(c, "SourceRef");
          p.cases.push_back(std::move(k));
        }
      } else if (kind == "Sources") {
        for (auto s : top.children()) {
          if (s.type() != pugi::node_element) continue;
          if (local_name(s) == "TextSource") p.sources.push_back(source(s));
          else p.ignored.push_back(std::string(local_name(s)) + " (line " + std::to_string(line_of(s)) + ")");
        }
      } else if (kind == "Notes") {
        for (auto n : children(top, "Note")) {
          Note note;
          note.guid = guid(n);
          note.name = n.attribute("name").value();
          note.line = line_of(n);
          std::string text_file;
          load_text(n, note.text, text_file, false);
          p.notes.push_back(std::move(note));
        }
      } else if (kind == "Description") {
        p.description = top.text().get();
      } else if (kind != "NoteRef") {
        p.ignored.push_back(std::string(kind) + " (line " + std::to_string(line_of(top)) + ")");
      }
    }
  }
};

}  // namespace

// The deepest element nesting a REFI-QDA file may have (a codebook's codes nest a handful of levels).
constexpr int kMaxXmlDepth = 100;

std::optional<Project> parse_xml(const std::string& xml, const std::string& xml_file, Diagnostics& diags,
                                 const std::function<std::optional<std::string>(const std::string&)>& read_source) {
  auto decoded = encoding::decode_to_utf8(xml, xml_file, diags);
  if (!decoded) return std::nullopt;
  pugi::xml_document doc;
  // parse_doctype keeps a DOCTYPE as a node so that it can be reported: pugixml never reads a DTD, so its
  // entity declarations are not expanded (no "billion laughs") and a reference to one stays as written.
  auto result = doc.load_buffer(decoded->data(), decoded->size(), pugi::parse_default | pugi::parse_doctype,
                                pugi::encoding_utf8);
  Reader r{*decoded, xml_file, diags, read_source, {0}, false, {}};
  for (std::size_t i = 0; i < decoded->size(); ++i)
    if ((*decoded)[i] == '\n') r.line_starts.push_back(i + 1);
  if (!result) {
    auto off = static_cast<std::size_t>(std::max<std::ptrdiff_t>(result.offset, 0));
    auto it = std::upper_bound(r.line_starts.begin(), r.line_starts.end(), off);
    int line = static_cast<int>(it - r.line_starts.begin());
    int col = static_cast<int>(text::count_code_points(std::string_view(*decoded).substr(r.line_starts[line - 1], off - r.line_starts[line - 1]))) + 1;
    diags.error({xml_file, line, col}, std::string("XML syntax error: ") + result.description());
    return std::nullopt;
  }
  // Nesting and the number of codes are capped before anything walks the tree (the readers below recurse
  // into <Code> children, and every code becomes a taxonomy node).
  struct DepthWalker : pugi::xml_tree_walker {
    pugi::xml_node too_deep, too_many;
    std::size_t codes = 0;
    bool for_each(pugi::xml_node& n) override {
      if (depth() >= kMaxXmlDepth) {
        too_deep = n;
        return false;
      }
      if (n.type() == pugi::node_element && local_name(n) == "Code" && ++codes > kMaxTaxonomyNodes) {
        too_many = n;
        return false;
      }
      return true;
    }
  } walker;
  doc.traverse(walker);
  if (walker.too_deep) {
    diags.error(r.at(walker.too_deep), "XML nested deeper than " + std::to_string(kMaxXmlDepth) +
                                           " elements (codes nest a few levels; the limit is in README, \"Safety and limits\")");
    return std::nullopt;
  }
  if (walker.too_many) {
    diags.error(r.at(walker.too_many), "more than " + std::to_string(kMaxTaxonomyNodes) +
                                           " codes (the limit on taxonomy nodes)");
    return std::nullopt;
  }
  for (auto n : doc.children())
    if (n.type() == pugi::node_doctype) {
      std::string_view decl = n.value();
      bool entities = decl.find("<!ENTITY") != std::string_view::npos;
      diags.warning(r.at(n), std::string("a DOCTYPE") + (entities ? " with entity declarations" : "") +
                                 " is ignored: no DTD is read" + (entities ? " and entities are not expanded" : ""));
    }
  auto root = doc.document_element();
  Project p;
  p.xml_file = xml_file;
  auto kind = local_name(root);
  std::string_view root_name = root.name();
  auto colon = root_name.find(':');
  std::string ns_attr = colon == std::string_view::npos ? "xmlns" : "xmlns:" + std::string(root_name.substr(0, colon));
  std::string ns = root.attribute(ns_attr.c_str()).value();
  if (kind == "Project") {
    if (ns != "urn:QDA-XML:project:1.0")
      diags.warning(r.at(root), "the Project's namespace is '" + ns + "', not urn:QDA-XML:project:1.0");
    r.project(root, p);
  } else if (kind == "CodeBook") {
    if (ns != "urn:QDA-XML:codebook:1.0")
      diags.warning(r.at(root), "the CodeBook's namespace is '" + ns + "', not urn:QDA-XML:codebook:1.0");
    p.is_codebook = true;
    p.origin = root.attribute("origin").value();
    if (auto codes = child(root, "Codes"))
      for (auto c : children(codes, "Code")) p.codes.push_back(r.code(c));
    if (child(root, "Sets")) p.ignored.push_back("Sets");
  } else {
    diags.error(r.at(root), "expected a REFI-QDA <Project> or <CodeBook>, not <" + std::string(root.name()) + ">");
    return std::nullopt;
  }
  return p;
}

bool is_carried_transcript_file(const std::string& path) {
  const std::string dir = "transcripts/";
  if (path.rfind(dir, 0) != 0) return false;
  const std::string name = path.substr(dir.size());
  return !name.empty() && name.find('/') == std::string::npos && name.find('\\') == std::string::npos &&
         name[0] != '.' && (name.ends_with(".md") ? name.size() > 3 : name.ends_with(".codes") && name.size() > 6);
}

bool is_carried_design_file(const std::string& path) {
  for (const char* dir : {"codebooks/", "guidelines/"}) {
    std::string d = dir;
    if (path.rfind(d, 0) != 0) continue;
    std::string name = path.substr(d.size());
    return !name.empty() && name.find('/') == std::string::npos && name.find('\\') == std::string::npos &&
           name[0] != '.' && name.size() > 5 && name.ends_with(".yaml");
  }
  return false;
}

std::optional<Project> read_file(const std::filesystem::path& path, const std::string& display, Diagnostics& diags) {
  auto ext = text::to_lower_ascii(path.extension().string());
  if (ext == ".qdpx") {
    zip::Reader zr(path);
    if (!zr.ok()) {
      diags.error({display, 0, 0}, zr.error());
      return std::nullopt;
    }
    std::string qde = "project.qde";
    auto xml = zr.read(qde, true);
    if (!xml && !zr.absent()) {
      diags.error({display, 0, 0}, zr.error());
      return std::nullopt;
    }
    if (!xml) {
      for (const auto& n : zr.names())
        if (text::to_lower_ascii(n).size() > 4 && text::to_lower_ascii(n).ends_with(".qde")) {
          qde = n;
          xml = zr.read(n);
          if (!xml) {
            diags.error({display, 0, 0}, zr.error());
            return std::nullopt;
          }
          break;
        }
    }
    if (!xml) {
      diags.error({display, 0, 0}, "no project.qde in the archive");
      return std::nullopt;
    }
    auto from_zip = [&](const std::string& name) -> std::optional<std::string> {
      if (auto s = zr.read(name)) return s;
      if (!zr.absent()) {  // present but refused (a limit) or damaged: say so, not "missing"
        diags.error({display + ":" + name, 0, 0}, zr.error());
        return std::nullopt;
      }
      auto s = zr.read(name, true);
      if (!s && !zr.absent()) diags.error({display + ":" + name, 0, 0}, zr.error());
      return s;
    };
    auto p = parse_xml(*xml, display + ":" + qde, diags, from_zip);
    if (p && p->is_codebook) diags.error({display + ":" + qde, 1, 1}, "a .qdpx holds a <Project>, not a <CodeBook>");
    if (p)
      for (const auto& n : zr.names()) {
        if (n.rfind("qualrank/", 0) != 0 || n.back() == '/') continue;
        std::string rel = n.substr(9);
        if (is_carried_transcript_file(rel)) {
          if (auto bytes = zr.read(n)) p->carried_transcripts[rel] = *bytes;
          else diags.error({display + ":" + n, 0, 0}, zr.error());
          continue;
        }
        if (!is_carried_design_file(rel)) {
          diags.warning({display + ":" + n, 0, 0}, "not a qualrank design file; ignored");
          continue;
        }
        if (auto bytes = zr.read(n))
          p->workspace_files[rel] = *bytes;
        else
          diags.error({display + ":" + n, 0, 0}, zr.error());
      }
    return p;
  }
  if (ext == ".qdc" || ext == ".qde" || ext == ".xml") {
    std::string why;
    auto bytes = files::read_input(path, files::kArchiveInput, &why);
    if (!bytes) {
      diags.error({display, 0, 0}, why);
      return std::nullopt;
    }
    return parse_xml(*bytes, display, diags);
  }
  diags.error({display, 0, 0}, "not a REFI-QDA file (expected .qdpx or .qdc)");
  return std::nullopt;
}

}  // namespace qualrank::refi
