#include "qualrank/report/outputs/segments_output.h"

#include <sstream>

#include "qualrank/util/csv.h"
#include "qualrank/util/text.h"

namespace qualrank {

nlohmann::ordered_json segments_json(const std::vector<CodedSegment>& segments) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& s : segments) {
    nlohmann::ordered_json j;
    j["id"] = s.id;
    j["participant"] = s.participant;
    j["turn"] = s.turn;  // tN: what `code add --turn` takes
    j["role"] = s.role;
    j["attributes"] = nlohmann::ordered_json::object();
    for (const auto& [k, v] : s.attributes) j["attributes"][k] = v;
    j["question"] = s.question;
    j["text"] = s.text;
    j["codes"] = nlohmann::ordered_json::array();
    for (const auto& c : s.codes) {
      nlohmann::ordered_json code = {{"node", c.node}, {"coder", c.coder}, {"memo", c.memo}};
      if (c.exemplar) code["exemplar"] = true;
      j["codes"].push_back(std::move(code));
    }
    j["suggested"] = s.suggested;
    j["source"] = {{"file", s.source.file}, {"line", s.source.line}};
    list.push_back(std::move(j));
  }
  nlohmann::ordered_json out;
  out["segments"] = std::move(list);
  return out;
}

namespace {

std::string memos(const CodedSegment& s) {
  std::vector<std::string> m;
  for (const auto& c : s.codes)
    if (!c.memo.empty() && std::find(m.begin(), m.end(), c.memo) == m.end()) m.push_back(c.memo);
  return text::join(m, " | ");
}

}  // namespace

std::string segments_csv(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy) {
  std::string out = csv::format_record({"id", "participant", "role", "question", "nodes", "coders", "memo",
                                        "suggested", "source", "text"},
                                       false);
  for (const auto& s : segments) {
    out += csv::format_record({s.id, s.participant, s.role, s.question, text::join(s.nodes(taxonomy), ","),
                               text::join(s.coders(), ","), memos(s), text::join(s.suggested, ","),
                               s.source.file + ":" + std::to_string(s.source.line), s.text},
                              true);
  }
  return out;
}

std::string segments_table(const std::vector<CodedSegment>& segments, const Taxonomy& taxonomy) {
  auto cut = [](std::string s, std::size_t width) {
    for (auto& c : s)
      if (c == '\n') c = ' ';
    if (text::count_code_points(s) <= width) return s;
    std::string out;
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && ++n > width - 1) break;
      out += s[i];
    }
    return out + "…";
  };
  auto pad = [](const std::string& s, std::size_t width) {
    std::size_t n = text::count_code_points(s);
    return n >= width ? s : s + std::string(width - n, ' ');
  };
  std::ostringstream out;
  out << pad("segment", 22) << pad("question", 9) << pad("nodes", 22) << pad("suggested", 18) << "text\n";
  for (const auto& s : segments) {
    out << pad(cut(s.id, 21), 22) << pad(cut(s.question, 8), 9) << pad(cut(text::join(s.nodes(taxonomy), ","), 21), 22)
        << pad(cut(text::join(s.suggested, ","), 17), 18) << cut(s.text, 60) << '\n';
  }
  out << segments.size() << " segments\n";
  return out.str();
}

}  // namespace qualrank
