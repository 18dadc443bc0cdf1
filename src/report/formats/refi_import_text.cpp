// A REFI source's plain text and codings as a workspace transcript. The text becomes turns first
// (refi_import_turns.cpp), each remembering which code points of the source its text came from, so a
// selection (code points, end exclusive) maps to a whole turn (@code) or to spans within one line
// ([text]{ID}). The source's own coder's codings go inline; a span that cannot be written inline
// (overlapping another, holding brackets, or a memo on a span that is not the turn's last) goes to the
// coder's codings file, like every other coder's codings. Finally everything is parsed back with the
// workspace's parser and compared with what was placed, so nothing is misplaced silently.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "qualrank/model/transcripts/transcript.h"
#include "qualrank/util/text.h"
#include "qualrank/util/yaml_emit.h"
#include "refi_import_internal.h"

namespace qualrank::refi_import {

namespace {

std::size_t cp_to_byte(std::string_view s, std::size_t cp) {
  std::size_t i = 0;
  for (std::size_t n = 0; i < s.size() && n < cp; ++n) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

struct Code {
  std::string node, memo;
  bool exemplar = false;  // picked as an exemplar quote (`@exemplar`, `| exemplar`)
};

// Codes on one stretch of one line of a turn (or the whole turn: line = -1).
struct Group {
  int line = -1;
  std::size_t b = 0, e = 0;  // code points within the line
  std::vector<Code> codes;
  bool inline_ = true;
  bool memo_inline = false;
};

struct Expected {
  int turn = 0;
  bool whole = true;
  std::size_t b = 0, e = 0;  // bytes in the turn text
  std::string node, coder, memo;
  bool exemplar = false;
  bool operator<(const Expected& o) const {
    return std::tie(turn, whole, b, e, node, coder, memo, exemplar) <
           std::tie(o.turn, o.whole, o.b, o.e, o.node, o.coder, o.memo, o.exemplar);
  }
  bool operator==(const Expected& o) const { return !(*this < o) && !(o < *this); }
};

std::string memo_lines(const std::string& memo) {  // as the parser joins @memo lines
  std::vector<std::string> lines;
  for (const auto& l : text::split(memo, '\n'))
    if (!l.empty()) lines.push_back(l);
  return text::join(lines, "\n");
}

std::string one_line(const std::string& s) {
  std::string out = s;
  std::replace(out.begin(), out.end(), '\n', ' ');
  std::replace(out.begin(), out.end(), '\r', ' ');
  return std::string(text::trim(out));
}

std::string node_list(const std::vector<Code>& codes) {
  std::vector<std::string> ids;
  for (const auto& c : codes) ids.push_back(c.node);
  return text::join(ids, ", ");
}

// The directive that picks `codes` (the codes just before it) as exemplar quote: "@exemplar" for all of
// them, "@exemplar ID, ID" for some, "" for none.
std::string exemplar_line(const std::vector<Code>& codes) {
  std::vector<Code> picked;
  for (const auto& c : codes)
    if (c.exemplar) picked.push_back(c);
  if (picked.empty()) return "";
  return picked.size() == codes.size() ? "@exemplar" : "@exemplar " + node_list(picked);
}

}  // namespace

std::optional<BuiltTranscript> build_transcript(const refi::Source& source, const TranscriptSpec& spec,
                                                const std::vector<PlacedCoding>& codings, Diagnostics& diags) {
  Location source_at{source.text_file, 0, 0};
  auto layout = lay_out_source(source, spec, diags);
  auto& turns = layout.turns;
  const auto& out = layout.out;
  const std::size_t total_cp = layout.total_cp;

  // Selections onto turns: whole-turn codes and per-line spans, by coder.
  std::map<std::string, std::map<int, std::vector<Group>>> by_coder;  // coder -> turn index -> groups
  auto add_code = [&](const std::string& coder, int turn, int line, std::size_t b, std::size_t e, const Code& code) {
    auto& groups = by_coder[coder][turn];
    for (auto& g : groups)
      if (g.line == line && g.b == b && g.e == e) {
        g.codes.push_back(code);
        return;
      }
    groups.push_back({line, b, e, {code}, true, false});
  };
  for (const auto& c : codings) {
    if (c.start < 0 || c.end > static_cast<long long>(total_cp) || c.start >= c.end) {
      diags.warning(c.where, "selection [" + std::to_string(c.start) + ", " + std::to_string(c.end) + ") is outside its source (" +
                                 std::to_string(total_cp) + " characters); left out");
      continue;
    }
    auto s = static_cast<std::size_t>(c.start), e = static_cast<std::size_t>(c.end);
    int participant_turns = 0;
    bool interviewer_part = false;
    for (std::size_t ti = 0; ti < turns.size(); ++ti) {
      auto& t = turns[ti];
      std::size_t lo = SIZE_MAX, hi = 0;
      for (const auto& p : t.pieces) {
        std::size_t a = std::max(s, p.src), z = std::min(e, p.src + p.len);
        if (a >= z) continue;
        lo = std::min(lo, p.turn + (a - p.src));
        hi = std::max(hi, p.turn + (z - p.src));
      }
      if (lo >= hi) continue;
      if (t.interviewer) {
        interviewer_part = true;
        continue;
      }
      ++participant_turns;
      Code code{c.node, c.memo, c.exemplar};
      if (lo == 0 && hi == t.cp_length) {
        add_code(c.coder, static_cast<int>(ti), -1, 0, 0, code);
        continue;
      }
      int pieces = 0;
      for (std::size_t k = 0; k < t.lines.size(); ++k) {
        std::size_t ls = t.line_cp[k], le = ls + text::count_code_points(t.lines[k]);
        std::size_t a = std::max(lo, ls), z = std::min(hi, le);
        if (a >= z) continue;
        ++pieces;
        add_code(c.coder, static_cast<int>(ti), static_cast<int>(k), a - ls, z - ls, code);
      }
      if (pieces > 1) diags.warning(c.where, "selection crosses a line break in turn t" + std::to_string(t.number) + "; coded as " + std::to_string(pieces) + " spans, one per line");
    }
    if (interviewer_part) diags.warning(c.where, "selection covers interviewer text, which is not coded; that part is left out");
    if (participant_turns == 0 && !interviewer_part) diags.warning(c.where, "selection covers no turn text (only headings or blank lines); left out");
    if (participant_turns > 1) diags.warning(c.where, "selection spans " + std::to_string(participant_turns) + " turns; coded as one segment per turn");
  }

  // Decide where each group goes; render inline markup, directives and codings files.
  BuiltTranscript built;
  std::vector<Expected> expected;
  std::map<std::string, std::string> standoff;
  auto span_text = [&](const BuiltTurn& t, const Group& g) {
    const auto& line = t.lines[static_cast<std::size_t>(g.line)];
    auto b = cp_to_byte(line, g.b), e = cp_to_byte(line, g.e);
    return line.substr(b, e - b);
  };
  auto span_bytes = [&](const BuiltTurn& t, const Group& g) {
    std::string text_ = t.text();
    std::size_t at = cp_to_byte(text_, t.line_cp[static_cast<std::size_t>(g.line)] + g.b);
    return std::make_pair(at, at + span_text(t, g).size());
  };
  auto standoff_ok = [&](const BuiltTurn& t, const Group& g) {
    if (g.line < 0) return true;
    auto st = span_text(t, g);
    return st.find('"') == std::string::npos && !st.empty();
  };
  auto write_standoff = [&](const std::string& coder, const BuiltTurn& t, const Group& g) {
    std::string& file = standoff[coder];
    std::string head = "t" + std::to_string(t.number) + (g.line < 0 ? "" : " \"" + span_text(t, g) + "\"");
    // One line per run of codes with the same memo and exemplar pick.
    for (std::size_t i = 0; i < g.codes.size();) {
      std::size_t j = i;
      std::vector<Code> run;
      while (j < g.codes.size() && g.codes[j].memo == g.codes[i].memo && g.codes[j].exemplar == g.codes[i].exemplar)
        run.push_back(g.codes[j++]);
      std::string memo = one_line(g.codes[i].memo);
      file += head + ": " + node_list(run) + (g.codes[i].exemplar ? " | exemplar" : "") + (memo.empty() ? "" : " | memo: " + memo) + "\n";
      for (const auto& c : run) {
        auto [b, e] = g.line < 0 ? std::make_pair(std::size_t{0}, t.text().size()) : span_bytes(t, g);
        expected.push_back({t.number, g.line < 0, g.line < 0 ? 0 : b, g.line < 0 ? 0 : e, c.node, coder, memo, c.exemplar});
      }
      i = j;
    }
  };
  std::map<int, std::vector<std::string>> directives;  // turn index -> lines after the turn
  auto main_groups = by_coder.find(spec.coder);
  if (main_groups != by_coder.end()) {
    for (auto& [ti, groups] : main_groups->second) {
      const auto& t = turns[static_cast<std::size_t>(ti)];
      std::vector<Group*> spans;
      for (auto& g : groups)
        if (g.line >= 0) spans.push_back(&g);
      std::stable_sort(spans.begin(), spans.end(), [](const Group* a, const Group* b) {
        return a->line != b->line ? a->line < b->line : a->b != b->b ? a->b < b->b : a->e > b->e;
      });
      // Inline: non-overlapping stretches without brackets or braces.
      const Group* prev = nullptr;
      for (auto* g : spans) {
        auto st = span_text(t, *g);
        bool overlaps = prev && prev->line == g->line && prev->e > g->b;
        g->inline_ = !overlaps && st.find_first_of("[]{}") == std::string::npos;
        if (g->inline_) prev = g;
      }
      // A memo or an exemplar pick can follow only the turn's last inline span; others move to the codings file.
      bool last_slot = true;
      for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
        Group* g = *it;
        if (!g->inline_) continue;
        std::set<std::string> memos;
        bool picked = false;
        for (const auto& c : g->codes) {
          memos.insert(c.memo);
          picked = picked || c.exemplar;
        }
        if (memos.size() == 1 && memos.begin()->empty() && !picked) {
          last_slot = false;
        } else if (last_slot && memos.size() == 1) {
          g->memo_inline = true;
          last_slot = false;
        } else if (standoff_ok(t, *g)) {
          g->inline_ = false;
        } else {
          diags.warning(source_at, "turn t" + std::to_string(t.number) + ": the memo or exemplar pick on span \"" +
                                       span_text(t, *g) + "\" cannot be written; left out");
          for (auto& c : g->codes) {
            c.memo.clear();
            c.exemplar = false;
          }
          last_slot = false;
        }
      }
      auto& lines_after = directives[ti];
      for (auto* g : spans) {
        if (!g->inline_) {
          if (standoff_ok(t, *g)) write_standoff(spec.coder, t, *g);
          else diags.warning(source_at, "turn t" + std::to_string(t.number) + ": span \"" + span_text(t, *g) + "\" cannot be written; left out");
          continue;
        }
        auto [b, e] = span_bytes(t, *g);
        for (const auto& c : g->codes)
          expected.push_back({t.number, false, b, e, c.node, spec.coder, memo_lines(c.memo), c.exemplar});
        if (g->memo_inline) {
          for (const auto& m : text::split(memo_lines(g->codes.front().memo), '\n'))
            if (!m.empty()) lines_after.push_back("@memo " + m);
          lines_after.push_back(exemplar_line(g->codes));
          if (lines_after.back().empty()) lines_after.pop_back();
        }
      }
      for (auto& g : groups) {
        if (g.line >= 0) continue;
        for (std::size_t i = 0; i < g.codes.size();) {
          std::size_t j = i;
          std::vector<Code> run;
          while (j < g.codes.size() && g.codes[j].memo == g.codes[i].memo) run.push_back(g.codes[j++]);
          lines_after.push_back("@code " + node_list(run));
          std::string memo = memo_lines(g.codes[i].memo);
          if (!memo.empty())
            for (const auto& m : text::split(memo, '\n')) lines_after.push_back("@memo " + m);
          if (auto pick = exemplar_line(run); !pick.empty()) lines_after.push_back(pick);
          for (const auto& c : run) expected.push_back({t.number, true, 0, 0, c.node, spec.coder, memo, c.exemplar});
          i = j;
        }
      }
    }
  }
  for (auto& [coder, per_turn] : by_coder) {
    if (coder == spec.coder) continue;
    for (auto& [ti, groups] : per_turn) {
      const auto& t = turns[static_cast<std::size_t>(ti)];
      for (auto& g : groups) {
        if (standoff_ok(t, g)) write_standoff(coder, t, g);
        else diags.warning(source_at, "turn t" + std::to_string(t.number) + ": " + coder + "'s span \"" + span_text(t, g) + "\" holds a '\"' and cannot be written; left out");
      }
    }
  }

  // Render.
  std::string md = "---\nparticipant: " + yaml::quote(spec.participant) + "\nrole: " + yaml::quote(spec.role) +
                   "\ncoder: " + yaml::quote(spec.coder) + "\n";
  if (!spec.interviewer_labels.empty()) md += "interviewer: " + yaml::flow_list(spec.interviewer_labels) + "\n";
  if (!spec.attributes.empty()) {
    md += "attributes:\n";
    for (const auto& [k, v] : spec.attributes) md += "  " + yaml::quote(k) + ": " + yaml::quote(v) + "\n";
  }
  md += "---\n";
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto& o = out[i];
    if (o.turn < 0) {
      md += o.text + "\n";
      continue;
    }
    const auto& t = turns[static_cast<std::size_t>(o.turn)];
    const std::string& plain = t.lines[o.part];
    // Markup characters in the source text are escaped so that they read as text (docs/formats.md).
    auto escape = [](std::string_view s) {
      std::string escaped;
      for (char c : s) {
        if (c == '[' || c == ']' || c == '{' || c == '}' || c == '\\' || c == '|') escaped += '\\';
        escaped += c;
      }
      return escaped;
    };
    std::string line;
    std::size_t done = 0;
    if (main_groups != by_coder.end()) {
      auto it = main_groups->second.find(o.turn);
      std::vector<const Group*> here;
      if (it != main_groups->second.end())
        for (const auto& g : it->second)
          if (g.inline_ && g.line == static_cast<int>(o.part)) here.push_back(&g);
      std::sort(here.begin(), here.end(), [](const Group* a, const Group* b) { return a->b < b->b; });  // left to right
      for (const auto* g : here) {
        auto b = cp_to_byte(plain, g->b), e = cp_to_byte(plain, g->e);
        line += escape(std::string_view(plain).substr(done, b - done)) + "[" + escape(std::string_view(plain).substr(b, e - b)) +
                "]{" + node_list(g->codes) + "}";
        done = e;
      }
    }
    line += escape(std::string_view(plain).substr(done));
    md += (o.part == 0 ? t.speaker + ": " : std::string()) + line + "\n";
    if (i == t.last_out_line)
      for (const auto& d : directives[o.turn]) md += d + "\n";
  }
  while (md.size() > 1 && md.ends_with("\n\n")) md.pop_back();

  // Read it all back.
  std::string md_file = "transcripts/" + spec.stem + ".md";
  Diagnostics back;
  auto parsed = parse_transcript(md, md_file, back);
  std::vector<StandoffFile> files;
  for (const auto& [coder, content] : standoff) {
    auto s = parse_standoff(content, "transcripts/" + spec.stem + "." + coder + ".codes", back);
    if (s) files.push_back(*s);
  }
  if (parsed)
    for (const auto& f : files) apply_standoff(*parsed, f, back);
  if (!parsed || back.has_errors()) {
    std::string why = back.items().empty() ? "it does not parse" : back.items().front().message;
    diags.error({source.text_file, 0, 0}, "source '" + source.name + "' cannot be written as a transcript (" + why +
                                              "); its text holds transcript markup");
    return std::nullopt;
  }
  for (const auto& t : turns) {
    if (t.interviewer) continue;
    const Turn* p = parsed->participant_turn(t.number);
    if (!p || p->text != t.text()) {
      diags.error({source.text_file, 0, 0}, "source '" + source.name + "': turn t" + std::to_string(t.number) +
                                                " does not read back as written (its text holds transcript markup)");
      return std::nullopt;
    }
  }
  std::vector<Expected> actual;
  for (const auto& p : parsed->turns) {
    if (p.interviewer) continue;
    for (const auto& c : p.codes) actual.push_back({p.number, true, 0, 0, c.written, c.coder, c.memo, c.exemplar});
    for (const auto& sp : p.spans)
      for (const auto& c : sp.codes)
        actual.push_back({p.number, false, sp.begin, sp.end, c.written, c.coder, c.memo, c.exemplar});
  }
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  if (expected != actual) {
    std::vector<Expected> missing;
    std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(), std::back_inserter(missing));
    for (const auto& m : missing)
      diags.warning(source_at, "turn t" + std::to_string(m.turn) + ": " + m.coder + "'s coding " + m.node +
                                   (m.whole ? "" : " of bytes " + std::to_string(m.b) + "-" + std::to_string(m.e)) +
                                   " reads back elsewhere (a codings file finds a span by its first occurrence)");
  }
  built.markdown = std::move(md);
  built.standoff = std::move(standoff);
  built.codings = static_cast<int>(actual.size());
  return built;
}

}  // namespace qualrank::refi_import
