#include "qualrank/model/guideline.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

#include "qualrank/util/text.h"
#include "qualrank/util/yaml_source.h"

namespace qualrank {

const char* to_string(QuestionKind k) {
  switch (k) {
    case QuestionKind::background: return "background";
    case QuestionKind::open: return "open";
    case QuestionKind::short_answer: return "short_answer";
    case QuestionKind::ranking: return "ranking";
  }
  return "open";
}

bool Question::asked_to(const std::string& role) const {
  return roles.empty() || std::find(roles.begin(), roles.end(), role) != roles.end();
}

const std::string& Question::text_for(const std::string& role) const {
  auto it = text_by_role.find(role);
  return it != text_by_role.end() ? it->second : text;
}

int AnswerLengths::most(int items) const {
  if (all) return items;
  if (!exact.empty()) return exact.front() == 0 ? items : std::min(exact.back(), items);
  return std::min(up_to, items);
}

bool AnswerLengths::allows(int count, int items) const {
  if (count < 1 || count > items) return false;
  if (all) return count == items;
  if (!exact.empty())
    return std::any_of(exact.begin(), exact.end(), [&](int k) { return (k == 0 ? items : std::min(k, items)) == count; });
  return count <= up_to;
}

std::string AnswerLengths::meaning(int items) const {
  const std::string n = std::to_string(items);
  if (all) return "every one of the " + n + " items";
  if (!exact.empty()) {
    std::vector<std::string> parts;
    for (int k : exact)
      if (k != 0) parts.push_back(std::to_string(k));
    if (exact.front() == 0) parts.push_back("all " + n);
    if (parts.size() == 1) return (exact.front() == 0 ? "every one of the " + n : "exactly " + parts[0] + " of the " + n) + " items";
    std::string last = parts.back();
    parts.pop_back();
    return text::join(parts, ", ") + " or " + last + " items";
  }
  return up_to >= items ? "any number of the " + n + " items, up to all of them" : "up to " + std::to_string(up_to) + " of the " + n + " items";
}

const AnswerLengths& Question::lengths_for(const std::string& role) const {
  auto it = top_by_role.find(role);
  return it != top_by_role.end() ? it->second : top;
}

int Question::top_for(const std::string& role) const { return lengths_for(role).most(static_cast<int>(items.size())); }

std::string ExperienceScheme::level_for(double value) const {
  for (std::size_t i = 0; i < bins.size() && i < levels.size(); ++i)
    if (value < bins[i]) return levels[i];
  return levels.empty() ? std::string() : levels.back();
}

const Question* Guideline::find(const std::string& id) const {
  for (const auto& q : questions)
    if (q.id == id) return &q;
  return nullptr;
}

std::vector<const Question*> Guideline::ranking_questions() const {
  std::vector<const Question*> out;
  for (const auto& q : questions)
    if (q.kind == QuestionKind::ranking) out.push_back(&q);
  return out;
}

std::vector<const Question*> Guideline::questions_for(const std::string& role) const {
  std::vector<const Question*> out;
  for (const auto& q : questions)
    if (q.asked_to(role)) out.push_back(&q);
  return out;
}

const GuidelinePart* Guideline::part(const std::string& id) const {
  for (const auto& p : parts)
    if (p.id == id) return &p;
  return nullptr;
}

namespace {

struct Loader {
  const std::string& file;
  const Taxonomy& tax;
  Diagnostics& diags;
  Guideline& g;

  std::vector<std::string> node_list(const YAML::Node& map, const char* key) {
    std::vector<std::string> out;
    auto raw = yaml::get_string_list(map, key, file, diags);
    for (const auto& r : raw) {
      auto id = tax.resolve(r);
      if (!id)
        diags.error(yaml::where(map[key], file), "unknown taxonomy node '" + r + "' in '" + key + "'");
      else
        out.push_back(*id);
    }
    return out;
  }

  void check_roles(const std::vector<std::string>& roles, const YAML::Node& at) {
    for (const auto& r : roles) {
      if (std::find(g.roles.begin(), g.roles.end(), r) != g.roles.end()) continue;
      auto hint = text::closest(r, g.roles);
      diags.error(yaml::where(at, file), "unknown role '" + r + "'" +
                                             (hint.empty() ? " (the guideline's roles: " + text::join(g.roles, ", ") + ")"
                                                           : " (did you mean '" + hint + "'?)"));
    }
  }

  // top: all | N | [N, ..., all] | {role: any of these}
  AnswerLengths parse_top_value(const YAML::Node& v, int items) {
    AnswerLengths out;
    out.written = true;
    auto number = [&](const YAML::Node& n, bool in_list) -> std::optional<int> {
      const std::string s = n.IsScalar() ? n.Scalar() : std::string();
      if (s == "all") return 0;
      int t = 0;
      auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), t);
      if (s.empty() || ec != std::errc() || end != s.data() + s.size() || t < 1) {
        diags.error(yaml::where(n, file), std::string("'top' takes ") + (in_list ? "" : "'all', ") + "a positive number" +
                                              (in_list ? " or 'all'" : " (up to that many items), or a list of lengths such as [3, all]") +
                                              ", not '" + (n.IsScalar() ? s : std::string(n.IsMap() ? "a map" : "a list")) + "'");
        return std::nullopt;
      }
      if (items > 0 && t > items)
        diags.warning(yaml::where(n, file), "'top: " + s + "' is more than the question's " + std::to_string(items) +
                                                " items: read as " + (in_list ? "all" : "up to all") + " " + std::to_string(items));
      return t;
    };
    if (v.IsSequence()) {
      if (v.size() == 0) {
        diags.error(yaml::where(v, file), "'top' lists no length (write e.g. [3, all])");
        return out;
      }
      std::vector<std::string> written;
      for (const auto& e : v) {
        auto t = number(e, true);
        if (!t) return out;
        int k = *t == 0 || (items > 0 && *t >= items) ? 0 : *t;
        if (std::find(out.exact.begin(), out.exact.end(), k) != out.exact.end()) {
          diags.error(yaml::where(e, file), "'top' lists the length '" + e.Scalar() + "' twice" +
                                                (k == 0 && e.Scalar() != "all" ? " (it is all " + std::to_string(items) + " items)" : ""));
          return out;
        }
        out.exact.push_back(k);
        written.push_back(e.Scalar());
      }
      std::sort(out.exact.begin(), out.exact.end());
      out.all = false;
      out.declared = "[" + text::join(written, ", ") + "]";
      if (out.exact == std::vector<int>{0}) {  // [all]: the same as all
        out = AnswerLengths{};
        out.declared = "[all]";
        out.written = true;
      }
      return out;
    }
    auto t = number(v, false);
    if (!t || *t == 0) return out;
    out.all = false;
    out.up_to = *t;
    out.declared = v.Scalar();
    return out;
  }

  void ranking_items(Question& q, const YAML::Node& qn) {
    auto items = qn["items"];
    if (!items) {
      diags.error(q.where, "ranking question '" + q.id + "' has no 'items'");
      return;
    }
    if (items.IsMap()) {
      auto of = items["children_of"];
      if (!of || !of.IsScalar()) {
        diags.error(yaml::where(items, file), "'items' takes a list of node ids or {children_of: ID}");
        return;
      }
      auto id = tax.resolve(of.Scalar());
      if (!id) {
        diags.error(yaml::where(of, file), "unknown taxonomy node '" + of.Scalar() + "' in 'children_of'");
        return;
      }
      q.items = tax.children(*id);
      q.items_rule = "children of " + *id;
    } else {
      q.items = node_list(qn, "items");
      q.items_rule = "listed";
    }
    std::set<std::string> seen;
    for (const auto& it : q.items)
      if (!seen.insert(it).second) diags.error(yaml::where(items, file), "item '" + it + "' listed twice");
    if (q.items.size() < 2) diags.error(yaml::where(items, file), "a ranking question needs at least 2 items");
    if (auto top = qn["top"]) {
      const int n = static_cast<int>(q.items.size());
      if (top.IsMap()) {
        for (const auto& kv : top) {
          auto role = kv.first.Scalar();
          check_roles({role}, kv.first);
          q.top_by_role[role] = parse_top_value(kv.second, n);
        }
      } else {
        q.top = parse_top_value(top, n);
      }
    }
  }

  void question(const YAML::Node& qn, GuidelinePart& part, std::set<std::string>& ids) {
    Question q;
    q.where = yaml::where(qn, file);
    q.part = part.id;
    q.id = yaml::get_string(qn, "id", file, diags, true);
    if (q.id.empty()) return;
    if (q.id.find(' ') != std::string::npos) diags.error(yaml::where(qn["id"], file), "question id '" + q.id + "' may not contain spaces");
    if (!ids.insert(q.id).second) diags.error(yaml::where(qn["id"], file), "duplicate question id '" + q.id + "'");
    auto kind = yaml::get_string(qn, "kind", file, diags, false);
    if (kind.empty() || kind == "open") q.kind = QuestionKind::open;
    else if (kind == "background") q.kind = QuestionKind::background;
    else if (kind == "short_answer") q.kind = QuestionKind::short_answer;
    else if (kind == "ranking") q.kind = QuestionKind::ranking;
    else diags.error(yaml::where(qn["kind"], file), "unknown question kind '" + kind + "' (background, open, short_answer, ranking)");
    q.roles = yaml::get_string_list(qn, "roles", file, diags);
    check_roles(q.roles, qn["roles"] ? qn["roles"] : qn);
    if (auto t = qn["text"]; t && t.IsMap()) {
      for (const auto& kv : t) {
        check_roles({kv.first.Scalar()}, kv.first);
        q.text_by_role[kv.first.Scalar()] = kv.second.Scalar();
        if (q.text.empty()) q.text = kv.second.Scalar();
      }
    } else {
      q.text = yaml::get_string(qn, "text", file, diags, true);
    }
    q.about = qn["about"] ? node_list(qn, "about") : part.about;
    q.attribute = yaml::get_string(qn, "attribute", file, diags, false);
    if (q.kind == QuestionKind::ranking) ranking_items(q, qn);
    part.question_ids.push_back(q.id);
    g.questions.push_back(std::move(q));
  }

  // compare: [[a, b], ...], each a pair of two different roles.
  void compare(const YAML::Node& c) {
    if (!c.IsSequence()) {
      diags.error(yaml::where(c, file), "'compare' is a list of pairs of roles, e.g. [[" +
                                            (g.roles.size() >= 2 ? g.roles[0] + ", " + g.roles[1] : std::string("a, b")) + "]]");
      return;
    }
    for (const auto& pair : c) {
      if (!pair.IsSequence() || pair.size() != 2 || !pair[0].IsScalar() || !pair[1].IsScalar()) {
        diags.error(yaml::where(pair, file), "each 'compare' entry is a pair of two roles, [a, b]");
        continue;
      }
      bool ok = true;
      for (const auto& member : pair) {
        const std::string& r = member.Scalar();
        if (std::find(g.roles.begin(), g.roles.end(), r) != g.roles.end()) continue;
        auto near = text::closest(r, g.roles);
        diags.error(yaml::where(member, file), "unknown group '" + r + "' in 'compare'" +
                                                   (near.empty() ? std::string() : " (did you mean '" + near + "'?)") +
                                                   "; the guideline's roles: " + text::join(g.roles, ", "));
        ok = false;
      }
      if (!ok) continue;
      if (pair[0].Scalar() == pair[1].Scalar()) {
        diags.error(yaml::where(pair, file), "'compare' pairs two different roles, not '" + pair[0].Scalar() + "' with itself");
        continue;
      }
      g.compare.emplace_back(pair[0].Scalar(), pair[1].Scalar());
    }
  }

  void experience(const YAML::Node& e) {
    ExperienceScheme s;
    if (!e.IsMap()) {
      diags.error(yaml::where(e, file), "'experience' is a map (attribute, levels, from, bins)");
      return;
    }
    auto attr = yaml::get_string(e, "attribute", file, diags, false);
    if (!attr.empty()) s.attribute = attr;
    s.levels = yaml::get_string_list(e, "levels", file, diags);
    s.from = yaml::get_string(e, "from", file, diags, false);
    if (s.levels.empty()) diags.error(yaml::where(e, file), "'experience' needs 'levels'");
    if (auto bins = e["bins"]) {
      for (const auto& b : bins) {
        try {
          s.bins.push_back(b.as<double>());
        } catch (...) {
          diags.error(yaml::where(b, file), "experience bins must be numbers");
        }
      }
      if (!std::is_sorted(s.bins.begin(), s.bins.end()) ||
          std::adjacent_find(s.bins.begin(), s.bins.end()) != s.bins.end())
        diags.error(yaml::where(bins, file), "experience bins must ascend strictly");
      if (s.bins.size() + 1 != s.levels.size())
        diags.error(yaml::where(bins, file), std::to_string(s.levels.size()) + " levels need " +
                                                 std::to_string(s.levels.size() - 1) + " bins");
    } else if (!s.from.empty()) {
      diags.error(yaml::where(e, file), "'from' needs 'bins' to derive levels");
    }
    g.experience = s;
  }

  // `codebook_context: ATTRIBUTE` or `codebook_context: {attribute: ATTRIBUTE, label: HEADER}`.
  void codebook_context(const YAML::Node& c) {
    CodebookContextSetting s;
    s.where = yaml::where(c, file);
    if (c.IsScalar()) {
      s.attribute = std::string(text::trim(c.Scalar()));
    } else if (c.IsMap()) {
      s.attribute = std::string(text::trim(yaml::get_string(c, "attribute", file, diags, true)));
      s.label = std::string(text::trim(yaml::get_string(c, "label", file, diags, false)));
    } else {
      diags.error(s.where, "'codebook_context' is an attribute name or a map (attribute, label)");
      return;
    }
    if (s.attribute.empty()) {
      diags.error(s.where, "'codebook_context' needs a participant attribute name");
      return;
    }
    if (s.label.empty()) s.label = s.attribute;
    g.codebook_context = s;
  }
};

}  // namespace

static std::optional<Guideline> load_guideline_unguarded(const std::string& text_in, const std::string& file, const Taxonomy& taxonomy,
                                        Diagnostics& diags) {
  int before = diags.error_count();
  auto root = yaml::parse(text_in, file, diags);
  if (!root) return std::nullopt;
  if (!root->IsMap()) {
    diags.error({file, 1, 1}, "a guideline file is a map with 'guideline', 'roles' and 'parts'");
    return std::nullopt;
  }
  Guideline g;
  g.file = file;
  Loader L{file, taxonomy, diags, g};
  g.name = yaml::get_string(*root, "guideline", file, diags, true);
  g.title = yaml::get_string(*root, "title", file, diags, false);
  g.taxonomy = yaml::get_string(*root, "taxonomy", file, diags, false);
  if (!g.taxonomy.empty() && g.taxonomy != taxonomy.name)
    diags.error(yaml::where((*root)["taxonomy"], file),
                "the guideline is written for taxonomy '" + g.taxonomy + "' but the workspace's is '" + taxonomy.name + "'");
  g.roles = yaml::get_string_list(*root, "roles", file, diags);
  if (g.roles.empty()) diags.error({file, 1, 1}, "missing 'roles'");
  if (auto pl = (*root)["plurals"]) {
    if (!pl.IsMap()) diags.error(yaml::where(pl, file), "'plurals' is a map of role to its plural, e.g. {nurse: nurses}");
    else
      for (const auto& kv : pl) {
        L.check_roles({kv.first.Scalar()}, kv.first);
        if (!kv.second.IsScalar() || kv.second.Scalar().empty())
          diags.error(yaml::where(kv.second, file), "the plural of role '" + kv.first.Scalar() + "' is one non-empty text");
        else g.plurals[kv.first.Scalar()] = kv.second.Scalar();
      }
  }
  if (auto mg = (*root)["min_group"]) {
    int v = 0;
    if (!mg.IsScalar() || !YAML::convert<int>::decode(mg, v) || v < 1)
      diags.error(yaml::where(mg, file), "'min_group' is a whole number of participants, 1 or more");
    else g.min_group = v;
  }
  if (auto e = (*root)["experience"]) L.experience(e);
  if (auto c = (*root)["codebook_context"]) L.codebook_context(c);
  if (auto c = (*root)["compare"]) L.compare(c);
  auto parts = (*root)["parts"];
  if (!parts || !parts.IsSequence()) {
    diags.error({file, 1, 1}, "missing 'parts' (a list)");
    return std::nullopt;
  }
  std::set<std::string> qids;
  for (const auto& pn : parts) {
    GuidelinePart part;
    part.id = yaml::get_string(pn, "id", file, diags, true);
    part.title = yaml::get_string(pn, "title", file, diags, false);
    part.about = L.node_list(pn, "about");
    auto qs = pn["questions"];
    if (!qs || !qs.IsSequence()) {
      diags.error(yaml::where(pn, file), "part '" + part.id + "' has no 'questions' list");
      continue;
    }
    for (const auto& qn : qs) L.question(qn, part, qids);
    g.parts.push_back(std::move(part));
  }
  if (diags.error_count() > before) return std::nullopt;
  return g;
}

std::optional<Guideline> load_guideline(const std::string& text_in, const std::string& file, const Taxonomy& taxonomy,
                                        Diagnostics& diags) {
  return yaml::guarded(file, diags, 1, [&] { return load_guideline_unguarded(text_in, file, taxonomy, diags); });  // (a located error, not an internal one)
}

}  // namespace qualrank

