// Reading the exports researchers make of issue trackers into corpus Documents: the JSON array of
// `gh issue list --json number,url,title,body,createdAt,labels,comments` (cli/cli's field names), the JSON
// array of `gh api repos/O/R/issues` (number, html_url, created_at, ...), JSON Lines of either, and CSV
// (id or url, source, created, title, body). Fields not read are kept in the document's `extra`.
// A JSON text is parsed whole by nlohmann (its byte position of a syntax error becomes LINE:COL); the start
// of each top-level element is found by one more linear walk, so that an error about an element (a missing
// number, a duplicate id) is located too.
#include <algorithm>
#include <unordered_map>

#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/text.h"

namespace qualrank::corpus {

namespace {

using json = nlohmann::json;

// Line starts of a text, to turn byte offsets into LINE:COL (column in bytes, 1-based).
struct LineIndex {
  std::vector<std::size_t> starts{0};
  explicit LineIndex(std::string_view t) {
    for (std::size_t i = t.find('\n'); i != std::string_view::npos; i = t.find('\n', i + 1)) starts.push_back(i + 1);
  }
  Location at(const std::string& file, std::size_t offset) const {
    auto it = std::upper_bound(starts.begin(), starts.end(), offset);
    std::size_t line = static_cast<std::size_t>(it - starts.begin());
    return {file, static_cast<int>(line), static_cast<int>(offset - starts[line - 1] + 1)};
  }
};

// Offsets of the values directly inside the top-level array of a valid JSON text.
std::vector<std::size_t> element_starts(std::string_view t) {
  std::vector<std::size_t> out;
  int depth = 0;
  bool in_string = false, expect_value = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (depth == 1 && expect_value) {
      out.push_back(i);
      expect_value = false;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      ++depth;
      if (depth == 1 && c == '[') expect_value = true;
    } else if (c == ']' || c == '}') --depth;
    else if (c == ',' && depth == 1) expect_value = true;
  }
  return out;
}

// A key written twice in one object of `t` (any object, at any depth), each a located error: nlohmann keeps the
// last one silently, other readers the first, so which value counts would depend on the reader. One pass; the
// keys of each open object in a hash set; a key with escapes is compared decoded. `base`: t's offset in the
// file. Returns whether any was found.
bool duplicate_keys(std::string_view t, std::size_t base, const std::string& file, const LineIndex& lines, Diagnostics& diags) {
  struct Open {
    bool object = false;
    bool expect_key = false;
    std::unordered_map<std::string, std::size_t> keys;  // decoded key -> offset of its first writing
  };
  std::vector<Open> stack;
  bool found = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (c == '"') {
      const std::size_t start = i;
      bool escaped = false;
      for (++i; i < t.size() && t[i] != '"'; ++i)
        if (t[i] == '\\') escaped = true, ++i;
      if (stack.empty() || !stack.back().object || !stack.back().expect_key) continue;
      stack.back().expect_key = false;
      std::string key(t.substr(start + 1, i - start - 1));
      if (escaped) {
        try {
          key = json::parse(t.substr(start, i - start + 1)).get<std::string>();
        } catch (const json::exception&) {  // (nlohmann's own parse reports it)
        }
      }
      auto [it, fresh] = stack.back().keys.emplace(std::move(key), base + start);
      if (!fresh) {
        const Location first = lines.at(file, it->second);
        diags.error(lines.at(file, base + start),
                    "the key \"" + text::escape_controls(it->first) + "\" is written twice in this object (first at line " +
                        std::to_string(first.line) + ", column " + std::to_string(first.column) +
                        "): readers disagree on which value counts; keep one");
        found = true;
      }
    } else if (c == '{' || c == '[') {
      stack.push_back({c == '{', c == '{', {}});
    } else if (c == '}' || c == ']') {
      if (!stack.empty()) stack.pop_back();
    } else if (c == ',' && !stack.empty() && stack.back().object) {
      stack.back().expect_key = true;
    }
  }
  return found;
}

// The offset where `t` nests arrays and objects deeper than kMaxDepth, or npos. Checked before nlohmann parses
// (its serializer and comparisons recurse: a deep value in an unknown field would exhaust the stack).
constexpr int kMaxDepth = 64;
std::size_t too_deep_at(std::string_view t) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

std::string scalar_text(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_unsigned()) return std::to_string(v.get<unsigned long long>());
  return {};
}

class ElementReader {
 public:
  ElementReader(const std::string& file, Diagnostics& diags, const ImportOptions& options)
      : file_(file), diags_(diags), options_(options) {}

  // One exported issue (a JSON object) into `out`; false after a located error.
  bool read(const json& j, const Location& where, Document& out, std::string& source) {
    where_ = where;
    if (!j.is_object()) return error("expected an object (one issue) here, not " + std::string(j.type_name()));
    std::vector<std::string> used;
    auto take = [&](const char* key) -> const json* {
      auto it = j.find(key);
      if (it == j.end()) return nullptr;
      used.emplace_back(key);
      return &*it;
    };
    auto peek = [&](const char* key) -> const json* {
      auto it = j.find(key);
      return it == j.end() ? nullptr : &*it;
    };
    // The id: gh's number, else an id, else the url. A number or id that is not a whole number or text is
    // named as it is (not "an issue without a number").
    const json* html = peek("html_url");
    const json* url = peek("url");
    for (const char* key : {"number", "id"})
      if (const json* v = peek(key); v && !v->is_null() && scalar_text(*v).empty())
        return error(std::string("\"") + key + "\" is " + v->dump(-1, ' ', false, json::error_handler_t::replace) +
                     ", not a whole number or text");
    if (const json* n = peek("number"); n && !scalar_text(*n).empty()) {
      out.id = scalar_text(*take("number"));
    } else if (const json* id = peek("id"); id && !scalar_text(*id).empty()) {
      out.id = scalar_text(*take("id"));
    } else if (html && html->is_string()) {
      out.id = html->get<std::string>();
    } else if (url && url->is_string()) {
      out.id = url->get<std::string>();
    } else {
      return error("an issue without a number, id or url");
    }
    if (out.id.find_first_of("\n\r\t") != std::string::npos) return error("the id '" + out.id + "' holds a line break or tab");
    if (html && html->is_string()) out.url = take("html_url")->get<std::string>();
    else if (url && url->is_string()) out.url = take("url")->get<std::string>();
    for (const char* k : {"createdAt", "created_at", "created"})
      if (const json* c = peek(k); c && c->is_string()) {
        out.created = take(k)->get<std::string>();
        break;
      }
    if (!out.created.empty())
      if (auto why = text::iso_datetime_problem(out.created); !why.empty()) {
        const std::string shown = "the created date '" + text::escape_controls(out.created.substr(0, 80)) + "' is " + why;
        if (!options_.lenient_dates)
          return error(shown + "; the window could not place the issue (--lenient-dates keeps it without a date, with a warning)");
        diags_.warning(where_, shown + ": kept without a date (--lenient-dates); retrieval's window leaves it out");
        out.created.clear();
      }
    if (!text_field(take("title"), "title", out.title) || !text_field(take("body"), "body", out.body)) return false;
    if (const json* s = peek("source"); s && s->is_string()) source = take("source")->get<std::string>();
    if (const json* labels = peek("labels"); labels && labels->is_array()) {
      take("labels");
      for (const auto& l : *labels) {
        std::string name = l.is_string() ? l.get<std::string>()
                           : l.is_object() && l.contains("name") && l["name"].is_string() ? l["name"].get<std::string>() : "";
        if (name.empty()) return error("a label that is neither a name nor an object with a \"name\"");
        if (!bounded(name, "label")) return false;
        out.labels.push_back(std::move(name));
      }
    }
    if (const json* cs = peek("comments"); cs && cs->is_array()) {
      take("comments");
      if (cs->size() > kMaxComments) return error("more than " + std::to_string(kMaxComments) + " comments (the limit)");
      for (const auto& c : *cs) {
        if (!c.is_object()) return error("a comment that is not an object");
        Comment cm;
        if (auto a = c.find("author"); a != c.end()) {
          if (a->is_string()) cm.author = a->get<std::string>();
          else if (a->is_object() && a->contains("login") && (*a)["login"].is_string()) cm.author = (*a)["login"].get<std::string>();
        } else if (auto u = c.find("user"); u != c.end() && u->is_object() && u->contains("login") && (*u)["login"].is_string()) {
          cm.author = (*u)["login"].get<std::string>();
        }
        for (const char* k : {"createdAt", "created_at", "created"})
          if (auto t = c.find(k); t != c.end() && t->is_string()) {
            cm.created = t->get<std::string>();
            break;
          }
        if (auto b = c.find("body"); b != c.end() && !b->is_null()) {
          if (!b->is_string()) return error("a comment's \"body\" is not text");
          cm.body = b->get<std::string>();
        }
        if (!bounded(cm.body, "comment") || !bounded(cm.author, "comment author")) return false;
        out.comments.push_back(std::move(cm));
      }
    }
    for (auto it = j.begin(); it != j.end(); ++it)
      if (std::find(used.begin(), used.end(), it.key()) == used.end()) out.extra[it.key()] = it.value();
    return bounded(out.id, "id") && bounded(out.url, "url") && bounded(out.created, "created");
  }

 private:
  bool error(std::string m) {
    diags_.error(where_, std::move(m));
    return false;
  }
  bool bounded(const std::string& v, const char* what) {
    if (v.size() <= kMaxFieldBytes) return true;
    return error(std::string("the ") + what + " is " + std::to_string(v.size()) + " bytes, over the limit of " +
                 std::to_string(kMaxFieldBytes));
  }
  bool text_field(const json* v, const char* what, std::string& out) {
    if (!v || v->is_null()) return true;
    if (!v->is_string()) return error(std::string("\"") + what + "\" is not text");
    out = v->get<std::string>();
    return bounded(out, what);
  }
  const std::string& file_;
  Diagnostics& diags_;
  const ImportOptions& options_;
  Location where_;
};

// One exported issue read and, when it reads, kept in `out` with where it was and its source.
void keep(ElementReader& reader, const json& j, const Location& where, ParsedExport& out) {
  Document d;
  std::string source;
  if (!reader.read(j, where, d, source)) return;
  out.documents.push_back(std::move(d));
  out.where.push_back(where);
  out.sources.push_back(std::move(source));
}

void check_duplicates(ParsedExport& p, Diagnostics& diags) {
  std::unordered_map<std::string, std::size_t> first;
  for (std::size_t k = 0; k < p.documents.size(); ++k) {
    auto key = p.sources[k] + '\n' + p.documents[k].id;
    auto [it, fresh] = first.emplace(key, k);
    if (fresh) continue;
    const auto& w = p.where[it->second];
    diags.error(p.where[k], "duplicate id '" + p.documents[k].id + "': first at " + w.file.str() + ":" +
                                std::to_string(w.line) + ":" + std::to_string(w.column));
  }
}

Location json_error_location(const std::string& file, const LineIndex& lines, const json::parse_error& e,
                             std::size_t base) {
  std::size_t byte = e.byte > 0 ? e.byte - 1 : 0;
  return lines.at(file, base + byte);
}

std::string parse_message(const json::parse_error& e) {
  std::string m = e.what();
  // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error while parsing value - ...":
  // the position is ours to give (FILE:LINE:COL), the rest is the message.
  if (m.compare(0, 16, "[json.exception.") == 0)
    if (auto k = m.find(": "); k != std::string::npos) m = m.substr(k + 2);
  return "not valid JSON: " + m;
}

// A number too large for a double ("reactions": 1e400): nlohmann's out_of_range 406 names the literal but no
// position; it is located at the literal's first occurrence in `text` (from `base`).
void number_overflow(const std::string& file, const LineIndex& lines, std::string_view text, std::size_t base,
                     const json::out_of_range& e, Diagnostics& diags) {
  std::string m = e.what();
  std::string literal;
  if (auto a = m.find('\''), b = m.rfind('\''); a != std::string::npos && b > a) literal = m.substr(a + 1, b - a - 1);
  const std::size_t at = literal.empty() ? std::string_view::npos : text.find(literal);
  diags.error(at == std::string_view::npos ? Location{file, 0, 0} : lines.at(file, base + at),
              "the number " + (literal.empty() ? std::string("here") : "'" + literal + "'") + " is too large for a double");
}

void parse_json_array(std::string_view text, const std::string& file, Diagnostics& diags, ParsedExport& out,
                      const ImportOptions& options) {
  LineIndex lines(text);
  if (auto deep = too_deep_at(text); deep != std::string_view::npos) {
    diags.error(lines.at(file, deep), "nested deeper than " + std::to_string(kMaxDepth) + " arrays and objects");
    return;
  }
  if (duplicate_keys(text, 0, file, lines, diags)) return;
  // An array is parsed one element at a time (each element's text given to nlohmann on its own), so memory
  // is the text and the documents read, never the whole array's tree (about 20 times a file of small issues).
  // Anything but an array whose last non-blank byte is its ']' goes through the whole parse below, for its
  // messages.
  const std::size_t open = text.find_first_not_of(" \t\r\n");
  const std::size_t close = text.find_last_not_of(" \t\r\n");
  if (open != std::string_view::npos && text[open] == '[' && close != open && text[close] == ']') {
    auto starts = element_starts(text);
    if (starts.size() > kMaxDocuments) {
      diags.error({file, 1, 1}, std::to_string(starts.size()) + " documents, over the limit of " + std::to_string(kMaxDocuments));
      return;
    }
    if (starts.size() == 1 && starts[0] == close) return;  // [] : no document
    ElementReader reader(file, diags, options);
    for (std::size_t k = 0; k < starts.size(); ++k) {
      // The element runs to the ',' before the next one (or to the closing ']').
      std::size_t end = k + 1 < starts.size() ? text.rfind(',', starts[k + 1]) : close;
      if (end == std::string_view::npos || end < starts[k]) end = k + 1 < starts.size() ? starts[k + 1] : close;
      const std::string_view element = text.substr(starts[k], end - starts[k]);
      json j;
      try {
        j = json::parse(element);
      } catch (const json::parse_error& e) {
        diags.error(json_error_location(file, lines, e, starts[k]), parse_message(e));
        return;
      } catch (const json::out_of_range& e) {
        number_overflow(file, lines, element, starts[k], e, diags);
        return;
      }
      keep(reader, j, lines.at(file, starts[k]), out);
    }
    return;
  }
  json all;
  try {
    all = json::parse(text);
  } catch (const json::parse_error& e) {
    diags.error(json_error_location(file, lines, e, 0), parse_message(e));
    return;
  } catch (const json::out_of_range& e) {
    number_overflow(file, lines, text, 0, e, diags);
    return;
  }
  if (!all.is_array()) {
    diags.error({file, 1, 1}, "expected a JSON array of issues (as 'gh issue list --json ...' writes), not " +
                                  std::string(all.type_name()));
    return;
  }
  if (all.size() > kMaxDocuments) {
    diags.error({file, 1, 1}, std::to_string(all.size()) + " documents, over the limit of " + std::to_string(kMaxDocuments));
    return;
  }
  auto starts = element_starts(text);
  ElementReader reader(file, diags, options);
  for (std::size_t k = 0; k < all.size(); ++k) {
    Location where = k < starts.size() ? lines.at(file, starts[k]) : Location{file, 0, 0};
    keep(reader, all[k], where, out);
  }
}

void parse_json_lines(std::string_view text, const std::string& file, Diagnostics& diags, ParsedExport& out,
                      const ImportOptions& options) {
  LineIndex lines(text);
  ElementReader reader(file, diags, options);
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view row = text.substr(pos, end - pos);
    std::size_t base = pos;
    pos = end + 1;
    if (text::trim(row).empty()) continue;
    if (out.documents.size() >= kMaxDocuments) {
      diags.error(lines.at(file, base), "more than " + std::to_string(kMaxDocuments) + " documents (the limit)");
      return;
    }
    if (auto deep = too_deep_at(row); deep != std::string_view::npos) {
      diags.error(lines.at(file, base + deep), "nested deeper than " + std::to_string(kMaxDepth) + " arrays and objects");
      continue;
    }
    json j;
    try {
      j = json::parse(row);
    } catch (const json::parse_error& e) {
      diags.error(json_error_location(file, lines, e, base), parse_message(e));
      continue;
    } catch (const json::out_of_range& e) {
      number_overflow(file, lines, row, base, e, diags);
      continue;
    }
    if (duplicate_keys(row, base, file, lines, diags)) continue;
    std::size_t lead = row.find_first_not_of(" \t\r");
    Location where = lines.at(file, base + lead);
    keep(reader, j, where, out);
  }
}

void parse_csv(std::string_view text, const std::string& file, Diagnostics& diags, ParsedExport& out,
               const ImportOptions& options) {
  if (auto bad = text::find_invalid_utf8(text)) {
    diags.error({file, bad->line, bad->column}, "not valid UTF-8");
    return;
  }
  auto table = csv::parse(text, file, diags);
  int id = table.column("id"), url = table.column("url");
  if (id < 0 && url < 0) {
    diags.error({file, table.header_line, 1}, "the CSV has neither an 'id' nor a 'url' column");
    return;
  }
  if (table.rows.size() > kMaxDocuments) {
    diags.error({file, 1, 1}, std::to_string(table.rows.size()) + " documents, over the limit of " + std::to_string(kMaxDocuments));
    return;
  }
  ElementReader reader(file, diags, options);
  for (const auto& r : table.rows) {
    json j = json::object();
    for (std::size_t c = 0; c < table.header.size() && c < r.fields.size(); ++c) {
      std::string name = text::to_lower_ascii(text::trim(table.header[c]));
      if (name.empty()) continue;
      if (name == "createdat") name = "createdAt";  // gh's own name, as pandas writes it from a `gh --json` export
      if (r.fields[c].empty() && (name == "id" || name == "url")) continue;
      j[name] = r.fields[c];
    }
    Location where{file, r.line, 1};
    keep(reader, j, where, out);
  }
}

bool ends_with_ci(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && text::to_lower_ascii(s.substr(s.size() - suffix.size())) == suffix;
}

}  // namespace

std::string file_name_chars_problem(std::string_view name, std::string_view what) {
  const std::string a = "a " + std::string(what) + " name ";
  if (name.empty() || name.size() > 64) return a + "has 1 to 64 characters";
  if (name[0] == '.' || name[0] == '-') return a + "does not start with '.' or '-'";
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'))
      return a + "has only letters, digits, '.', '_' and '-'";
  return {};
}

std::string source_name_problem(std::string_view name) {
  if (auto why = file_name_chars_problem(name, "source"); !why.empty()) return why;
  // The names of the corpus's own files and folders (corpus/retrieved.jsonl, manifest.json, keywords.yaml,
  // screening/, samples/, labels/): a source of that name would be overwritten by, or overwrite, them.
  std::string folded;
  for (char c : name) folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* reserved : {"retrieved", "manifest", "keywords", "screening", "samples", "labels"})
    if (folded == reserved)
      return std::string("'") + reserved + "' is the name of one of the corpus's own files; choose another source name";
  return {};
}

std::string repository_of(std::string_view url) {
  const auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return {};
  for (const char* marker : {"/-/issues/", "/-/merge_requests/", "/issues/", "/pull/", "/pulls/"})
    if (auto at = url.find(marker, scheme + 3); at != std::string_view::npos) {
      std::string repo(url.substr(scheme + 3, at - scheme - 3));
      for (auto& c : repo) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return repo;
    }
  return {};
}

ParsedExport parse_export(std::string_view text, const std::string& file, Diagnostics& diags, const ImportOptions& options) {
  ParsedExport out;
  if (text.size() > kMaxImportBytes) {
    diags.error({file, 0, 0}, "the export is " + std::to_string(text.size()) + " bytes, over the limit of " +
                                  std::to_string(kMaxImportBytes));
    return out;
  }
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::size_t first = text.find_first_not_of(" \t\r\n");
  if (ends_with_ci(file, ".csv")) parse_csv(text, file, diags, out, options);
  else if (ends_with_ci(file, ".jsonl") || ends_with_ci(file, ".ndjson") || (first != std::string_view::npos && text[first] == '{'))
    parse_json_lines(text, file, diags, out, options);
  else
    parse_json_array(text, file, diags, out, options);
  check_duplicates(out, diags);
  return out;
}

}  // namespace qualrank::corpus
