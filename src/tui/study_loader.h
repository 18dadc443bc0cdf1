// The study behind the terminal coder, loaded on a second thread once the first screen is up: opening a
// transcript reads only that transcript, its .codes files, the taxonomy and the guideline, so a large
// workspace opens as fast as a small one. What needs every transcript waits for it: the `S` pane (blocking,
// on first use) and the suggestions learned from the codings (added when the study arrives).
#pragma once
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "qualrank/analysis/study.h"
#include "qualrank/analysis/suggest/suggest.h"

namespace qualrank::tui {

class StudyLoader {
 public:
  // Starts loading `root` (transcripts keep the text of their coded turns only: all the segments and the
  // classifier read) on a thread of its own, and training there the classifier learned(`coder`) returns.
  StudyLoader(std::filesystem::path root, std::string coder);
  // Whether the study is there (never blocks).
  bool ready() const;
  // Whether the thread is still loading (an exit must not wait for it: see annotate_main).
  bool busy() const;
  // The study, waiting for it; nullptr when it could not be loaded.
  const Study* get();
  // The classifier learned from every coder's codings, or from `coder`'s only (blind coding); nullopt when
  // too little is coded or the study could not be loaded. Waits for the study.
  const std::optional<suggest::CodeSuggester>& learned(const std::string& coder = "");

 private:
  struct Loaded {
    std::unique_ptr<Study> study;
    std::string coder;  // case-folded
    std::optional<suggest::CodeSuggester> learned;
  };
  static std::optional<suggest::CodeSuggester> train(const Study& study, const std::string& folded_coder);
  std::future<Loaded> pending_;
  std::unique_ptr<Study> study_;
  bool taken_ = false;
  std::map<std::string, std::optional<suggest::CodeSuggester>> learned_;  // "" = all coders
};

// The segments coded `node` across the study, as `qualrank query --code NODE` finds them, one line each; with
// `only_coder` (blind coding) that coder's own codes only.
std::vector<std::string> segment_lines(const Study& study, const std::string& node, const std::string& only_coder);

// The other coders' codes of transcript `file` (workspace-relative) per participant turn ("bob: COM.2"), read
// from its `<stem>.<coder>.codes` files; `own` (case-folded) is left out.
std::map<int, std::vector<std::string>> other_codings(const std::filesystem::path& root, const std::string& file,
                                                      const std::string& own, const NodeResolver& resolve);

}  // namespace qualrank::tui
