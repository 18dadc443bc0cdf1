#include "qualrank/report/outputs/protocol.h"

#include <sstream>

#include "qualrank/util/text.h"

namespace qualrank {

namespace {

std::string yaml_scalar(const std::string& v) {
  bool plain = !v.empty() && v.find_first_of(":#{}[],&*!|>'\"%@`\n") == std::string::npos && v.front() != ' ' &&
               v.back() != ' ' && v != "-" && v.front() != '-';
  if (plain) return v;
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string interview_protocol(const Guideline& g, const Taxonomy& t, const std::string& role, ProtocolFormat format,
                               const std::string& taxonomy_version) {
  std::ostringstream out;
  bool md = format == ProtocolFormat::markdown;
  std::string title = g.title.empty() ? g.name : g.title;
  if (md) out << "# " << title << (role.empty() ? "" : " (" + role + ")") << "\n\n";
  else out << title << (role.empty() ? "" : " (" + role + ")") << "\n" << std::string(text::count_code_points(title) + (role.empty() ? 0 : role.size() + 3), '=') << "\n\n";
  if (!taxonomy_version.empty()) out << "Taxonomy " << t.name << ", version " << taxonomy_version << "\n\n";
  for (const auto& part : g.parts) {
    std::vector<const Question*> qs;
    for (const auto& id : part.question_ids) {
      const Question* q = g.find(id);
      if (q && (role.empty() || q->asked_to(role))) qs.push_back(q);
    }
    if (qs.empty()) continue;
    if (md) out << "## Part " << part.id << ": " << part.title << "\n\n";
    else out << "Part " << part.id << ": " << part.title << "\n\n";
    for (const auto* q : qs) {
      // Without a role, a question worded per role lists every role's wording (as text_for gives it).
      const bool per_role = role.empty() && !q->text_by_role.empty();
      std::string text_ = per_role ? "" : role.empty() ? q->text : q->text_for(role);
      if (md) out << "- **" << q->id << "** (" << to_string(q->kind) << ")" << (text_.empty() ? "" : " " + text_) << '\n';
      else out << "  " << q->id << " [" << to_string(q->kind) << "]" << (text_.empty() ? "" : " " + text_) << '\n';
      if (per_role)
        for (const auto& r : g.roles)
          if (q->asked_to(r)) out << (md ? "  - " : "      ") << r << ": " << q->text_for(r) << '\n';
      if (role.empty() && !q->roles.empty())
        out << (md ? "  - asked to: " : "      asked to: ") << text::join(q->roles, ", ") << '\n';
      if (q->kind == QuestionKind::ranking) {
        const int item_count = static_cast<int>(q->items.size());
        std::string how = "rank " + (role.empty() ? q->top : q->lengths_for(role)).meaning(item_count);
        if (role.empty() && !q->top_by_role.empty()) {
          std::vector<std::string> per;
          for (const auto& [r, k] : q->top_by_role) per.push_back(r + ": " + k.meaning(item_count));
          how = "per role: " + text::join(per, "; ");
        }
        out << (md ? "  - " : "      ") << how << ":\n";
        for (const auto& item : q->items) {
          const auto* n = t.find(item);
          out << (md ? "    - " : "        ") << item << "  " << (n ? n->name : "") << '\n';
        }
      }
    }
    out << '\n';
  }
  return out.str();
}

std::string transcript_skeleton(const Guideline& g, const Taxonomy& t, const std::string& participant,
                                const std::string& role, const std::map<std::string, std::string>& attributes,
                                const std::string& taxonomy_version) {
  std::ostringstream out;
  out << "---\nparticipant: " << yaml_scalar(participant) << "\nrole: " << yaml_scalar(role)
      << "\ncoder: coder\ninterviewer: I\n";
  std::map<std::string, std::string> attrs = attributes;
  for (const auto& q : g.questions)
    if (q.kind == QuestionKind::background && !q.attribute.empty() && q.asked_to(role) && !attrs.count(q.attribute))
      attrs[q.attribute] = "";
  if (!attrs.empty()) {
    out << "attributes:\n";
    for (const auto& [k, v] : attrs) out << "  " << k << ": " << (v.empty() ? "" : yaml_scalar(v)) << '\n';
  }
  out << "---\n";
  if (!taxonomy_version.empty()) out << "<!-- taxonomy " << t.name << ", version " << taxonomy_version << " -->\n";
  out << "\n# Interview with " << participant << " (" << role << ")\n";
  for (const auto& part : g.parts) {
    bool header = false;
    for (const auto& id : part.question_ids) {
      const Question* q = g.find(id);
      if (!q || !q->asked_to(role)) continue;
      if (!header) {
        out << "\n<!-- Part " << part.id << ": " << part.title << " -->\n";
        header = true;
      }
      out << "\n## " << q->id << "\n\nI: " << q->text_for(role) << "\n\n" << participant << ": \n";
      if (q->kind == QuestionKind::ranking) {
        out << "<!-- rank " << q->lengths_for(role).meaning(static_cast<int>(q->items.size()))
            << " with '@rank A > B > C' (ids, names or aliases; '=' for ties):";
        for (const auto& item : q->items) {
          const auto* n = t.find(item);
          out << "\n     " << item << "  " << (n ? n->name : "");
        }
        out << " -->\n";
      }
    }
  }
  return out.str();
}

}  // namespace qualrank
