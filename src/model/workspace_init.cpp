// The starter workspace of `qualrank init`. Its content is neutral example text (a study of everyday
// challenges at work and what helps with them) meant to be replaced; it loads and validates as it is, so
// every command works from the first minute.
#include "qualrank/model/workspace_init.h"

#include <algorithm>
#include <set>
#include <sstream>

#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace fs = std::filesystem;

namespace {

bool plain_name(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  if (!std::isalnum(static_cast<unsigned char>(s.front()))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

std::string taxonomy_yaml(const StarterOptions& o) {
  std::ostringstream out;
  out << "# The taxonomy (codebook) of this study, version 1. Replace the example nodes with your own:\n"
         "# each node has an id, a name and a definition; inclusion/exclusion, aliases (other names\n"
         "# interviewees use) and keywords (auto-coding suggestions) are optional. Later changes go through\n"
         "# `qualrank taxonomy propose/accept`, which keeps their history (docs/taxonomy-history.md).\n"
      << "taxonomy: " << o.taxonomy << "\n"
      << "title: Everyday challenges and what helps (example; edit me)\n"
         "# What each level of the tree is called in every output (the first level, the second ...).\n"
         "levels: [Area, Topic]\n"
         "nodes:\n"
         "  - id: CH\n"
         "    name: Challenges\n"
         "    definition: Problems participants describe in their everyday work.\n"
         "    children:\n"
         "      - id: CH.1\n"
         "        name: Time pressure\n"
         "        definition: Too little time for the work at hand.\n"
         "        inclusion: The speaker describes deadlines, rushing or work left undone for lack of time.\n"
         "        exclusion: Waiting for others (CH.3).\n"
         "        aliases: [deadlines]\n"
         "        keywords: [deadline, no time]\n"
         "      - id: CH.2\n"
         "        name: Unclear responsibilities\n"
         "        definition: Nobody, or more than one person, feels in charge of a task.\n"
         "        keywords: [who is responsible]\n"
         "      - id: CH.3\n"
         "        name: Missing information\n"
         "        definition: Work stalls because information is missing or hard to find.\n"
         "        aliases: [waiting for answers]\n"
         "  - id: HE\n"
         "    name: What helps\n"
         "    definition: People, habits and tools that make the work easier.\n"
         "    children:\n"
         "      - id: HE.1\n"
         "        name: Colleagues\n"
         "        definition: Help from people on the same or another team.\n"
         "      - id: HE.2\n"
         "        name: Written guidance\n"
         "        definition: Checklists, manuals and notes that answer a question without asking anyone.\n"
         "        keywords: [checklist, manual]\n";
  return out.str();
}

std::string guideline_yaml(const StarterOptions& o) {
  std::ostringstream out;
  out << "# The interview guideline: roles, how the experience level is obtained, and the questions by part.\n"
         "# Question kinds: background (its answer sets an attribute), open, short_answer, ranking (items from\n"
         "# the taxonomy). Text may differ per role; `roles:` on a question limits who is asked (docs/formats.md).\n"
      << "guideline: " << o.taxonomy << "-interview\n"
      << "title: Interviews on everyday challenges (example; edit me)\n"
      << "taxonomy: " << o.taxonomy << "\n"
      << "roles: [" << text::join(o.roles, ", ") << "]\n"
      << "experience:\n"
         "  attribute: experience\n"
         "  levels: [junior, mid, senior]\n"
         "  from: years\n"
         "  bins: [2, 5]\n"
         "parts:\n"
         "  - id: I\n"
         "    title: Background\n"
         "    questions:\n"
         "      - id: I.1\n"
         "        kind: background\n"
         "        text: How many years have you worked in your current field?\n"
         "        attribute: years\n"
         "  - id: II\n"
         "    title: Challenges\n"
         "    about: [CH]\n"
         "    questions:\n"
         "      - id: II.1\n"
         "        kind: open\n"
         "        text:\n";
  for (const auto& r : o.roles) out << "          " << r << ": Thinking of your work as " << r << ", what makes it harder than it needs to be?\n";
  out << "      - id: II.R\n"
         "        kind: ranking\n"
         "        text:\n";
  for (const auto& r : o.roles) out << "          " << r << ": Rank these challenges by how much they matter to you as " << r << ".\n";
  out << "        items: {children_of: CH}\n"
         "        top: all\n"
         "  - id: III\n"
         "    title: What helps\n"
         "    about: [HE]\n"
         "    questions:\n"
         "      - id: III.1\n"
         "        kind: open\n"
         "        text: Who or what helps you most when you are stuck?\n";
  return out.str();
}

std::string next_steps(const StarterOptions& o) {
  std::ostringstream out;
  const std::string& r0 = o.roles.front();
  out << "# Next steps\n\n"
         "This workspace was written by `qualrank init` with example content. Edit it into your study:\n\n"
      << "1. `codebooks/" << o.taxonomy << ".yaml`: replace the example nodes with your own themes (id, name,\n"
      << "   definition; optional inclusion, exclusion, aliases, keywords).\n"
      << "2. `guidelines/" << o.taxonomy << "-interview.yaml`: your roles (now " << text::join(o.roles, ", ") << "),\n"
      << "   the experience levels and the years that separate them, your questions; ranking questions take\n"
         "   their items from the taxonomy (`items: {children_of: ID}`).\n"
         "3. `qualrank validate` after each edit: every problem is printed with its file, line and column.\n"
      << "4. `qualrank guide --role " << r0 << "` prints the interview protocol; `qualrank new-transcript\n"
      << "   --participant P01 --role " << r0 << " --attr years=3` writes a transcript skeleton into transcripts/.\n"
         "5. Type each interview into its skeleton and code it (`[span]{ID}`, `@code ID`, `@rank A > B > C`),\n"
         "   by hand, with `qualrank code add`, or interactively with `qualrank annotate`.\n"
         "6. Participants' attributes from a spreadsheet: `qualrank participants import sheet.xlsx --id-column ID`.\n"
         "7. `qualrank query`, `qualrank rank`, and finally `qualrank report` (writes reports/).\n\n"
         "The file formats are described in docs/formats.md: share/doc/qualrank/docs/ under the prefix qualrank is\n"
         "installed in (`make install`: /usr/local), or docs/ in qualrank's sources.\n";
  return out.str();
}

}  // namespace

std::string stage_one_keywords() {
  return "# Retrieval keywords per source (docs/corpus.md). After `qualrank corpus import EXPORT --source NAME`,\n"
         "# list each source's terms, e.g.\n"
         "#   sources:\n"
         "#     atlas: [cache miss, \"out of memory\", {term: OOM, case: sensitive}]\n"
         "# A source without a list is taken whole. `from:` and `to:` (YYYY, YYYY-MM or YYYY-MM-DD) set the window.\n"
         "sources: {}\n";
}

std::string stage_one_next_steps(const StarterOptions& o) {
  std::ostringstream out;
  out << "# Next steps: a study of issue reports\n\n"
         "This workspace was written by `qualrank init --stage-one`: a taxonomy to label issue reports with and a\n"
         "keywords file, no interview guideline (add one to `guidelines/` when the study goes on to interviews).\n"
         "`qualrank corpus --help`, `man qualrank-corpus` and docs/corpus.md (share/doc/qualrank/docs/ under the\n"
         "prefix qualrank is installed in, or docs/ in its sources) describe every step.\n\n"
      << "1. `codebooks/" << o.taxonomy << ".yaml`: replace the example nodes with your categories (id, name,\n"
      << "   definition; optional inclusion, exclusion, aliases). `qualrank validate` after each edit.\n"
         "2. Export each repository's issues, e.g. `gh issue list -R OWNER/REPO --state all --limit 100000 --json\n"
         "   number,url,title,body,createdAt,labels,comments > repo.json`, and `qualrank corpus import repo.json\n"
         "   --source repo` (or `corpus keywords import lists.py` for published keyword lists).\n"
         "3. `corpus/keywords.yaml`: the terms per source; `qualrank corpus retrieve --from 2023-01 --to 2025-04`.\n"
         "4. Screen the retrieved documents (`qualrank corpus screen --screener NAME ...`), draw a sample\n"
         "   (`qualrank corpus sample NAME`), label it blind with two or more coders (`qualrank corpus label\n"
         "   --coder NAME --sample NAME`), reconcile (`qualrank corpus reconcile`), export the label table\n"
         "   (`qualrank corpus labels export --sample NAME`).\n"
         "5. `qualrank status` says what is up to date and what to run next; `qualrank corpus table` prints\n"
         "   Table I; `qualrank report` writes reports/.\n";
  return out.str();
}

std::vector<std::string> check_starter_options(const StarterOptions& o) {
  std::vector<std::string> problems;
  if (!plain_name(o.taxonomy))
    problems.push_back("taxonomy name '" + o.taxonomy + "' may contain only ASCII letters, digits, '-' and '_' (at most 64, starting with a letter or digit)");
  if (o.roles.empty()) problems.push_back("at least one role is needed");
  std::set<std::string> seen;
  for (const auto& r : o.roles) {
    if (!plain_name(r)) problems.push_back("role '" + r + "' may contain only ASCII letters, digits, '-' and '_' (at most 64, starting with a letter or digit)");
    else if (!seen.insert(text::fold_case(r)).second) problems.push_back("role '" + r + "' is given twice");
  }
  return problems;
}

std::map<std::string, std::string> starter_workspace(const StarterOptions& o) {
  if (o.stage_one)
    return {
        {"codebooks/" + o.taxonomy + ".yaml", taxonomy_yaml(o)},
        {"corpus/keywords.yaml", stage_one_keywords()},
        {"NEXT-STEPS.md", stage_one_next_steps(o)},
    };
  return {
      {"codebooks/" + o.taxonomy + ".yaml", taxonomy_yaml(o)},
      {"guidelines/" + o.taxonomy + "-interview.yaml", guideline_yaml(o)},
      {"transcripts/.keep", ""},
      {"NEXT-STEPS.md", next_steps(o)},
  };
}

std::vector<std::string> init_conflicts(const fs::path& root, const std::map<std::string, std::string>& files) {
  std::set<std::string> found;
  std::error_code ec;
  for (const auto& [rel, content] : files)
    if (fs::exists(root / rel, ec)) found.insert(rel);
  for (const char* dir : {"codebooks", "guidelines"})
    for (const char* ext : {".yaml", ".yml"})
      for (const auto& p : files::list_files(root / dir, ext)) found.insert(std::string(dir) + "/" + p.filename().string());
  return {found.begin(), found.end()};
}

bool write_starter_workspace(const fs::path& root, const std::map<std::string, std::string>& files, std::string* error) {
  std::error_code ec;
  for (const char* dir : {"codebooks", "guidelines", "transcripts"}) {
    fs::create_directories(root / dir, ec);
    if (ec) {
      if (error) *error = "cannot create " + (root / dir).string() + ": " + ec.message();
      return false;
    }
  }
  std::vector<fs::path> written;
  for (const auto& [rel, content] : files) {
    auto path = root / rel;
    if (!files::write_atomic(path, content, error)) {
      for (const auto& w : written) fs::remove(w, ec);
      return false;
    }
    written.push_back(path);
  }
  return true;
}

}  // namespace qualrank
