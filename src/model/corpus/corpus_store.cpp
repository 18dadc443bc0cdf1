// The stored corpus: one JSON object per line (corpus/<source>.jsonl), written by store_line in a fixed field
// order and read back by a small one-pass JSON reader made for it (for_each_stored). A general parser
// (nlohmann) reads issue JSON at under 100 MB/s; retrieval must scan 200 MB/s, so this reader hands out views
// into the text and decodes only strings that hold escapes, finding the end of a string eight bytes at a
// time (util/swar.h). It accepts any JSON whitespace and key order, and reports what it cannot read located.
#include <deque>
#include <functional>
#include <unordered_map>

#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/swar.h"
#include "qualrank/util/text.h"

namespace qualrank::corpus {

namespace {

using ojson = nlohmann::ordered_json;

struct Cursor {
  std::string_view s;
  std::size_t i = 0;
  std::string err;
  std::size_t err_at = 0;
  std::deque<std::string>* arena;

  bool fail(std::string m) {
    if (err.empty()) {
      err = std::move(m);
      err_at = i;
    }
    return false;
  }
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
  }
  bool eat(char c) {
    ws();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  bool expect(char c) { return eat(c) || fail(std::string("expected '") + c + "'"); }

  static void put_utf8(std::string& o, uint32_t cp) { text::append_utf8(o, cp); }
  bool hex4(uint32_t& v) {
    if (i + 4 > s.size()) return fail("incomplete \\u escape");
    v = 0;
    for (int k = 0; k < 4; ++k) {
      char c = s[i++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
      else return fail("bad \\u escape");
    }
    return true;
  }
  // The position of the next '"' or '\\' (or a control byte) from i.
  std::size_t scan_plain(std::size_t k) const {
    const char* p = s.data();
    const std::size_t n = s.size();
    while (k + 8 <= n) {
      std::uint64_t w = swar::load(p + k);
      if (swar::has_byte(w, '"') | swar::has_byte(w, '\\') | swar::zero_byte(w & 0xE0E0E0E0E0E0E0E0ULL)) break;
      k += 8;
    }
    while (k < n && p[k] != '"' && p[k] != '\\' && static_cast<unsigned char>(p[k]) >= 0x20) ++k;
    return k;
  }
  // A string value; `out` views the text or the arena.
  bool str(std::string_view& out) {
    ws();
    if (i >= s.size() || s[i] != '"') return fail("expected a string");
    ++i;
    std::size_t start = i;
    std::size_t k = scan_plain(i);
    if (k < s.size() && s[k] == '"') {
      out = s.substr(start, k - start);
      i = k + 1;
      return true;
    }
    std::string& o = arena->emplace_back(s.substr(start, k - start));
    i = k;
    while (true) {
      if (i >= s.size()) return fail("unterminated string");
      char c = s[i];
      if (c == '"') {
        ++i;
        break;
      }
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
      if (c != '\\') {
        std::size_t e = scan_plain(i);
        o.append(s.substr(i, e - i));
        i = e;
        continue;
      }
      ++i;
      if (i >= s.size()) return fail("unterminated string");
      char e = s[i++];
      switch (e) {
        case '"': o += '"'; break;
        case '\\': o += '\\'; break;
        case '/': o += '/'; break;
        case 'b': o += '\b'; break;
        case 'f': o += '\f'; break;
        case 'n': o += '\n'; break;
        case 'r': o += '\r'; break;
        case 't': o += '\t'; break;
        case 'u': {
          uint32_t v;
          if (!hex4(v)) return false;
          if (v >= 0xD800 && v < 0xDC00 && i + 1 < s.size() && s[i] == '\\' && s[i + 1] == 'u') {
            i += 2;
            uint32_t lo;
            if (!hex4(lo)) return false;
            if (lo >= 0xDC00 && lo < 0xE000) v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
            else v = 0xFFFD;
          } else if (v >= 0xD800 && v < 0xE000) {
            v = 0xFFFD;
          }
          put_utf8(o, v);
          break;
        }
        default: return fail("bad escape in a string");
      }
    }
    out = o;
    return true;
  }
  // Skips any JSON value (depth-bounded).
  bool skip(int depth = 0) {
    if (depth > 64) return fail("nested too deeply");
    ws();
    if (i >= s.size()) return fail("expected a value");
    char c = s[i];
    if (c == '"') {
      std::string_view v;
      return str(v);
    }
    if (c == '{' || c == '[') {
      const char close = c == '{' ? '}' : ']';
      ++i;
      if (eat(close)) return true;
      while (true) {
        if (c == '{') {
          std::string_view k;
          if (!str(k) || !expect(':')) return false;
        }
        if (!skip(depth + 1)) return false;
        if (eat(',')) continue;
        return expect(close);
      }
    }
    std::size_t b = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '-' || s[i] == '+' || s[i] == '.')) ++i;
    return i > b || fail("expected a value");
  }
  bool null_or_str(std::string_view& out) {
    ws();
    if (s.substr(i, 4) == "null") {
      i += 4;
      out = {};
      return true;
    }
    return str(out);
  }
};

bool read_comment(Cursor& c, CommentView& cv) {
  if (!c.expect('{')) return false;
  if (c.eat('}')) return true;
  while (true) {
    std::string_view key;
    if (!c.str(key) || !c.expect(':')) return false;
    if (key == "author") { if (!c.null_or_str(cv.author)) return false; }
    else if (key == "created") { if (!c.null_or_str(cv.created)) return false; }
    else if (key == "body") { if (!c.null_or_str(cv.body)) return false; }
    else if (!c.skip()) return false;
    if (c.eat(',')) continue;
    return c.expect('}');
  }
}

bool read_document(Cursor& c, DocumentView& d) {
  if (!c.expect('{')) return false;
  if (c.eat('}')) return true;
  while (true) {
    std::string_view key;
    if (!c.str(key) || !c.expect(':')) return false;
    if (key == "id") { if (!c.str(d.id)) return false; }
    else if (key == "url") { if (!c.null_or_str(d.url)) return false; }
    else if (key == "created") { if (!c.null_or_str(d.created)) return false; }
    else if (key == "title") { if (!c.null_or_str(d.title)) return false; }
    else if (key == "body") { if (!c.null_or_str(d.body)) return false; }
    else if (key == "labels" || key == "comments") {
      if (!c.expect('[')) return false;
      if (!c.eat(']'))
        while (true) {
          if (key == "labels") {
            std::string_view v;
            if (!c.str(v)) return false;
            d.labels.push_back(v);
          } else {
            CommentView cv;
            if (!read_comment(c, cv)) return false;
            d.comments.push_back(cv);
          }
          if (c.eat(',')) continue;
          if (!c.expect(']')) return false;
          break;
        }
    } else if (key == "extra") {
      c.ws();
      std::size_t b = c.i;
      if (!c.skip()) return false;
      d.extra = c.s.substr(b, c.i - b);
    } else if (!c.skip()) {
      return false;
    }
    if (c.eat(',')) continue;
    return c.expect('}');
  }
}

}  // namespace

bool for_each_stored(std::string_view text, const std::string& file, Diagnostics& diags,
                     const std::function<void(const DocumentView&)>& on_document, int first_line) {
  std::deque<std::string> arena;
  DocumentView d;
  int line = first_line - 1;
  std::size_t pos = 0;
  while (pos < text.size()) {
    ++line;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view row = text.substr(pos, end - pos);
    pos = end + 1;
    if (text::trim(row).empty()) continue;
    arena.clear();
    d.id = d.url = d.created = d.title = d.body = d.extra = {};
    d.labels.clear();
    d.comments.clear();
    d.line = line;
    Cursor c{row, 0, {}, 0, &arena};
    bool ok = read_document(c, d);
    if (ok) {
      c.ws();
      if (c.i != row.size()) ok = c.fail("text after the document");
    }
    if (ok && d.id.empty()) {
      c.err_at = 0;
      ok = c.fail("a document without an \"id\"");
    }
    if (!ok) {
      diags.error({file, line, static_cast<int>(c.err_at) + 1}, c.err);
      return false;
    }
    on_document(d);
  }
  return true;
}

std::vector<Document> read_store(std::string_view text, const std::string& file, Diagnostics& diags, bool keep_extra) {
  std::vector<Document> docs;
  std::unordered_map<std::string, int> first_line;
  for_each_stored(text, file, diags, [&](const DocumentView& v) {
    if (auto [it, fresh] = first_line.emplace(std::string(v.id), v.line); !fresh) {
      diags.error({file, v.line, 1}, "duplicate id '" + std::string(v.id) + "' (first on line " + std::to_string(it->second) + ")");
      return;
    }
    Document d;
    d.id = v.id;
    d.url = v.url;
    d.created = v.created;
    d.title = v.title;
    d.body = v.body;
    for (auto l : v.labels) d.labels.emplace_back(l);
    for (const auto& c : v.comments) d.comments.push_back({std::string(c.author), std::string(c.created), std::string(c.body)});
    if (keep_extra && !v.extra.empty()) {
      auto j = nlohmann::json::parse(v.extra, nullptr, false);
      if (j.is_object()) d.extra = std::move(j);
      else diags.error({file, v.line, 0}, "\"extra\" is not a JSON object");
    }
    docs.push_back(std::move(d));
  });
  return docs;
}

std::string store_line(const Document& d) {
  ojson j = ojson::object();
  j["id"] = d.id;
  j["url"] = d.url;
  j["created"] = d.created;
  j["title"] = d.title;
  j["body"] = d.body;
  j["labels"] = d.labels;
  ojson comments = ojson::array();
  for (const auto& c : d.comments) {
    ojson o = ojson::object();
    o["author"] = c.author;
    o["created"] = c.created;
    o["body"] = c.body;
    comments.push_back(std::move(o));
  }
  j["comments"] = std::move(comments);
  // "extra" last, as its own (sorted) dump: read into an ordered_json, each of its keys would be inserted by
  // a linear search (quadratic in an issue's fields: 120,000 keys took 17 s); the bytes are the same.
  std::string line = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line.pop_back();  // the closing '}'
  line += ",\"extra\":";
  line += d.extra.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line += '}';
  return line;
}

std::string store_text(const std::vector<Document>& docs) {
  std::string out;
  for (const auto& d : docs) {
    out += store_line(d);
    out += '\n';
  }
  return out;
}

}  // namespace qualrank::corpus
