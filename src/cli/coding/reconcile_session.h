// What `qualrank reconcile` keeps while it runs (cmd_reconcile.cpp: options, batch decisions; cmd_reconcile_walk.cpp:
// the listing and the terminal walk): per transcript its units, the planned consensus and the bytes its inputs
// had when they were read, so that every save can check that nothing changed underneath it.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../cli.h"
#include "qualrank/analysis/consensus_plan.h"
#include "qualrank/analysis/study.h"

namespace qualrank::cli::reconcile {

struct TranscriptSession {
  const Transcript* transcript = nullptr;
  std::string consensus_file;                      // workspace-relative
  std::string written;                             // the consensus file's bytes on disk ("" when absent)
  std::map<std::string, std::string> inputs;       // transcript and coders' .codes files -> bytes when read
  TranscriptUnits units;
  ConsensusPlan plan;
};

struct Session {
  std::filesystem::path workspace;
  const Study* study = nullptr;
  std::vector<TranscriptSession> transcripts;
  std::vector<std::string> keys;                   // coder names (sorted, case-folded order): stable key letters
  std::string decider, date;
};

// The key letter of `coder` ("a", "b", ... skipping the letters of the other answers), or "" past 20 coders.
std::string key_of(const Session& s, const std::string& coder);

// `text` wrapped at word boundaries to `width` code points, each line starting with `indent` (never cut inside
// a word; a word longer than the width stands on a line of its own).
std::string wrapped(const std::string& text, std::size_t width, const std::string& indent);

// Writes `t`'s planned consensus when it differs from what is on disk: under the workspace lock, only when
// the consensus file and every input of `t` are still what was read. Returns "" or why nothing was written.
std::string save(Session& s, TranscriptSession& t);

// The listing of --list: every open unit, stale and orphan decision; returns the counts (open, stale).
std::pair<int, int> list(const Context& ctx, const Session& s);

// The terminal walk over the open units and stale decisions (lines on stdin). Each decision is saved as it is
// made. Returns the exit code.
int walk(Context& ctx, Session& s, const std::string& note_default);

}  // namespace qualrank::cli::reconcile
