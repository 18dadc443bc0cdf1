// `qualrank reconcile [TRANSCRIPT...]`: walks the disagreements between the coders of multi-coder transcripts
// (turn or segment units, as `agreement --transcripts` compares them) and records the team's decision on each
// in the transcript's consensus coding (`transcripts/<stem>.consensus.codes`, model/transcripts/consensus.h): keep one
// coder's codings, the union of them, neither, or other codes, with who decided, when and a note. The
// consensus carries the coders' own codings where they agree (analysis/consensus_plan.h). In the terminal it
// asks unit by unit and saves each decision as it is made; `--decide UNIT=CHOICE` does the same for scripts,
// all or nothing. The coders' own files are never changed, so agreement before reconciliation stays what
// `qualrank agreement` reports.

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>

#include "../cli.h"
#include "qualrank/analysis/coder_selection.h"
#include "qualrank/model/coding_edit.h"
#include "qualrank/model/transcripts/consensus.h"
#include "qualrank/model/history/history.h"
#include "qualrank/util/bury.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"
#include "reconcile_session.h"

namespace qualrank::cli {

namespace fs = std::filesystem;

namespace {

}  // namespace

int cmd_reconcile(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("reconcile options");
  desc.add_options()
      ("transcript", po::value<std::vector<std::string>>()->composing(), "transcripts to reconcile (default: every transcript coded by two or more coders)")
      ("unit", po::value<std::string>(), "turn or segment (as agreement --transcripts; default: the unit the consensus file records, else turn)")
      ("decide", po::value<std::vector<std::string>>()->composing(),
       "UNIT=CHOICE, repeatable: UNIT is tN (PARTICIPANT#tN when several transcripts are reconciled; a segment unit: tN \"span\"), "
       "CHOICE a coder's name, union, neither, or codes:ID,ID (no questions asked; all or nothing)")
      ("note", po::value<std::string>()->default_value(""), "the note recorded with the decisions (any text; stored escaped)")
      ("decider", po::value<std::string>(), "who decides (default: $QUALRANK_AUTHOR, $USER, $LOGNAME, else the account's name)")
      ("date", po::value<std::string>(), "the decisions' date YYYY-MM-DD (default: today, UTC, or SOURCE_DATE_EPOCH's day)")
      ("list", "list the open disagreements and the stale decisions; write nothing");
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
  std::optional<std::string> unit_given;
  if (vm.count("unit")) {
    unit_given = vm["unit"].as<std::string>();
    if (!check_choice(ctx, "reconcile", "unit", *unit_given, {"turn", "segment"})) return 2;
  }
  const bool list_only = vm.count("list") > 0;
  std::string decider = vm.count("decider") ? vm["decider"].as<std::string>() : user_name();
  if (!list_only) {
    if (decider.empty()) return usage_error("who decides? give --decider NAME (or set QUALRANK_AUTHOR)");
    if (auto why = decider_name_problem(decider); !why.empty())
      return usage_error("--decider '" + text::escape_controls(decider) + "' " + why);
  }
  std::string date = vm.count("date") ? vm["date"].as<std::string>() : files::today_utc();
  if (!text::is_calendar_date(date)) return usage_error("--date '" + date + "' is not a date YYYY-MM-DD");
  std::vector<std::pair<std::string, std::string>> decide;  // unit as written -> choice, in order given
  if (vm.count("decide"))
    for (const auto& d : vm["decide"].as<std::vector<std::string>>()) {
      auto eq = d.rfind('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == d.size()) return usage_error("--decide takes UNIT=CHOICE, not '" + d + "'");
      std::string unit(text::trim(d.substr(0, eq))), choice(text::trim(d.substr(eq + 1)));
      if (text::fold_case(choice).rfind("codes:", 0) == 0 && text::split_nonempty(choice.substr(6), ',').empty())
        return usage_error("--decide " + d + ": codes: needs at least one id (choose neither for no codes)");
      for (const auto& [u, c] : decide)
        if (u == unit) return usage_error("--decide " + unit + " is given twice");
      decide.push_back({unit, choice});
    }
  const std::string note = vm["note"].as<std::string>();
  if (list_only && !decide.empty()) return usage_error("--list writes nothing; it cannot be combined with --decide");
  const bool interactive = decide.empty() && !list_only;

  // Read under the workspace lock, so what is planned is what the coders' files hold; the walk lets it go
  // while it waits for answers, and checks every input again before each save.
  std::optional<files::WorkspaceLock> lock;
  if (!list_only) {
    lock.emplace(ctx.workspace);
    if (!lock->locked()) {
      *ctx.err << "qualrank reconcile: error: " << lock->why() << '\n';
      return 1;
    }
  }
  Diagnostics diags;
  StudyOptions opts;
  opts.coding.suggestions = false;
  auto study = load_study(ctx.workspace, diags, opts);
  const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
  if (!study || diags.has_errors()) return report_diagnostics(ctx, diags);
  const Taxonomy& taxonomy = study->taxonomy();
  const Workspace& ws = study->workspace;

  reconcile::Session session;
  session.workspace = ctx.workspace;
  session.study = study.get();
  session.decider = decider;
  session.date = date;
  std::set<std::string> asked;
  if (vm.count("transcript"))
    for (const auto& t : vm["transcript"].as<std::vector<std::string>>()) asked.insert(find_transcript(ctx.workspace, t));
  for (const auto& a : asked)
    if (std::none_of(ws.transcripts.begin(), ws.transcripts.end(), [&](const Transcript& t) { return t.file == a; }))
      diags.error({a, 0, 0}, "no such transcript in the workspace");
  for (const auto& t : ws.transcripts) {
    if (!asked.empty() && !asked.count(t.file)) continue;
    const ConsensusRecord* record = nullptr;
    for (const auto& r : ws.consensus)
      if (r.transcript == t.file) record = &r;
    const bool has_decisions = record && std::any_of(record->units.begin(), record->units.end(), [](const ConsensusUnit& u) { return u.decided; });
    std::string kind = record && !record->unit.empty() ? record->unit : "turn";
    if (unit_given && *unit_given != kind && has_decisions) {
      diags.error({record->file, 1, 1}, "records " + kind + " units (" +
                                            std::to_string(std::count_if(record->units.begin(), record->units.end(), [](const ConsensusUnit& u) { return u.decided; })) +
                                            " decision(s)); reconciling it by " + *unit_given + " would drop them: use --unit " + kind +
                                            " (or delete the decision lines first)");
      continue;
    }
    if (unit_given) kind = *unit_given;
    reconcile::TranscriptSession ts;
    ts.transcript = &t;
    ts.units = reconcile_units(t, taxonomy, study->version->resolve, kind == "segment");
    if (ts.units.coders.size() < 2) {
      if (asked.count(t.file))
        diags.error({t.file, 0, 0}, ts.units.coders.empty() ? "no codes in this transcript (name a transcript coded by two or more coders)"
                                                           : "coded by one coder only (" + ts.units.coders.front() + "): nothing to reconcile");
      continue;
    }
    const std::string stem = fs::path(t.file).stem().string();
    ts.consensus_file = (fs::path(t.file).parent_path() / (stem + ".consensus.codes")).generic_string();
    std::string why;
    std::error_code absent;
    auto before = fs::exists(fs::symlink_status(ctx.workspace / ts.consensus_file, absent))
                      ? files::read_input(ctx.workspace / ts.consensus_file, files::kCodesInput, &why)
                      : std::optional<std::string>("");
    if (!before) {  // (a FIFO, a dangling symlink: said as what it is, not "changed on disk since read")
      diags.error({ts.consensus_file, 0, 0}, why);
      continue;
    }
    ts.written = std::move(*before);
    ts.inputs[t.file] = files::read(ctx.workspace / t.file).value_or("");
    for (const auto& f : ws.standoff_files)
      if (f != ts.consensus_file && fs::path(f).filename().string().rfind(stem + ".", 0) == 0)
        ts.inputs[f] = files::read(ctx.workspace / f).value_or("");
    ts.plan = plan_consensus(ts.units, record, taxonomy);
    session.transcripts.push_back(std::move(ts));
  }
  if (diags.has_errors()) return report_diagnostics(ctx, diags);
  // Key letters by coder name: the workspace's coders in name order, so a coder has one letter in every
  // transcript and every run.
  session.keys = workspace_coders(ws);
  std::sort(session.keys.begin(), session.keys.end(),
            [](const std::string& a, const std::string& b) { return text::fold_case(a) < text::fold_case(b); });
  session.keys.erase(std::unique(session.keys.begin(), session.keys.end(),
                                 [](const std::string& a, const std::string& b) { return text::fold_case(a) == text::fold_case(b); }),
                     session.keys.end());

  if (list_only) {
    report_diagnostics(ctx, diags);
    auto [open, stale] = reconcile::list(ctx, session);
    if (!ctx.quiet)
      *ctx.err << "qualrank reconcile: " << open << " open disagreement(s)" << (stale ? ", " + std::to_string(stale) + " stale decision(s)" : "")
               << '\n';
    return 0;
  }
  if (interactive) {
    report_diagnostics(ctx, diags);
    lock.reset();
    return reconcile::walk(ctx, session, note);
  }

  // --decide: every decision checked first; an error anywhere writes nothing anywhere.
  const bool several = session.transcripts.size() > 1;
  std::vector<std::string> names;
  for (const auto& t : session.transcripts) names.push_back(t.transcript->file);
  int decided_now = 0;
  for (const auto& [key, choice] : decide) {
    auto hash = key.find('#');
    const bool qualified = hash != std::string::npos && key.rfind('t', 0) != 0;
    if (several && !qualified)
      return usage_error("--decide " + key + ": " + std::to_string(session.transcripts.size()) + " transcripts are reconciled (" +
                         text::join(names, ", ") + "); name one (qualrank reconcile FILE --decide ...) or write PARTICIPANT#" + key +
                         "; nothing written");
    const std::string participant = qualified ? key.substr(0, hash) : "";
    const std::string unit = qualified ? key.substr(hash + 1) : key;
    reconcile::TranscriptSession* target = nullptr;
    for (auto& t : session.transcripts)
      if (!qualified || t.transcript->participant == participant) target = &t;
    if (!target)
      return usage_error("--decide " + key + ": no transcript of participant '" + participant + "' is reconciled here (" +
                         text::join(names, ", ") + "); nothing written");
    auto& plan = target->plan;
    auto it = std::find_if(plan.units.begin(), plan.units.end(), [&](const PlannedUnit& p) { return p.record.unit == unit; });
    const Location at{target->transcript->file, it != plan.units.end() && it->unit ? it->unit->line : 0, 0};
    if (it == plan.units.end() || it->state == UnitState::agreed || it->state == UnitState::orphan) {
      std::vector<std::string> open;
      for (const auto& p : plan.units)
        if (p.state == UnitState::open || p.state == UnitState::stale) open.push_back(p.record.unit);
      const std::string left = open.empty() ? "none is left to decide" : "the units left to decide are " + text::join(open, ", ");
      if (it == plan.units.end()) {
        diags.error({target->transcript->file, 0, 0}, "--decide " + key + ": no unit '" + unit + "' in " + target->transcript->file +
                                                          " (a participant turn tN that some coder coded); " + left);
      } else if (it->state == UnitState::agreed) {
        diags.error(at, "--decide " + key + ": the coders agree on " + unit + ": nothing to decide; " + left);
      } else {
        diags.error(at, "--decide " + key + ": no coder codes " + unit + " any more (its decision is an orphan); " + left);
      }
      continue;
    }
    if (it->state == UnitState::decided) {
      diags.error(at, "--decide " + key + ": decided already (" + it->record.decision + ", by " + it->record.decided_by + " on " +
                          it->record.date + "); to decide it anew, delete its '# decided' line in " + target->consensus_file);
      continue;
    }
    std::string resolved = choice;
    if (text::fold_case(choice).rfind("codes:", 0) == 0) {
      std::vector<std::string> written;
      for (auto& w : text::split_nonempty(choice.substr(6), ',')) written.push_back(std::string(text::trim(w)));
      auto ids = resolve_node_ids(written, taxonomy, study->version->resolve, at, diags);
      if (!ids) continue;
      resolved = "codes:" + text::join(*ids, ",");
    }
    if (auto why = decide_unit(plan, static_cast<std::size_t>(it - plan.units.begin()), resolved, decider, date, note, taxonomy); !why.empty()) {
      diags.error(at, why);
      continue;
    }
    ++decided_now;
  }
  if (diags.has_errors()) return report_diagnostics(ctx, diags);
  files::StagedFiles staged(ctx.workspace);
  std::vector<std::string> changed;
  for (auto& t : session.transcripts) {
    const std::string text = format_consensus(t.plan.to_file());
    if (text == t.written) continue;
    if (!files::still_as_read(ctx.workspace / t.consensus_file, t.written)) {
      *ctx.err << "qualrank reconcile: error: " << t.consensus_file << " changed on disk since read; nothing written\n";
      return 1;
    }
    std::string err;
    if (!staged.stage_inside(t.consensus_file, text, &err)) {
      *ctx.err << "qualrank reconcile: error: cannot write " << t.consensus_file << ": " << err << "; nothing written\n";
      return 1;
    }
    changed.push_back(t.consensus_file);
  }
  std::string err;
  if (!staged.commit(&err)) {
    *ctx.err << "qualrank reconcile: error: " << err << "; nothing written\n";
    return 1;
  }
  report_diagnostics(ctx, diags);
  if (!ctx.quiet)
    for (const auto& t : session.transcripts)
      *ctx.err << "qualrank reconcile: " << t.transcript->file << ": " << t.plan.count(UnitState::decided) << " decided, "
               << t.plan.count(UnitState::open) << " open, " << t.plan.count(UnitState::stale) << " stale (" << t.units.unit_kind
               << " units); " << (std::find(changed.begin(), changed.end(), t.consensus_file) != changed.end() ? "wrote " : "unchanged ")
               << t.consensus_file << '\n';
  (void)decided_now;
  return 0;
}

}  // namespace qualrank::cli
