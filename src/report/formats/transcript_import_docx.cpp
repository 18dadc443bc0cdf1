// Word (.docx) transcripts: the zip's word/document.xml (WordprocessingML) read with pugixml. Each w:p is a
// paragraph: its w:t runs concatenated, w:tab as a tab, w:br and w:cr as a space; a paragraph with a
// "Name:" prefix starts an utterance of that speaker; one without is an utterance without a speaker, which
// the writer adds to the previous speaker's turn as a new line (or, in a document without speaker names,
// makes a turn of its own).
// Locations are paragraph numbers, since document.xml is usually one long line.
#include <pugixml.hpp>

#include <cstring>

#include "qualrank/report/formats/transcript_import.h"
#include "qualrank/util/text.h"
#include "qualrank/util/zip.h"

namespace qualrank {

namespace {

void collect_text(const pugi::xml_node& node, std::string& out) {
  for (auto c : node.children()) {
    if (c.type() != pugi::node_element) continue;
    const char* name = c.name();
    if (std::strcmp(name, "w:t") == 0) out += c.text().get();
    else if (std::strcmp(name, "w:tab") == 0) out += '\t';
    else if (std::strcmp(name, "w:br") == 0 || std::strcmp(name, "w:cr") == 0) out += ' ';
    else if (std::strcmp(name, "w:noBreakHyphen") == 0) out += '-';
    else if (std::strcmp(name, "w:p") != 0) collect_text(c, out);  // runs, hyperlinks, smart tags; not nested paragraphs
  }
}

}  // namespace

std::optional<std::vector<Utterance>> read_docx(const std::filesystem::path& path, const std::string& file,
                                                Diagnostics& diags) {
  zip::Reader zr(path);
  if (!zr.ok()) {
    diags.error({file, 0, 0}, "not a Word .docx file (" + zr.error() + ")");
    return std::nullopt;
  }
  auto xml = zr.read("word/document.xml");
  if (!xml) {
    diags.error({file, 0, 0}, zr.absent() ? std::string("not a Word .docx file (no word/document.xml)")
                                          : "cannot read the document: " + zr.error());
    return std::nullopt;
  }
  pugi::xml_document doc;
  auto result = doc.load_buffer(xml->data(), xml->size());
  if (!result) {
    diags.error({file, 0, 0}, std::string("word/document.xml is not well-formed XML: ") + result.description());
    return std::nullopt;
  }
  std::vector<Utterance> out;
  bool any = false;
  int paragraph = 0;
  for (const auto& hit : doc.select_nodes("//w:body//w:p")) {
    ++paragraph;
    std::string text_;
    collect_text(hit.node(), text_);
    if (auto bad = text::find_invalid_utf8(text_)) {
      diags.error({file, paragraph, 0}, "paragraph " + std::to_string(paragraph) + " is not valid UTF-8");
      return std::nullopt;
    }
    auto s = std::string(text::trim(text_));
    if (s.empty()) continue;
    any = true;
    if (auto p = split_speaker_prefix(s)) out.push_back({p->speaker, p->rest, p->timestamp, "", paragraph});
    else out.push_back({"", s, "", "", paragraph});  // continues the previous speaker, if any
  }
  if (!any) {
    diags.error({file, 1, 1}, "the document has no text");
    return std::nullopt;
  }
  return out;
}

}  // namespace qualrank
