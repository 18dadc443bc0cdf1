// The REFI-QDA project (.qdpx): project.qde plus one plain-text source per transcript. Children of <Project>
// follow the schema's fixed order (Users, CodeBook, Variables, Cases, Sources, Notes, Description) and empty
// containers are left out, as QDA-XML 1.0 requires. Every GUID is name-based (refi::name_guid), every list
// is in a fixed order, and the only timestamp is `epoch`, so the same study gives the same bytes.
#include <algorithm>
#include <ctime>
#include <regex>
#include <set>

#include "qualrank/report/formats/refi.h"
#include "qualrank/report/formats/refi_export.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/zip.h"
#include "refi_xml.h"

namespace qualrank {

namespace {

using refi_xml::add;
using refi_xml::add_text;
using refi_xml::set;

std::string iso_time(long long epoch) {
  time_t t = static_cast<time_t>(epoch);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

bool is_date(const std::string& v) {
  static const std::regex re(R"(\d{4}-(\d{2})-(\d{2}))");
  std::smatch m;
  if (!std::regex_match(v, m, re)) return false;
  int month = std::stoi(m[1]), day = std::stoi(m[2]), year = std::stoi(v.substr(0, 4));
  static const int days[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1 || day > days[month - 1]) return false;
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return !(month == 2 && day == 29 && !leap);
}

// The narrowest QDA-XML type that holds every value exactly as written (so import gives the same text).
std::string variable_type(const std::vector<std::string>& values) {
  static const std::regex integer(R"([+-]?[0-9]+)"), decimal(R"([+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+))");
  auto all = [&](auto pred) { return !values.empty() && std::all_of(values.begin(), values.end(), pred); };
  if (all([&](const std::string& v) { return std::regex_match(v, integer); })) return "Integer";
  if (all([&](const std::string& v) { return std::regex_match(v, decimal); })) return "Float";
  if (all([&](const std::string& v) { return is_date(v); })) return "Date";
  return "Text";
}

const char* value_element(const std::string& type) {
  if (type == "Integer") return "IntegerValue";
  if (type == "Float") return "FloatValue";
  if (type == "Date") return "DateValue";
  return "TextValue";
}

bool default_interviewer(const Transcript& t) {
  return t.interviewer_labels == std::vector<std::string>{"I", "Interviewer"};
}

std::string user_guid(const std::string& coder) { return refi::name_guid("user/" + coder); }

struct Builder {
  const Study& study;
  long long epoch;
  Diagnostics& diags;
  pugi::xml_document doc;
  std::map<std::string, std::string> sources;  // archive entries besides project.qde
  struct NoteOut {
    std::string guid, name, text;
  };
  std::vector<NoteOut> notes;  // in order of appearance

  // Per variable: its type, over every transcript's value.
  std::vector<std::pair<std::string, std::string>> variables() const {
    std::map<std::string, std::vector<std::string>> values;
    for (const auto& t : study.workspace.transcripts) {
      values["role"].push_back(t.role);
      if (!default_interviewer(t)) values["interviewer"].push_back(text::join(t.interviewer_labels, ", "));
      for (const auto& [k, v] : t.attributes) values[k].push_back(v);
    }
    std::vector<std::pair<std::string, std::string>> out;
    auto push = [&](const std::string& name) {
      if (values.count(name)) out.emplace_back(name, variable_type(values[name]));
    };
    push("role");
    push("interviewer");
    for (const auto& [name, v] : values)
      if (name != "role" && name != "interviewer") push(name);
    return out;
  }

  void selections(pugi::xml_node source, const Transcript& t, const RefiPlainText& plain,
                  const std::vector<const CodedSegment*>& segments) {
    std::map<std::string, int> seen;  // selection name -> count, for GUIDs of repeated segments
    for (const auto* segp : segments) {
      const auto& seg = *segp;
      if (seg.codes.empty()) continue;
      auto off = plain.turn_offsets.find(seg.turn);
      if (off == plain.turn_offsets.end()) continue;
      std::string key = "selection/" + t.file + "/" + seg.id;
      if (int n = seen[key]++; n > 0) key.append("/").append(std::to_string(n));
      auto sel = add(source, "PlainTextSelection");
      set(sel, "guid", refi::name_guid(key));
      set(sel, "name", seg.id);
      set(sel, "startPosition", std::to_string(off->second + seg.begin));
      set(sel, "endPosition", std::to_string(off->second + seg.end));
      set(sel, "creatingUser", user_guid(seg.codes.front().coder));
      std::map<std::string, int> coding_seen;
      for (const auto& code : seg.codes) {
        std::string ckey = key + "/" + code.coder + "/" + code.node;
        if (int n = coding_seen[ckey]++; n > 0) ckey.append("/").append(std::to_string(n));
        auto coding = add(sel, "Coding");
        set(coding, "guid", refi::name_guid("coding/" + ckey));
        set(coding, "creatingUser", user_guid(code.coder));
        set(add(coding, "CodeRef"), "targetGUID", refi::code_guid(study.taxonomy().name, code.node));
        if (!code.memo.empty()) {
          auto note = refi::name_guid("note/" + ckey);
          set(add(coding, "NoteRef"), "targetGUID", note);
          notes.push_back({note, "memo", code.memo});
        }
        if (code.exemplar) {  // a qualrank convention: a note of this name marks the pick
          auto note = refi::name_guid("exemplar/" + ckey);
          set(add(coding, "NoteRef"), "targetGUID", note);
          notes.push_back({note, refi::kExemplarNote, "Picked as an exemplar quote for this code."});
        }
      }
    }
  }

  std::string build() {
    const auto& ws = study.workspace;
    const auto& taxonomy = study.taxonomy();
    auto decl = doc.append_child(pugi::node_declaration);
    decl.append_attribute("version") = "1.0";
    decl.append_attribute("encoding") = "utf-8";
    auto project = doc.append_child("Project");
    set(project, "xmlns", "urn:QDA-XML:project:1.0");
    set(project, "name", taxonomy.title.empty() ? taxonomy.name : taxonomy.title);
    set(project, "origin", "qualrank " QUALRANK_VERSION);
    set(project, "creationDateTime", iso_time(epoch));

    std::set<std::string> coders;
    for (const auto& t : ws.transcripts) coders.insert(t.coder);
    for (const auto& s : study.segments)
      for (const auto& c : s.codes) coders.insert(c.coder);
    if (!coders.empty()) {
      auto users = add(project, "Users");
      for (const auto& c : coders) {
        auto u = add(users, "User");
        set(u, "guid", user_guid(c));
        set(u, "name", c);
      }
    }
    if (taxonomy.size() > 0) refi_xml::append_codes(add(add(project, "CodeBook"), "Codes"), taxonomy);

    auto vars = variables();
    if (!vars.empty()) {
      auto node = add(project, "Variables");
      for (const auto& [name, type] : vars) {
        auto v = add(node, "Variable");
        set(v, "guid", refi::name_guid("variable/" + name));
        set(v, "name", name);
        set(v, "typeOfVariable", type);
      }
    }
    std::map<std::string, std::string> type_of(vars.begin(), vars.end());
    if (!ws.transcripts.empty()) {
      auto cases = add(project, "Cases");
      for (const auto& t : ws.transcripts) {
        auto c = add(cases, "Case");
        set(c, "guid", refi::name_guid("case/" + t.participant));
        set(c, "name", t.participant);
        auto value = [&](const std::string& name, const std::string& v) {
          auto vv = add(c, "VariableValue");
          set(add(vv, "VariableRef"), "targetGUID", refi::name_guid("variable/" + name));
          add_text(vv, value_element(type_of[name]), v);
        };
        value("role", t.role);
        if (!default_interviewer(t)) value("interviewer", text::join(t.interviewer_labels, ", "));
        for (const auto& [k, v] : t.attributes) value(k, v);
        set(add(c, "SourceRef"), "targetGUID", refi::name_guid("source/" + t.file));
      }
      std::map<std::string, std::vector<const CodedSegment*>> by_file;
      for (const auto& seg : study.segments) by_file[seg.source.file].push_back(&seg);
      auto node = add(project, "Sources");
      for (const auto& t : ws.transcripts) {
        auto guid = refi::name_guid("source/" + t.file);
        auto plain = refi_plain_text(t, diags, &taxonomy, &study.version->resolve);
        sources["sources/" + guid + ".txt"] = plain.text;
        auto s = add(node, "TextSource");
        set(s, "guid", guid);
        set(s, "name", std::filesystem::path(t.file).stem().string());
        set(s, "plainTextPath", "internal://" + guid + ".txt");
        set(s, "creatingUser", user_guid(t.coder));
        selections(s, t, plain, by_file[t.file]);
      }
    }
    if (!notes.empty()) {
      auto node = add(project, "Notes");
      for (const auto& note : notes) {
        auto n = add(node, "Note");
        set(n, "guid", note.guid);
        set(n, "name", note.name);
        add_text(n, "PlainTextContent", note.text);
      }
    }
    add_text(project, "Description", "qualrank taxonomy: " + taxonomy.name);
    return refi_xml::serialise(doc);
  }
};

}  // namespace

std::map<std::string, std::string> qdpx_entries(const Study& study, long long epoch, Diagnostics& diags) {
  Builder b{study, epoch, diags, {}, {}, {}};
  std::string qde = b.build();
  auto entries = std::move(b.sources);
  entries["project.qde"] = std::move(qde);
  // qualrank's design files, which QDA-XML has no place for, so that an import restores the taxonomy with
  // its history and the guideline as they were (other tools ignore these entries).
  const auto& ws = study.workspace;
  for (const auto& rel : {ws.taxonomy_path, ws.history_path, ws.guideline.file})
    if (refi::is_carried_design_file(rel))
      if (auto bytes = files::read(ws.path(rel))) entries["qualrank/" + rel] = std::move(*bytes);
  // The transcripts and their .codes files as written, so that an import of this archive keeps their lines
  // where they were when nothing was changed meanwhile (refi::Project::carried_transcripts).
  // (the folder listed once, its names sorted: each transcript's .codes files are a run of names from its stem;
  // listed once per transcript, 2,000 transcripts read 8 million folder entries)
  std::vector<std::string> codes_files;
  for (const auto& p : files::list_files(ws.path("transcripts"), ".codes")) codes_files.push_back(p.filename().string());
  std::sort(codes_files.begin(), codes_files.end());
  for (const auto& t : study.workspace.transcripts) {
    const std::string stem = std::filesystem::path(t.file).stem().string() + ".";
    std::vector<std::string> carried{t.file};
    for (auto it = std::lower_bound(codes_files.begin(), codes_files.end(), stem); it != codes_files.end() && it->starts_with(stem); ++it)
      carried.push_back("transcripts/" + *it);
    for (const auto& rel : carried)
      if (refi::is_carried_transcript_file(rel))
        if (auto bytes = files::read_inside(ws.root, rel)) entries["qualrank/" + rel] = std::move(*bytes);
  }
  return entries;
}

bool write_qdpx(const Study& study, const std::filesystem::path& path, long long epoch, Diagnostics& diags,
                std::string* error) {
  auto entries = qdpx_entries(study, epoch, diags);
  files::AtomicOutput out(path);
  if (!out.refused().empty()) {
    if (error) *error = path.string() + " " + out.refused();
    return false;
  }
  if (!zip::write(out.temp_path(), entries, epoch, error)) return false;
  return out.commit(error);
}

}  // namespace qualrank
