#include "qualrank/util/yaml_source.h"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>

#include "qualrank/util/text.h"

namespace qualrank::yaml {

namespace {

// yaml-cpp decodes the escapes "\N" and "\_" of double-quoted scalars to the single bytes 0x85 and 0xA0
// (not to U+0085 and U+00A0), so a file that is valid UTF-8 can still give scalars that are not. Reports
// each such scalar (keys too) at its mark; returns false when there was one.
bool check_scalars_utf8(const YAML::Node& node, const std::string& file, Diagnostics& diags, int first_line) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar:
      if (text::find_invalid_utf8(node.Scalar())) {
        diags.error(where(node, file, first_line),
                    "this value is not valid UTF-8 once its escapes are decoded (\\N and \\_ give single bytes; "
                    "write the character itself)");
        return false;
      }
      return true;
    case YAML::NodeType::Sequence: {
      bool ok = true;
      for (const auto& item : node) ok = check_scalars_utf8(item, file, diags, first_line) && ok;
      return ok;
    }
    case YAML::NodeType::Map: {
      // A key written twice in one map: yaml-cpp keeps one silently, so the other value would be lost.
      bool ok = true;
      std::map<std::string, int> seen;
      for (const auto& kv : node) {
        ok = check_scalars_utf8(kv.first, file, diags, first_line) && ok;
        ok = check_scalars_utf8(kv.second, file, diags, first_line) && ok;
        if (kv.first.IsScalar()) {
          const Location at = where(kv.first, file, first_line);
          auto [it, fresh] = seen.emplace(kv.first.Scalar(), at.line);
          if (!fresh) {
            diags.error(at, "duplicate key '" + kv.first.Scalar().substr(0, 60) + "' (first at line " + std::to_string(it->second) +
                                "); one of the two values would be lost");
            ok = false;
          }
        }
      }
      return ok;
    }
    default: return true;
  }
}

// A first pass over the parser's events, before any node is built: yaml-cpp shares an aliased node instead
// of copying it, so a small file can still stand for a huge tree (`&s` on a 1 MB string, then `[*s, *s,
// ...]`, or nested "billion laughs" anchors) that every consumer walking it expands. Counts what each anchored
// node stands for (scalar bytes + 1 per node, its own aliases expanded) and refuses, at the alias that crosses
// it, more than kMaxAliasExpansion in all; refuses an alias inside the node it names (a cycle), nesting
// deeper than kMaxDepth and more than kMaxNodes nodes (where it throws TooManyNodes: the rest is not read).
// Linear in the input.
struct TooManyNodes {};

class LimitCheck : public YAML::EventHandler {
 public:
  LimitCheck(const std::string& file, int first_line, Diagnostics& diags)
      : file_(file), first_line_(first_line), diags_(diags) {}
  bool ok() const { return ok_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { leaf(mark, anchor, 1); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string& value) override {
    leaf(mark, anchor, value.size() + 1);
  }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    count(mark);
    if (!ok_) return;
    auto it = size_.find(anchor);
    if (it == size_.end()) {  // the anchor's node is still open: the alias is inside it
      fail(mark, "an alias inside the node it refers to (a cycle) is not supported");
      return;
    }
    expanded_ += it->second;
    if (expanded_ > kMaxAliasExpansion) {
      fail(mark, "aliases expand to more than " + std::to_string(kMaxAliasExpansion / (1024 * 1024)) +
                     " MiB in all (the limit on alias expansion; write the values out instead)");
      return;
    }
    add(it->second);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnSequenceEnd() override { close(); }
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    open(mark, anchor);
  }
  void OnMapEnd() override { close(); }

 private:
  struct Open {
    YAML::anchor_t anchor;
    std::size_t size;
  };
  void add(std::size_t n) {
    if (!stack_.empty()) stack_.back().size += n;
  }
  void leaf(const YAML::Mark& mark, YAML::anchor_t anchor, std::size_t n) {
    count(mark);
    if (anchor != YAML::NullAnchor) size_[anchor] = n;
    add(n);
  }
  void count(const YAML::Mark& mark) {
    if (++nodes_ <= kMaxNodes) return;
    fail(mark, "more than " + std::to_string(kMaxNodes) + " YAML nodes (the limit on YAML nodes)");
    throw TooManyNodes{};
  }
  void open(const YAML::Mark& mark, YAML::anchor_t anchor) {
    count(mark);
    if (ok_ && stack_.size() >= static_cast<std::size_t>(kMaxDepth))
      fail(mark, "nested deeper than " + std::to_string(kMaxDepth) + " levels (the limit on YAML nesting)");
    stack_.push_back({anchor, 1});
  }
  void close() {
    if (stack_.empty()) return;
    Open done = stack_.back();
    stack_.pop_back();
    if (done.anchor != YAML::NullAnchor) size_[done.anchor] = done.size;
    add(done.size);
  }
  void fail(const YAML::Mark& mark, std::string message) {
    ok_ = false;
    diags_.error({file_, mark.line + first_line_, mark.column + 1}, std::move(message));
  }

  const std::string& file_;
  int first_line_;
  Diagnostics& diags_;
  bool ok_ = true;
  std::vector<Open> stack_;
  std::unordered_map<YAML::anchor_t, std::size_t> size_;
  std::size_t expanded_ = 0;
  std::size_t nodes_ = 0;
};

// An upper bound on the nodes of `text`, in one pass: every node but the first starts after a line break or
// one of the indicators '-', ':', '?', ',', '[', '{' (each may open a key and a value).
std::size_t node_bound(std::string_view text) {
  std::size_t marks = 0;
  for (char c : text)
    if (c == '\n' || c == '-' || c == ':' || c == '?' || c == ',' || c == '[' || c == '{') ++marks;
  return 2 * (marks + 1) + 1;
}

// An upper bound on how deep the nodes of `text` nest, in one pass. A block node opened on an earlier line is
// indented further than its parent, except a sequence that is a key's value, which may sit at the key's
// column: so the block nodes still open at a line indented by k spaces are at most 2 (k + 1). On the line
// itself every indicator ('-', ':', '?', '[', '{') may open one more, and a flow collection ('[' '{') may stay
// open across lines: every one in the text is counted (quotes and comments are not skipped: the bound only
// grows).
std::size_t nesting_bound(std::string_view text) {
  std::size_t flows = 0, bound = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::size_t indent = 0, indicators = 0;
    while (start + indent < end && text[start + indent] == ' ') ++indent;
    for (std::size_t i = start + indent; i < end; ++i) {
      const char c = text[i];
      if (c == '[' || c == '{') ++flows, ++indicators;
      else if (c == '-' || c == ':' || c == '?') ++indicators;
    }
    bound = std::max(bound, 2 * (indent + 1) + indicators);
    start = end + 1;
  }
  return bound + flows + 1;
}

}  // namespace

std::optional<YAML::Node> parse(const std::string& text, const std::string& file, Diagnostics& diags,
                                int first_line) {
  if (text.size() > kMaxBytes) {
    diags.error({file, first_line, 1}, "YAML text of " + std::to_string(text.size()) + " bytes; the limit is " +
                                           std::to_string(kMaxBytes / (1024 * 1024)) + " MiB");
    return std::nullopt;
  }
  try {
    // The first pass (a whole second parse) only when the limits may be reached: an alias ('*') may expand,
    // and the nesting may reach kMaxDepth only if nesting_bound() says so (a taxonomy of 50,000 nodes nests
    // three deep: one parse, not two).
    const bool may_exceed = text.find('*') != std::string::npos || nesting_bound(text) >= kMaxDepth ||
                            node_bound(text) > kMaxNodes;
    if (may_exceed) {
      std::istringstream in(text);
      YAML::Parser parser(in);
      LimitCheck check(file, first_line, diags);
      try {
        parser.HandleNextDocument(check);
      } catch (const TooManyNodes&) {
        return std::nullopt;
      }
      if (!check.ok()) return std::nullopt;
    }
    // One document per file: a second one ('---' again) or text after the end marker '...' would be ignored.
    {
      std::size_t start = 0;
      int lineno = first_line - 1;
      bool content = false, ended = false;
      while (start < text.size()) {
        auto nl = text.find('\n', start);
        std::string_view line(text.data() + start, (nl == std::string::npos ? text.size() : nl) - start);
        start = nl == std::string::npos ? text.size() : nl + 1;
        ++lineno;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        const bool blank = text::trim(line).empty() || text::trim(line).front() == '#';
        const bool doc_start = line == "---" || line.rfind("--- ", 0) == 0;
        if (ended && !blank) {
          diags.error({file, lineno, 1}, "text after the document end '...' (a file holds one YAML document; it would be ignored)");
          return std::nullopt;
        }
        if (doc_start && content) {
          diags.error({file, lineno, 1}, "a second YAML document starts here ('---'); a file holds one, the rest would be ignored");
          return std::nullopt;
        }
        if (line == "...") ended = true;
        else if (!blank) content = true;
      }
    }
    YAML::Node root = YAML::Load(text);
    if (!check_scalars_utf8(root, file, diags, first_line)) return std::nullopt;
    return root;
  } catch (const YAML::ParserException& e) {
    // yaml-cpp's words for what is nearly always an indentation slip get a hint in ours.
    std::string hint;
    for (const char* m : {"end of map not found", "end of sequence not found", "illegal map value",
                          "block sequence entries are not allowed in this context", "end of map flow not found"})
      if (e.msg.find(m) != std::string::npos)
        hint = " (the lines around here are probably not indented alike: the keys of one map, and the '- ' items of one "
               "list, start in the same column, their contents further right; use spaces, not tabs)";
    diags.error({file, e.mark.line + first_line, e.mark.column + 1}, "YAML syntax error: " + e.msg + hint);
  } catch (const YAML::Exception& e) {
    diags.error({file, first_line, 1}, std::string("YAML error: ") + e.what());
  }
  return std::nullopt;
}

Location where(const YAML::Node& node, const std::string& file, int first_line) {
  auto m = node.Mark();
  if (m.line < 0) return {file, 0, 0};
  return {file, m.line + first_line, m.column + 1};
}

std::string get_string(const YAML::Node& map, const char* key, const std::string& file, Diagnostics& diags,
                       bool required, int first_line) {
  if (map.IsScalar() || map.IsSequence()) {  // operator[] would throw on a scalar
    if (required) diags.error(where(map, file, first_line), std::string("expected a map with '") + key + "'");
    return {};
  }
  auto v = map[key];
  if (!v) {
    if (required) diags.error(where(map, file, first_line), std::string("missing '") + key + "'");
    return {};
  }
  if (!v.IsScalar()) {
    diags.error(where(v, file, first_line), std::string("expected text for '") + key + "'");
    return {};
  }
  return v.Scalar();
}

std::vector<std::string> get_string_list(const YAML::Node& map, const char* key, const std::string& file,
                                         Diagnostics& diags, int first_line) {
  std::vector<std::string> out;
  if (map.IsScalar() || map.IsSequence()) return out;  // operator[] would throw on a scalar
  auto v = map[key];
  if (!v || v.IsNull()) return out;
  if (v.IsScalar()) {
    out.push_back(v.Scalar());
  } else if (v.IsSequence()) {
    for (const auto& item : v) {
      if (item.IsScalar())
        out.push_back(item.Scalar());
      else
        diags.error(where(item, file, first_line), std::string("expected text in the list '") + key + "'");
    }
  } else {
    diags.error(where(v, file, first_line), std::string("expected a list for '") + key + "'");
  }
  return out;
}

}  // namespace qualrank::yaml
