// `qualrank agreement`: inter-coder agreement on label tables (--labels, or the workspace's
// codebooks/labels/*.csv) and on multi-coder transcripts (--transcripts). See docs/agreement.md.
#include <algorithm>
#include <chrono>
#include <iostream>

#include "cli.h"
#include "qualrank/analysis/agreement/agreement.h"
#include "qualrank/analysis/agreement/label_table.h"
#include "qualrank/analysis/stats.h"
#include "qualrank/analysis/study.h"
#include "qualrank/analysis/agreement/transcript_agreement.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/report/outputs/agreement_output.h"
#include "qualrank/report/outputs/corpus_output.h"
#include "qualrank/report/latex/latex_tables.h"
#include "qualrank/util/bury.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

namespace fs = std::filesystem;

const char* kUsage =
    "[--labels FILE.csv|DIR ...] [--unit-col NAME] [--coder-cols A,B,...] [--final-col NAME] [--group-by-level N]\n"
    "       [--periods SOURCE_PERIOD.txt|DIR ...]\n"
    "       [--duplicates keep|first|error]\n"
    "       [--transcripts [--unit turn|segment] [--compare-level N]]\n"
    "       [--at VERSION] [--resamples N] [--seed S] [--disagreements N] [--format json|table|latex] [-o FILE.xlsx]";

// True when the folder has a taxonomy (codebooks/<name>.yaml); without one, labels are free categories.
bool has_taxonomy(const fs::path& root) {
  for (auto ext : {".yaml", ".yml"})
    for (const auto& p : files::list_files(root / "codebooks", ext)) {
      const auto name = p.filename().string();
      if (name.find(".history.") == std::string::npos) return true;
    }
  return false;
}

// The files a folder given for --labels or --periods holds: those ending in `suffix` directly in it and in its
// subfolders one level down (the published layout: DIR/SOURCE/SOURCE.csv, DIR/SOURCE/SOURCE_YEAR.txt), sorted.
std::vector<fs::path> files_of_folder(const fs::path& dir, std::string_view suffix) {
  std::vector<fs::path> out = files::list_files(dir, suffix), subs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::error_code type;
    if (entry.is_directory(type) && entry.path().filename().string()[0] != '.') subs.push_back(entry.path());
  }
  std::sort(subs.begin(), subs.end());
  for (const auto& sub : subs)
    for (auto& f : files::list_files(sub, suffix)) out.push_back(std::move(f));
  return out;
}

bool is_folder(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

struct Timer {
  Context& ctx;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  void lap(const char* what) {
    const auto now = std::chrono::steady_clock::now();
    if (ctx.verbose)
      *ctx.err << "qualrank agreement: " << what << ": "
               << std::chrono::duration<double, std::milli>(now - start).count() << " ms\n";
    start = now;
  }
};

}  // namespace

int cmd_agreement(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("agreement options");
  desc.add_options()
      ("labels", po::value<std::vector<std::string>>()->multitoken(),
       "label tables (CSV; relative to the workspace), or folders of them (and of SOURCE/ subfolders); default: codebooks/labels/*.csv")
      ("transcripts", "compare the coders of multi-coder transcripts (with --labels too: both)")
      ("periods", po::value<std::vector<std::string>>()->multitoken(),
       "per-period unit id lists SOURCE_PERIOD.txt (one id per line), or folders of them (and of SOURCE/ subfolders): add the corpus table, units per source x period x "
       "top-level node of the consensus label (the level of --group-by-level, default 1)")
      ("unit-col", po::value<std::string>(), "the unit id column (default: the first column)")
      ("coder-cols", po::value<std::string>(), "the coder columns, comma-separated (default: headers starting with Label or coder)")
      ("final-col", po::value<std::string>(), "the consensus column (default: Final_Label or final, when present)")
      ("duplicates", po::value<std::string>()->default_value("keep"),
       "a unit id on several rows: keep (separate units), first (only the first row) or error; keep and first warn")
      ("group-by-level", po::value<int>(), "group units by the level-N ancestor of their consensus label")
      ("unit", po::value<std::string>()->default_value("turn"), "--transcripts: compare per turn or per segment")
      ("compare-level", po::value<int>()->default_value(0), "--transcripts: compare nodes by their level-N ancestor")
      ("at", po::value<std::string>(), "resolve labels and codes in this taxonomy version (default: the latest)")
      ("resamples", po::value<int>()->default_value(1000), "bootstrap resamples for the 95% intervals (0 = none; from 100,000 units on the intervals are jackknife intervals)")
      ("seed", po::value<std::uint64_t>()->default_value(20250101), "bootstrap seed")
      ("disagreements", po::value<int>()->default_value(0), "list the N units the coders disagreed on most")
      ("format", po::value<std::string>(), "json, table or latex (default: table)")
      ("output,o", po::value<std::string>(), "also write the tables to this workbook (.xlsx; relative to the workspace)");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "agreement", kUsage, desc, args, vm, rc)) return rc;
  auto usage_error = [&](const std::string& message) {
    *ctx.err << "qualrank agreement: error: " << message << "\n(see 'qualrank agreement --help')\n";
    return 2;
  };
  const std::string format = vm.count("format") ? vm["format"].as<std::string>() : "table";
  if (format != "json" && format != "table" && format != "latex")
    return usage_error("unknown format '" + format + "' (json, table or latex)");
  const bool want_transcripts = vm.count("transcripts") > 0;
  const bool want_labels = vm.count("labels") > 0 || !want_transcripts;
  AgreementOptions label_options;
  label_options.resamples = vm["resamples"].as<int>();
  label_options.seed = vm["seed"].as<std::uint64_t>();
  label_options.disagreements = vm["disagreements"].as<int>();
  if (vm.count("group-by-level")) label_options.group_by_level = vm["group-by-level"].as<int>();
  if (label_options.resamples < 0 || label_options.resamples > stats::kMaxResamples)
    return usage_error("--resamples must be 0 to " + std::to_string(stats::kMaxResamples));
  if (label_options.disagreements < 0) return usage_error("--disagreements must be 0 or more");
  if (vm.count("group-by-level") && label_options.group_by_level < 1) return usage_error("--group-by-level must be 1 or more");
  TranscriptAgreementOptions transcript_options;
  transcript_options.resamples = label_options.resamples;
  transcript_options.seed = label_options.seed;
  transcript_options.disagreements = label_options.disagreements;
  transcript_options.compare_level = vm["compare-level"].as<int>();
  const auto unit = vm["unit"].as<std::string>();
  if (unit != "turn" && unit != "segment") return usage_error("--unit must be turn or segment");
  transcript_options.unit = unit == "turn" ? TranscriptUnit::turn : TranscriptUnit::segment;
  if (transcript_options.compare_level < 0) return usage_error("--compare-level must be 0 or more");
  std::optional<std::string> at;
  if (vm.count("at")) at = vm["at"].as<std::string>();
  LabelColumns columns;
  if (vm.count("unit-col")) columns.unit = vm["unit-col"].as<std::string>();
  if (vm.count("final-col")) columns.consensus = vm["final-col"].as<std::string>();
  if (vm.count("coder-cols")) columns.coders = text::split_nonempty(vm["coder-cols"].as<std::string>(), ',');
  const auto duplicates = vm["duplicates"].as<std::string>();
  if (duplicates == "keep") columns.duplicates = DuplicateUnits::keep;
  else if (duplicates == "first") columns.duplicates = DuplicateUnits::first;
  else if (duplicates == "error") columns.duplicates = DuplicateUnits::error;
  else return usage_error("--duplicates must be keep, first or error");

  Diagnostics diags;
  Timer timer{ctx};
  std::optional<LabelAgreement> labels;
  std::optional<TranscriptAgreement> transcripts;
  std::unique_ptr<TaxonomyVersion> version;  // the labels' taxonomy, when the workspace has one
  std::unique_ptr<Study> study;
  const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
  std::optional<CorpusTable> corpus;  // --periods

  if (want_labels) {
    std::optional<Workspace> ws;
    if (has_taxonomy(ctx.workspace)) {
      ws = load_workspace_design(ctx.workspace, diags);
      if (ws) version = taxonomy_at(*ws, at, diags);
      if (!version || diags.has_errors()) {
        report_diagnostics(ctx, diags);
        return 1;
      }
    } else if (at) {
      return usage_error("--at needs a taxonomy, and " + ctx.workspace.string() + " has none (codebooks/NAME.yaml)");
    }
    std::vector<fs::path> paths;
    if (vm.count("labels")) {
      Diagnostics names;
      for (const auto& p : vm["labels"].as<std::vector<std::string>>()) {
        if (text::find_invalid_utf8(p)) names.error({text::escape_invalid_utf8(p), 0, 0}, files::kNotUtf8Name);
        std::string where;
        auto found = input_path(ctx, p, &where);
        if (!found) names.error({p, 0, 0}, where);
        else if (is_folder(*found)) {
          auto in = files_of_folder(*found, ".csv");
          if (in.empty()) names.error({p, 0, 0}, "a folder without label tables (FILE.csv, or SOURCE/SOURCE.csv)");
          for (auto& f : in) paths.push_back(std::move(f));
        } else paths.push_back(*found);
      }
      if (names.has_errors()) return report_diagnostics(ctx, names);
    } else {
      // The workspace's own tables: never read through a symlink that leads outside it (as validate and report).
      Diagnostics outside;
      for (auto& p : files::list_files(ctx.workspace / "codebooks" / "labels", ".csv")) {
        if (auto problem = files::file_name_problem(p); !problem.empty())
          outside.error({text::escape_invalid_utf8(p.lexically_relative(ctx.workspace).generic_string()), 0, 0}, problem);
        else if (files::resolved_inside(ctx.workspace, p)) paths.push_back(std::move(p));
        else outside.error({p.lexically_relative(ctx.workspace).generic_string(), 0, 0}, "leads outside the workspace through a symlink; not read");
      }
      if (outside.has_errors()) return report_diagnostics(ctx, outside);
      if (paths.empty())
        return usage_error("no label tables in " + (ctx.workspace / "codebooks" / "labels").string() +
                           "; name them with --labels FILE.csv, or use --transcripts");
    }
    if (version && vm.count("group-by-level") && label_options.group_by_level > version->taxonomy.max_level())
      return usage_error("--group-by-level " + std::to_string(label_options.group_by_level) + " is deeper than the taxonomy (" +
                         std::to_string(version->taxonomy.max_level()) + " levels)");
    LabelVocabulary vocabulary;
    if (version) vocabulary = {&version->taxonomy, &version->resolve, version->number};
    LabelTable table = read_label_files(paths, ctx.workspace, columns, vocabulary, diags);
    timer.lap("read label tables");
    if (diags.has_errors()) return report_diagnostics(ctx, diags);
    labels = label_agreement(table, version ? &version->taxonomy : nullptr, label_options, diags);
    timer.lap("label-table statistics");
    if (diags.has_errors()) return report_diagnostics(ctx, diags);
    if (vm.count("periods")) {
      if (!version) return usage_error("--periods counts units per top-level node: it needs a workspace with a taxonomy");
      if (!table.has_consensus) return usage_error("--periods counts units by their consensus label: the label tables have no consensus column (--final-col)");
      std::vector<PeriodList> lists;
      std::vector<std::pair<std::string, fs::path>> period_files;  // as shown, where read
      for (const auto& p : vm["periods"].as<std::vector<std::string>>()) {
        if (text::find_invalid_utf8(p)) {
          diags.error({text::escape_invalid_utf8(p), 0, 0}, files::kNotUtf8Name);
          continue;
        }
        std::string where;  // from the workspace, or the current folder (input_path, as --labels)
        const auto found = input_path(ctx, p, &where);
        if (!found || !where.empty()) {  // two different files of that name, or none: where says which
          diags.error({p, 0, 0}, where);
          continue;
        }
        const fs::path path = *found;
        if (!is_folder(path)) {
          period_files.emplace_back(p, path);
          continue;
        }
        auto in = files_of_folder(path, ".txt");
        if (in.empty()) diags.error({p, 0, 0}, "a folder without period lists (SOURCE_PERIOD.txt, or SOURCE/SOURCE_PERIOD.txt)");
        for (auto& f : in) period_files.emplace_back((fs::path(p) / f.lexically_relative(path)).generic_string(), f);
      }
      for (const auto& [p, path] : period_files) {
        std::string why;
        auto text = files::read_input(path, files::kListInput, &why);
        if (!text) {
          diags.error({p, 0, 0}, why == "cannot read the file" ? "cannot read the period list" : why);
          continue;
        }
        if (auto list = parse_period_list(*text, path.string(), diags)) lists.push_back(std::move(*list));
      }
      if (diags.has_errors()) return report_diagnostics(ctx, diags);
      corpus = corpus_table(table, version->taxonomy, label_options.group_by_level > 0 ? label_options.group_by_level : 1, lists, diags);
      if (diags.has_errors()) return report_diagnostics(ctx, diags);
    }
  }
  if (want_transcripts) {
    StudyOptions options;
    options.at = at;
    options.coding.suggestions = false;
    study = load_study(ctx.workspace, diags, options);
    if (!study || diags.has_errors()) {
      report_diagnostics(ctx, diags);
      return 1;
    }
    if (const int depth = study->taxonomy().max_level(); transcript_options.compare_level > depth)
      return usage_error("--compare-level " + std::to_string(transcript_options.compare_level) + " is deeper than the taxonomy (" +
                         std::to_string(depth) + (depth == 1 ? " level" : " levels") + ")");
    transcripts = transcript_agreement(study->segments, study->taxonomy(), transcript_options);
    timer.lap("transcript agreement");
  }
  report_diagnostics(ctx, diags);  // warnings

  const Taxonomy* taxonomy = study ? &study->taxonomy() : version ? &version->taxonomy : nullptr;
  if (vm.count("output")) {
    fs::path out = given_path(ctx, vm["output"].as<std::string>());
    Diagnostics write_diags;
    const bool ok = write_agreement_workbook(labels ? &*labels : nullptr, transcripts ? &*transcripts : nullptr, taxonomy,
                                             out, write_diags, corpus ? &*corpus : nullptr);
    report_diagnostics(ctx, write_diags);
    if (!ok) return 1;
    if (!ctx.quiet) *ctx.err << "qualrank agreement: wrote " << out.string() << '\n';
    if (!vm.count("format")) return 0;
  }
  if (format == "json") {
    nlohmann::ordered_json j;
    if (labels && transcripts) j = workspace_agreement_json({labels, transcripts});
    else if (labels) j = label_agreement_json(*labels);
    else j = transcript_agreement_json(*transcripts);
    if (corpus) j["corpus"] = corpus_table_json(*corpus, version->taxonomy);
    *ctx.out << j.dump(2) << '\n';
  } else if (format == "latex") {
    nlohmann::ordered_json j = {{"labels", labels ? label_agreement_json(*labels) : nlohmann::ordered_json(nullptr)},
                                {"transcripts", transcripts ? transcript_agreement_json(*transcripts) : nlohmann::ordered_json(nullptr)}};
    if (corpus) j["corpus"] = corpus_table_json(*corpus, version->taxonomy);
    *ctx.out << latex::concatenated(latex::agreement_tables(j, taxonomy ? latex::node_names(*taxonomy) : std::map<std::string, std::string>{},
                                                            corpus ? version->taxonomy.level_name(corpus->level) : std::string()));
  } else {
    if (labels) *ctx.out << label_agreement_table(*labels);
    if (corpus) *ctx.out << '\n' << corpus_table_text(*corpus, version->taxonomy);
    if (labels && transcripts) *ctx.out << '\n';
    if (transcripts) *ctx.out << transcript_agreement_table(*transcripts);
  }
  return 0;
}

}  // namespace qualrank::cli
