// `qualrank query`: retrieves coded segments (analysis/suggest/query.h) and prints them (report/outputs/query_output.h).
#include <sys/ioctl.h>
#include <unistd.h>

#include <iostream>

#include "cli.h"
#include "qualrank/analysis/coder_selection.h"
#include "qualrank/analysis/suggest/query.h"
#include "qualrank/report/outputs/query_output.h"
#include "qualrank/report/outputs/segments_output.h"
#include "qualrank/util/bury.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

std::vector<std::string> strings(const po::variables_map& vm, const char* name) {
  return vm.count(name) ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>{};
}

// Wrap width: the terminal's columns when stdout is one, else 80.
std::size_t output_width(bool tty) {
  winsize w{};
  if (tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col >= 40) return w.ws_col;
  return 80;
}

}  // namespace

int cmd_query(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("query options");
  desc.add_options()
      ("code", po::value<std::vector<std::string>>()->composing(), "segments coded with this node or a descendant (repeatable: all of them)")
      ("any-code", po::value<std::vector<std::string>>()->composing(), "ID,ID,...: coded with at least one of them")
      ("not-code", po::value<std::vector<std::string>>()->composing(), "ID[,ID...]: not coded with it (nor a descendant)")
      ("exact", "a node stands for itself only, not its descendants")
      ("where", po::value<std::vector<std::string>>()->composing(), "participants with attribute=value (repeatable; role and experience included)")
      ("participant", po::value<std::vector<std::string>>()->composing(), "this participant (repeatable)")
      ("question", po::value<std::vector<std::string>>()->composing(), "this guideline question or part (repeatable)")
      ("coder", po::value<std::vector<std::string>>()->composing(), "whose coding counts: consensus (default), all, or a coder's name (case-insensitive; names repeatable)")
      ("text", po::value<std::string>(), "text matching this ICU regular expression, case-insensitive")
      ("fixed", "--text is a plain phrase, not a regular expression")
      ("uncoded", "participant turns without any code (what is left to code), with keyword and learned suggestions")
      ("all", "also turns with neither codes nor keyword suggestions")
      ("no-suggestions", "do not compute keyword suggestions")
      ("at", po::value<std::string>(), "taxonomy version (default: the latest); codes are migrated to it")
      ("format", po::value<std::string>()->default_value("text"), "text, json, csv or md")
      ("count", "print only how many segments and participants")
      ("by", po::value<std::string>(), "count the codes of the segments found per group of this attribute");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "query",
                     "[--code ID]... [--any-code ID,ID] [--not-code ID] [--exact] [--where k=v]... [--participant ID]\n"
                     "                      [--question ID] [--coder NAME] [--text PATTERN [--fixed]] [--uncoded] [--all]\n"
                     "                      [--at VERSION] [--format text|json|csv|md] [--count | --by ATTR]",
                     desc, args, vm, rc))
    return rc;
  auto usage_error = [&](const std::string& message) {
    *ctx.err << "qualrank query: error: " << message << '\n';
    return 2;
  };
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "query", "format", format, {"text", "json", "csv", "md"})) return 2;
  if (vm.count("count") && vm.count("by")) return usage_error("--count and --by cannot be combined (--by already counts)");

  SegmentQuery q;
  for (const auto& c : strings(vm, "code")) {
    if (c.find(',') != std::string::npos)
      return usage_error("--code takes one node, not '" + c + "' (repeat --code for all of them, --any-code A,B for either)");
    q.all_of.push_back(c);
  }
  for (const auto& list : strings(vm, "any-code")) q.any_of.push_back(text::split_nonempty(list, ','));
  for (const auto& list : strings(vm, "not-code"))
    for (auto& n : text::split_nonempty(list, ',')) q.none_of.push_back(n);
  q.exact = vm.count("exact") > 0;
  if (!parse_where(ctx, "query", vm, q.where)) return 2;
  q.participants = strings(vm, "participant");
  q.questions = strings(vm, "question");
  // --coder consensus (the default) or all selects a coding as everywhere (analysis/coder_selection.h); coder
  // names (repeatable) count those coders' codes only.
  std::string selection = kConsensusCoder;
  for (const auto& c : strings(vm, "coder")) {
    const std::string f = text::fold_case(c);
    if (f == "all" || f == kConsensusCoder) {
      if (strings(vm, "coder").size() > 1) return usage_error("--coder " + c + " names a whole coding; it cannot be combined with other --coder values");
      selection = f;
    } else {
      q.coders.push_back(c);
    }
  }
  if (vm.count("text")) q.text = vm["text"].as<std::string>();
  q.fixed = vm.count("fixed") > 0;
  q.uncoded = vm.count("uncoded") > 0;
  q.all = vm.count("all") > 0;
  q.suggestions = vm.count("no-suggestions") == 0;

  Diagnostics diags;
  auto study = load_study(ctx.workspace, diags, query_study_options(q, vm.count("at") ? std::optional(vm["at"].as<std::string>()) : std::nullopt));
  const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
  if (!study || diags.has_errors()) {
    report_diagnostics(ctx, diags);
    return 1;
  }
  report_diagnostics(ctx, diags);  // warnings
  // Without --coder, reconciled transcripts count their consensus only, never it and its coders together
  // (analysis/coder_selection.h); --coder NAME (or consensus) counts exactly that coding.
  for (const auto& c : q.coders)
    if (auto why = coder_selection_problem(study->workspace, c); !why.empty()) return usage_error("--coder: " + why);
  if (q.coders.empty()) select_coding(study->segments, selection, study->consensus, true);
  auto problems = check_query(*study, q);
  if (vm.count("by") && !is_study_attribute(study->workspace, vm["by"].as<std::string>()))
    problems.push_back("--by: no participant has an attribute '" + vm["by"].as<std::string>() + "'");
  if (!problems.empty()) {
    for (const auto& p : problems) *ctx.err << "qualrank query: error: " << p << '\n';
    return 2;
  }

  auto result = query_segments(*study, q);
  const Taxonomy& tax = study->taxonomy();
  if (vm.count("by")) {
    auto matrix = query_matrix(*study, result.segments, vm["by"].as<std::string>());
    if (format == "json") *ctx.out << query_matrix_json(matrix, tax).dump(2) << '\n';
    else if (format == "csv") *ctx.out << query_matrix_csv(matrix, tax);
    else *ctx.out << query_matrix_table(matrix, tax, format == "md");
  } else if (vm.count("count")) {
    *ctx.out << query_count(result, format);
  } else if (format == "json") {
    *ctx.out << segments_json(result.segments).dump(2) << '\n';
  } else if (format == "csv") {
    *ctx.out << segments_csv(result.segments, tax);
  } else if (format == "md") {
    *ctx.out << query_markdown(result, tax);
  } else {
    const bool tty = ctx.out == &std::cout && isatty(STDOUT_FILENO);
    ListingOptions listing{output_width(tty), tty, q.uncoded};
    // Uncoded turns also show the codes learned from the codings (qualrank suggest), top 3 at >= 0.3.
    std::vector<std::vector<suggest::CodeConfidence>> learned;
    if (q.uncoded && !result.segments.empty()) {
      try {
        auto model = suggest::train_suggester(suggest::training_segments(study->segments, tax));
        for (const auto& seg : result.segments) {
          auto top = model.suggest(seg.text, 3);
          std::erase_if(top, [](const suggest::CodeConfidence& c) { return c.confidence < 0.3; });
          learned.push_back(std::move(top));
        }
        listing.learned = &learned;
      } catch (const std::exception&) {  // too little coded yet to learn from
      }
    }
    *ctx.out << query_listing(result, tax, listing);
  }
  // The process ends next: the operating system takes the study back at once, where freeing its hundreds of
  // thousands of objects one by one would cost a large workspace a tenth of a second. Kept reachable.
  static std::vector<Study*>& left_to_exit = *new std::vector<Study*>;  // never destroyed
  left_to_exit.push_back(study.release());
  return 0;
}

}  // namespace qualrank::cli
