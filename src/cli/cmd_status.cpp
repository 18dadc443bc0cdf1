// `qualrank status`: per step of the study, up to date / stale (why) / incomplete, and the command to run next
// (analysis/corpus/study_status.h). Exit 0 when every step is up to date, 1 when one is stale or incomplete, 2 on a
// usage error: for scripts, as `git diff --quiet`.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

#include "cli.h"
#include "qualrank/analysis/coder_selection.h"
#include "qualrank/analysis/study.h"
#include "qualrank/analysis/corpus/study_status.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/bury.h"
#include "qualrank/util/text.h"

namespace qualrank::cli {

namespace {

// The transcripts' coding: several coders per transcript not reconciled yet, open units, decisions made on
// codings that changed since (what `reconcile --list` and `validate` name one by one).
std::optional<StepStatus> coding_status(const Study& study) {
  if (study.workspace.transcripts.empty()) return std::nullopt;
  auto segments = study.segments;
  const auto choice = select_coding(segments, kConsensusCoder, study.consensus);
  StepStatus s;
  s.step = "coding";
  s.summary = std::to_string(study.workspace.transcripts.size()) + " transcript(s), " + std::to_string(study.segments.size()) +
              " coded segment(s); " + choice.describe();
  if (!choice.stale_units.empty())
    s.mark(StepState::stale,
        std::to_string(choice.stale_units.size()) + " decision(s) made on codings that changed since (" +
            text::join(std::vector<std::string>(choice.stale_units.begin(), choice.stale_units.begin() + std::min<std::size_t>(5, choice.stale_units.size())), ", ") +
            (choice.stale_units.size() > 5 ? ", ..." : "") + ")",
        "qualrank reconcile TRANSCRIPT (asks those units again)");
  if (!choice.unreconciled.empty())
    s.mark(StepState::incomplete, std::to_string(choice.unreconciled.size()) + " transcript(s) coded by several coders, not reconciled (" +
                                   text::join(choice.unreconciled, ", ") + ")",
        "qualrank reconcile " + std::filesystem::path(choice.unreconciled.front()).filename().string());
  if (!choice.open_units.empty())
    s.mark(StepState::incomplete, std::to_string(choice.open_units.size()) + " open unit(s) (no decision yet)", "qualrank reconcile --list");
  return s;
}

}  // namespace

int cmd_status(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("status options");
  desc.add_options()("format", po::value<std::string>()->default_value("text"), "text or json");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "status", "[--format text|json]\n\n"
                     "Each step of the study: up to date, stale (what changed since its file was made) or incomplete\n"
                     "(work left), and the command to run next. Exit 0 when every step is up to date, else 1.\n"
                     "Steps: corpus sources, retrieval, screening, per sample its draw, labels, decisions and label\n"
                     "table; the transcripts' coding; the report in reports/. docs/status.md.",
                     desc, args, vm, rc))
    return rc;
  const auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "status", "format", format, {"text", "json"})) return 2;
  Diagnostics diags;
  StudyStatus status;
  // The taxonomy, for the labels: read as every corpus command reads it.
  std::unique_ptr<TaxonomyVersion> version;
  if (auto ws = load_workspace_design(ctx.workspace, diags)) version = taxonomy_at(*ws, std::nullopt, diags);
  status.steps = corpus_status(ctx.workspace, version ? &version->taxonomy : nullptr, version ? &version->resolve : nullptr);
  {
    Diagnostics study_diags;
    StudyOptions opts;
    opts.coding.suggestions = false;
    auto study = load_study(ctx.workspace, study_diags, opts);
    const BuryAtEnd keep(study);  // freed by the exit, not block by block (util/bury.h)
    if (study)
      if (auto c = coding_status(*study)) status.steps.push_back(std::move(*c));
  }
  if (auto r = report_status(ctx.workspace)) status.steps.push_back(std::move(*r));
  if (auto p = package_status(ctx.workspace)) status.steps.push_back(std::move(*p));
  if (format == "json") {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j["up_to_date"] = status.up_to_date();
    j["steps"] = nlohmann::ordered_json::array();
    for (const auto& s : status.steps)
      j["steps"].push_back({{"step", s.step}, {"state", state_name(s.state)}, {"summary", s.summary}, {"why", s.why}, {"next", s.next}});
    *ctx.out << j.dump(2) << '\n';
    return status.up_to_date() ? 0 : 1;
  }
  if (status.steps.empty()) {
    *ctx.out << "nothing to check yet: no corpus (qualrank corpus import) and no transcripts (qualrank new-transcript)\n";
    return 0;
  }
  std::size_t width = 0;
  for (const auto& s : status.steps) width = std::max(width, s.step.size());
  for (const auto& s : status.steps) {
    std::string state = state_name(s.state);
    *ctx.out << s.step << std::string(width + 2 - s.step.size(), ' ') << state << std::string(12 - state.size(), ' ') << s.summary << '\n';
    const std::string indent(width + 2 + 12, ' ');
    for (const auto& w : s.why) *ctx.out << indent << "- " << w << '\n';
    if (!s.next.empty()) *ctx.out << indent << "next: " << s.next << '\n';
  }
  std::size_t stale = 0, incomplete = 0;
  for (const auto& s : status.steps) (s.state == StepState::stale ? stale : incomplete) += s.state != StepState::up_to_date;
  if (status.up_to_date()) *ctx.out << "\nevery step is up to date\n";
  else *ctx.out << '\n' << stale << " stale, " << incomplete << " incomplete\n";
  return status.up_to_date() ? 0 : 1;
}

}  // namespace qualrank::cli
