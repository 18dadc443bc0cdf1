// qualrank suggest: codes proposed for the uncoded participant turns by a classifier learned from the segments
// already coded (never applied, only printed), or, with --evaluate, how well that classifier does in
// cross-validation by participant.
#include <algorithm>
#include <filesystem>
#include <iostream>

#include "cli.h"
#include "qualrank/analysis/study.h"
#include "qualrank/analysis/suggest/suggest.h"
#include "qualrank/report/outputs/suggest_output.h"
#include "qualrank/util/bury.h"

namespace qualrank::cli {
namespace {

const char* kSuggestUsage =
    "[--transcript FILE] [--top K] [--all] [--min-support N] [--max-training N] [--at VERSION]\n"
    "       [--format table|json]\n"
    "       qualrank suggest --evaluate [--folds K] [--seed S] [--min-support N] [--max-training N] [--at VERSION]\n"
    "       [--format table|json]\n\n"
    "Learns from the segments you coded (whole turns and spans; their codes at the taxonomy version in use)\n"
    "a classifier (one-vs-rest logistic regression over word and character n-gram TF-IDF features), then\n"
    "proposes codes for every participant turn that has no code yet, with a confidence: the model's estimated\n"
    "probability that you would apply the code. Keyword-rule suggestions are shown beside them. Nothing is\n"
    "applied. Codes with fewer than --min-support coded segments are never suggested. Turns answering\n"
    "background and ranking questions are left out unless --all. A study with more than --max-training coded\n"
    "segments (default 4000; 0: no bound) trains on a sample of that many, rare codes first, so memory and\n"
    "time stay bounded (annotate trains the same way).\n"
    "--evaluate reports k-fold cross-validated precision, recall and F1 per code, with folds that keep each\n"
    "participant's segments together; with fewer participants than folds it stops with an error (exit 1).\n"
    "See docs/suggest.md.";

bool matches_transcript(const std::filesystem::path& workspace, const std::string& file, const std::string& wanted) {
  namespace fs = std::filesystem;
  if (wanted == file || wanted == fs::path(file).filename().string()) return true;
  std::error_code ec;
  return fs::exists(wanted, ec) && fs::equivalent(wanted, workspace / file, ec);
}

}  // namespace

int cmd_suggest(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("suggest options");
  desc.add_options()
      ("transcript", po::value<std::string>(), "only the turns of this transcript (path or file name)")
      ("top", po::value<int>()->default_value(3), "suggest the K most confident codes per turn")
      ("all", "also the turns that answer background and ranking questions")
      ("evaluate", "cross-validate the suggester instead of suggesting")
      ("folds", po::value<int>()->default_value(5), "with --evaluate: number of folds (at least 2, at most the participants)")
      ("seed", po::value<std::uint64_t>()->default_value(20250101), "with --evaluate: seed of the participants' fold assignment")
      ("min-support", po::value<int>()->default_value(2), "codes with fewer coded segments are never suggested")
      ("max-training", po::value<std::size_t>()->default_value(suggest::SuggestOptions{}.max_segments),
       "train on at most N coded segments (a sample, rare codes first); 0: all")
      ("at", po::value<std::string>(), "resolve codes at this taxonomy version (default: the latest)")
      ("format", po::value<std::string>()->default_value("table"), "table or json");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "suggest", kSuggestUsage, desc, args, vm, rc)) return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "suggest", "format", format, {"table", "json"})) return 2;
  const bool evaluate = vm.count("evaluate") > 0;
  auto usage_error = [&](const std::string& message) {
    *ctx.err << "qualrank suggest: error: " << message << "\n(see 'qualrank suggest --help')\n";
    return 2;
  };
  if (evaluate && (vm.count("transcript") || vm.count("all") || !vm["top"].defaulted()))
    return usage_error("--transcript, --top and --all do not apply to --evaluate");
  if (!evaluate && (!vm["folds"].defaulted() || !vm["seed"].defaulted()))
    return usage_error("--folds and --seed need --evaluate");
  const int top = vm["top"].as<int>(), folds = vm["folds"].as<int>(), min_support = vm["min-support"].as<int>();
  if (top < 1) return usage_error("--top must be 1 or more");
  if (folds < 2) return usage_error("--folds must be 2 or more");
  if (min_support < 1) return usage_error("--min-support must be 1 or more");

  Diagnostics diags;
  StudyOptions sopts;
  if (vm.count("at")) sopts.at = vm["at"].as<std::string>();
  sopts.coding.include_uncoded = !evaluate;
  sopts.coding.suggestions = !evaluate;
  auto study = load_study(ctx.workspace, diags, sopts);
  const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
  if (!study || diags.has_errors()) {
    report_diagnostics(ctx, diags);
    return 1;
  }
  report_diagnostics(ctx, diags);  // warnings
  const auto training = suggest::training_segments(study->segments, study->taxonomy());
  suggest::SuggestOptions options;
  options.min_support = min_support;
  options.max_segments = vm["max-training"].as<std::size_t>();

  if (evaluate) {
    std::vector<std::string> participants;
    for (const auto& t : training) participants.push_back(t.group);
    std::sort(participants.begin(), participants.end());
    const auto groups = static_cast<int>(std::unique(participants.begin(), participants.end()) - participants.begin());
    if (groups < 2) {
      *ctx.err << "qualrank suggest: error: cross-validation needs coded segments from at least 2 participants ("
               << groups << " so far)\n";
      return 1;
    }
    if (groups < folds) {
      *ctx.err << "qualrank suggest: error: " << groups << " participants have coded segments, fewer than the " << folds
               << " folds; use --folds " << std::max(groups, 2) << " or fewer (each participant is in exactly one fold)\n";
      return 1;
    }
    suggest::EvaluateOptions eopts;
    eopts.folds = folds;
    eopts.seed = vm["seed"].as<std::uint64_t>();
    eopts.suggest = options;
    const auto ev = suggest::evaluate(training, eopts);
    if (ev.codes.empty()) {
      *ctx.err << "qualrank suggest: error: no code has " << min_support << " or more coded segments: nothing to evaluate\n";
      return 1;
    }
    if (format == "json") *ctx.out << evaluation_json(ev, study->taxonomy()).dump(2) << '\n';
    else *ctx.out << evaluation_table(ev, study->taxonomy());
    return 0;
  }

  auto turns = suggest::uncoded_turns(study->segments, vm.count("all") ? nullptr : &study->workspace.guideline);
  if (vm.count("transcript")) {
    const auto wanted = vm["transcript"].as<std::string>();
    const auto& ts = study->workspace.transcripts;
    auto it = std::find_if(ts.begin(), ts.end(),
                           [&](const Transcript& t) { return matches_transcript(ctx.workspace, t.file, wanted); });
    if (it == ts.end()) return usage_error("no transcript '" + wanted + "' in the workspace");
    std::erase_if(turns, [&](const CodedSegment* s) { return s->source.file != it->file; });
  }
  const auto suggester = suggest::train_suggester(training, options);
  if (suggester.codes().empty() && !ctx.quiet)
    *ctx.err << "qualrank suggest: warning: no code has " << min_support
             << " or more coded segments yet; only keyword suggestions are shown\n";
  const auto suggestions = suggest::suggest_turns(turns, suggester, static_cast<std::size_t>(top));
  if (format == "json") *ctx.out << suggestions_json(suggestions, suggester).dump(2) << '\n';
  else *ctx.out << suggestions_table(suggestions, suggester, study->taxonomy(), min_support);
  return 0;
}

}  // namespace qualrank::cli
