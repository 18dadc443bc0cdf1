// The status of a study's steps (analysis/corpus/study_status.h): the corpus's stage one here.
#include "qualrank/analysis/corpus/study_status.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "qualrank/analysis/corpus/corpus_labels.h"
#include "qualrank/analysis/corpus/corpus_provenance.h"
#include "qualrank/analysis/corpus/corpus_retrieve.h"
#include "qualrank/analysis/corpus/corpus_sample.h"
#include "qualrank/analysis/corpus/corpus_screening.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_labels.h"
#include "qualrank/model/corpus/corpus_screening.h"
#include "qualrank/model/inputs/workspace_inputs.h"
#include "qualrank/util/files.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

// The corpus names this file uses, one by one: a using-directive here would reach the files after this one in a
// unity batch (qualrank::LabelAgreement and corpus::LabelAgreement would then be ambiguous there).
using corpus::DocState;
using corpus::ExclusionRule;
using corpus::RetrievalProvenance;
using corpus::RetrievedRef;
using corpus::SampleProvenance;
using corpus::doc_state;
using corpus::grouped;
using corpus::label_table_text;
using corpus::load_sample_labels;
using corpus::manifest_mismatches;
using corpus::read_all_screening;
using corpus::read_manifest;
using corpus::read_retrieval_provenance;
using corpus::read_retrieved;
using corpus::read_sample_provenance;
using corpus::read_sample;
using corpus::retrieval_changes;
using corpus::sample_path;
using corpus::sample_population;
using corpus::window_text;

std::string count(std::size_t n, const char* one, const char* many) { return grouped(n) + " " + (n == 1 ? one : many); }

StepStatus step(std::string name) {
  StepStatus s;
  s.step = std::move(name);
  return s;
}


// The command that draws `name` again with the parameters its list records.
std::string redraw_command(const std::string& name, const SampleProvenance& p) {
  std::string c = "qualrank corpus sample " + name + " --force --seed " + p.seed + " --rule " + p.rule;
  if (p.confidence != "0.95") c += " --confidence " + p.confidence;
  if (p.margin != "0.05") c += " --margin " + p.margin;
  if (p.proportion != "0.5") c += " --proportion " + p.proportion;
  if (p.size != "cochran") c += " --size " + p.size;
  if (p.stratify == "source") c += " --stratify source";
  for (const auto& [other, hash] : p.excluded) c += " --exclude " + other;
  return c;
}

}  // namespace

void StepStatus::mark(StepState new_state, std::string reason, std::string command) {
  if (new_state == StepState::stale || state == StepState::up_to_date) state = new_state;
  why.push_back(std::move(reason));
  if (next.empty() || new_state == StepState::stale) next = std::move(command);
}

bool StudyStatus::up_to_date() const {
  return std::all_of(steps.begin(), steps.end(), [](const StepStatus& s) { return s.state == StepState::up_to_date; });
}

const char* state_name(StepState s) {
  switch (s) {
    case StepState::up_to_date: return "up to date";
    case StepState::stale: return "stale";
    case StepState::incomplete: return "incomplete";
  }
  return "";
}

std::vector<StepStatus> corpus_status(const std::filesystem::path& workspace, const Taxonomy* taxonomy,
                                      const NodeResolver* resolve) {
  std::vector<StepStatus> out;
  Diagnostics diags;  // what the files say wrong is validate's to print; here it makes a step stale
  auto manifest = read_manifest(workspace, diags);
  if (!manifest) return out;

  // The stored sources.
  auto sources = step("corpus sources");
  std::size_t documents = 0;
  for (const auto& [s, e] : manifest->sources) documents += e.documents;
  sources.summary = count(manifest->sources.size(), "source", "sources") + ", " + count(documents, "document", "documents");
  for (const auto& why : manifest_mismatches(workspace, *manifest))
    sources.mark(StepState::stale, why, "qualrank corpus import EXPORT --source SOURCE (the export it came from)");
  out.push_back(std::move(sources));

  // The retrieval.
  auto retrieval = step("retrieval");
  std::vector<RetrievedRef> retrieved;
  const std::string rr = "corpus/retrieved.jsonl";
  if (!files::exists(workspace / rr)) {
    retrieval.mark(StepState::incomplete, "nothing retrieved yet", "qualrank corpus retrieve");
    out.push_back(std::move(retrieval));
    return out;
  }
  {
    std::string unread;
    auto text = files::read_inside(workspace, rr, &unread);
    Diagnostics local;
    std::optional<RetrievalProvenance> p;
    if (text) {
      retrieved = read_retrieved(*text, rr, local);
      p = read_retrieval_provenance(std::string_view(*text).substr(0, text->find('\n')), rr, 1, local);
    }
    if (!text || local.has_errors()) {
      retrieval.mark(StepState::stale, rr + " cannot be read (qualrank validate says where)", "qualrank corpus retrieve");
    } else if (!p) {
      retrieval.mark(StepState::stale, rr + " records neither its window nor what it was retrieved from (an older qualrank)",
           "qualrank corpus retrieve");
    } else {
      retrieval.summary = count(retrieved.size(), "document", "documents") + ", window " + window_text(p->from, p->to);
      for (const auto& why : retrieval_changes(workspace, *p, *manifest))
        retrieval.mark(StepState::stale, why + " since the retrieval",
             "qualrank corpus retrieve" + std::string(p->window_from_options ? "   (keeps the window " + window_text(p->from, p->to) + ")" : ""));
    }
  }
  const bool retrieval_current = retrieval.state == StepState::up_to_date;
  out.push_back(std::move(retrieval));

  // Screening.
  auto screening = step("screening");
  auto screeners = read_all_screening(workspace, diags);
  {
    std::set<std::string> screened;
    for (const auto& s : screeners)
      for (const auto& d : s.decisions) screened.insert(d.doc);
    std::size_t unscreened = 0;
    for (const auto& r : retrieved) unscreened += !screened.count(r.doc);
    screening.summary = count(screeners.size(), "screener", "screeners") + ", " + grouped(retrieved.size() - unscreened) + " of " +
                        grouped(retrieved.size()) + " retrieved documents screened";
    if (screeners.empty())
      screening.mark(StepState::incomplete, "no screener has recorded a decision",
           "qualrank corpus screen --screener NAME --doc SOURCE#ID --relevant (or --false-positive REASON, or --from-csv FILE)");
    else if (unscreened > 0)
      screening.mark(StepState::incomplete, count(unscreened, "retrieved document", "retrieved documents") + " screened by no one",
           "qualrank corpus screen --screener NAME --doc SOURCE#ID --relevant (or --false-positive REASON, or --from-csv FILE)");
  }
  out.push_back(std::move(screening));

  // Each sample: its draw, its labels, the decisions and the exported label table.
  for (const auto& path : files::list_files(workspace / "corpus/samples", ".txt")) {
    const std::string name = path.stem().string();
    auto draw = step("sample " + name);
    std::string why;
    auto text = files::read_inside(workspace, sample_path(name), &why);
    if (!text) continue;
    Diagnostics local;
    const auto docs = read_sample(*text, sample_path(name), local);
    draw.summary = count(docs.size(), "document", "documents");
    auto p = read_sample_provenance(*text);
    if (!p) {
      draw.mark(StepState::stale, sample_path(name) + " records neither its rule nor its population (drawn by an older qualrank)",
           "qualrank corpus sample " + name + " --force ... (a new draw: the labels made on it stay, for the documents drawn again)");
    } else if (!retrieval_current) {
      draw.summary += " of N = " + grouped(p->population) + " (rule " + p->rule + ", seed " + p->seed + ")";
      draw.mark(StepState::stale, "its population cannot be checked while the retrieval is stale (above)", "qualrank corpus retrieve");
    } else {
      std::set<std::string> left_out;
      std::vector<std::string> changed_exclusions;
      for (const auto& [other, hash] : p->excluded) {
        auto t = files::read_inside(workspace, sample_path(other), &why);
        if (!t) {
          changed_exclusions.push_back("the excluded sample " + other + " is gone");
          continue;
        }
        if (sha256_hex(*t) != hash) changed_exclusions.push_back("the excluded sample " + other + " changed");
        Diagnostics ignored;
        for (const auto& d : read_sample(*t, sample_path(other), ignored)) left_out.insert(d);
      }
      const auto pop = sample_population(retrieved, screeners, p->rule == "majority" ? ExclusionRule::majority : ExclusionRule::unanimous,
                                         left_out, p->stratify == "source");
      draw.summary += " of N = " + grouped(p->population) + " (rule " + p->rule + ", seed " + p->seed + ")";
      for (const auto& c : changed_exclusions) draw.mark(StepState::stale, c + " since the draw", redraw_command(name, *p));
      if (population_sha256(pop) != p->population_sha256)
        draw.mark(StepState::stale,
             "the population changed since the draw (N " + grouped(p->population) + " then, " + grouped(pop.size) +
                 " now: the retrieval or the screening changed)",
             redraw_command(name, *p) + "   (or keep it: Table I then refuses the units no longer in the population)");
    }
    out.push_back(std::move(draw));

    if (!taxonomy || !resolve) continue;
    Diagnostics label_diags;
    auto labels = load_sample_labels(workspace, name, *taxonomy, *resolve, label_diags);
    auto lab = step("labels " + name);
    auto dec = step("decisions " + name);
    if (!labels) {
      lab.mark(StepState::stale, "the labels of sample " + name + " cannot be read (qualrank validate says where)",
           "qualrank validate");
      out.push_back(std::move(lab));
      continue;
    }
    std::map<std::string, std::size_t> missing;  // per coder: documents of the sample not labelled
    std::size_t disagreed = 0, undecided = 0, partial_open = 0;
    for (std::size_t d = 0; d < labels->docs.size(); ++d) {
      for (std::size_t c = 0; c < labels->coders.size(); ++c)
        if (labels->categories[d][c].empty()) ++missing[labels->coders[c]];
      const auto st = doc_state(*labels, d);
      if (st == DocState::disagreed) {
        ++disagreed;
        if (!labels->decisions[d]) ++undecided;
      }
      if (st == DocState::partial && !labels->decisions[d]) ++partial_open;
    }
    lab.summary = count(labels->coders.size(), "coder", "coders") + " on " + count(labels->docs.size(), "document", "documents");
    if (labels->coders.empty())
      lab.mark(StepState::incomplete, "no coder has labelled yet", "qualrank corpus label --coder NAME --sample " + name);
    else if (labels->coders.size() == 1)
      lab.mark(StepState::incomplete, "only " + labels->coders.front() + " has labelled: agreement and the label table need a second coder",
               "qualrank corpus label --coder NAME --sample " + name);
    for (const auto& [coder, n] : missing)
      if (n > 0)
        lab.mark(StepState::incomplete, coder + " has not labelled " + count(n, "document", "documents"),
             "qualrank corpus label --coder " + coder + " --sample " + name);
    // Labels and decisions of documents the sample no longer holds (drawn again since): kept in the files,
    // never counted, and said.
    if (!labels->not_in_sample.empty())
      lab.mark(StepState::stale,
               count(labels->not_in_sample.size(), "label or decision", "labels or decisions") + " of documents not in sample " + name +
                   corpus::outside_reason(*labels, labels->not_in_sample.front()) + ", not counted: " +
                   labels->not_in_sample.front().text() +
                   (labels->not_in_sample.size() > 1 ? ", ..." : ""),
               "qualrank corpus label --coder NAME --sample " + name + " --doc SOURCE#ID --remove");
    out.push_back(std::move(lab));
    if (!labels->coders.empty()) {
      dec.summary = count(disagreed, "disagreement", "disagreements") + ", " + grouped(disagreed - undecided) + " decided";
      if (undecided > 0)
        dec.mark(StepState::incomplete, count(undecided, "disagreement", "disagreements") + " not decided",
             "qualrank corpus reconcile --sample " + name + " --decider NAME");
      if (partial_open > 0)
        dec.mark(StepState::incomplete,
             count(partial_open, "document", "documents") + " labelled by some coders only, no decision: open in Table I",
             "qualrank corpus reconcile --sample " + name + " --decider NAME");
      if (!labels->stale_decisions.empty()) {
        const auto& first = labels->stale_decisions.front();
        dec.mark(StepState::stale,
                 count(labels->stale_decisions.size(), "decision", "decisions") + " made on labels that changed since: " +
                     labels->docs[first.doc] + " (" + first.what() + ")" + (labels->stale_decisions.size() > 1 ? ", ..." : ""),
                 "qualrank corpus reconcile --sample " + name + " --decider NAME   (the walk shows them again; k keeps a decision)");
      }
      out.push_back(std::move(dec));
    }

    auto table = step("label table " + name);
    const std::string rel = "codebooks/labels/" + name + ".csv";
    table.summary = rel;
    if (!files::exists(workspace / rel)) {
      if (labels->coders.size() < 2)
        table.mark(StepState::incomplete, rel + " not exported yet: it needs two coders' labels",
                   "qualrank corpus label --coder NAME --sample " + name);
      else
        table.mark(StepState::incomplete, rel + " not exported yet", "qualrank corpus labels export --sample " + name);
    } else {
      auto stored = files::read_inside(workspace, rel, &why);
      if (!stored || label_table_text(*labels) != *stored)
        table.mark(StepState::stale, "the labels or decisions of sample " + name + " changed since " + rel + " was exported",
             "qualrank corpus labels export --sample " + name);
    }
    out.push_back(std::move(table));
  }
  return out;
}

std::optional<StepStatus> report_status(const std::filesystem::path& workspace) {
  const std::string rel = "reports/report.json";
  if (!files::exists(workspace / rel)) return std::nullopt;
  auto s = step("report");
  s.summary = rel;
  std::string why;
  auto text = files::read_inside(workspace, rel, &why);
  auto j = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
  if (!j.is_object() || !j.contains("provenance") || !j["provenance"].is_object() || !j["provenance"].contains("inputs") ||
      !j["provenance"]["inputs"].is_object()) {
    s.mark(StepState::stale, rel + " records no inputs (written by an older qualrank)", "qualrank report");
    return s;
  }
  Diagnostics ignored;
  const auto now = input_hashes(workspace, workspace_input_files(workspace, ignored, true));
  std::vector<std::string> changes;
  for (const auto& [path, hash] : j["provenance"]["inputs"].items()) {
    auto it = now.find(path);
    if (it == now.end()) changes.push_back(path + " removed");
    else if (!hash.is_string() || hash.get<std::string>() != it->second) changes.push_back(path + " changed");
  }
  for (const auto& [path, hash] : now)
    if (!j["provenance"]["inputs"].contains(path)) changes.push_back(path + " added");
  if (!changes.empty()) {
    std::string list;
    for (std::size_t k = 0; k < changes.size() && k < 5; ++k) list += (k ? ", " : "") + changes[k];
    if (changes.size() > 5) list += ", and " + std::to_string(changes.size() - 5) + " more";
    s.mark(StepState::stale, std::to_string(changes.size()) + " input(s) changed since it was written: " + list, "qualrank report");
  }
  return s;
}

std::optional<StepStatus> package_status(const std::filesystem::path& workspace) {
  const std::string rel = "package/qualrank-package.json";
  if (!files::exists(workspace / rel)) return std::nullopt;
  auto s = step("package");
  s.summary = "package/";
  std::string why;
  auto text = files::read_inside(workspace, rel, &why);
  auto j = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
  const bool recorded = j.is_object() && j.contains("made_from") && j["made_from"].is_object() &&
                        j["made_from"].contains("sha256") && j["made_from"]["sha256"].is_string();
  if (!recorded) {
    s.mark(StepState::stale, rel + " does not record what it was made from (made by an older qualrank)", "qualrank package");
    return s;
  }
  Diagnostics ignored;
  const auto now = input_hashes(workspace, package_input_files(workspace, ignored));
  const auto then = j["made_from"].value("inputs", nlohmann::json(0));
  if (inputs_digest(now) != j["made_from"]["sha256"].get<std::string>())
    s.mark(StepState::stale,
           "the workspace's inputs changed since the package was made (" + then.dump() + " input(s) then, " +
               std::to_string(now.size()) + " now)",
           "qualrank package");
  return s;
}

void check_corpus(const std::filesystem::path& workspace, const Taxonomy* taxonomy, const NodeResolver* resolve,
                  Diagnostics& diags) {
  auto manifest = read_manifest(workspace, diags);
  if (!manifest) return;
  read_all_screening(workspace, diags);
  for (const auto& path : files::list_files(workspace / "corpus/samples", ".txt")) {
    const std::string name = path.stem().string();
    std::string why;
    if (auto text = files::read_inside(workspace, sample_path(name), &why)) read_sample(*text, sample_path(name), diags);
    else diags.error({sample_path(name), 0, 0}, why);
    if (!taxonomy || !resolve) continue;
    auto labels = load_sample_labels(workspace, name, *taxonomy, *resolve, diags);
    if (!labels) continue;
    // Labels and decisions of documents the sample no longer holds, each at its line (the first ten).
    for (std::size_t k = 0; k < labels->not_in_sample.size() && k < 10; ++k) {
      const auto& n = labels->not_in_sample[k];
      diags.warning({n.file, n.line, 1},
                    "stale: " + n.doc + " is not in sample " + name + corpus::outside_reason(*labels, n) +
                        ": this line is not counted; label the sample's documents, or remove it with "
                        "'qualrank corpus label --coder NAME --sample " + name + " --doc SOURCE#ID --remove'");
    }
    if (labels->not_in_sample.size() > 10)
      diags.warning({"corpus/labels/" + name + "/", 0, 0},
                    "stale: " + std::to_string(labels->not_in_sample.size() - 10) + " more labels or decisions of documents not in sample " + name);
    corpus::warn_stale_decisions(*labels, name, diags);
  }
  if (diags.has_errors()) return;
  // Stale files, each located at the file that is stale.
  for (const auto& s : corpus_status(workspace, taxonomy, resolve)) {
    if (s.state != StepState::stale || s.step.rfind("labels ", 0) == 0) continue;  // (labels: said above, at their lines)
    std::string file = "corpus/manifest.json";
    if (s.step == "retrieval") file = "corpus/retrieved.jsonl";
    else if (s.step.rfind("sample ", 0) == 0) file = sample_path(s.step.substr(7));
    else if (s.step.rfind("label table ", 0) == 0) file = "codebooks/labels/" + s.step.substr(12) + ".csv";
    for (const auto& w : s.why) diags.warning({file, 0, 0}, "stale: " + w + "; run '" + s.next.substr(0, s.next.find("   (")) + "'");
  }
}

}  // namespace qualrank
