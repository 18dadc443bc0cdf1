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
#include "qualrank/analysis/query.h"
#include "qualrank/analysis/study.h"
#include "qualrank/model/history.h"
#include "qualrank/model/versions.h"
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
  std::optional<std::string> prompt(const std::string& label, const std::string& initial) override {
    return tui::run_prompt(*model, label, initial);
  }
  bool confirm(const std::string& question) override { return tui::run_confirm(*model, question); }
  void show_help() override { tui::run_help(*model); }
  void show_list(const std::string& title, const std::vector<std::string>& lines) override { tui::run_list(title, lines); }
  const tui::AnnotateModel* model = nullptr;
};

// The segments coded `node` across the study, as `qualrank query --code NODE` finds them, one line each.
// The segments coded `node` for the `S` pane; coding blind (`only_coder` set), only that coder's own codes
// (another coder's span of this very transcript would tell what they coded).
std::vector<std::string> segment_lines(const Study& study, const std::string& node, const std::string& only_coder) {
  SegmentQuery q;
  q.all_of = {node};
  q.suggestions = false;
  if (!only_coder.empty()) q.coders = {only_coder};
  std::vector<std::string> out;
  for (const auto& seg : query_segments(study, q).segments) {
    std::string text = seg.text;
    for (auto& c : text)
      if (c == '\n') c = ' ';
    out.push_back(seg.participant + " t" + std::to_string(seg.turn) + " (" + seg.role + ")" +
                  (seg.question.empty() ? "" : " " + seg.question) + " " + seg.source.file + ":" +
                  std::to_string(seg.source.line) + ": " + text);
  }
  return out;
}

// A free id for a new child of `parent`: the next number (or letter, when the children are lettered) after
// its children's; a new top-level code takes the name's first letters in capitals. `skip` passes over that
// many free ids (an id the history has used for a node that is gone cannot be taken again).
std::string new_child_id(const Taxonomy& taxonomy, const std::string& parent, const std::string& name, int skip) {
  std::vector<std::string> children;
  for (const auto& id : taxonomy.order())
    if (const auto* n = taxonomy.find(id); n && n->parent == parent) children.push_back(id);
  bool letters = false;
  for (const auto& c : children) {
    auto last = c.substr(c.find_last_of('.') + 1);
    letters = !last.empty() && std::isalpha(static_cast<unsigned char>(last[0]));
  }
  for (int k = 1; k < 1000; ++k) {
    std::string piece = letters && k <= 26 ? std::string(1, static_cast<char>('a' + k - 1)) : std::to_string(k);
    std::string id = parent.empty() ? "" : parent + "." + piece;
    if (parent.empty()) {
      for (char c : name)
        if (std::isalnum(static_cast<unsigned char>(c)) && id.size() < 4) id += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (id.empty()) id = "NEW";
      if (k > 1) id += std::to_string(k);
    }
    if (!taxonomy.find(id) && skip-- <= 0) return id;
  }
  return parent + ".new";
}

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
  // One load: the taxonomy at the latest version, the guideline, and the codings the suggestions learn from.
  // Problems in other files do not stop coding this one (validate lists them).
  Diagnostics study_diags;
  StudyOptions opts;
  opts.coding.suggestions = false;
  auto study = load_study(ctx.workspace, study_diags, opts);
  if (!study) return report_diagnostics(ctx, study_diags);
  const TaxonomyVersion& version = *study->version;
  const std::string coder = vm.count("coder") ? vm["coder"].as<std::string>() : "";
  // Suggestions learned from codings, as `qualrank suggest` makes them (never applied unasked); nullopt when
  // too little is coded yet (keyword rules only).
  auto train = [&](const std::vector<CodedSegment>& segments) -> std::optional<suggest::CodeSuggester> {
    try {
      auto l = suggest::train_suggester(suggest::training_segments(segments, study->taxonomy()));
      if (!l.codes().empty()) return l;
    } catch (const std::exception&) {
    }
    return std::nullopt;
  };
  const std::optional<suggest::CodeSuggester> learned = train(study->segments);  // from the workspace's codings
  // Blind coding learns from one coder's own codings: trained once per coder (the study is loaded once, so
  // moving between transcripts gives the same suggester), nullopt when that coder has too little coded yet.
  std::map<std::string, std::optional<suggest::CodeSuggester>> learned_by_coder;
  auto learned_from = [&](const std::string& own) -> const std::optional<suggest::CodeSuggester>& {
    const std::string key = text::fold_case(own);
    if (auto it = learned_by_coder.find(key); it != learned_by_coder.end()) return it->second;
    std::vector<CodedSegment> mine;
    for (const auto& seg : study->segments) {
      auto is_mine = [&](const AppliedCode& c) { return text::fold_case(c.coder) == key; };
      if (std::none_of(seg.codes.begin(), seg.codes.end(), is_mine)) continue;
      CodedSegment copy = seg;
      copy.codes.erase(std::remove_if(copy.codes.begin(), copy.codes.end(), [&](const AppliedCode& c) { return !is_mine(c); }),
                       copy.codes.end());
      mine.push_back(std::move(copy));
    }
    return learned_by_coder[key] = train(mine);
  };
  // The transcripts `[` and `]` move between, in file order.
  std::vector<std::string> files;
  for (const auto& p : files::list_files(ctx.workspace / "transcripts", ".md")) files.push_back("transcripts/" + p.filename().string());

  // Opens one transcript as a model; nullopt with the problems in `diags`.
  auto open_model = [&](const std::string& file, Diagnostics& diags) -> std::unique_ptr<tui::AnnotateModel> {
    auto doc = CodingDocument::open(ctx.workspace, file, coder, version.resolve, diags);
    if (!doc) return nullptr;
    const bool blind = vm.count("blind") > 0 || !doc->inline_coder();
    const std::string own = doc->coder(), path = doc->transcript().file, participant = doc->transcript().participant;
    auto m = std::make_unique<tui::AnnotateModel>(std::move(*doc), version.taxonomy, version.resolve, &study->workspace.guideline);
    m->set_blind(blind);
    if (blind) {
      // Blind: the learned suggestions come from this coder's own codings only (the others' codings of this
      // very transcript would leak through them).
      if (const auto& l = learned_from(own)) m->set_learned(*l);
    } else if (learned) {
      m->set_learned(learned);
    }
    if (!blind) {  // the other coders' codes of this transcript, per turn
      std::map<int, std::vector<std::string>> others;
      for (const auto& seg : study->segments) {
        if (seg.source.file != path) continue;
        for (const auto& c : seg.codes)
          if (text::fold_case(c.coder) != text::fold_case(own)) {
            std::string label = c.coder + ": " + c.node;
            auto& list = others[seg.turn];
            if (std::find(list.begin(), list.end(), label) == list.end()) list.push_back(label);
          }
      }
      m->set_other_codings(std::move(others));
    }
    const Study* s = &*study;
    const std::string only = blind ? own : "";
    m->set_segment_lister([s, only](const std::string& node) { return segment_lines(*s, node, only); });
    tui::AnnotateModel* self = m.get();
    m->set_code_proposer([&ctx, &version, self, path, participant](const std::string& name, const std::string& parent) {
      TaxonomyEdit e;
      e.op = EditOp::add;
      e.parent = parent;
      e.name = name;
      e.rationale = "proposed while coding " + path + " in qualrank annotate";
      for (const char* var : {"QUALRANK_AUTHOR", "USER"})
        if (const char* v = std::getenv(var); v && *v && e.author.empty()) e.author = v;
      if (e.author.empty()) e.author = self->document().coder();
      if (const Turn* t = self->current_turn()) {
        Provenance p;
        p.participant = participant;
        p.source = path + ":" + std::to_string(t->line);
        e.provenance.push_back(std::move(p));
      }
      Diagnostics d;
      std::optional<std::string> id;
      for (int skip = 0; skip < 30 && !id; ++skip) {  // the next free id the history accepts
        e.node = new_child_id(version.taxonomy, parent, name, skip);
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
      return "proposed " + e.node + " '" + name + "'" + (parent.empty() ? "" : " under " + parent) + " as " + *id +
             " (with this turn as its source); code with it once accepted: qualrank taxonomy accept " + *id;
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
  if (has_colors()) {  // one colour per top-level code (draw.cpp: code_colour)
    start_color();
    use_default_colors();
    const short colours[] = {COLOR_BLUE, COLOR_GREEN, COLOR_MAGENTA, COLOR_CYAN, COLOR_YELLOW, COLOR_RED};
    for (short k = 0; k < 6; ++k) init_pair(static_cast<short>(k + 1), colours[k], -1);
  }
  CursesUi ui;
  for (;;) {
    ui.model = model.get();
    tui::draw_main(*model);
    int k = tui::read_key();
    if (k == tui::key::resize || k < 0) continue;
    if (k != tui::key::escape) model->set_message("");
    tui::ActionContext actx{*model, ui, k};
    if (!tui::dispatch(actx)) model->set_message("no action on this key ('?' lists the keys)");
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
      model->set_message("opened " + model->document().transcript().file);
    }
  }
  endwin();
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, SIG_DFL);
  return 0;
}

}  // namespace qualrank::cli
