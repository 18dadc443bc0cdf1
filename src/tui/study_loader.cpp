// The terminal coder's study, loaded on a second thread (study_loader.h).
#include "study_loader.h"

#include <algorithm>
#include <chrono>

#include "qualrank/analysis/suggest/query.h"
#include "qualrank/model/coding_edit.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::tui {

namespace fs = std::filesystem;

StudyLoader::StudyLoader(fs::path root, std::string coder) {
  pending_ = std::async(std::launch::async, [root = std::move(root), coder = text::fold_case(coder)]() -> Loaded {
    Loaded out;
    out.coder = coder;
    Diagnostics diags;  // validate lists the workspace's problems; the coder goes on without them
    StudyOptions opts;
    opts.coding.suggestions = false;
    opts.load.trim = [](const Guideline&, Transcript& t) {
      for (auto& turn : t.turns)
        if (!turn.interviewer && turn.codes.empty() && turn.spans.empty()) {
          std::string().swap(turn.text);
          std::vector<TextRun>().swap(turn.runs);
        }
    };
    // Whole-turn segments take their turn's text (no second copy), and once the segments are built the turns
    // keep their codes but no text: the S pane and the classifier read the segments only.
    opts.segments_take_turn_text = true;
    opts.load.text_runs = false;  // dropped below anyway: not recorded in the first place
    try {
      out.study = load_study(root, diags, opts);
      if (out.study) {
        for (auto& t : out.study->workspace.transcripts)
          for (auto& turn : t.turns) {
            std::string().swap(turn.text);
            std::vector<TextRun>().swap(turn.runs);
          }
        out.learned = train(*out.study, coder);
      }
    } catch (const std::exception&) {
    }
    return out;
  });
}

bool StudyLoader::ready() const {
  return taken_ || pending_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

bool StudyLoader::busy() const { return !ready(); }

const Study* StudyLoader::get() {
  if (!taken_) {
    Loaded l = pending_.get();
    study_ = std::move(l.study);
    if (study_) learned_[l.coder] = std::move(l.learned);
    taken_ = true;
  }
  return study_.get();
}

std::optional<suggest::CodeSuggester> StudyLoader::train(const Study& study, const std::string& key) {
  std::vector<CodedSegment> segments;  // the coder's own (blind); every coder's are the study's, not copied
  for (const auto& seg : study.segments) {
    if (key.empty()) break;
    auto is_mine = [&](const AppliedCode& c) { return text::fold_case(c.coder) == key; };
    if (std::none_of(seg.codes.begin(), seg.codes.end(), is_mine)) continue;
    CodedSegment copy = seg;
    copy.codes.erase(std::remove_if(copy.codes.begin(), copy.codes.end(), [&](const AppliedCode& c) { return !is_mine(c); }),
                     copy.codes.end());
    segments.push_back(std::move(copy));
  }
  try {  // as `qualrank suggest` trains it; never applied unasked
    auto l = suggest::train_suggester(suggest::training_segments(key.empty() ? study.segments : segments, study.taxonomy()));
    if (!l.codes().empty()) return l;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

const std::optional<suggest::CodeSuggester>& StudyLoader::learned(const std::string& coder) {
  const std::string key = text::fold_case(coder);
  const Study* study = get();
  if (auto it = learned_.find(key); it != learned_.end()) return it->second;
  auto& slot = learned_[key];
  if (study) slot = train(*study, key);
  return slot;
}

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

std::map<int, std::vector<std::string>> other_codings(const fs::path& root, const std::string& file, const std::string& own,
                                                      const NodeResolver& resolve) {
  std::map<int, std::vector<std::string>> out;
  const fs::path path(file);
  const std::string stem = path.stem().string();
  for (const auto& f : files::list_files(root / path.parent_path(), ".codes")) {
    const std::string name = f.filename().string();
    if (name.size() <= stem.size() + 7 || name.compare(0, stem.size() + 1, stem + ".") != 0) continue;
    const std::string coder = name.substr(stem.size() + 1, name.size() - stem.size() - 7);
    if (text::fold_case(coder) == text::fold_case(own)) continue;
    Diagnostics ignored;
    auto doc = CodingDocument::open(root, file, coder, resolve, ignored);
    if (!doc) continue;
    for (const auto& turn : doc->transcript().turns) {
      if (turn.interviewer) continue;
      for (const auto& c : doc->codings(turn.number)) {
        auto r = resolve ? resolve(c.written) : NodeResolution{};
        std::string label = doc->coder() + ": " + (r.node ? *r.node : c.written);
        auto& list = out[turn.number];
        if (std::find(list.begin(), list.end(), label) == list.end()) list.push_back(label);
      }
    }
  }
  return out;
}

}  // namespace qualrank::tui
