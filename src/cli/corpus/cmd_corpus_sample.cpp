// `qualrank corpus sample NAME`: the sample size by Cochran's formula with the finite-population correction,
// optionally allocated to the sources in proportion, drawn with a seed from the retrieved documents that
// screening did not exclude (and that no --exclude sample holds), written to corpus/samples/NAME.txt
// (analysis/corpus/corpus_sample.h).
#include <charconv>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "../cli.h"
#include "qualrank/analysis/corpus/corpus_provenance.h"
#include "qualrank/analysis/corpus/corpus_sample.h"
#include "qualrank/analysis/corpus/corpus_screening.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_labels.h"
#include "qualrank/util/files.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::cli {

using namespace qualrank::corpus;

namespace {

// A parameter as the shortest text that reads back to the same double (0.95, not 0.94999999999999996).
std::string shortest(double x) {
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, r.ptr);
}

}  // namespace

int cmd_corpus_sample(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("corpus sample options");
  desc.add_options()
      ("name", po::value<std::string>()->required(), "the sample's name: corpus/samples/NAME.txt")
      ("confidence", po::value<double>()->default_value(0.95, "0.95"), "confidence level (0.95 = 95%)")
      ("margin", po::value<double>()->default_value(0.05, "0.05"), "margin of error e (0.05 = 5 points)")
      ("proportion", po::value<double>()->default_value(0.5), "expected proportion p (0.5: the largest sample)")
      ("size", po::value<std::size_t>(), "draw this many instead of Cochran's n")
      ("stratify", po::value<std::string>(), "'source': allocate the sample to the sources in proportion (largest remainders)")
      ("seed", po::value<std::uint64_t>()->default_value(1), "the random seed (same seed, same sample)")
      ("exclude", po::value<std::vector<std::string>>()->composing(), "leave out the documents of this earlier sample (repeatable)")
      ("rule", po::value<std::string>()->default_value("unanimous"), "screening's exclusion rule: unanimous or majority")
      ("force", "replace an existing sample of that name");
  po::positional_options_description pos;
  pos.add("name", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "corpus sample",
                     "NAME [--confidence 0.95] [--margin 0.05] [--proportion 0.5] [--size N] [--stratify source]\n"
                     "       [--seed N] [--exclude SAMPLE ...] [--rule unanimous|majority] [--force]\n\n"
                     "The population: corpus/retrieved.jsonl less the false positives screening excludes and the\n"
                     "documents of the --exclude samples. n0 = z^2 p(1-p)/e^2, n = n0/(1 + (n0-1)/N) rounded up\n"
                     "(Cochran 1977; Singh & Mangat 1996). docs/corpus.md has the details.",
                     desc, args, vm, rc, &pos))
    return rc;
  const std::string name = vm["name"].as<std::string>();
  if (auto why = screener_name_problem(name); !why.empty()) {
    *ctx.err << "qualrank corpus sample: error: a sample name has 1 to 64 characters: letters, digits, '.', '_' and '-', not '" << name << "'\n";
    return 2;
  }
  const double confidence = vm["confidence"].as<double>(), margin = vm["margin"].as<double>(), p = vm["proportion"].as<double>();
  if (!(confidence > 0 && confidence < 1) || !(margin > 0 && margin < 1) || !(p > 0 && p < 1)) {
    *ctx.err << "qualrank corpus sample: error: --confidence, --margin and --proportion lie strictly between 0 and 1\n";
    return 2;
  }
  if (!(1 - (1 - confidence) / 2 < 1)) {  // 0.9999999999999999: the quantile 1 - (1 - c)/2 rounds to 1, z is infinite
    *ctx.err << "qualrank corpus sample: error: --confidence " << shortest(confidence) << " is too close to 1: its z is not finite\n";
    return 2;
  }
  const bool stratify = vm.count("stratify") > 0;
  if (stratify && !check_choice(ctx, "corpus sample", "stratification", vm["stratify"].as<std::string>(), {"source"})) return 2;
  if (!check_choice(ctx, "corpus sample", "rule", vm["rule"].as<std::string>(), {"unanimous", "majority"})) return 2;
  const std::string rel = "corpus/samples/" + name + ".txt";
  Diagnostics diags;
  files::WorkspaceLock lock(ctx.workspace);
  if (!lock_held(ctx, "corpus sample", lock)) return 1;
  if (files::exists(ctx.workspace / rel) && !vm.count("force")) {
    *ctx.err << "qualrank corpus sample: error: " << rel << " exists; give --force to replace it, or another name\n";
    return 1;
  }
  std::vector<RetrievedRef> retrieved;
  {
    const std::string rr = "corpus/retrieved.jsonl";
    std::string why;
    auto text = files::exists(ctx.workspace / rr) ? files::read_inside(ctx.workspace, rr, &why) : std::nullopt;
    if (!text) {
      diags.error({rr, 0, 0}, why.empty() ? "nothing retrieved yet: run 'qualrank corpus retrieve'" : why);
      return report_diagnostics(ctx, diags);
    }
    check_retrieval_current(ctx.workspace, *text, diags, true);  // a sample drawn from a stale retrieval would be wrong
    retrieved = read_retrieved(*text, rr, diags);
  }
  auto screeners = read_all_screening(ctx.workspace, diags);
  std::set<std::string> left_out;
  SampleProvenance provenance;
  if (vm.count("exclude"))
    for (const auto& other : vm["exclude"].as<std::vector<std::string>>()) {
      const std::string orel = "corpus/samples/" + other + ".txt";
      std::string why;
      auto text = files::exists(ctx.workspace / orel) ? files::read_inside(ctx.workspace, orel, &why) : std::nullopt;
      if (!text) {
        diags.error({orel, 0, 0}, why.empty() ? "no such sample" : why);
        continue;
      }
      if (other == name && vm.count("force")) {
        diags.error({orel, 0, 0}, "--exclude " + other + " names the sample --force replaces: its documents would be left out of its own redraw");
        continue;
      }
      provenance.excluded.emplace_back(other, sha256_hex(*text));
      std::istringstream in(*text);
      for (std::string line; std::getline(in, line);)
        if (auto t = text::trim(line); !t.empty() && t[0] != '#') left_out.emplace(t);
    }
  if (diags.has_errors()) return report_diagnostics(ctx, diags);
  const auto pop = sample_population(retrieved, screeners,
                                     vm["rule"].as<std::string>() == "majority" ? ExclusionRule::majority : ExclusionRule::unanimous,
                                     left_out, stratify);
  const auto& strata = pop.strata;
  const std::size_t population = pop.size, in_samples = pop.in_samples, excluded_count = pop.excluded;
  auto size = cochran_sample_size(population, confidence, margin, p);
  std::size_t n = size.n;
  if (vm.count("size")) {
    n = vm["size"].as<std::size_t>();
    if (n > population) {
      *ctx.err << "qualrank corpus sample: error: --size " << n << " is more than the " << population << " documents to draw from\n";
      return 1;
    }
  }
  std::vector<std::size_t> sizes;
  for (const auto& [s, docs] : strata) sizes.push_back(docs.size());
  auto alloc = allocate_proportional(n, sizes);
  stats::Rng rng(vm["seed"].as<std::uint64_t>());
  std::vector<std::string> drawn;
  std::size_t h = 0;
  for (const auto& [s, docs] : strata) {
    for (auto k : draw_without_replacement(docs.size(), alloc[h], rng)) drawn.push_back(docs[k]);
    ++h;
  }
  std::sort(drawn.begin(), drawn.end(), [](const auto& a, const auto& b) { return doc_less(a, b); });
  provenance.rule = vm["rule"].as<std::string>();
  provenance.seed = std::to_string(vm["seed"].as<std::uint64_t>());
  provenance.confidence = shortest(confidence);
  provenance.margin = shortest(margin);
  provenance.proportion = shortest(p);
  provenance.size = vm.count("size") ? std::to_string(n) : std::string("cochran");
  provenance.stratify = stratify ? "source" : "none";
  provenance.population = population;
  provenance.population_sha256 = population_sha256(pop);
  std::string out = sample_provenance_lines(provenance);
  for (const auto& d : drawn) out += d + "\n";
  auto target = files::resolve_inside(ctx.workspace, rel);
  std::string err;
  if (!target || !files::write_atomic(*target, out, &err)) {
    *ctx.err << "qualrank corpus sample: error: cannot write " << rel << ": " << (target ? err : "outside the workspace") << '\n';
    return 1;
  }
  // Drawn again over labels: those of documents the new draw does not hold stay in their files, not counted.
  {
    const std::set<std::string> in(drawn.begin(), drawn.end());
    std::size_t outside = 0;
    for (const auto& f : files::list_files(ctx.workspace / ("corpus/labels/" + name), ".csv")) {
      std::string why;
      const std::string frel = "corpus/labels/" + name + "/" + f.filename().string();
      auto text = files::read_inside(ctx.workspace, frel, &why);
      if (!text) continue;
      Diagnostics ignored;  // (validate reports a malformed file)
      if (f.filename() == "decisions.csv") {
        for (const auto& d : read_decisions(*text, frel, ignored)) outside += in.count(d.doc) ? 0 : 1;
      } else {
        for (const auto& l : read_labels(*text, frel, ignored)) outside += in.count(l.doc) ? 0 : 1;
      }
    }
    if (outside > 0)
      *ctx.err << rel << ": warning: " << outside << " label(s) or decision(s) in corpus/labels/" << name
               << "/ are of documents this draw does not hold: kept in their files, not counted ('qualrank status' lists "
                  "them)\n";
  }
  if (ctx.quiet) return 0;
  *ctx.out << rel << ": " << drawn.size() << " of " << population << " documents (seed " << vm["seed"].as<std::uint64_t>() << ")\n"
           << "population N = " << population << ": " << retrieved.size() << " retrieved - " << excluded_count
           << " excluded as false positives (" << vm["rule"].as<std::string>() << ") - " << in_samples << " in excluded samples\n"
           << "z = " << text::fixed(size.z, 6) << " (confidence " << confidence << "), p = " << p << ", e = " << margin << '\n'
           << "n0 = z^2 p (1 - p) / e^2 = " << text::fixed(size.n0, 4) << '\n'
           << "n = n0 / (1 + (n0 - 1) / N) = " << size.n << " (rounded up)";
  if (vm.count("size")) *ctx.out << "; drawn instead: --size " << n;
  *ctx.out << '\n';
  if (stratify) {
    std::vector<std::vector<std::string>> rows{{"source", "documents", "sample", "exact share"}};
    h = 0;
    for (const auto& [s, docs] : strata) {
      double exact = population ? static_cast<double>(n) * static_cast<double>(docs.size()) / static_cast<double>(population) : 0;
      rows.push_back({s, std::to_string(docs.size()), std::to_string(alloc[h]), text::fixed(exact, 2)});
      ++h;
    }
    *ctx.out << "allocation in proportion to the sources (largest remainders):\n" << text::columns(rows, {false, true, true, true}, "  ");
  }
  return 0;
}

}  // namespace qualrank::cli
