// `qualrank corpus table`: Table I of a corpus study, whole (analysis/corpus/corpus_overview.h): per source the
// documents retrieved, screened out, kept and the false-positive rate, and the labelled units per year and
// top-level node of their Final_Label; as text, JSON or a workbook sheet (report/outputs/corpus_output.h).
#include <iostream>

#include "../cli.h"
#include "qualrank/analysis/corpus/corpus_provenance.h"
#include "qualrank/analysis/corpus/corpus_overview.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/report/outputs/corpus_output.h"
#include "qualrank/report/xlsx/xlsx_book.h"
#include "qualrank/util/files.h"

namespace qualrank::cli {

int cmd_corpus_table(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("corpus table options");
  desc.add_options()
      ("sample", po::value<std::vector<std::string>>()->composing(),
       "count the units of this sample's label table (repeatable; default: every sample with codebooks/labels/SAMPLE.csv)")
      ("rule", po::value<std::string>(), "screening's exclusion rule: unanimous or majority (default: the one the samples were drawn under, else unanimous)")
      ("level", po::value<int>()->default_value(1), "group the units by the level-N ancestor of their Final_Label")
      ("by-sample", "then each sample's labelled units apart (e.g. the pilot and the main sample)")
      ("format", po::value<std::string>()->default_value("text"), "text or json")
      ("output,o", po::value<std::string>(), "also write the table to this workbook (.xlsx, sheet Corpus)");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "corpus table",
                     "[--sample NAME ...] [--rule unanimous|majority] [--level N] [--by-sample] [--format text|json]\n"
                     "       [-o FILE.xlsx]\n\n"
                     "Table I. Per source of the corpus: documents stored, in the retrieval's window, retrieved\n"
                     "(corpus/retrieved.jsonl), screened, screened out as false positives (by --rule), kept, the\n"
                     "false-positive rate (screened out / retrieved; the total row's pooled, and the mean of the\n"
                     "sources' rates under the table); then the labelled units of the samples' label tables\n"
                     "(qualrank corpus labels export) per year of creation and top-level node.\n"
                     "--by-sample adds, after the whole table, each sample's units apart (its own label table's\n"
                     "units per source, year and node), in text and JSON (\"by_sample\") and as one sheet per sample.",
                     desc, args, vm, rc))
    return rc;
  const std::string rule = vm.count("rule") ? vm["rule"].as<std::string>() : corpus::samples_rule(ctx.workspace);
  if (!check_choice(ctx, "corpus table", "rule", rule, {"unanimous", "majority"}) ||
      !check_choice(ctx, "corpus table", "format", vm["format"].as<std::string>(), {"text", "json"}))
    return 2;
  const int level = vm["level"].as<int>();
  if (level < 1) {
    *ctx.err << "qualrank corpus table: error: --level must be 1 or more\n";
    return 2;
  }
  std::vector<std::string> samples;
  if (vm.count("sample")) samples = vm["sample"].as<std::vector<std::string>>();
  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags);
  auto version = taxonomy_at(*ws, std::nullopt, diags);
  if (!version) return report_diagnostics(ctx, diags);
  if (level > version->taxonomy.max_level()) {
    *ctx.err << "qualrank corpus table: error: --level " << level << " is deeper than the taxonomy (" << version->taxonomy.max_level()
             << " levels)\n";
    return 2;
  }
  // --by-sample: each sample's units apart, from the same reading; the screening columns are the corpus's,
  // shown once in the whole table.
  std::vector<std::pair<std::string, CorpusTable>> apart;
  auto table = corpus::corpus_overview(ctx.workspace, version->taxonomy, version->resolve, level,
                                       rule == "majority" ? corpus::ExclusionRule::majority : corpus::ExclusionRule::unanimous,
                                       samples, diags, vm.count("by-sample") ? &apart : nullptr);
  if (!table || diags.has_errors()) return report_diagnostics(ctx, diags) | 1;
  report_diagnostics(ctx, diags);
  if (vm.count("output")) {
    const auto out = given_path(ctx, vm["output"].as<std::string>());
    if (auto problem = files::output_problem(out); !problem.empty()) {
      *ctx.err << "qualrank corpus table: error: " << out.string() << ": " << problem << '\n';
      return 1;
    }
    Diagnostics book_diags;
    xlsx::Book book(out, {"Corpus", "qualrank corpus table", "qualrank", ""}, book_diags);
    if (book.ok()) corpus_sheet(book, *table, version->taxonomy);
    for (const auto& [name, one] : apart)
      if (book.ok()) corpus_sheet(book, one, version->taxonomy, "Sample " + name);
    report_diagnostics(ctx, book_diags);
    if (!book.ok() || !book.commit()) {
      *ctx.err << "qualrank corpus table: error: cannot write " << out.string() << ": " << book.error() << '\n';
      return 1;
    }
  }
  if (vm["format"].as<std::string>() == "json") {
    auto j = corpus_table_json(*table, version->taxonomy);
    if (vm.count("by-sample")) {
      j["by_sample"] = nlohmann::ordered_json::object();
      for (const auto& [name, one] : apart) j["by_sample"][name] = corpus_table_json(one, version->taxonomy);
    }
    *ctx.out << j.dump(2) << '\n';
  } else {
    *ctx.out << corpus_table_text(*table, version->taxonomy);
    for (const auto& [name, one] : apart)
      *ctx.out << "\nSample " << name << " (codebooks/labels/" << name << ".csv), its units apart:\n"
               << corpus_table_text(one, version->taxonomy);
  }
  return 0;
}

}  // namespace qualrank::cli
