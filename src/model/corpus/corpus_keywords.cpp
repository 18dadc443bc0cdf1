// corpus/keywords.yaml (retrieval keywords per source, the date window, screening reasons) and the Python-like
// keyword lists studies publish, read by a small linear tokenizer (identifiers, '=', '[', ']', ',', quoted
// strings with Python's prefixes r and u and its backslash escapes, decoded as Python decodes them, '#' comments).
#include "qualrank/model/corpus/corpus_keywords.h"

#include <unordered_map>
#include <unicode/uchar.h>

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/text.h"
#include "qualrank/util/yaml_emit.h"
#include "qualrank/util/yaml_source.h"

namespace qualrank::corpus {

bool is_date_bound(std::string_view b) {
  auto digits = [&](std::size_t at, std::size_t n) {
    for (std::size_t k = at; k < at + n; ++k)
      if (k >= b.size() || !std::isdigit(static_cast<unsigned char>(b[k]))) return false;
    return true;
  };
  if (b.size() == 4) return digits(0, 4);
  if (b.size() == 7) return digits(0, 4) && b[4] == '-' && digits(5, 2) && b.substr(5, 2) >= "01" && b.substr(5, 2) <= "12";
  if (b.size() == 10) return text::is_calendar_date(b);
  return false;
}

bool in_window(std::string_view created, std::string_view from, std::string_view to) {
  if (from.empty() && to.empty()) return true;
  if (created.size() < 4) return false;
  if (!from.empty() && created.substr(0, from.size()) < from) return false;
  if (!to.empty() && created.substr(0, to.size()) > to) return false;
  return true;
}

namespace {

bool read_bound(const YAML::Node& root, const char* key, const std::string& file, Diagnostics& diags, std::string& out) {
  if (!root[key]) return true;
  const auto& n = root[key];
  if (!n.IsScalar() || !is_date_bound(n.Scalar())) {
    diags.error(yaml::where(n, file), std::string("'") + key + "' takes a date YYYY, YYYY-MM or YYYY-MM-DD");
    return false;
  }
  out = n.Scalar();
  return true;
}

std::optional<KeywordTerm> read_term(const YAML::Node& n, const std::string& file, Diagnostics& diags) {
  KeywordTerm t;
  t.where = yaml::where(n, file);
  if (n.IsScalar()) {
    t.term = n.Scalar();
  } else if (n.IsMap()) {
    for (auto it = n.begin(); it != n.end(); ++it) {
      auto key = it->first.Scalar();
      const YAML::Node v = it->second;  // a copy (it-> gives a proxy that ends with the statement)
      if (!v.IsScalar()) {
        diags.error(yaml::where(v, file), "'" + key + "' takes a single value");
        return std::nullopt;
      }
      if (key == "term") {
        t.term = v.Scalar();
      } else if (key == "match") {
        if (v.Scalar() != "word" && v.Scalar() != "substring") {
          diags.error(yaml::where(v, file), "match is 'word' or 'substring', not '" + v.Scalar() + "'");
          return std::nullopt;
        }
        t.whole_word = v.Scalar() == "word";
      } else if (key == "case") {
        if (v.Scalar() != "sensitive" && v.Scalar() != "insensitive") {
          diags.error(yaml::where(v, file), "case is 'sensitive' or 'insensitive', not '" + v.Scalar() + "'");
          return std::nullopt;
        }
        t.case_sensitive = v.Scalar() == "sensitive";
      } else {
        std::string hint = text::closest(key, {"term", "match", "case"});
        diags.error(yaml::where(it->first, file), "unknown key '" + key + "' in a term" +
                                                    (hint.empty() ? std::string(" (term, match, case)") : "; did you mean '" + hint + "'?"));
        return std::nullopt;
      }
    }
  } else {
    diags.error(t.where, "a term is a string or a map {term, match, case}");
    return std::nullopt;
  }
  auto trimmed = text::trim(t.term);
  if (trimmed.empty()) {
    diags.error(t.where, "an empty term");
    return std::nullopt;
  }
  if (trimmed.size() > kMaxTermBytes) {
    diags.error(t.where, "a term of " + std::to_string(trimmed.size()) + " bytes, over the limit of " + std::to_string(kMaxTermBytes));
    return std::nullopt;
  }
  t.term = std::string(trimmed);
  return t;
}

}  // namespace

std::optional<KeywordConfig> read_keywords(const std::string& text, const std::string& file, Diagnostics& diags) {
  auto root = yaml::parse(text, file, diags);
  if (!root) return std::nullopt;
  return yaml::guarded(file, diags, 1, [&]() -> std::optional<KeywordConfig> {
    KeywordConfig c;
    if (root->IsNull()) return c;
    if (!root->IsMap()) {
      diags.error(yaml::where(*root, file), "expected a map with 'sources' (and 'from', 'to', 'reasons')");
      return std::nullopt;
    }
    for (auto it = root->begin(); it != root->end(); ++it) {
      auto key = it->first.Scalar();
      if (key != "from" && key != "to" && key != "reasons" && key != "sources") {
        std::string hint = text::closest(key, {"from", "to", "reasons", "sources"});
        diags.error(yaml::where(it->first, file), "unknown key '" + key + "'" +
                                                    (hint.empty() ? std::string(" (from, to, reasons, sources)") : "; did you mean '" + hint + "'?"));
      }
    }
    read_bound(*root, "from", file, diags, c.from);
    read_bound(*root, "to", file, diags, c.to);
    if (!c.from.empty() && !c.to.empty() && c.to.substr(0, std::min(c.from.size(), c.to.size())) < c.from.substr(0, std::min(c.from.size(), c.to.size())))
      diags.error(yaml::where((*root)["to"], file), "'to' " + c.to + " is before 'from' " + c.from);
    c.reasons = yaml::get_string_list(*root, "reasons", file, diags);
    const YAML::Node sources = (*root)["sources"];
    if (sources && !sources.IsNull()) {
      if (!sources.IsMap()) {
        diags.error(yaml::where(sources, file), "'sources' maps each source to its list of terms");
        return c;
      }
      for (auto it = sources.begin(); it != sources.end(); ++it) {
        auto name = it->first.Scalar();
        if (auto why = source_name_problem(name); !why.empty()) {
          diags.error(yaml::where(it->first, file), "source '" + name + "': " + why);
          continue;
        }
        auto& list = c.sources[name];
        const YAML::Node terms = it->second;  // a copy: it-> gives a proxy that ends with the statement
        if (!terms.IsSequence()) {
          diags.error(yaml::where(terms, file), "source '" + name + "' takes a list of terms");
          continue;
        }
        // A term listed twice (same options) is found by a hash lookup, not a scan of the list: linear in the
        // number of terms (100,000 terms took 38 s by the scan).
        std::unordered_map<std::string, std::size_t> seen;  // term + options -> its index in list
        for (std::size_t k = 0; k < list.size(); ++k)
          seen.emplace(list[k].term + '\0' + char('0' + list[k].whole_word) + char('0' + list[k].case_sensitive), k);
        for (const auto& n : terms) {
          auto t = read_term(n, file, diags);
          if (!t) continue;
          auto [same, fresh] = seen.emplace(t->term + '\0' + char('0' + t->whole_word) + char('0' + t->case_sensitive), list.size());
          if (!fresh) {
            diags.warning(t->where, "'" + t->term + "' is listed twice for source '" + name + "' (first on line " +
                                        std::to_string(list[same->second].where.line) + "); counted once");
            continue;
          }
          list.push_back(std::move(*t));
        }
      }
    }
    return c;
  });
}

namespace {

struct Token {
  enum Kind { name, string, equals, open, close, comma, end, bad } kind;
  std::string text;
  Location where;
};

class ListLexer {
 public:
  ListLexer(std::string_view t, const std::string& file) : t_(t), file_(file) {}
  Token next() {
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '\n') {
        ++line_;
        line_start_ = ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r') {
        ++i_;
      } else if (c == '#') {
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
    Location at{file_, line_, static_cast<int>(i_ - line_start_ + 1)};
    if (i_ >= t_.size()) return {Token::end, {}, at};
    char c = t_[i_];
    if (c == '=' || c == '[' || c == ']' || c == ',') {
      ++i_;
      return {c == '=' ? Token::equals : c == '[' ? Token::open : c == ']' ? Token::close : Token::comma, std::string(1, c), at};
    }
    // A string: its prefix (r/R raw, u/U nothing), then its escapes decoded as Python decodes them.
    bool raw = false;
    if ((c == 'r' || c == 'R' || c == 'u' || c == 'U') && i_ + 1 < t_.size() && (t_[i_ + 1] == '\'' || t_[i_ + 1] == '"')) {
      raw = c == 'r' || c == 'R';
      c = t_[++i_];
    }
    if (c == '\'' || c == '"') return quoted(c, raw, at);
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t b = i_;
      while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_')) ++i_;
      if (i_ < t_.size() && (t_[i_] == '\'' || t_[i_] == '"'))
        return {Token::bad, "a string prefix '" + std::string(t_.substr(b, i_ - b)) + "' (only r and u are read: a list of text)", at};
      return {Token::name, std::string(t_.substr(b, i_ - b)), at};
    }
    ++i_;
    return {Token::bad, std::string("an unexpected '") + c + "'", at};
  }

 private:
  // The body of a string opened by `quote` at t_[i_] (Python's string literal rules, one line): in a raw
  // string a backslash stays with the character after it; otherwise \\ \' \" \a \b \f \n \r \t \v,
  // \ooo, \xhh, \uXXXX, \UXXXXXXXX and \N{NAME} are decoded, a backslash before a line break joins the lines,
  // and any other backslash is kept with its character (as Python keeps '\.'). A malformed escape, a surrogate or
  // an unknown name is located where its backslash is.
  Token quoted(char quote, bool raw, const Location& at) {
    ++i_;
    std::string s;
    auto fail = [&](std::size_t pos, const std::string& why) {
      return Token{Token::bad, why, Location{file_, line_, static_cast<int>(pos - line_start_ + 1)}};
    };
    auto hex = [&](std::size_t from, int digits, long& value) {
      value = 0;
      for (int k = 0; k < digits; ++k) {
        if (from + k >= t_.size() || !std::isxdigit(static_cast<unsigned char>(t_[from + k]))) return false;
        const char h = t_[from + k];
        value = value * 16 + (h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
      }
      return true;
    };
    auto put = [&](long cp) { text::append_utf8(s, static_cast<std::uint32_t>(cp)); };
    while (i_ < t_.size() && t_[i_] != quote && t_[i_] != '\n') {
      if (t_[i_] != '\\' || i_ + 1 >= t_.size()) {
        s += t_[i_++];
        continue;
      }
      const std::size_t bs = i_;
      const char e = t_[i_ + 1];
      if (raw) {  // r'\'' is a backslash and a quote; the string goes on
        s += '\\';
        if (e == '\n') break;
        s += e;
        i_ += 2;
        continue;
      }
      i_ += 2;
      long v = 0;
      switch (e) {
        case '\n': ++line_, line_start_ = i_; break;  // a continued line
        case '\\': s += '\\'; break;
        case '\'': s += '\''; break;
        case '"': s += '"'; break;
        case 'a': s += '\a'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'v': s += '\v'; break;
        case 'x':
          if (!hex(i_, 2, v)) return fail(bs, "a truncated \\xXX escape");
          i_ += 2, put(v);
          break;
        case 'u':
        case 'U': {
          const int digits = e == 'u' ? 4 : 8;
          if (!hex(i_, digits, v)) return fail(bs, std::string("a truncated \\") + e + std::string(digits, 'X') + " escape");
          if (v > 0x10FFFF) return fail(bs, "an escape beyond the last code point U+10FFFF");
          if (v >= 0xD800 && v <= 0xDFFF) return fail(bs, "a surrogate code point, which UTF-8 cannot hold");
          i_ += digits, put(v);
          break;
        }
        case 'N': {
          const std::size_t close = t_.find('}', i_);
          if (i_ >= t_.size() || t_[i_] != '{' || close == std::string_view::npos || t_.substr(i_, close - i_).find('\n') != std::string_view::npos)
            return fail(bs, "a malformed \\N{...} escape");
          const std::string name(t_.substr(i_ + 1, close - i_ - 1));
          UErrorCode status = U_ZERO_ERROR;
          UChar32 cp = u_charFromName(U_UNICODE_CHAR_NAME, name.c_str(), &status);
          if (U_FAILURE(status) || cp < 0) {  // Python also takes the formal aliases
            status = U_ZERO_ERROR;
            cp = u_charFromName(U_CHAR_NAME_ALIAS, name.c_str(), &status);
          }
          if (U_FAILURE(status) || cp < 0) return fail(bs, "an unknown character name '" + name + "' (Unicode's names and their corrections are read)");
          i_ = close + 1, put(cp);
          break;
        }
        default:
          if (e >= '0' && e <= '7') {  // up to three octal digits
            v = e - '0';
            for (int k = 0; k < 2 && i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '7'; ++k) v = v * 8 + (t_[i_++] - '0');
            put(v);
          } else {  // kept as written
            s += '\\';
            s += e;
          }
      }
    }
    if (i_ >= t_.size() || t_[i_] != quote) return {Token::bad, "an unterminated string", at};
    ++i_;
    return {Token::string, s, at};
  }

  std::string_view t_;
  const std::string& file_;
  std::size_t i_ = 0, line_start_ = 0;
  int line_ = 1;
};

}  // namespace

KeywordLists read_keyword_lists(std::string_view text, const std::string& file, Diagnostics& diags) {
  KeywordLists out;
  ListLexer lex(text, file);
  auto fail = [&](const Token& t, const std::string& expected) {
    diags.error(t.where, t.kind == Token::bad ? t.text : "expected " + expected + ", not " + (t.kind == Token::end ? std::string("the end") : "'" + t.text + "'"));
  };
  while (true) {
    Token t = lex.next();
    if (t.kind == Token::end) break;
    if (t.kind != Token::name) return fail(t, "a list name (NAME = [...])"), out;
    std::string source = t.text;
    if (source.size() > 9 && source.compare(source.size() - 9, 9, "_keywords") == 0) source.resize(source.size() - 9);
    if (auto why = source_name_problem(source); !why.empty()) return diags.error(t.where, "source '" + source + "': " + why), out;
    for (const auto& [s, _] : out.sources)
      if (s == source) return diags.error(t.where, "a second list for source '" + source + "'"), out;
    Token eq = lex.next();
    if (eq.kind != Token::equals) return fail(eq, "'='"), out;
    Token open = lex.next();
    if (open.kind != Token::open) return fail(open, "'['"), out;
    std::vector<std::string> terms;
    std::map<std::string, int> first_line;
    std::size_t listed = 0;
    while (true) {
      Token v = lex.next();
      if (v.kind == Token::close) break;
      if (v.kind != Token::string) return fail(v, "a quoted term or ']'"), out;
      std::string term(text::trim(v.text));
      if (term.empty()) return diags.error(v.where, "an empty term"), out;
      if (term.size() > kMaxTermBytes) return diags.error(v.where, "a term over " + std::to_string(kMaxTermBytes) + " bytes"), out;
      ++listed;
      auto [it, fresh] = first_line.emplace(term, v.where.line);
      if (!fresh)
        diags.warning(v.where, "'" + term + "' is listed twice in " + t.text + " (first on line " + std::to_string(it->second) + "); kept once");
      else
        terms.push_back(term);
      Token sep = lex.next();
      if (sep.kind == Token::close) break;
      if (sep.kind != Token::comma) return fail(sep, "',' or ']'"), out;
    }
    out.listed[source] = listed;
    out.sources.emplace_back(source, std::move(terms));
  }
  if (out.sources.empty() && !diags.has_errors()) diags.error({file, 1, 1}, "no keyword list (NAME = ['term', ...]) in the file");
  return out;
}

std::string keywords_yaml(const KeywordLists& lists, const std::string& from_file) {
  std::string out = "# Retrieval keywords per source (docs/corpus.md), imported from " + from_file + ".\n"
                    "# A term is a word or phrase, matched as a whole word, case-insensitively; write\n"
                    "# {term: QKV, case: sensitive} or {term: shard, match: substring} to change that.\n"
                    "# from: 2023-01\n# to: 2025-04\nsources:\n";
  for (const auto& [source, terms] : lists.sources) {
    out += "  " + yaml::quote(source) + ":\n";
    for (const auto& t : terms) out += "    - " + yaml::quote(t) + "\n";
  }
  return out;
}

}  // namespace qualrank::corpus
