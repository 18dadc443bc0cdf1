// What qualrank's REFI-QDA export and import agree on: name-based GUIDs, code names ("ID NAME") and the
// Description layout (definition, then labelled paragraphs for criteria, aliases and keywords).
#include <cctype>

#include "qualrank/report/formats/refi.h"
#include "qualrank/util/text.h"
#include "qualrank/util/uuid.h"

namespace qualrank::refi {

namespace {

const uuid::Bytes& qualrank_namespace() {
  static const uuid::Bytes ns = *uuid::parse(uuid::v5(uuid::url_namespace(), "https://qualrank.invalid/refi-qda"));
  return ns;
}

const char* const kInclusion = "Inclusion: ";
const char* const kExclusion = "Exclusion: ";
const char* const kAliases = "Aliases: ";
const char* const kKeywords = "Keywords: ";

bool all_alnum(std::string_view s) {
  if (s.empty() || s.size() > 8) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

bool all_upper(std::string_view s) {
  for (char c : s)
    if (!std::isupper(static_cast<unsigned char>(c))) return false;
  return !s.empty();
}

// One-segment ids: a single upper-case letter ("A"), letters then digits ("B2", "Q12"), or digits ("7"). Not
// "GPU" or "TOOL": an acronym starting a name ("GPU memory") is not an id.
bool single_segment_id(std::string_view s) {
  if (s.size() == 1 && std::isupper(static_cast<unsigned char>(s[0]))) return true;
  std::size_t letters = 0;
  while (letters < s.size() && std::isalpha(static_cast<unsigned char>(s[letters]))) ++letters;
  if (letters > 3 || letters == s.size()) return false;
  for (std::size_t i = letters; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

}  // namespace

std::string name_guid(const std::string& name) { return uuid::v5(qualrank_namespace(), name); }

std::string code_guid(const std::string& taxonomy_name, const std::string& node_id) {
  return name_guid("code/" + taxonomy_name + "/" + node_id);
}

std::string code_name(const TaxonomyNode& node) { return node.name.empty() ? node.id : node.id + " " + node.name; }

std::string code_description(const TaxonomyNode& node) {
  std::vector<std::string> paragraphs;
  if (!node.definition.empty()) paragraphs.push_back(node.definition);
  if (!node.inclusion.empty()) paragraphs.push_back(kInclusion + node.inclusion);
  if (!node.exclusion.empty()) paragraphs.push_back(kExclusion + node.exclusion);
  if (!node.aliases.empty()) paragraphs.push_back(kAliases + text::join(node.aliases, "; "));
  if (!node.keywords.empty()) paragraphs.push_back(kKeywords + text::join(node.keywords, "; "));
  return text::join(paragraphs, "\n\n");
}

DescriptionFields parse_code_description(const std::string& description) {
  DescriptionFields f;
  std::string d = description;
  for (std::size_t p = d.find("\r\n"); p != std::string::npos; p = d.find("\r\n", p)) d.erase(p, 1);
  std::vector<std::string> definition;
  std::size_t start = 0;
  while (start <= d.size()) {
    auto end = d.find("\n\n", start);
    std::string para = d.substr(start, end == std::string::npos ? std::string::npos : end - start);
    start = end == std::string::npos ? d.size() + 1 : end + 2;
    auto take = [&](const char* label, std::string& into) {
      if (para.rfind(label, 0) != 0 || !into.empty()) return false;
      into = para.substr(std::string(label).size());
      return true;
    };
    std::string aliases, keywords;
    if (take(kInclusion, f.inclusion) || take(kExclusion, f.exclusion)) continue;
    if (f.aliases.empty() && take(kAliases, aliases)) {
      f.aliases = text::split_nonempty(aliases, ';');
      continue;
    }
    if (f.keywords.empty() && take(kKeywords, keywords)) {
      f.keywords = text::split_nonempty(keywords, ';');
      continue;
    }
    definition.push_back(para);
  }
  f.definition = std::string(text::trim(text::join(definition, "\n\n")));
  return f;
}

std::optional<std::pair<std::string, std::string>> split_id_prefix(const std::string& name) {
  auto trimmed = text::trim(name);
  auto space = trimmed.find_first_of(" \t");
  if (space == std::string_view::npos) return std::nullopt;
  std::string_view id = trimmed.substr(0, space);
  auto rest = text::trim(trimmed.substr(space));
  if (rest.empty()) return std::nullopt;
  auto parts = text::split(id, '.');
  for (const auto& p : parts)
    if (!all_alnum(p)) return std::nullopt;
  if (parts.size() == 1 ? !single_segment_id(parts[0]) : parts[0].size() > 3 && !all_upper(parts[0])) return std::nullopt;
  return std::make_pair(std::string(id), std::string(rest));
}

}  // namespace qualrank::refi
