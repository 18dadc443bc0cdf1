// The main job. One load_study (the latest taxonomy version) feeds every output, and report.json is built
// first, so the HTML page, rendered from report.json, shows exactly its numbers. Nothing is written until
// the workspace has validated; each file is then written to a temp file and renamed.
#include "qualrank/report/study/study_report.h"

#include "qualrank/analysis/agreement/agreement_rounds.h"
#include "qualrank/analysis/coder_selection.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <future>
#include <map>
#include <mutex>
#include <string_view>
#include <unordered_set>

#include "qualrank/analysis/rankings/ranking.h"
#include "qualrank/analysis/study.h"
#include "qualrank/analysis/agreement/workspace_agreement.h"
#include "qualrank/model/transcripts/consensus.h"
#include "qualrank/model/history/history.h"
#include "qualrank/model/inputs/workspace_inputs.h"
#include "qualrank/report/outputs/agreement_output.h"
#include "qualrank/report/outputs/codebook_data.h"
#include "qualrank/report/outputs/codebook_workbook.h"
#include "qualrank/report/study/html_report.h"
#include "qualrank/report/figures/figures.h"
#include "qualrank/report/latex/latex_tables.h"
#include "qualrank/report/outputs/methods_output.h"
#include "qualrank/report/outputs/query_output.h"
#include "qualrank/report/outputs/ranking_output.h"
#include "qualrank/report/outputs/saturation_output.h"
#include "qualrank/report/outputs/taxonomy_output.h"
#include "qualrank/report/outputs/corpus_output.h"
#include "qualrank/report/xlsx/xlsx_book.h"
#include "qualrank/analysis/corpus/corpus_overview.h"
#include "qualrank/analysis/corpus/corpus_provenance.h"
#include "qualrank/util/bury.h"
#include "qualrank/util/files.h"
#include "qualrank/util/parallel.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

// The figures' PDF date when SOURCE_DATE_EPOCH is not set: 2025-01-01T00:00:00Z, as the workbooks' and exports'.
constexpr long long kFigureEpoch = 1735689600;

// Runs named steps, telling options.on_step when each starts and ends (from either of the report's two
// threads, one at a time).
class Steps {
 public:
  explicit Steps(const StudyReportOptions& o) : options_(o) {}
  template <class F>
  auto run(const std::string& name, F&& f) {
    tell(name, false, 0);
    auto start = std::chrono::steady_clock::now();
    auto finish = [&] { tell(name, true, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()); };
    if constexpr (std::is_void_v<decltype(f())>) {
      f();
      finish();
    } else {
      auto r = f();
      finish();
      return r;
    }
  }

 private:
  void tell(const std::string& name, bool done, double seconds) {
    if (!options_.on_step) return;
    std::lock_guard<std::mutex> lock(mutex_);
    options_.on_step(name, done, seconds);
  }
  const StudyReportOptions& options_;
  std::mutex mutex_;
};

struct ExperienceComparison {
  std::string role;
  std::string title;  // "<role>: <first level> vs <last level>", in the study's own level names
  RankingAnalysis analysis;
};

std::string experience_markdown_heading(const std::string& title) { return "# Experience comparison, " + title + "\n\n"; }

void ranking_headlines(const RankingAnalysis& a, const std::string& label, std::vector<std::string>& out) {
  for (const auto& q : a.questions) {
    if (!q.comparison) continue;
    const auto& c = *q.comparison;
    std::string line = label + q.question + ": " + c.a + " vs " + c.b + " rho = " + text::fixed(c.spearman_rho, 2) +
                       (std::isnan(c.rho_ci.first) ? "" : " [" + text::fixed(c.rho_ci.first, 2) + ", " + text::fixed(c.rho_ci.second, 2) + "]");
    std::vector<std::string> mis;
    for (const auto& g : q.gaps)
      if (g.misaligned) mis.push_back(g.item);
    if (mis.empty()) {
      line += "; no misaligned item";
    } else {
      line += "; misaligned: ";
      for (std::size_t i = 0; i < mis.size(); ++i) {
        if (i) line += ", ";
        line += mis[i];
      }
    }
    if (q.model && q.model->lr_test) {
      const auto& t = *q.model->lr_test;
      line += "; Plackett-Luce LR p " + (t.p < 0.001 ? std::string("< 0.001") : "= " + text::fixed(t.p, 3));
    }
    out.push_back(line);
  }
}

// Marks nodes added after version 1 with the version and the proposals behind them.
void mark_additions(Json& taxonomy_json, const Json& diff_json) {
  if (!diff_json.is_object() || !diff_json.contains("changes")) return;
  std::map<std::string, const Json*> added;
  for (const auto& ch : diff_json["changes"])
    if (ch.value("kind", "") == "added") added[ch.value("node", "")] = &ch;
  for (auto& n : taxonomy_json["nodes"]) {
    auto it = added.find(n.value("id", ""));
    if (it == added.end()) continue;
    const Json& ch = *it->second;
    Json prov = Json::array();
    Json version = nullptr;
    for (const auto& e : ch["edits"]) {
      if (version.is_null() && e.contains("version")) version = e["version"];
      for (const auto& p : e.value("provenance", Json::array()))
        prov.push_back({{"by", p.value("participant", "")}, {"source", p.value("source", "")}, {"rationale", e.value("rationale", "")}});
    }
    n["added_in"] = version.is_null() ? diff_json["to"]["version"] : version;
    n["provenance"] = prov;
  }
}

}  // namespace

bool build_study_report(const fs::path& workspace, const StudyReportOptions& options, Diagnostics& diags,
                        StudyReportSummary& summary) {
  Steps steps(options);
  // The write policy, before anything is read or written: the output folder is a folder (or nothing yet), and
  // each output in it a regular file (or nothing yet), never a device, FIFO, socket or folder to replace.
  {
    bool refused = false;
    std::error_code ec;
    if (const auto st = fs::status(options.output_dir, ec); fs::exists(st) && !fs::is_directory(st)) {
      diags.error({options.output_dir.string(), 0, 0}, "is not a folder; report writes its outputs into one (nothing written)");
      return false;
    }
    for (const char* name : {"codebook.xlsx", "rankings.xlsx", "rankings.md", "agreement.xlsx", "taxonomy-diff.md",
                             "methods.md", "report.json", "index.html"})
      if (auto problem = files::output_problem(options.output_dir / name); !problem.empty()) {
        diags.error({(options.output_dir / name).string(), 0, 0}, problem);
        refused = true;
      }
    if (refused) return false;
  }
  // The provenance: every input's SHA-256, hashed on a thread of its own while the study loads (about 65 ms
  // for the 95 MB of the 2,000-transcript bench), recorded in report.json for `qualrank status`.
  auto input_hashes_future = std::async(std::launch::async, [&workspace] {
    Diagnostics ignored;  // load_study reports the same problems with these files
    return input_hashes(workspace, workspace_input_files(workspace, ignored, true));
  });
  // Suggestions are counted, not built: the report shows only coded segments and no suggestion.
  StudyOptions study_options;
  study_options.coding.suggestions_counted_only = true;
  study_options.segments_take_turn_text = true;  // the segments hold the text the report shows
  study_options.load.text_runs = false;          // nothing in the report maps a turn's text back to its file
  auto study = steps.run("load and validate the workspace", [&] { return load_study(workspace, diags, study_options); });
  if (!study || diags.has_errors()) return false;
  if (auto why = coder_selection_problem(study->workspace, options.coder); !why.empty()) {
    summary.usage_error = "--coder: " + why;
    return false;
  }
  const auto& ws = study->workspace;
  const auto& tax = study->taxonomy();

  // Analyses.
  const std::size_t all_segments = study->segments.size() + study->tally.suggested_only;  // built or only counted
  const std::string counts = " (" + std::to_string(ws.transcripts.size()) + " transcripts, " + std::to_string(all_segments) +
                             " segments, " + std::to_string(study->rankings.size()) + " rankings)";
  // Two threads: the rankings on one; agreement and the codebook (tables, workbook) on the other. Nothing is
  // renamed into place until both have succeeded, and the diagnostics are reported in one fixed order (the
  // rankings' first, as when one thread did everything).
  Diagnostics side_diags;
  RankingAnalysis by_role;
  std::vector<ExperienceComparison> by_experience;
  auto side_work = [&] {
    by_role = steps.run("rank by role" + counts, [&] {
      RankingOptions o;
      o.resamples = options.resamples;
      o.seed = options.seed;
      o.model.enabled = true;
      o.comparisons = ws.guideline.compare;  // empty: the first two roles
      o.plurals = ws.guideline.plurals;
      if (ws.guideline.min_group > 0) o.min_group = ws.guideline.min_group;
      Diagnostics notes;
      auto r = analyse_rankings(ranking_inputs(ws, study->rankings), ws.attribute_levels("role"), o, notes);
      if (notes.has_errors()) side_diags.append(notes);
      return r;
    });
    // The experience comparison of every role with at least two experience levels among its participants:
    // grouped by the experience attribute, the least and the most experienced level present compared pairwise,
    // every level in the k-group test.
    if (ws.guideline.experience) {
      const auto& scheme = *ws.guideline.experience;
      auto levels = ws.attribute_levels(scheme.attribute);
      for (const auto& role : ws.guideline.roles) {
        std::vector<std::string> present;
        for (const auto& l : levels)
          for (const auto& r : study->rankings) {
            auto ra = r.attributes.find("role"), rl = r.attributes.find(scheme.attribute);
            if (ra != r.attributes.end() && ra->second == role && rl != r.attributes.end() && rl->second == l) {
              present.push_back(l);
              break;
            }
          }
        if (present.size() < 2) continue;
        auto analysis = steps.run("rank " + role + " by " + scheme.attribute + counts, [&] {
          RankingOptions o;
          o.by = scheme.attribute;
          o.resamples = options.resamples;
          o.seed = options.seed;
          o.where = {{"role", role}};
          if (ws.guideline.min_group > 0) o.min_group = ws.guideline.min_group;
          o.compare = std::pair{present.front(), present.back()};
          o.model.enabled = true;
          Diagnostics notes;
          auto r = analyse_rankings(ranking_inputs(ws, study->rankings), levels, o, notes);
          if (notes.has_errors()) side_diags.append(notes);
          return r;
        });
        by_experience.push_back({role, role + ": " + present.front() + " vs " + present.back(), std::move(analysis)});
      }
    }
    return !side_diags.has_errors();
  };
  // Waited for by this thread and by the codebook writer's gate: each takes its own copy of the shared future.
  const std::shared_future<bool> side =
      (worker_threads() > 1 ? std::async(std::launch::async, side_work) : std::async(std::launch::deferred, side_work)).share();
  auto wait_side = [&side] {
    const std::shared_future<bool> mine = side;
    return mine.get();
  };
  Diagnostics main_diags;  // reported after the rankings'
  // Agreement compares the individual coders (before reconciliation); then the coding the report counts.
  auto agreement = steps.run("agreement", [&] {
    WorkspaceAgreementOptions o;
    o.labels.group_by_level = 1;
    o.labels.disagreements = 10;
    o.transcripts.disagreements = 10;
    return workspace_agreement(*study, o, main_diags);
  });
  // Stops with the diagnostics in their order (the rankings' first), once the other thread has finished.
  auto fail = [&] {
    wait_side();
    diags.append(side_diags);
    diags.append(main_diags);
    return false;
  };
  if (main_diags.has_errors()) return fail();
  // Agreement per coding round: the transcripts reconciled on one day form a round (their consensus files'
  // first decision date).
  std::vector<AgreementRound> rounds;
  if (agreement.transcripts) {  // (without a transcript of two coders there is no round to compare)
    TranscriptAgreementOptions o;
    o.resamples = 0;
    rounds = steps.run("agreement per round", [&] { return agreement_rounds(study->segments, tax, ws.consensus, o); });
  }
  const CodingChoice coding = steps.run("select the coding counted", [&] { return select_coding(study->segments, options.coder, study->consensus, true); });
  CodebookOptions cb_options;
  auto cb_data = steps.run("codebook tables" + counts, [&] { return codebook_data(*study, cb_options); });
  cb_data.coding = coding.describe();
  const auto cb_tables = steps.run("codebook matrix and co-occurrence", [&] { return codebook_tables(cb_data, cb_options); });
  // The codebook workbook, on a thread of its own while saturation and the taxonomy diff are computed here and
  // the rankings on the other thread; renamed into place only when all of them have succeeded. Its warnings
  // are reported after this thread's, as when one thread did everything.
  const fs::path& out = options.output_dir;
  std::vector<std::string> names;
  Diagnostics cb_diags;
  std::promise<bool> main_verdict;
  std::shared_future<bool> main_ok = main_verdict.get_future().share();
  auto write_cb = [&] {
    return steps.run("write codebook.xlsx (" + std::to_string(cb_data.segments.size()) + " coded segments)", [&] {
      // The gate: this thread's verdict first; then (this thread now waits for the writer) the rankings'.
      return write_codebook_workbook(cb_data, cb_options, cb_tables, out / "codebook.xlsx", cb_diags,
                                     [&] { return main_ok.get() && wait_side(); });
    });
  };
  std::future<bool> cb_written = std::async(worker_threads() > 1 ? std::launch::async : std::launch::deferred, write_cb);
  // Saturation of the coding the report counts (Guest, Namey & Chen 2020, with their default parameters).
  const auto saturation = steps.run("saturation", [&] { return analyse_saturation(*study, saturation::Parameters{}, 0); });
  auto diff = steps.run("taxonomy diff", [&] { return workspace_taxonomy_diff(ws, main_diags); });
  main_verdict.set_value(!main_diags.has_errors());
  // While the workbook is written: the parts of report.json that need only what is computed (they read the
  // study and the codebook tables, as the writer does, and change nothing).
  Json coded_json = what_is_coded_json(*study);
  Json saturation_part = saturation_json(saturation);
  Json methods_part = steps.run("methods evidence", [&] { return methods_json(*study, study->segments, cb_tables); });
  // The rankings workbook, written while the codebook's is (this thread has nothing else to do), to a temp file
  // put in place below, once everything has succeeded. Its diagnostics are reported where they were when it
  // was written last.
  std::unique_ptr<xlsx::Book> rankings_book;
  std::string rankings_md;
  Diagnostics rankings_diags;
  std::vector<TitledRankingAnalysis> extra;
  if (!main_diags.has_errors() && wait_side())  // (else the report fails below, before anything is put in place)
    steps.run("write rankings.xlsx and rankings.md", [&] {
      for (const auto& e : by_experience) extra.push_back({e.title, &e.analysis});
      rankings_book = prepare_rankings_workbook(by_role, tax, out / "rankings.xlsx", rankings_diags, extra);
      rankings_md = rankings_markdown(by_role, tax);
      for (const auto& e : by_experience) {
        rankings_md += "\n";
        rankings_md += experience_markdown_heading(e.title);
        rankings_md += rankings_markdown(e.analysis, tax);
      }
    });
  // report.json (all but its checklist, "files" and provenance, added below), with the corpus's Table I and
  // stage one, and the figures drawn from it need nothing of the codebook workbook: they are made while the
  // workbook is still being written (drawn after it, the figures added 0.2 s of wall time on the 2,000-transcript
  // bench), once the analyses have succeeded; they are reported and written only once the workbook has succeeded
  // too. The corpus's diagnostics wait in late_diags, reported after the workbook's as before.
  Json report;
  Diagnostics late_diags;
  std::vector<figures::File> figures;
  std::string figures_err;
  auto prepare = [&] {
    report["qualrank"] = QUALRANK_VERSION;
    std::size_t coded = 0;
    for (const auto& s : study->segments)
      if (!s.codes.empty()) ++coded;
    Json by_role_count = Json::object();
    for (const auto& role : ws.roles()) {
      int n = 0;
      for (const auto& t : ws.transcripts)
        if (t.role == role) ++n;
      by_role_count[role] = n;
    }
    report["workspace"] = {{"title", ws.taxonomy.title},
                           {"taxonomy", ws.taxonomy.name},
                           {"taxonomy_version", study->version->number},
                           {"guideline", ws.guideline.name},
                           {"transcripts", ws.transcripts.size()},
                           {"participants_by_role", by_role_count},
                           {"role_plurals", ws.guideline.plurals},
                           {"segments", all_segments},
                           {"coded_segments", coded},
                           {"taxonomy_nodes", tax.size()}};
    report["taxonomy"] = taxonomy_version_json(tax, summarize_version(tax, study->version->number, study->version->name));
    report["taxonomy_diff"] = diff && !diff->changes.empty() ? taxonomy_diff_json(*diff) : Json(nullptr);
    mark_additions(report["taxonomy"], report["taxonomy_diff"]);
    report["rankings"] = rankings_json(by_role);
    // "rankings_by_experience": the first role's (as before); "experience_comparisons": every role's.
    report["rankings_by_experience"] = by_experience.empty() ? Json(nullptr) : rankings_json(by_experience.front().analysis);
    report["experience_comparisons"] = Json::array();
    for (const auto& e : by_experience) {
      Json j = rankings_json(e.analysis);
      j["role"] = e.role;
      j["title"] = e.title;
      report["experience_comparisons"].push_back(j);
    }
    report["codebook"] = codebook_tables_json(cb_data, cb_options, cb_tables);
    report["coding"] = {{"selection", coding.selection},
                         {"description", coding.describe()},
                         {"reconciled", coding.reconciled},
                         {"unreconciled", coding.unreconciled},
                         {"open_units", coding.open_units},
                         {"stale_units", coding.stale_units},
                         {"out_of_date", coding.out_of_date},
                         {"ignored", coding.ignored},
                         {"coders", coding.coders}};
    report["coded"] = std::move(coded_json);
    report["saturation"] = std::move(saturation_part);
    report["methods"] = std::move(methods_part);
    report["agreement"] = (agreement.labels || agreement.transcripts) ? workspace_agreement_json(agreement) : Json(nullptr);
    if (!rounds.empty() && report["agreement"].is_object()) {
      Json list = Json::array();
      for (const auto& r : rounds) {
        auto num = [](double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); };
        list.push_back({{"round", r.round},
                        {"transcripts", r.transcripts},
                        {"units", r.agreement.units},
                        {"coders", r.agreement.coders},
                        {"fleiss_kappa", num(r.agreement.pooled.fleiss_kappa)},
                        {"krippendorff_alpha", num(r.agreement.pooled.krippendorff_alpha)},
                        {"percent_agreement", num(r.agreement.pooled.percent_agreement)}});
      }
      report["agreement"]["rounds"] = list;
    }
    // Table I of a corpus of issue reports, when the workspace has one (corpus/manifest.json): retrieval,
    // screening and the labelled units per source (analysis/corpus/corpus_overview.h); the LaTeX renderer prints it.
    if (files::exists(workspace / "corpus/manifest.json")) {
      auto corpus = steps.run("corpus table", [&] {
        const auto rule = corpus::samples_rule(workspace) == "majority" ? corpus::ExclusionRule::majority : corpus::ExclusionRule::unanimous;
        return corpus::corpus_overview(workspace, tax, study->version->resolve, 1, rule, {}, late_diags);
      });
      if (!corpus) return false;  // its errors are in late_diags
      report["corpus"] = corpus_table_json(*corpus, tax);
      // Stage one as a method section reports it (analysis/corpus/corpus_stage_one.h), once there is a retrieval.
      auto stage = steps.run("stage one", [&] {
        const auto rule = corpus->rule == "majority" ? corpus::ExclusionRule::majority : corpus::ExclusionRule::unanimous;
        Diagnostics own;  // Table I read the same files just now and said what they hold: only errors are new
        auto s = corpus::stage_one(workspace, tax, study->version->resolve, rule, own);
        if (own.has_errors()) late_diags.append(own);
        return s;
      });
      if (late_diags.has_errors()) return false;
      if (stage) report["stage_one"] = stage_one_json(*stage);
    }
    figures = steps.run("draw the figures", [&] {
      return figures::report_figures(report, QUALRANK_VERSION, files::source_date_epoch(kFigureEpoch), &figures_err);
    });
    return true;
  };
  const bool prepared = !main_diags.has_errors() && wait_side() && prepare();  // (else the report fails below)
  const bool ok_cb = cb_written.get();
  main_diags.append(cb_diags);
  if (main_diags.has_errors() || !ok_cb) return fail();
  names.push_back("codebook.xlsx");
  wait_side();
  diags.append(side_diags);
  diags.append(main_diags);
  if (diags.has_errors()) return false;
  diags.append(late_diags);
  if (!prepared) return false;  // the corpus could not be read (its errors are in diags)

  // Outputs (codebook.xlsx is written above); the text files, the LaTeX tables among them, staged and renamed
  // into place together at the end.
  files::StagedFiles staged_text;
  // The LaTeX tables, rendered from report.json as it stands (its "files" aside) and staged in latex/ before any
  // output is put in place: a failure here changes nothing; they are renamed into place with report.json.
  std::vector<std::string> latex_names;
  {
    std::error_code ec;
    fs::create_directories(out / "latex", ec);
    std::string err;
    for (const auto& f : latex::report_tables(report)) {
      if (!staged_text.stage(out / "latex" / f.name, latex::file_content(f, QUALRANK_VERSION), &err)) {
        diags.error({(out / "latex" / f.name).string(), 0, 0}, "cannot write: " + (ec ? ec.message() : err));
        for (const auto& n : names) summary.files.push_back((out / n).string());  // (codebook.xlsx is in place)
        return false;
      }
      latex_names.push_back("latex/" + f.name);
    }
  }
  // The figures (SVG and PDF), drawn above from report.json as it stood, staged the same way.
  std::vector<std::string> figure_names;
  {
    std::error_code ec;
    fs::create_directories(out / "figures", ec);
    std::string err = figures_err;
    if (figures.empty() && !err.empty()) {
      diags.error({(out / "figures").string(), 0, 0}, "cannot draw the figures: " + err);
      for (const auto& n : names) summary.files.push_back((out / n).string());
      return false;
    }
    for (const auto& f : figures) {
      if (!staged_text.stage(out / "figures" / f.name, f.bytes, &err)) {
        diags.error({(out / "figures" / f.name).string(), 0, 0}, "cannot write: " + (ec ? ec.message() : err));
        for (const auto& n : names) summary.files.push_back((out / n).string());
        return false;
      }
      figure_names.push_back("figures/" + f.name);
    }
  }

  auto text_file = [&](const std::string& name, const std::string& content) {
    std::string err;
    if (!staged_text.stage(out / name, content, &err)) {
      diags.error({(out / name).string(), 0, 0}, "cannot write: " + err);
      return false;
    }
    names.push_back(name);
    return true;
  };
  diags.append(rankings_diags);
  bool ok = rankings_book != nullptr;  // (its error, if it could not be written, is in rankings_diags)
  if (ok && !rankings_book->publish()) {
    diags.error({(out / "rankings.xlsx").string(), 0, 0}, "cannot write the workbook: " + rankings_book->error());
    ok = false;
  }
  if (ok) {
    names.push_back("rankings.xlsx");
    ok = text_file("rankings.md", rankings_md);
  }
  if (ok && (agreement.labels || agreement.transcripts)) {
    ok = steps.run("write agreement.xlsx", [&] {
      bool r = write_agreement_workbook(agreement.labels ? &*agreement.labels : nullptr,
                                        agreement.transcripts ? &*agreement.transcripts : nullptr, &tax, out / "agreement.xlsx", diags);
      if (r) names.push_back("agreement.xlsx");
      return r;
    });
  }
  if (ok && diff && !diff->changes.empty()) ok = text_file("taxonomy-diff.md", taxonomy_diff_markdown(*diff));
  report["methods"]["checklist"] = reporting_checklist(report);
  if (ok) ok = text_file("methods.md", methods_markdown(report));
  if (ok) names.insert(names.end(), latex_names.begin(), latex_names.end());
  if (ok) names.insert(names.end(), figure_names.begin(), figure_names.end());
  if (ok) {
    names.push_back("report.json");
    names.push_back("index.html");
    report["files"] = names;
    // What it was made from: each input's SHA-256 and the parameters (docs/status.md).
    Json inputs = Json::object();
    for (const auto& [path, hash] : input_hashes_future.get()) inputs[path] = hash;
    report["provenance"] = {{"parameters", {{"seed", options.seed}, {"resamples", options.resamples}, {"coder", options.coder}}},
                            {"inputs", std::move(inputs)}};
    ok = steps.run("write report.json and index.html", [&] {
      return text_file("report.json", report.dump(2) + "\n") && text_file("index.html", render_html_report(report));
    });
    names.pop_back();  // text_file added them again
    names.pop_back();
  }
  if (std::string err; ok && !staged_text.commit(&err)) {
    diags.error({out.string(), 0, 0}, "cannot write: " + err);
    ok = false;
  }
  if (ok) {  // tables an earlier run wrote and this one did not
    std::vector<std::string> keep;
    for (const auto& n : latex_names) keep.push_back(n.substr(6));  // (without "latex/")
    latex::remove_stale(out / "latex", keep);
    keep.clear();
    for (const auto& n : figure_names) keep.push_back(n.substr(8));  // (without "figures/")
    figures::remove_stale(out / "figures", keep);
  }
  for (const auto& n : names) summary.files.push_back((out / n).string());
  ranking_headlines(by_role, "", summary.headlines);
  for (const auto& e : by_experience) ranking_headlines(e.analysis, "(" + e.title + ") ", summary.headlines);
  if (agreement.labels) {
    auto j = label_agreement_json(*agreement.labels);
    summary.headlines.push_back("label tables: Fleiss' kappa = " + (j["fleiss_kappa"].is_number() ? text::fixed(j["fleiss_kappa"].get<double>(), 3) : "n/a") +
                                ", Krippendorff's alpha = " + (j["krippendorff_alpha"].is_number() ? text::fixed(j["krippendorff_alpha"].get<double>(), 3) : "n/a") +
                                " (" + std::to_string(j["units"].get<long long>()) + " units)");
  }
  if (agreement.transcripts) {
    auto j = transcript_agreement_json(*agreement.transcripts);
    summary.headlines.push_back("transcript coders: Krippendorff's alpha = " +
                                (j["krippendorff_alpha"].is_number() ? text::fixed(j["krippendorff_alpha"].get<double>(), 3) : "n/a") + " (" +
                                std::to_string(j["units"].get<long long>()) + " units)");
  }
  // The study and the codebook's rows are buried, not freed, when the command line is about to exit.
  bury(std::make_unique<CodebookData>(std::move(cb_data)));
  bury(std::move(study));
  return ok;
}

}  // namespace qualrank
