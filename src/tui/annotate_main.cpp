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
#include <cstring>
#include <iostream>

#include "../cli/cli.h"
#include "actions.h"
#include "qualrank/analysis/study.h"
#include "qualrank/model/versions.h"
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
  std::optional<std::string> prompt(const std::string& label, const std::string& initial) override {
    return tui::run_prompt(*model, label, initial);
  }
  bool confirm(const std::string& question) override { return tui::run_confirm(*model, question); }
  void show_help() override { tui::run_help(*model); }
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
      ("coder", po::value<std::string>(), "who codes (default: the transcript's coder; another coder writes <stem>.<coder>.codes)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "annotate", "FILE [--coder NAME]", desc, args, vm, rc, &pos)) {
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
  // One load: the taxonomy at the latest version, the guideline, and the codings the suggestions learn from.
  // Problems in other files do not stop coding this one (validate lists them).
  Diagnostics study_diags;
  StudyOptions opts;
  opts.coding.suggestions = false;
  auto study = load_study(ctx.workspace, study_diags, opts);
  if (!study) return report_diagnostics(ctx, study_diags);
  const TaxonomyVersion& version = *study->version;
  Diagnostics diags;
  std::string file = find_transcript(ctx.workspace, vm["file"].as<std::string>());
  auto doc = CodingDocument::open(ctx.workspace, file, vm.count("coder") ? vm["coder"].as<std::string>() : "",
                                  version.resolve, diags);
  if (!doc) return report_diagnostics(ctx, diags);
  tui::AnnotateModel model(std::move(*doc), version.taxonomy, version.resolve, &study->workspace.guideline);
  try {  // Suggestions learned from the workspace's codings, as `qualrank suggest` makes them (never applied unasked).
    auto learned = suggest::train_suggester(suggest::training_segments(study->segments, study->taxonomy()));
    if (!learned.codes().empty()) model.set_learned(std::move(learned));
  } catch (const std::exception&) {  // too little coded yet: keyword rules only
  }
  if (diags.error_count() > 0)
    model.set_message("the transcript has " + std::to_string(diags.error_count()) + " problem(s); 'qualrank validate' lists them");

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
  CursesUi ui;
  ui.model = &model;
  for (;;) {
    tui::draw_main(model);
    int k = tui::read_key();
    if (k == tui::key::resize || k < 0) continue;
    if (k != tui::key::escape) model.set_message("");
    tui::ActionContext actx{model, ui, k};
    if (!tui::dispatch(actx)) model.set_message("no action on this key ('?' lists the keys)");
    if (actx.quit) break;
  }
  endwin();
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);
  return 0;
}

}  // namespace qualrank::cli
