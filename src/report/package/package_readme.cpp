// README.md of a replication package (package_internal.h): made from the package's own files and manifest
// only, so that `package verify` makes it again and compares it like any other output.
#include <algorithm>
#include <map>
#include <sstream>

#include "package_internal.h"
#include "qualrank/model/findings.h"

namespace qualrank::package_detail {

namespace {

std::string stem_of(const std::string& file) {
  auto slash = file.rfind('/');
  return file.substr(slash == std::string::npos ? 0 : slash + 1);
}

const std::map<std::string, std::string>& output_descriptions() {
  static const std::map<std::string, std::string> d = {
      {"reports/report.json", "every result of the analysis as JSON (the keys are listed in qualrank's README): the "
                              "workspace, the taxonomy at its latest version, the rankings, the codebook tables, "
                              "what is coded with exemplar quotes, agreement, saturation, the methods evidence and the taxonomy diff"},
      {"reports/index.html", "the report as one HTML page, rendered from report.json only (no script, nothing loaded "
                             "from the network)"},
      {"reports/codebook.xlsx", "the codebook workbook: codes with definitions, coded segments, participants, the "
                                "code-by-group matrix and code co-occurrence"},
      {"reports/rankings.xlsx", "the ranking analysis as a workbook: per question and group the mean and median "
                                "ranks, Borda scores, consensus order, Kendall's W, and the comparison of groups"},
      {"reports/rankings.md", "the same ranking analysis as Markdown"},
      {"reports/methods.md", "a draft of the methods evidence: participants, the guideline question x code matrix, "
                             "the codebook with decision rules and exemplars, the chain of evidence of the findings, "
                             "agreement per round, saturation and the reporting checklist"},
      {"reports/agreement.xlsx", "inter-coder agreement (label tables and transcripts coded by several coders)"},
      {"reports/taxonomy-diff.md", "what changed between the first and the latest taxonomy version, with the "
                                   "proposals behind each change"},
      {"exports/project.qdpx", "the whole project as REFI-QDA (QDA-XML 1.0) for NVivo, ATLAS.ti, MAXQDA or "
                               "QualCoder: codebook, transcripts, codings, memos, participants as cases"},
      {"exports/codebook.qdc", "the taxonomy at its latest version as a REFI-QDA codebook"},
      {"exports/codebook-tables.csv", "the codebook's matrix and co-occurrence tables as one tidy CSV "
                                      "(table,row,column,count,group_size,percent)"},
      {"exports/segments.csv", "every coded segment (participant, turn, codes, coder, text) as CSV"},
      {kManifest, "the settings this package was made with (resamples, seed, coder, SOURCE_DATE_EPOCH), the "
                  "qualrank version, the counts of the pseudonymisation and the lists of inputs and outputs"},
      {kChecksums, "the SHA-256 of every other file, in the format of sha256sum(1): `sha256sum -c SHA256SUMS` "
                   "checks them"},
      {kReadme, "this file"},
  };
  return d;
}

// What file `f` holds, in one sentence.
std::string describe(const std::string& f, const std::map<std::string, const TranscriptInfo*>& transcripts) {
  if (auto it = output_descriptions().find(f); it != output_descriptions().end()) return it->second;
  if (auto t = transcripts.find(f); t != transcripts.end())
    return "the transcript of participant " + t->second->participant + " (role " + t->second->role +
           "), with the codes of " + t->second->coder + " written inline";
  if (f.starts_with("transcripts/") && f.ends_with(".codes")) {
    std::string name = stem_of(f);
    name = name.substr(0, name.size() - 6);
    auto dot = name.rfind('.');
    std::string coder = dot == std::string::npos ? name : name.substr(dot + 1);
    std::string transcript = "transcripts/" + (dot == std::string::npos ? name : name.substr(0, dot)) + ".md";
    if (coder == "consensus") return "the team's consensus coding of `" + transcript + "` (qualrank reconcile)";
    return "the independent codings of `" + transcript + "` by " + coder;
  }
  if (f.starts_with("reports/latex/"))
    return "a LaTeX table (booktabs) rendered from report.json, to \\input into a paper (qualrank's docs/latex.md)";
  if (f.starts_with("reports/figures/"))
    return std::string("a figure drawn from report.json for a paper, ") + (f.ends_with(".pdf") ? "PDF" : "SVG") + ", " +
           (f.find("-2col.") != std::string::npos ? "two columns" : "one column") + " wide (qualrank's docs/figures.md)";
  if (f.starts_with("codebooks/labels/")) return "a label table: codes given to units by several coders (agreement)";
  if (f.starts_with("codebooks/") && (f.ends_with(".history.yaml") || f.ends_with(".history.yml")))
    return "the taxonomy's history: every proposed edit with its rationale and the participants' words behind it, "
           "and the decisions that made the later versions";
  if (f.starts_with("codebooks/"))
    return "the taxonomy (codebook), version 1: codes with definitions, inclusion and exclusion criteria, aliases "
           "and keywords";
  if (f == kFindingsFile)
    return "the study's findings: each claim with the codes it rests on (the chain of evidence in reports/methods.md)";
  if (f == "corpus/manifest.json") return "the corpus's sources: where each was imported from, when, and its SHA-256";
  if (f == "corpus/retrieved.jsonl")
    return "the documents the keywords retrieved, with the terms and fields that matched; its first line records "
           "the window and the SHA-256 of the keyword files and sources it was made from";
  if (f.starts_with("corpus/screening/")) return "one screener's decisions: relevant, or a false positive with its reason";
  if (f.starts_with("corpus/samples/"))
    return "a sample of units to label: its `#` lines record the rule, seed, size formula, N and the population's SHA-256";
  if (f.starts_with("corpus/labels/") && f.ends_with("/decisions.csv"))
    return "the decisions on the sample's disagreements: label, how, who, when, note";
  if (f.starts_with("corpus/labels/")) return "one coder's blind labels of the sample's documents";
  if (f.starts_with("corpus/") && f.ends_with(".jsonl")) return "a stored source: one issue report per line, pseudonymised";
  if (f.starts_with("corpus/")) return "the keywords retrieval searches for, per source";
  if (f.starts_with("guidelines/"))
    return "the interview guideline: roles, experience levels, parts and questions per role, ranking questions";
  return "an output of the analysis";
}

}  // namespace

std::string readme(const Outputs& outputs, const nlohmann::json& manifest, const std::vector<std::string>& files) {
  std::map<std::string, const TranscriptInfo*> transcripts;
  for (const auto& t : outputs.transcripts) transcripts[t.file] = &t;
  const auto& s = manifest["settings"];
  const auto& p = manifest["pseudonymisation"];
  std::ostringstream r;
  r << "# Replication package: " << (outputs.title.empty() ? outputs.taxonomy : outputs.title) << "\n\n"
    << "This folder is the replication package of an interview study analysed with qualrank "
    << manifest["qualrank"].get<std::string>()
    << ": the pseudonymised transcripts and their codings, the interview guideline, the taxonomy with its "
       "history, the codebook, the REFI-QDA project and the report. Every file is listed below with what it "
       "holds; `SHA256SUMS` holds the SHA-256 of each.\n\n";
  r << "## Re-running the analysis\n\n"
    << "With qualrank " << manifest["qualrank"].get<std::string>() << " installed, from this folder:\n\n"
    << "```sh\nqualrank package verify .\n```\n\n"
    << "checks every file against `SHA256SUMS`, re-runs the whole analysis from the files in `transcripts/`, "
       "`codebooks/` and `guidelines/` (into a hidden folder it removes afterwards), and compares every output "
       "in `reports/` and `exports/` and this README byte for byte; it names each file that differs and exits "
       "1, or exits 0 when every output is reproduced. The settings it uses are those of `"
    << kManifest << "`: " << s["resamples"].dump() << " bootstrap resamples, seed " << s["seed"].dump()
    << ", coding counted: " << s["coder"].get<std::string>() << ", SOURCE_DATE_EPOCH "
    << (s["source_date_epoch"].is_null() ? std::string("unset (fixed document times)") : s["source_date_epoch"].dump())
    << ". The report alone, into `rerun/`: `"
    << (s["source_date_epoch"].is_null() ? std::string("env -u SOURCE_DATE_EPOCH ")
                                         : "SOURCE_DATE_EPOCH=" + s["source_date_epoch"].dump() + " ")
    << "qualrank -C . report -o rerun --resamples "
    << s["resamples"].dump() << " --seed " << s["seed"].dump() << " --coder " << s["coder"].get<std::string>()
    << "`.\n\n";
  r << "## Pseudonymisation\n\n"
    << "Before anything was analysed, the names of a names list (people, organisations, places: "
    << p["names_listed"].dump() << " listed, " << p["names_found"].dump()
    << " of them found in the study) and every e-mail address (" << p["addresses"].dump()
    << ") were replaced by pseudonyms (`Person-1`, `Organisation-1`, `Email-1`, or the pseudonym the list gives), "
       "the same pseudonym for the same name in every file and file name ("
    << p["replacements"].dump()
    << " replacements); every output was then made from the pseudonymised files. The key from names to "
       "pseudonyms is not part of this package.";
  if (std::any_of(files.begin(), files.end(), [](const std::string& f) {
        return f.starts_with("codebooks/") && (f.ends_with(".history.yaml") || f.ends_with(".history.yml"));
      }))
    r << " The hashes of the taxonomy history were recomputed over its pseudonymised entries.";
  r << "\n\n";
  r << "## List of files\n\n"
    << "The taxonomy is `" << outputs.taxonomy << "` (the analysis uses its version " << outputs.version
    << "), the guideline `" << outputs.guideline << "`. The formats of the inputs are described in qualrank's "
       "docs/formats.md.\n\n";
  struct Group {
    const char* prefix;
    const char* title;
  };
  static const Group groups[] = {
      {"transcripts/", "The interviews, pseudonymised: one Markdown transcript per participant (front matter, "
                       "sections per question, turns, codes, memos, rankings) and the codings of further coders"},
      {"codebooks/", "The taxonomy (codebook) the transcripts are coded with, its history of reviewed edits, and "
                     "label tables"},
      {"guidelines/", "The interview guideline"},
      {"corpus/", "The corpus of issue reports (stage one), pseudonymised: the stored sources, the retrieval, the "
                  "screening, the samples, the coders' labels and the decisions; Table I is in `reports/`"},
      {"reports/", "The outputs of `qualrank report`, made from the files above"},
      {"exports/", "The study in other tools' formats, made from the files above"},
      {"", "This package's own files"},
  };
  int number = 0;
  for (const auto& g : groups) {
    std::vector<std::string> members;
    for (const auto& f : files) {
      bool in_folder = f.find('/') != std::string::npos;
      if (*g.prefix ? f.starts_with(g.prefix) : !in_folder) members.push_back(f);
    }
    if (members.empty()) continue;
    r << ++number << ". " << (*g.prefix ? "`" + std::string(g.prefix) + "`: " : std::string()) << g.title << "\n\n";
    for (const auto& f : members) {
      r << "   - `" << f << "`: " << describe(f, transcripts) << "\n";
    }
    r << "\n";
  }
  // Anything in another folder (a package made by a later version) is still listed.
  for (const auto& f : files) {
    bool grouped = f.find('/') == std::string::npos;
    for (const auto& g : groups)
      if (*g.prefix && f.starts_with(g.prefix)) grouped = true;
    if (!grouped) r << "- `" << f << "`: " << describe(f, transcripts) << "\n";
  }
  return r.str();
}

}  // namespace qualrank::package_detail
