// `qualrank annotate FILE [--coder NAME]`: the terminal coder. Loads the workspace and the taxonomy at the
// latest version exactly as `qualrank code add` does, opens the transcript as a CodingDocument for the
// coder, and runs the key loop: each key is looked up in the action table (actions.h) and its handler
// called. The terminal is restored on every exit, including SIGINT/SIGTERM/SIGHUP; saving is atomic, so a
// kill never leaves a half-written file.
#include <curses.h>
#include <langinfo.h>
#include <unistd.h>

#include <clocale>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "../cli/cli.h"
#include "actions.h"
#include "new_code.h"
#include "recovery.h"
#include "study_loader.h"
#include "qualrank/analysis/suggest/query.h"
#include "qualrank/analysis/study.h"
#include "qualrank/model/history/history.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "screen.h"

namespace qualrank::cli {

namespace {

extern "C" void restore_terminal_and_die(int sig) {
  endwin();
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

class CursesUi : public tui::Ui {
 public:
  std::optional<std::string> pick_code(tui::AnnotateModel& m) override { return tui::run_picker(m); }
  std::optional<std::string> pick_parent(tui::AnnotateModel& m, const std::string& name) override {
    return tui::run_picker(m, &name);
  }
  int choose(const std::string& question, const std::string& keys) override { return tui::run_choose(*model, question, keys); }
  std::optional<std::string> prompt(const std::string& label, const std::string& initial) override {
    return tui::run_prompt(*model, label, initial);
  }
  bool confirm(const std::string& question) override { return tui::run_confirm(*model, question); }
  void show_help() override { tui::run_help(*model); }
  void show_list(const std::string& title, const std::vector<std::string>& lines) override { tui::run_list(title, lines); }
  const tui::AnnotateModel* model = nullptr;
};

void use_utf8_locale() {
  std::setlocale(LC_ALL, "");
  const char* cs = nl_langinfo(CODESET);
  if (!cs || std::strcmp(cs, "UTF-8") != 0) {
    if (!std::setlocale(LC_CTYPE, "C.UTF-8")) std::setlocale(LC_CTYPE, "en_US.UTF-8");
  }
}

}  // namespace

int cmd_annotate(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("annotate options");
  desc.add_options()
      ("file", po::value<std::string>(), "the transcript (a path in the workspace, or a name in transcripts/)")
      ("coder", po::value<std::string>(), "who codes (default: the transcript's coder; another coder writes <stem>.<coder>.codes)")
      ("blind", "hide the other coders' codes (the default for a coder who is not the transcript's own)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "annotate", "FILE [--coder NAME] [--blind]", desc, args, vm, rc, &pos)) {
    if (rc == 0 && vm.count("help")) {
      *ctx.out << "An interactive terminal coder: move through the transcript turn by turn, select words, pick\n"
                  "codes from the taxonomy at the latest version, write memos, undo, save.\n\nkeys:\n";
      for (const auto& line : tui::help_lines()) *ctx.out << line << '\n';
    }
    return rc;
  }
  if (!vm.count("file")) {
    *ctx.err << "qualrank annotate: error: name the transcript to code\n(see 'qualrank annotate --help')\n";
    return 2;
  }
  if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
    *ctx.err << "qualrank annotate: error: needs an interactive terminal (stdin and stdout must be a terminal)\n";
    return 2;
  }
  // Opening a transcript needs the taxonomy at the latest version and the guideline, not the other transcripts;
  // the study (every transcript) loads on a second thread once the screen is up (study_loader.h).
  Diagnostics design_diags;
  auto design = load_workspace_design(ctx.workspace, design_diags);
  if (!design) return report_diagnostics(ctx, design_diags);
  auto version_ptr = taxonomy_at(*design, std::nullopt, design_diags);
  if (!version_ptr) return report_diagnostics(ctx, design_diags);
  const TaxonomyVersion& version = *version_ptr;
  const std::string coder = vm.count("coder") ? vm["coder"].as<std::string>() : "";
  std::unique_ptr<tui::StudyLoader> study;
  // The transcripts `[` and `]` move between, in file order.
  std::vector<std::string> files;
  for (const auto& p : files::list_files(ctx.workspace / "transcripts", ".md")) files.push_back("transcripts/" + p.filename().string());

  // Opens one transcript as a model; nullopt with the problems in `diags`.
  auto open_model = [&](const std::string& file, Diagnostics& diags) -> std::unique_ptr<tui::AnnotateModel> {
    auto doc = CodingDocument::open(ctx.workspace, file, coder, version.resolve, diags);
    if (!doc) return nullptr;
    const bool blind = vm.count("blind") > 0 || !doc->inline_coder();
    const std::string own = doc->coder(), path = doc->transcript().file, participant = doc->transcript().participant;
    auto m = std::make_unique<tui::AnnotateModel>(std::move(*doc), version.taxonomy, version.resolve, &design->guideline);
    m->set_blind(blind);
    if (!blind)  // the other coders' codes of this transcript, per turn
      m->set_other_codings(tui::other_codings(ctx.workspace, path, own, version.resolve));
    // The segments pane waits for the study; coding blind, it lists the coder's own codes only (another coder's
    // span of this very transcript would tell what they coded).
    const std::string only = blind ? own : "";
    m->set_segment_lister([&study, only](const std::string& node) {
      const Study* s = study ? study->get() : nullptr;
      return s ? tui::segment_lines(*s, node, only) : std::vector<std::string>{};
    });
    tui::AnnotateModel* self = m.get();
    m->set_code_proposer([&ctx, &version, self, path, participant](const std::string& name, const std::string& parent) {
      TaxonomyEdit e;
      e.op = EditOp::add;
      e.parent = parent;
      e.name = name;
      e.rationale = "proposed while coding " + path + " in qualrank annotate";
      e.author = cli::user_name();
      if (e.author.empty()) e.author = self->document().coder();
      if (const Turn* t = self->current_turn()) {  // the selected words (on their line), else the turn
        Provenance p;
        p.participant = participant;
        p.source = path + ":" + std::to_string(self->selection_line().value_or(t->line));
        if (auto words = self->selected_text(); words && words->find('\n') == std::string::npos) p.quote = *words;
        e.provenance.push_back(std::move(p));
      }
      Diagnostics d;
      std::optional<std::string> id;
      for (int skip = 0; skip < 30 && !id; ++skip) {  // the next free id the history accepts
        e.node = tui::new_child_id(version.taxonomy, parent, name, skip);
        d = Diagnostics();
        id = append_proposal(ctx.workspace, e, d);
        bool id_taken = false;
        for (const auto& item : d.items())
          if (item.severity == Severity::error && item.message.find("id '" + e.node + "'") != std::string::npos) id_taken = true;
        if (!id && !id_taken) break;
      }
      if (!id) {
        for (const auto& item : d.items())
          if (item.severity == Severity::error) return "error: " + item.message;
        return std::string("error: the proposal was not recorded");
      }
      const bool words = !e.provenance.empty() && self->selected_text() && !e.provenance[0].quote.empty();
      return "proposed " + e.node + " '" + name + "'" + (parent.empty() ? "" : " under " + parent) + " as " + *id +
             (words ? " (the selected words as its source)" : " (this turn as its source)") +
             "; code with it once accepted: qualrank taxonomy accept " + *id;
    });
    if (diags.error_count() > 0)
      m->set_message("the transcript has " + std::to_string(diags.error_count()) + " problem(s); 'qualrank validate' lists them");
    return m;
  };
  Diagnostics diags;
  std::string file = find_transcript(ctx.workspace, vm["file"].as<std::string>());
  auto model = open_model(file, diags);
  if (!model) return report_diagnostics(ctx, diags);

  use_utf8_locale();
  set_escdelay(25);
  if (!initscr()) {
    *ctx.err << "qualrank annotate: error: cannot initialise the terminal\n";
    return 1;
  }
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, restore_terminal_and_die);
  raw();  // Ctrl-C reaches the key loop as a key (quit asks about unsaved changes) instead of killing the coder
  noecho();
  keypad(stdscr, TRUE);
  curs_set(0);
  // One colour per top-level code (draw.cpp: code_colour), unless NO_COLOR is set and not empty.
  const char* no_color = std::getenv("NO_COLOR");
  tui::set_colours(has_colors() && !(no_color && *no_color));
  if (tui::colours()) {
    start_color();
    use_default_colors();
    const short colours[] = {COLOR_BLUE, COLOR_GREEN, COLOR_MAGENTA, COLOR_CYAN, COLOR_YELLOW, COLOR_RED};
    for (short k = 0; k < 6; ++k) init_pair(static_cast<short>(k + 1), colours[k], -1);
  }
  CursesUi ui;
  // Unsaved work is kept in a recovery file after every change (recovery.h), so a kill loses nothing; one left
  // by an earlier session of this transcript and coder is offered back when the transcript opens.
  std::uint64_t kept_at = model->changes();
  tui::KeptBase kept_base;
  auto offer_recovery = [&] {
    kept_at = model->changes();
    std::string problem;
    auto rec = tui::find_recovery(ctx.workspace, model->document(), &problem);
    if (!rec) {
      if (!problem.empty()) model->set_message("warning: " + problem);
      return;
    }
    ui.model = model.get();
    if (ui.confirm("recover the unsaved changes of " + rec->time + "? y recovers, n discards them (y/n)")) {
      model->recover(rec->base, rec->edited, rec->time, rec->not_reapplied);
    } else {
      tui::remove_recovery(ctx.workspace, model->document());
      model->set_message("discarded the unsaved changes of " + rec->time);
    }
  };
  bool recovery_warned = false;  // a workspace that cannot be written to is said once, not after every edit
  auto keep_unsaved = [&] {
    if (model->changes() == kept_at) return;
    kept_at = model->changes();
    std::string error;
    if (!tui::keep_unsaved(ctx.workspace, model->document(), &error, &kept_base, model->unapplied()) && !recovery_warned) {
      recovery_warned = true;
      model->set_message("warning: cannot keep the unsaved changes for recovery (" + error + "); " + model->message());
    }
  };
  offer_recovery();
  keep_unsaved();
  // The learned suggestions join the keyword rules' when the study has loaded (every coder's codings, or the
  // blind coder's own); until then the key loop wakes every 100 ms to look.
  bool learned_set = false;
  auto attach_learned = [&] {
    if (learned_set || !study || !study->ready()) return;
    learned_set = true;
    const auto& l = study->learned(model->blind() ? model->document().coder() : "");
    if (l) model->set_learned(*l);
  };
  for (;;) {
    ui.model = model.get();
    attach_learned();
    tui::draw_main(*model);
    if (!study) study = std::make_unique<tui::StudyLoader>(ctx.workspace, model->blind() ? model->document().coder() : "");
    timeout(learned_set ? -1 : 100);
    int k = tui::read_key();
    timeout(-1);  // the pickers, prompts and lists an action opens wait for their key
    if (k == tui::key::resize || k < 0) continue;
    if (k != tui::key::escape) model->set_message("");
    tui::ActionContext actx{*model, ui, k};
    if (!tui::dispatch(actx)) model->set_message("no action on this key ('?' lists the keys)");
    if (actx.discard) {
      tui::remove_recovery(ctx.workspace, model->document());
      kept_base = {};
    } else {
      keep_unsaved();
    }
    if (actx.quit) break;
    if (actx.switch_transcript != 0 && !files.empty()) {
      auto at = std::find(files.begin(), files.end(), model->document().transcript().file);
      long i = at == files.end() ? 0 : static_cast<long>(at - files.begin());
      long n = static_cast<long>(files.size());
      i = ((i + actx.switch_transcript) % n + n) % n;
      Diagnostics d;
      auto next = open_model(files[static_cast<std::size_t>(i)], d);
      if (!next) {
        std::string why = "cannot open " + files[static_cast<std::size_t>(i)];
        for (const auto& item : d.items())
          if (item.severity == Severity::error) {
            why += ": " + item.message;
            break;
          }
        model->set_message("error: " + why);
        continue;
      }
      model = std::move(next);
      learned_set = false;
      kept_base = {};
      model->set_message("opened " + model->document().transcript().file);
      offer_recovery();
      keep_unsaved();
    }
  }
  endwin();
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);
  // Quitting while the study still loads: nothing of it is needed and every file is written (saves are
  // synchronous and atomic), so the process ends without waiting for the loading thread.
  if (study && study->busy()) {
    std::fflush(nullptr);
    std::_Exit(0);
  }
  return 0;
}

}  // namespace qualrank::cli
