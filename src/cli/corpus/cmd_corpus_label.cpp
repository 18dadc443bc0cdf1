// `qualrank corpus label`: a coder's labels of a sample's documents (taxonomy nodes) into
// corpus/labels/<sample>/<coder>.csv, one at a time (--doc), from a CSV (--from-csv), or in the terminal
// labeller (src/tui/label/label_main.cpp) when neither is given on a terminal. Blind: it prints only the coder's
// own label and progress. `qualrank corpus labels export`: the label table agreement --labels reads.
#include <unistd.h>

#include <iostream>
#include <unordered_map>

#include "../cli.h"
#include "qualrank/analysis/corpus/corpus_labels.h"
#include "qualrank/model/coding_edit.h"
#include "qualrank/model/corpus/corpus_screening.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::cli {

using namespace qualrank::corpus;

namespace {

// SOURCE#ID as given, or the ID when exactly one document of the sample has it; "" with a message otherwise.
std::string find_doc(const std::vector<std::string>& docs, const std::string& given, std::string& why) {
  std::vector<std::string> by_id;
  for (const auto& d : docs) {
    if (d == given) return d;
    if (given.find('#') == std::string::npos && d.substr(d.find('#') + 1) == given) by_id.push_back(d);
  }
  if (by_id.size() == 1) return by_id.front();
  why = "'" + given + "' is not a document of the sample";
  if (by_id.size() > 1) why += " (several sources have that id: " + text::join(by_id, ", ") + ")";
  return {};
}

}  // namespace

int cmd_corpus_label(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("corpus label options");
  desc.add_options()
      ("coder", po::value<std::string>(), "who labels (names corpus/labels/SAMPLE/NAME.csv)")
      ("sample", po::value<std::string>(), "the sample (corpus/samples/NAME.txt)")
      ("doc", po::value<std::string>(), "the document: SOURCE#ID (or the ID when only one document of the sample has it)")
      ("node", po::value<std::vector<std::string>>()->composing(),
       "taxonomy node id, name or alias (repeatable, or ID,ID): one node and, optionally, its ancestors")
      ("note", po::value<std::string>(), "a note kept with the label")
      ("remove", "remove the coder's label of --doc")
      ("from-csv", po::value<std::string>(), "record many labels: a CSV with columns doc, nodes (ids separated by spaces), note");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "corpus label",
                     "--coder NAME --sample NAME --doc SOURCE#ID --node ID[,ID] [--note TEXT]\n"
                     "       qualrank corpus label --coder NAME --sample NAME --doc SOURCE#ID --remove\n"
                     "       qualrank corpus label --coder NAME --sample NAME --from-csv FILE\n"
                     "       qualrank corpus label --coder NAME --sample NAME      (on a terminal: the labeller)\n\n"
                     "A label is one taxonomy node and, optionally, its ancestors (a top-level node and one below it);\n"
                     "a later label of a document replaces the coder's earlier one. Blind: only the coder's own labels\n"
                     "and progress are shown. docs/corpus.md, 'Labelling'.",
                     desc, args, vm, rc)) {
    if (rc == 0 && vm.count("help")) {
      *ctx.out << "\nthe labeller's keys (every label is saved as made):\n";
      for (const auto& line : corpus_labeller_keys()) *ctx.out << line << '\n';
    }
    return rc;
  }
  auto usage = [&](const std::string& m) {
    *ctx.err << "qualrank corpus label: error: " << m << '\n';
    return 2;
  };
  if (!vm.count("coder") || !vm.count("sample")) return usage("give --coder NAME and --sample NAME");
  const std::string coder = vm["coder"].as<std::string>(), sample = vm["sample"].as<std::string>();
  if (auto why = coder_name_problem(coder); !why.empty()) return usage("--coder '" + coder + "': " + why);
  if (auto why = screener_name_problem(sample); !why.empty()) return usage("--sample '" + sample + "': not a sample name");
  // ALICE beside alice: one file on macOS and Windows, two coders here.
  for (const auto& f : files::list_files(ctx.workspace / labels_dir(sample), ".csv"))
    if (const std::string other = f.stem().string(); other != coder && text::fold_case(other) == text::fold_case(coder))
      return usage("--coder '" + coder + "': sample " + sample + " has the coder '" + other +
                   "' (" + labels_path(sample, other) + "), a name that differs only in case: use '" + other + "'");
  const bool batch = vm.count("from-csv") > 0, one = vm.count("doc") > 0, remove = vm.count("remove") > 0;
  if (!batch && !one) {
    if (vm.count("node") || vm.count("note") || remove) return usage("--node, --note and --remove go with --doc");
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
      return usage("give --doc SOURCE#ID --node ID or --from-csv FILE (the labeller needs a terminal)");
    return cmd_corpus_labeller(ctx, coder, sample);
  }
  if (batch && (one || vm.count("node") || vm.count("note") || remove)) return usage("--from-csv takes no --doc, --node, --note or --remove");
  if (one && remove == (vm.count("node") > 0)) return usage("give --doc with --node ID[,ID] or with --remove");

  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags);
  auto version = taxonomy_at(*ws, std::nullopt, diags);
  if (!version) return report_diagnostics(ctx, diags);
  files::WorkspaceLock lock(ctx.workspace);
  if (!lock_held(ctx, "corpus label", lock)) return 1;
  auto list = load_sample_list(ctx.workspace, sample, diags);
  if (!list || diags.has_errors()) return report_diagnostics(ctx, diags);
  const std::string& stamp = list->stamp;  // each label made now records the draw
  const std::vector<std::string>& docs = list->docs;
  const std::string rel = labels_path(sample, coder);
  std::vector<DocumentLabel> mine;
  if (files::exists(ctx.workspace / rel)) {
    std::string why;
    auto text = files::read_inside(ctx.workspace, rel, &why);
    if (!text) diags.error({rel, 0, 0}, why);
    else mine = read_labels(*text, rel, diags);
    if (diags.has_errors()) return report_diagnostics(ctx, diags);
  }
  std::string shown;  // what one label did, as printed
  std::size_t fresh = 0, changed = 0;
  if (batch) {
    const std::string file = vm["from-csv"].as<std::string>();
    std::string where;
    auto path = input_path(ctx, file, &where);
    auto text = path ? files::read(*path) : std::nullopt;
    if (!text) {
      diags.error({file, 0, 0}, "cannot read the file" + (where.empty() ? std::string() : ": " + where));
      return report_diagnostics(ctx, diags);
    }
    auto incoming = read_labels(*text, file, diags);
    std::unordered_map<std::string, int> in_sample;
    for (const auto& d : docs) in_sample.emplace(d, 0);
    for (auto& l : incoming) {
      if (!in_sample.count(l.doc)) {
        diags.error({file, l.line, 1}, "'" + l.doc + "' is not a document of sample " + sample + " (" + sample_path(sample) + ")");
        continue;
      }
      auto ids = resolve_node_ids(l.nodes, version->taxonomy, version->resolve, {file, l.line, 1}, diags);
      if (!ids) continue;
      auto ln = label_nodes(*ids, version->taxonomy);
      if (!ln.problem.empty()) diags.error({file, l.line, 1}, ln.problem);
      l.nodes = ln.nodes;
    }
    if (diags.has_errors()) return report_diagnostics(ctx, diags);
    for (auto& l : incoming) {
      l.line = 0;
      l.sample = stamp;
      if (set_label(mine, std::move(l))) ++changed;
      else ++fresh;
    }
    shown = coder + ": " + std::to_string(incoming.size()) + " labels recorded (" + std::to_string(fresh) + " new, " +
            std::to_string(changed) + " replaced)";
  } else {
    std::string why;
    std::string doc = find_doc(docs, vm["doc"].as<std::string>(), why);
    // A label of a document the sample no longer holds (drawn again since) can still be removed.
    if (doc.empty() && remove)
      for (const auto& l : mine)
        if (l.doc == vm["doc"].as<std::string>()) doc = l.doc;
    if (doc.empty()) {
      *ctx.err << "qualrank corpus label: error: " << why << " (" << sample_path(sample) << ")\n";
      return 1;
    }
    if (remove) {
      if (!remove_label(mine, doc)) {
        *ctx.err << "qualrank corpus label: error: " << coder << " has no label of " << doc << " to remove\n";
        return 1;
      }
      shown = coder + ": " + doc + " no longer labelled";
    } else {
      std::vector<std::string> written;
      for (const auto& n : vm["node"].as<std::vector<std::string>>())
        for (auto& piece : text::split_nonempty(n, ',')) written.push_back(piece);
      if (written.empty()) return usage("--node names no node");
      auto ids = resolve_node_ids(written, version->taxonomy, version->resolve, {"--node", 0, 0}, diags);
      if (!ids) return report_diagnostics(ctx, diags);
      auto ln = label_nodes(*ids, version->taxonomy);
      if (!ln.problem.empty()) {
        *ctx.err << "qualrank corpus label: error: " << ln.problem << '\n';
        return 1;
      }
      DocumentLabel l{doc, ln.nodes, vm.count("note") ? vm["note"].as<std::string>() : "", 0, stamp};
      const bool replaced = set_label(mine, l).has_value();
      const auto* node = version->taxonomy.find(ln.category);
      shown = coder + ": " + doc + " " + join_nodes(ln.nodes) + (node ? " (" + node->name + ")" : "") +
              (replaced ? " (replaces the earlier label)" : "");
    }
  }
  auto target = files::resolve_inside(ctx.workspace, rel);
  std::string err;
  if (!target || !files::write_atomic(*target, labels_text(mine), &err)) {
    *ctx.err << "qualrank corpus label: error: cannot write " << rel << ": " << (target ? err : "outside the workspace") << '\n';
    return 1;
  }
  if (!ctx.quiet) {
    std::unordered_map<std::string, int> in_sample;
    for (const auto& d : docs) in_sample.emplace(d, 0);
    std::size_t done = 0;
    for (const auto& l : mine) done += in_sample.count(l.doc);
    *ctx.out << shown << '\n' << coder << ": " << progress_text(done, docs.size()) << " (sample " << sample << ")\n";
  }
  return 0;
}

// `corpus labels export --layout published`: every file staged, then all renamed together.
static int corpus_labels_export_published(Context& ctx, const po::variables_map& vm) {
  const char* cmd = "corpus labels export";
  std::vector<std::string> samples;
  if (vm.count("sample")) {
    samples.push_back(vm["sample"].as<std::string>());
    if (!screener_name_problem(samples.front()).empty()) {
      *ctx.err << "qualrank " << cmd << ": error: '" << samples.front() << "' is not a sample name\n";
      return 2;
    }
  }
  std::optional<std::filesystem::path> dir;
  if (vm.count("output")) dir = given_path(ctx, vm["output"].as<std::string>());
  else dir = default_output(ctx, cmd, "codebooks/published");
  if (!dir) return 1;
  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags);
  auto version = taxonomy_at(*ws, std::nullopt, diags);
  if (!version) return report_diagnostics(ctx, diags);
  files::WorkspaceLock lock(ctx.workspace);
  if (!lock_held(ctx, cmd, lock)) return 1;
  const bool every = samples.empty();
  if (every)
    for (const auto& p : files::list_files(ctx.workspace / "corpus/samples", ".txt"))
      if (screener_name_problem(p.stem().string()).empty()) samples.push_back(p.stem().string());
  std::vector<SampleLabels> loaded;
  for (const auto& sample : samples) {
    auto s = load_sample_labels(ctx.workspace, sample, version->taxonomy, version->resolve, diags);
    if (!s) continue;
    for (const auto& n : s->not_in_sample) diags.warning({sample_path(sample), 0, 0}, "a label of a document not in the sample: " + n.text());
    warn_stale_decisions(*s, sample, diags);
    if (s->coders.empty() && every) continue;  // a sample nobody labelled yet is not part of the study's labels
    if (s->coders.size() < 2) {
      diags.error({labels_dir(sample), 0, 0}, s->coders.empty() ? "nobody has labelled sample " + sample + " yet"
                                                                : "only " + s->coders.front() + " has labelled sample " + sample +
                                                                      ": a label table compares coders, so it needs two");
      continue;
    }
    loaded.push_back(std::move(*s));
  }
  if (diags.has_errors()) return report_diagnostics(ctx, diags);
  if (loaded.empty()) {
    report_diagnostics(ctx, diags);
    *ctx.err << "qualrank " << cmd << ": error: no sample has labels yet (corpus/labels/SAMPLE/CODER.csv); nothing written\n";
    return 1;
  }
  std::vector<const SampleLabels*> pointers;
  for (const auto& s : loaded) pointers.push_back(&s);
  auto layout = load_published_layout(ctx.workspace, pointers, diags);
  if (!layout) return report_diagnostics(ctx, diags);
  if (layout->undated > 0)
    diags.warning({"corpus", 0, 0}, std::to_string(layout->undated) + " document(s) have no created date: in the tables, in no year list");
  report_diagnostics(ctx, diags);
  files::StagedFiles staged;
  std::string err;
  for (const auto& f : layout->files)
    if (!staged.stage(*dir / f.path, f.text, &err)) {
      *ctx.err << "qualrank " << cmd << ": error: cannot write " << (*dir / f.path).string() << ": " << err << '\n';
      return 1;
    }
  if (!staged.commit(&err)) {
    *ctx.err << "qualrank " << cmd << ": error: " << err << '\n';
    return 1;
  }
  if (!ctx.quiet) {
    const auto shown = dir->lexically_relative(ctx.workspace);
    const std::string where = (shown.empty() || shown.begin()->string() == "..") ? dir->string() : shown.generic_string();
    *ctx.out << where << ": " << layout->sources.size() << " source" << (layout->sources.size() == 1 ? "" : "s") << " ("
             << text::join(layout->sources, ", ") << "), " << layout->units << " units, " << layout->files.size() << " files\n";
    for (std::size_t c = 0; c < layout->coders.size(); ++c)
      *ctx.out << "  Label" << c + 1 << ": " << layout->coders[c] << '\n';
  }
  return 0;
}

int cmd_corpus_labels(Context& ctx, const std::vector<std::string>& args) {
  if (ctx.describe && (args.empty() || args[0] != "export")) {  // the catalog (manual, completion): its one subcommand
    std::vector<std::string> with{"export"};
    with.insert(with.end(), args.begin(), args.end());
    return cmd_corpus_labels(ctx, with);
  }
  if (args.empty() || args[0] != "export") {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
      *ctx.out << "usage: qualrank corpus labels export --sample NAME\n"
                  "       qualrank corpus labels export --layout published [--sample NAME] [-o DIR]\n\n"
                  "Writes codebooks/labels/NAME.csv: unit (SOURCE#ID), Label_<coder> per coder (the deepest node of\n"
                  "the coder's label), Final_Label (the reconciled label, or the coders' when they all agree).\n"
                  "--layout published: per source DIR/SOURCE/SOURCE.csv (Issue_URL,Label1..,Final_Label) and\n"
                  "DIR/SOURCE/SOURCE_YEAR.txt (the urls of its rows per year).\n";
      return 0;
    }
    *ctx.err << "qualrank corpus labels: error: the subcommand is 'export' (qualrank corpus labels export --sample NAME)\n";
    return 2;
  }
  po::options_description desc("corpus labels export options");
  desc.add_options()
      ("sample", po::value<std::string>(), "the sample (corpus/samples/NAME.txt); --layout published: default every labelled sample")
      ("layout", po::value<std::string>()->default_value("workspace"),
       "workspace (codebooks/labels/NAME.csv) or published (a table per source keyed by url, and the urls per year)")
      ("output,o", po::value<std::string>(), "--layout published: the folder (default codebooks/published; relative to the workspace)");
  po::variables_map vm;
  int rc = 0;
  std::vector<std::string> rest(args.begin() + 1, args.end());
  if (!parse_options(ctx, "corpus labels export",
                     "--sample NAME\n"
                     "       qualrank corpus labels export --layout published [--sample NAME] [-o DIR]\n\n"
                     "Writes codebooks/labels/NAME.csv, the label table 'qualrank agreement --labels' and the corpus table\n"
                     "read: unit (SOURCE#ID), Label_<coder> per coder (the deepest node of the coder's label) and\n"
                     "Final_Label (the reconciliation's decision, else the coders' label when every coder gave it).\n"
                     "--layout published writes the layout studies publish, per source: DIR/SOURCE/SOURCE.csv\n"
                     "(Issue_URL, Label1..LabelN = the coders by name, Final_Label) and DIR/SOURCE/SOURCE_YEAR.txt (the\n"
                     "urls of the table's rows created that year). docs/corpus.md, 'The published layout'.",
                     desc, rest, vm, rc))
    return rc;
  const std::string layout = vm["layout"].as<std::string>();
  if (layout != "workspace" && layout != "published") {
    *ctx.err << "qualrank corpus labels export: error: --layout is workspace or published, not '" << layout << "'\n";
    return 2;
  }
  if (layout == "published") return corpus_labels_export_published(ctx, vm);
  if (vm.count("output")) {
    *ctx.err << "qualrank corpus labels export: error: -o goes with --layout published (the workspace layout is codebooks/labels/NAME.csv)\n";
    return 2;
  }
  if (!vm.count("sample")) {
    *ctx.err << "qualrank corpus labels export: error: give --sample NAME\n";
    return 2;
  }
  const std::string sample = vm["sample"].as<std::string>();
  if (!screener_name_problem(sample).empty()) {
    *ctx.err << "qualrank corpus labels export: error: '" << sample << "' is not a sample name\n";
    return 2;
  }
  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags);
  auto version = taxonomy_at(*ws, std::nullopt, diags);
  if (!version) return report_diagnostics(ctx, diags);
  files::WorkspaceLock lock(ctx.workspace);
  if (!lock_held(ctx, "corpus labels export", lock)) return 1;
  auto s = load_sample_labels(ctx.workspace, sample, version->taxonomy, version->resolve, diags);
  if (!s) return report_diagnostics(ctx, diags);
  for (const auto& n : s->not_in_sample) diags.warning({sample_path(sample), 0, 0}, "a label of a document not in the sample: " + n.text());
  warn_stale_decisions(*s, sample, diags);
  report_diagnostics(ctx, diags);
  if (s->coders.empty()) {
    *ctx.err << "qualrank corpus labels export: error: nobody has labelled sample " << sample << " yet ("
             << labels_dir(sample) << "/CODER.csv)\n";
    return 1;
  }
  if (s->coders.size() == 1) {  // a label table compares coders: with one, validate and report could not read it
    *ctx.err << "qualrank corpus labels export: error: only " << s->coders.front() << " has labelled sample " << sample
             << ": a label table compares coders, so it needs two (label with a second coder: 'qualrank corpus label "
                "--coder NAME --sample " << sample << "'); nothing written\n";
    return 1;
  }
  const std::string rel = "codebooks/labels/" + sample + ".csv";
  auto target = files::resolve_inside(ctx.workspace, rel);
  std::string err;
  if (!target || !files::write_atomic(*target, label_table_text(*s), &err)) {
    *ctx.err << "qualrank corpus labels export: error: cannot write " << rel << ": " << (target ? err : "outside the workspace") << '\n';
    return 1;
  }
  if (!ctx.quiet) {
    std::size_t finals = 0, labelled = 0;
    for (std::size_t d = 0; d < s->docs.size(); ++d) {
      finals += !final_category(*s, d).empty();
      labelled += doc_state(*s, d) != DocState::unlabelled;
    }
    *ctx.out << rel << ": " << s->docs.size() << " units, " << s->coders.size() << " coder" << (s->coders.size() == 1 ? "" : "s")
             << " (" << text::join(s->coders, ", ") << "), " << labelled << " labelled, " << finals << " with a Final_Label\n";
  }
  return 0;
}

}  // namespace qualrank::cli
