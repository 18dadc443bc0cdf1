// Benchmarks for the terminal coder's model (src/tui/annotate_model.cpp) on a 5 MB transcript: what one
// keystroke costs without the drawing (which lays out only the turns on the screen).
//  * BM_Open: reading and parsing the transcript into a CodingDocument and the model.
//  * BM_MoveTurn: going to a turn in the middle and one turn on (the word split of the new turn).
//  * BM_ApplyCode: a code on a word span of a turn in the middle: plan (checked by parsing the edited
//    text), apply and re-parse. Requirement: under 100 ms per keystroke.
//  * BM_Undo: undoing that edit (apply of the undo splices and re-parse).
//  * BM_KeystrokeDrawn, BM_ApplyCodeDrawn: one turn on, and a code applied, each followed by drawing the whole
//    screen (80x24, colours on: coded spans coloured, codes in the margin, suggestions listed) into an ncurses
//    screen writing to /dev/null. Requirements: under 50 ms per keystroke, under 100 ms per applied code.
//  * BM_ApplyCodeKept: BM_ApplyCode followed by what the key loop does after every change: keep the unsaved
//    work for recovery (recovery.h: the changed stretch written; the base hashed and written once, not per edit).
//  * BM_ApplyCodeSmallKeptDrawn: the key loop's whole work for one applied code on a 3 KB transcript of the
//    same workspace (the 5 MB one beside it): apply, keep for recovery, draw, with the suggestions learned
//    from the whole study attached as annotate attaches them. It must not grow with the study.
//  * BM_MemoLines/N: the `M` list of a transcript whose N participant turns each carry a coding with a memo
//    (2,550, 5,100, 10,200: issue #37 item 13); the time per memo must stay flat (linear in the memos).
// The transcript is generated: 13,500 sections of one interviewer and two participant turns, every third
// turn coded, about 5 MB.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include <curses.h>

#include <cstdio>

#include "annotate_model.h"
#include "recovery.h"
#include "study_loader.h"
#include "screen.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"

using namespace qualrank;
namespace fs = std::filesystem;

namespace {

const char* kTaxonomy = R"(taxonomy: bench
title: A small taxonomy
nodes:
  - id: A
    name: Questions
    definition: Questions.
    children:
      - id: A.1
        name: Installation
        definition: Installing things.
        keywords: [pip install, wheel]
      - id: A.2
        name: Usage
        definition: Using things.
        keywords: [how do i]
  - id: B
    name: Defects
    definition: Defects.
    children:
      - id: B.1
        name: Memory
        definition: Out of memory.
        keywords: [out of memory]
)";

const char* kGuideline = R"(guideline: bench-interview
taxonomy: bench
roles: [user]
parts:
  - id: II
    title: Questions
    questions:
      - id: II.1
        kind: open
        text: What questions do you have?
)";

struct Fixture {
  fs::path root;
  std::optional<Workspace> ws;
  std::unique_ptr<TaxonomyVersion> version;
  std::size_t bytes = 0;
  int turns = 0;
  Fixture() {
    root = fs::temp_directory_path() / "qualrank-annotate-bench";
    fs::remove_all(root);
    fs::create_directories(root / "codebooks");
    fs::create_directories(root / "guidelines");
    fs::create_directories(root / "transcripts");
    std::ofstream(root / "codebooks" / "bench.yaml") << kTaxonomy;
    std::ofstream(root / "guidelines" / "bench.yaml") << kGuideline;
    std::string t = "---\nparticipant: P1\nrole: user\ncoder: alice\n---\n\n## II.1 Questions\n\n";
    for (int s = 0; s < 13500; ++s) {
      t += "I: What happened next in part " + std::to_string(s) + "?\n\n";
      for (int k = 0; k < 2; ++k) {
        ++turns;
        t += "P1: In part " + std::to_string(s) + " the pip install of the wheel failed again, and how do I know which "
             "version is right when the cluster runs out of memory on turn " + std::to_string(turns) + "? Nobody said.\n";
        if (turns % 3 == 0) t += "@code A.1\n";
        t += "\n";
      }
    }
    bytes = t.size();
    std::ofstream(root / "transcripts" / "P1.md", std::ios::binary) << t;
    std::string small = "---\nparticipant: P0\nrole: user\ncoder: alice\n---\n\n## II.1 Questions\n\n";
    for (int k = 1; k <= 16; ++k)
      small += "I: And then?\n\nP0: The pip install of the wheel failed again on turn " + std::to_string(k) +
               ", and how do I know which version is right? Nobody said.\n\n";
    std::ofstream(root / "transcripts" / "P0.md", std::ios::binary) << small;
    Diagnostics diags;
    ws = load_workspace_design(root, diags);
    if (ws) version = taxonomy_at(*ws, std::nullopt, diags);
    if (!ws || !version) {
      diags.print(std::cerr);
      std::abort();
    }
  }
  ~Fixture() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  std::unique_ptr<tui::AnnotateModel> open(const std::string& file = "transcripts/P1.md") const {
    Diagnostics diags;
    auto doc = CodingDocument::open(root, file, "", version->resolve, diags);
    if (!doc) std::abort();
    return std::make_unique<tui::AnnotateModel>(std::move(*doc), version->taxonomy, version->resolve, &ws->guideline);
  }
};

const Fixture& fixture() {
  static Fixture f;
  return f;
}

void BM_Open(benchmark::State& state) {
  const auto& f = fixture();
  for (auto _ : state) {
    auto m = f.open();
    benchmark::DoNotOptimize(m);
  }
  state.counters["MB"] = static_cast<double>(f.bytes) / 1e6;
  state.counters["turns"] = f.turns;
}

void BM_MoveTurn(benchmark::State& state) {
  auto m = fixture().open();
  int middle = fixture().turns / 2;
  for (auto _ : state) {
    m->go_to_turn(middle);
    m->move(1);
    m->move(-1);
  }
}

void BM_ApplyCode(benchmark::State& state) {
  auto m = fixture().open();
  m->go_to_turn(fixture().turns / 2 + 1);  // an uncoded turn
  for (auto _ : state) {
    m->select_start();
    m->select_move(3);
    m->select_extend(2);  // "the pip install"
    if (!m->add_code("B.1")) state.SkipWithError(m->message().c_str());
    state.PauseTiming();
    m->undo();
    state.ResumeTiming();
  }
}

void BM_ApplyCodeKept(benchmark::State& state) {
  auto m = fixture().open();
  m->go_to_turn(fixture().turns / 2 + 1);  // an uncoded turn
  tui::KeptBase kept;
  std::string error;
  for (auto _ : state) {
    m->select_start();
    m->select_move(3);
    m->select_extend(2);
    if (!m->add_code("B.1")) state.SkipWithError(m->message().c_str());
    if (!tui::keep_unsaved(fixture().root, m->document(), &error, &kept)) state.SkipWithError(error.c_str());
    state.PauseTiming();
    m->undo();
    state.ResumeTiming();
  }
  std::error_code ec;
  fs::remove_all(fixture().root / ".qualrank-recover", ec);
}

void BM_Undo(benchmark::State& state) {
  auto m = fixture().open();
  m->go_to_turn(fixture().turns / 2 + 1);
  for (auto _ : state) {
    state.PauseTiming();
    m->select_start();
    m->add_code("B.1");
    state.ResumeTiming();
    if (!m->undo()) state.SkipWithError("nothing to undo");
  }
}

// An 80x24 xterm-256color screen that writes to /dev/null, colours initialised as annotate does.
struct NullScreen {
  FILE* out = nullptr;
  SCREEN* screen = nullptr;
  NullScreen() {
    out = std::fopen("/dev/null", "w");
    FILE* in = std::fopen("/dev/null", "r");
    screen = newterm("xterm-256color", out, in);
    if (!screen) std::abort();
    set_term(screen);
    resizeterm(24, 80);
    start_color();
    use_default_colors();
    for (short k = 0; k < 6; ++k) init_pair(static_cast<short>(k + 1), static_cast<short>(COLOR_BLUE + k), -1);
  }
  ~NullScreen() {
    endwin();
    delscreen(screen);
    std::fclose(out);
  }
};

void BM_KeystrokeDrawn(benchmark::State& state) {
  NullScreen screen;
  auto m = fixture().open();
  m->go_to_turn(fixture().turns / 2);
  int dir = 1;
  for (auto _ : state) {
    if (!m->move(dir)) dir = -dir;
    tui::draw_main(*m);
  }
}

void BM_ApplyCodeDrawn(benchmark::State& state) {
  NullScreen screen;
  auto m = fixture().open();
  m->go_to_turn(fixture().turns / 2 + 1);  // an uncoded turn
  for (auto _ : state) {
    m->select_start();
    m->select_move(3);
    m->select_extend(2);
    if (!m->add_code("B.1")) state.SkipWithError(m->message().c_str());
    tui::draw_main(*m);
    state.PauseTiming();
    m->undo();
    state.ResumeTiming();
  }
}

void BM_ApplyCodeSmallKeptDrawn(benchmark::State& state) {
  NullScreen screen;
  const auto& f = fixture();
  auto m = f.open("transcripts/P0.md");
  tui::StudyLoader study(f.root, "");
  if (const auto& l = study.learned()) m->set_learned(*l);
  m->go_to_turn(8);
  tui::KeptBase kept;
  std::string error;
  for (auto _ : state) {
    m->select_start();
    m->select_move(1);
    m->select_extend(2);
    if (!m->add_code("B.1")) state.SkipWithError(m->message().c_str());
    if (!tui::keep_unsaved(f.root, m->document(), &error, &kept)) state.SkipWithError(error.c_str());
    tui::draw_main(*m);
    state.PauseTiming();
    m->undo();
    state.ResumeTiming();
  }
  std::error_code ec;
  fs::remove_all(f.root / ".qualrank-recover", ec);
}

// A transcript of `n` coded participant turns, each with a memo, in a workspace of its own.
struct MemoFixture {
  fs::path root;
  std::optional<Workspace> ws;
  std::unique_ptr<TaxonomyVersion> version;
  explicit MemoFixture(int n) {
    root = fs::temp_directory_path() / ("qualrank-annotate-bench-memos-" + std::to_string(n));
    fs::remove_all(root);
    fs::create_directories(root / "codebooks");
    fs::create_directories(root / "guidelines");
    fs::create_directories(root / "transcripts");
    std::ofstream(root / "codebooks" / "bench.yaml") << kTaxonomy;
    std::ofstream(root / "guidelines" / "bench.yaml") << kGuideline;
    std::string t = "---\nparticipant: P1\nrole: user\ncoder: alice\n---\n\n## II.1 Questions\n\n";
    for (int k = 1; k <= n; ++k) {
      if (k % 2 == 1) t += "I: And then?\n\n";
      t += "P1: The pip install failed on turn " + std::to_string(k) + ".\n@code A.1\n@memo installing fails, case " +
           std::to_string(k) + "\n\n";
    }
    std::ofstream(root / "transcripts" / "P1.md", std::ios::binary) << t;
    Diagnostics diags;
    ws = load_workspace_design(root, diags);
    if (ws) version = taxonomy_at(*ws, std::nullopt, diags);
    if (!ws || !version) std::abort();
  }
  ~MemoFixture() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

void BM_MemoLines(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  MemoFixture f(n);
  Diagnostics diags;
  auto doc = CodingDocument::open(f.root, "transcripts/P1.md", "", f.version->resolve, diags);
  if (!doc) std::abort();
  tui::AnnotateModel m(std::move(*doc), f.version->taxonomy, f.version->resolve, &f.ws->guideline);
  std::size_t lines = 0;
  for (auto _ : state) {
    auto l = m.memo_lines();
    lines = l.size();
    benchmark::DoNotOptimize(l);
  }
  if (lines != static_cast<std::size_t>(n)) state.SkipWithError("not every memo is listed");
  state.counters["memos"] = static_cast<double>(lines);
  state.counters["us_per_memo"] = benchmark::Counter(static_cast<double>(lines), benchmark::Counter::kIsIterationInvariantRate |
                                                                                   benchmark::Counter::kInvert);
}

}  // namespace

BENCHMARK(BM_MemoLines)->Arg(2550)->Arg(5100)->Arg(10200)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_KeystrokeDrawn)->Unit(benchmark::kMillisecond)->Iterations(200);
BENCHMARK(BM_ApplyCodeDrawn)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_Open)->Unit(benchmark::kMillisecond)->Iterations(5);
BENCHMARK(BM_MoveTurn)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ApplyCode)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_ApplyCodeSmallKeptDrawn)->Unit(benchmark::kMillisecond)->Iterations(20);
BENCHMARK(BM_ApplyCodeKept)->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(BM_Undo)->Unit(benchmark::kMillisecond)->Iterations(10);

BENCHMARK_MAIN();
