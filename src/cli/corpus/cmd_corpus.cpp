// `qualrank corpus`: documents (issue reports) before they are labelled: import an export, retrieve the
// relevant ones by keywords, screen out false positives, draw a sample (docs/corpus.md). Dispatches to the
// subcommands; `corpus import` is here, the others in cmd_corpus_*.cpp (label and labels export in
// cmd_corpus_label.cpp, reconcile in cmd_corpus_reconcile.cpp, table in cmd_corpus_table.cpp).
#include <iostream>

#include "../cli.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::cli {

namespace {

int corpus_import(Context& ctx, const std::vector<std::string>& args);

const std::vector<Command>& subcommands() {
  static const std::vector<Command> table = {
      {"import", "add an export (gh issue list/gh api JSON, JSON Lines, CSV) to corpus/<source>.jsonl", corpus_import},
      {"keywords", "keywords import FILE: turn a file of Python-like keyword lists into corpus/keywords.yaml", cmd_corpus_keywords},
      {"retrieve", "keep the documents a source's keywords match (in a date window) in corpus/retrieved.jsonl", cmd_corpus_retrieve},
      {"screen", "record a screener's relevant / false-positive decisions; --status: agreement and FP rate", cmd_corpus_screen},
      {"sample", "draw a reproducible sample (Cochran's size, optionally stratified) into corpus/samples/", cmd_corpus_sample},
      {"label", "record a coder's labels (taxonomy nodes) of a sample's documents; on a terminal: the labeller", cmd_corpus_label},
      {"labels", "labels export --sample NAME: the label table (a column per coder, Final_Label) in codebooks/labels/", cmd_corpus_labels},
      {"reconcile", "walk the documents the coders labelled differently; --majority decides by majority", cmd_corpus_reconcile},
      {"table", "Table I: per source retrieved, screened out, kept, FP rate, and units per year and top-level node", cmd_corpus_table},
  };
  return table;
}

int corpus_import(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("corpus import options");
  desc.add_options()
      ("file", po::value<std::string>()->required(), "the export: .json (gh), .jsonl/.ndjson or .csv (relative to the current folder)")
      ("source", po::value<std::string>(), "the source (repository) its documents belong to, e.g. atlas")
      ("lenient-dates", "keep an issue whose created date is not ISO 8601 without a date (a warning), instead of an error");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "corpus import",
                     "FILE --source NAME\n\n"
                     "Reads the JSON of 'gh issue list --json number,url,title,body,createdAt,labels,comments', of\n"
                     "'gh api repos/OWNER/REPO/issues', JSON Lines of either, or CSV (id or url, source, created, title,\n"
                     "body). A newer export of the same source adds new documents and updates changed ones; screening\n"
                     "decisions are kept. All or nothing: any error, and nothing is written.",
                     desc, args, vm, rc, &pos))
    return rc;
  const std::string file = vm["file"].as<std::string>();
  const std::string source = vm.count("source") ? vm["source"].as<std::string>() : "";
  Diagnostics diags;
  // The one read policy (a regular file, its size checked before reading) at the export's own limit.
  static constexpr files::InputLimit kExport{corpus::kMaxImportBytes, "an issue export"};
  std::string why, where;
  auto path = input_path(ctx, file, &where);  // (from the workspace, or the current folder: cli.h)
  auto text = path ? files::read_input(*path, kExport, &why) : std::nullopt;
  if (!text) {
    diags.error({file, 0, 0}, where.empty() ? why : where);
    return report_diagnostics(ctx, diags);
  }
  files::WorkspaceLock lock(ctx.workspace);
  if (!lock_held(ctx, "corpus import", lock)) return 1;
  corpus::ImportOptions options;
  options.lenient_dates = vm.count("lenient-dates") > 0;
  auto counts = corpus::import_export(ctx.workspace, *text, file, source, diags, options);
  if (!counts || diags.has_errors()) return report_diagnostics(ctx, diags) | 1;
  report_diagnostics(ctx, diags);
  if (!ctx.quiet)
    for (const auto& [name, c] : *counts) {
      *ctx.out << "corpus/" << name << ".jsonl: " << c.added << " added, " << c.updated << " updated, " << c.unchanged
               << " unchanged";
      if (c.kept > 0) *ctx.out << ", " << c.kept << " kept (not in this export)";
      *ctx.out << '\n';
    }
  return 0;
}

}  // namespace

std::vector<SubcommandHelp> corpus_subcommands() { return subcommand_help(subcommands()); }

int cmd_corpus(Context& ctx, const std::vector<std::string>& args) {
  return dispatch_subcommand(ctx, "corpus", subcommands(), args,
                             "'qualrank corpus SUBCOMMAND --help' describes its options; docs/corpus.md the files and formulas.");
}

}  // namespace qualrank::cli
