// `qualrank reconcile [TRANSCRIPT...]`: walks every disagreement between the coders of multi-coder transcripts
// (turn or segment units, as `agreement --transcripts` compares them) and records the team's decision for
// each in the transcript's consensus coding (`transcripts/<stem>.consensus.codes`, model/consensus.h): keep
// one coder's codes, the union of them, neither, or other codes, with who decided, when and a note. Units the
// coders agree on are copied into it. In the terminal it asks unit by unit (lines on stdin); `--decide
// UNIT=CHOICE` does the same for scripts. The coders' own files are never changed, so agreement before
// reconciliation stays what `qualrank agreement` reports.
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>

#include "cli.h"
#include "qualrank/analysis/coder_selection.h"
#include "qualrank/analysis/study.h"
#include "qualrank/model/coding_edit.h"
#include "qualrank/model/consensus.h"
#include "qualrank/model/history.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::cli {

namespace fs = std::filesystem;

namespace {

struct Unit {
  std::string key;                                 // "t3" or `t3 "span"#2`
  int turn = 0;
  std::size_t order = 0;                           // position of the segment in the study (file order)
  Location where;
  std::string text;                                // the turn's or span's words
  std::string question;
  std::map<std::string, std::set<std::string>> codes;  // coder (folded) -> nodes
};

// `t3 "span"` (with #N when the span's text repeats in the turn) for a span segment, `t3` for a turn.
std::string unit_key(const CodedSegment& seg, const Workspace& ws, bool segments) {
  std::string key = "t" + std::to_string(seg.turn);
  if (!segments || seg.whole_turn) return key;
  std::string quoted = "\"";
  for (char c : seg.text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  key += " " + quoted + "\"";
  for (const auto& t : ws.transcripts) {
    if (t.file != seg.source.file) continue;
    const Turn* turn = t.participant_turn(seg.turn);
    if (!turn || occurrences(turn->text, seg.text) < 2) break;
    // The occurrence whose code-point offset is the segment's begin.
    for (int n = 1;; ++n) {
      auto pos = nth_occurrence(turn->text, seg.text, n);
      if (pos == std::string::npos) break;
      std::size_t cps = 0;
      for (std::size_t i = 0; i < pos; ++i) cps += (static_cast<unsigned char>(turn->text[i]) & 0xC0) != 0x80;
      if (cps == seg.begin) {
        key += "#" + std::to_string(n);
        break;
      }
    }
    break;
  }
  return key;
}

std::vector<std::string> ordered(const std::set<std::string>& nodes, const Taxonomy& taxonomy) {
  std::vector<std::string> out(nodes.begin(), nodes.end());
  std::sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) {
    return taxonomy.find(a) && taxonomy.find(b) ? taxonomy.rank_of(a) < taxonomy.rank_of(b) : a < b;
  });
  return out;
}

std::string one_line(std::string s, std::size_t max) {
  for (auto& c : s)
    if (c == '\n' || c == '\t') c = ' ';
  if (s.size() > max) {
    std::size_t cut = max;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    s = s.substr(0, cut) + "…";
  }
  return s;
}

}  // namespace

int cmd_reconcile(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("reconcile options");
  desc.add_options()
      ("transcript", po::value<std::vector<std::string>>()->composing(), "transcripts to reconcile (default: every transcript coded by two or more coders)")
      ("unit", po::value<std::string>()->default_value("turn"), "turn or segment (as agreement --transcripts)")
      ("decide", po::value<std::vector<std::string>>()->composing(),
       "UNIT=CHOICE, repeatable: UNIT is tN (or PARTICIPANT#tN; a segment unit: tN \"span\"), CHOICE a coder's name, "
       "union, neither, or codes:ID,ID (no questions asked)")
      ("note", po::value<std::string>()->default_value(""), "the note recorded with the --decide decisions")
      ("decider", po::value<std::string>(), "who decides (default: $QUALRANK_AUTHOR, else $USER)")
      ("date", po::value<std::string>(), "the decisions' date YYYY-MM-DD (default: today, UTC, or SOURCE_DATE_EPOCH's day)")
      ("list", "list the disagreements not decided yet; write nothing");
  po::positional_options_description pos;
  pos.add("transcript", -1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "reconcile",
                     "[TRANSCRIPT...] [--unit turn|segment] [--decide UNIT=CHOICE ...] [--note TEXT] [--decider NAME] [--date YYYY-MM-DD] [--list]",
                     desc, args, vm, rc, &pos))
    return rc;
  auto usage_error = [&](const std::string& what) {
    *ctx.err << "qualrank reconcile: error: " << what << "\n(see 'qualrank reconcile --help')\n";
    return 2;
  };
  const std::string unit_kind = vm["unit"].as<std::string>();
  if (!check_choice(ctx, "reconcile", "unit", unit_kind, {"turn", "segment"})) return 2;
  const bool segments = unit_kind == "segment";
  std::string decider;
  if (vm.count("decider")) decider = vm["decider"].as<std::string>();
  for (const char* var : {"QUALRANK_AUTHOR", "USER"})
    if (decider.empty() && std::getenv(var)) decider = std::getenv(var);
  if (decider.empty()) decider = "unknown";
  std::string date = vm.count("date") ? vm["date"].as<std::string>() : today_utc();
  if (!text::is_calendar_date(date)) return usage_error("--date '" + date + "' is not a date YYYY-MM-DD");
  const bool list_only = vm.count("list") > 0;
  std::map<std::string, std::string> decide;  // unit as written -> choice
  if (vm.count("decide"))
    for (const auto& d : vm["decide"].as<std::vector<std::string>>()) {
      auto eq = d.rfind('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == d.size()) return usage_error("--decide takes UNIT=CHOICE, not '" + d + "'");
      decide[std::string(text::trim(d.substr(0, eq)))] = std::string(text::trim(d.substr(eq + 1)));
    }
  const bool interactive = decide.empty() && !list_only;

  Diagnostics diags;
  StudyOptions opts;
  opts.coding.suggestions = false;
  auto study = load_study(ctx.workspace, diags, opts);
  if (!study || diags.has_errors()) return report_diagnostics(ctx, diags);
  const Taxonomy& taxonomy = study->taxonomy();

  // The transcripts asked for, or every one with two or more individual coders.
  std::set<std::string> asked;
  if (vm.count("transcript"))
    for (const auto& t : vm["transcript"].as<std::vector<std::string>>()) asked.insert(find_transcript(ctx.workspace, t));
  std::vector<std::string> files;
  std::map<std::string, std::vector<std::string>> coders;  // file -> individual coders as written, first seen first
  for (const auto& seg : study->segments)
    for (const auto& c : seg.codes) {
      if (is_consensus_coder(c.coder)) continue;
      auto& list = coders[seg.source.file];
      if (std::none_of(list.begin(), list.end(), [&](const std::string& x) { return text::fold_case(x) == text::fold_case(c.coder); }))
        list.push_back(c.coder);
      if (std::find(files.begin(), files.end(), seg.source.file) == files.end()) files.push_back(seg.source.file);
    }
  for (const auto& a : asked) {
    if (std::find(files.begin(), files.end(), a) == files.end()) {
      diags.error({a, 0, 0}, "no codes in this transcript (name a transcript of the workspace coded by two or more coders)");
    } else if (coders[a].size() < 2) {
      diags.error({a, 0, 0}, "coded by one coder only (" + coders[a].front() + "): nothing to reconcile");
    }
  }
  if (diags.has_errors()) return report_diagnostics(ctx, diags);

  int total_disputed = 0, total_decided_now = 0, total_open = 0;
  for (const auto& file : files) {
    if (coders[file].size() < 2 || (!asked.empty() && !asked.count(file))) continue;
    const auto& cs = coders[file];
    // Units of this transcript and each coder's codes on them.
    std::vector<Unit> units;
    std::map<std::string, std::size_t> index;
    std::string participant;
    for (std::size_t k = 0; k < study->segments.size(); ++k) {
      const auto& seg = study->segments[k];
      if (seg.source.file != file) continue;
      participant = seg.participant;
      std::string key = unit_key(seg, study->workspace, segments);
      auto [it, fresh] = index.try_emplace(key, units.size());
      if (fresh) units.push_back({key, seg.turn, k, seg.source, seg.text, seg.question, {}});
      for (const auto& c : seg.codes)
        if (!is_consensus_coder(c.coder)) units[it->second].codes[text::fold_case(c.coder)].insert(c.node);
    }
    // What is decided already.
    const std::string stem = fs::path(file).stem().string();
    const std::string consensus_file = (fs::path(file).parent_path() / (stem + ".consensus.codes")).generic_string();
    files::WorkspaceLock lock(ctx.workspace);
    if (!lock.locked()) {
      *ctx.err << "qualrank reconcile: error: " << lock.why() << '\n';
      return 1;
    }
    std::string why;
    std::error_code absent;
    auto before = fs::exists(fs::symlink_status(ctx.workspace / consensus_file, absent))
                      ? files::read_input(ctx.workspace / consensus_file, files::kCodesInput, &why)
                      : std::optional<std::string>("");
    if (!before) {  // (a FIFO, a dangling symlink: said as what it is, not "changed on disk since read")
      diags.error({consensus_file, 0, 0}, why);
      return report_diagnostics(ctx, diags);
    }
    const std::string before_text = std::move(*before);
    std::map<std::string, ConsensusUnit> decided;
    for (auto& u : read_consensus_decisions(before_text, consensus_file, diags))
      if (u.decided) decided[u.unit] = u;
    if (diags.has_errors()) return report_diagnostics(ctx, diags);

    ConsensusFile out;
    out.transcript = file;
    out.coders = cs;
    out.unit = unit_kind;
    int disputed = 0, now = 0, open = 0;
    bool stop = false;
    for (const auto& u : units) {
      ConsensusUnit cu;
      cu.unit = u.key;
      std::vector<std::vector<std::string>> sets;
      for (const auto& c : cs) {
        auto it = u.codes.find(text::fold_case(c));
        sets.push_back(it == u.codes.end() ? std::vector<std::string>{} : ordered(it->second, taxonomy));
        cu.before.push_back({c, sets.back()});
      }
      cu.disputed = std::any_of(sets.begin(), sets.end(), [&](const auto& s) { return s != sets.front(); });
      if (!cu.disputed) {
        cu.codes = sets.front();
        out.units.push_back(std::move(cu));
        continue;
      }
      ++disputed;
      if (auto d = decided.find(u.key); d != decided.end()) {
        cu.decided = true;
        cu.decision = d->second.decision;
        cu.decided_by = d->second.decided_by;
        cu.date = d->second.date;
        cu.note = d->second.note;
        // The consensus codes of an earlier decision: what the file's codes line says (re-derived for a coder's
        // or the union choice from the codes now; "other" keeps the codes written).
        std::set<std::string> all;
        for (const auto& s : sets) all.insert(s.begin(), s.end());
        if (cu.decision == "union") cu.codes = ordered(all, taxonomy);
        else if (cu.decision == "neither") cu.codes.clear();
        else if (cu.decision.rfind("codes:", 0) == 0) cu.codes = text::split_nonempty(cu.decision.substr(6), ',');
        else
          for (std::size_t k = 0; k < cs.size(); ++k)
            if (text::fold_case(cs[k]) == text::fold_case(cu.decision)) cu.codes = sets[k];
        out.units.push_back(std::move(cu));
        continue;
      }
      // Not decided yet: --decide, or ask.
      std::string choice;
      std::string note = vm["note"].as<std::string>();
      for (const std::string& k : {u.key, participant + "#" + u.key})
        if (decide.count(k)) choice = decide[k];
      if (list_only) {
        *ctx.out << file << ":" << u.where.line << ": " << participant << "#" << u.key << " (" << u.question << "): " << one_line(u.text, 70) << '\n';
        for (std::size_t k = 0; k < cs.size(); ++k)
          *ctx.out << "  " << cs[k] << ": " << (sets[k].empty() ? "-" : text::join(sets[k], ", ")) << '\n';
      } else if (interactive && !stop) {
        *ctx.out << "\n" << file << ":" << u.where.line << " " << participant << "#" << u.key << " (" << u.question << "): \""
                 << one_line(u.text, 200) << "\"\n";
        for (std::size_t k = 0; k < cs.size(); ++k)
          *ctx.out << "  " << static_cast<char>('a' + k) << ") " << cs[k] << ": " << (sets[k].empty() ? "-" : text::join(sets[k], ", ")) << '\n';
        for (;;) {
          *ctx.out << "decide: a-" << static_cast<char>('a' + cs.size() - 1)
                   << " keep that coder's codes, u union, n neither, o other codes, s skip, q stop > " << std::flush;
          std::string line;
          if (!std::getline(std::cin, line)) {
            stop = true;
            break;
          }
          line = std::string(text::trim(line));
          if (line == "q") {
            stop = true;
            break;
          }
          if (line == "s") break;
          if (line == "u") choice = "union";
          else if (line == "n") choice = "neither";
          else if (line == "o") {
            *ctx.out << "codes (ids, comma-separated) > " << std::flush;
            std::string ids;
            if (!std::getline(std::cin, ids)) break;
            choice = "codes:" + std::string(text::trim(ids));
          } else if (line.size() == 1 && line[0] >= 'a' && static_cast<std::size_t>(line[0] - 'a') < cs.size()) {
            choice = cs[static_cast<std::size_t>(line[0] - 'a')];
          } else {
            *ctx.out << "'" << line << "' is not a choice\n";
            continue;
          }
          *ctx.out << "note (Enter for none) > " << std::flush;
          std::string n;
          if (std::getline(std::cin, n)) note = std::string(text::trim(n));
          break;
        }
      }
      if (!choice.empty()) {
        std::set<std::string> all;
        for (const auto& s : sets) all.insert(s.begin(), s.end());
        const std::string folded = text::fold_case(choice);
        if (folded == "union" || folded == "both" || folded == "all") {
          cu.decision = "union";
          cu.codes = ordered(all, taxonomy);
        } else if (folded == "neither" || folded == "none") {
          cu.decision = "neither";
        } else if (folded.rfind("codes:", 0) == 0) {
          auto written = text::split_nonempty(choice.substr(6), ',');
          for (auto& w : written) w = std::string(text::trim(w));
          auto ids = resolve_node_ids(written, taxonomy, study->version->resolve, {file, u.where.line, 0}, diags);
          if (!ids || ids->empty()) return report_diagnostics(ctx, diags);
          cu.decision = "codes:" + text::join(*ids, ",");
          cu.codes = *ids;
        } else {
          std::size_t k = 0;
          while (k < cs.size() && text::fold_case(cs[k]) != folded) ++k;
          if (k == cs.size()) {
            diags.error({file, u.where.line, 0}, "'" + choice + "' is no coder of " + file + " (" + text::join(cs, ", ") +
                                                     "), nor union, neither or codes:ID,ID");
            return report_diagnostics(ctx, diags);
          }
          cu.decision = cs[k];
          cu.codes = sets[k];
        }
        cu.decided = true;
        cu.decided_by = decider;
        cu.date = date;
        cu.note = note;
        ++now;
      } else {
        ++open;
      }
      out.units.push_back(std::move(cu));
    }
    // --decide naming a unit that is not an open disagreement of this transcript.
    for (const auto& [k, v] : decide) {
      bool known = std::any_of(out.units.begin(), out.units.end(), [&](const ConsensusUnit& cu) {
        return (k == cu.unit || k == participant + "#" + cu.unit) && cu.disputed;
      });
      bool mine = k.find('#') == std::string::npos || k.rfind(participant + "#", 0) == 0;
      if (mine && !known && asked.size() <= 1)
        diags.error({file, 0, 0}, "--decide " + k + ": no disagreement on that unit (list them with --list)");
    }
    if (diags.has_errors()) return report_diagnostics(ctx, diags);
    total_disputed += disputed;
    total_decided_now += now;
    total_open += open;
    if (list_only) continue;
    const std::string text = format_consensus(out);
    if (text != before_text) {
      if (!files::still_as_read(ctx.workspace / consensus_file, before_text)) {
        *ctx.err << "qualrank reconcile: error: " << consensus_file << " changed on disk since read; nothing written\n";
        return 1;
      }
      auto target = files::resolve_inside(ctx.workspace, consensus_file);
      std::string err;
      if (!target || !files::write_atomic(*target, text, &err)) {
        *ctx.err << "qualrank reconcile: error: cannot write " << consensus_file << ": " << (target ? err : "outside the workspace") << '\n';
        return 1;
      }
    }
    if (!ctx.quiet)
      *ctx.err << "qualrank reconcile: " << file << ": " << disputed << " disagreement(s) (" << unit_kind << " units), "
               << now << " decided now, " << (disputed - now - open) << " before, " << open << " open; "
               << (text != before_text ? "wrote " : "unchanged ") << consensus_file << '\n';
  }
  diags.print(*ctx.err);
  if (list_only && !ctx.quiet) *ctx.err << "qualrank reconcile: " << total_open << " open disagreement(s)\n";
  (void)total_disputed;
  (void)total_decided_now;
  return 0;
}

}  // namespace qualrank::cli
