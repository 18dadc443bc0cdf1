// `qualrank corpus keywords import FILE` (a study's Python-like keyword lists into corpus/keywords.yaml) and
// `qualrank corpus retrieve` (keyword retrieval into corpus/retrieved.jsonl: analysis/corpus/corpus_retrieve.h).
#include <nlohmann/json.hpp>

#include <future>
#include <iostream>

#include "../cli.h"
#include "qualrank/analysis/corpus/corpus_provenance.h"
#include "qualrank/analysis/corpus/corpus_retrieve.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/files.h"
#include "qualrank/util/hash_cache.h"
#include "qualrank/util/input_bytes.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::cli {

namespace {

constexpr const char* kKeywordsFile = "corpus/keywords.yaml";

int keywords_import(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("corpus keywords import options");
  desc.add_options()
      ("file", po::value<std::string>()->required(), "the lists: NAME_keywords = ['term', \"term\", ...] (relative to the current folder)")
      ("output,o", po::value<std::string>(), "where to write (default: corpus/keywords.yaml)")
      ("force", "replace an existing keywords file");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "corpus keywords import",
                     "FILE [-o FILE] [--force]\n\n"
                     "Each list NAME_keywords becomes source NAME; its terms are kept as written, each once (a term\n"
                     "listed twice is reported), matched as whole words, case-insensitively (edit the YAML to change).",
                     desc, args, vm, rc, &pos))
    return rc;
  auto out = vm.count("output") ? std::optional<std::filesystem::path>(given_path(ctx, vm["output"].as<std::string>()))
                                 : default_output(ctx, "corpus keywords import", kKeywordsFile);
  if (!out) return 1;
  const std::string file = vm["file"].as<std::string>();
  Diagnostics diags;
  auto text = files::read(file);
  if (!text) {
    diags.error({file, 0, 0}, "cannot read the file");
    return report_diagnostics(ctx, diags);
  }
  if (text->size() > 4u * 1024u * 1024u) {
    diags.error({file, 0, 0}, "over the limit of 4 MiB for a keywords file");
    return report_diagnostics(ctx, diags);
  }
  auto lists = corpus::read_keyword_lists(*text, file, diags);
  if (diags.has_errors()) return report_diagnostics(ctx, diags);
  if (files::exists(*out) && !vm.count("force")) {
    *ctx.err << "qualrank corpus keywords import: error: " << files::display_path(*out, ctx.workspace)
             << " exists; give --force to replace it\n";
    return 1;
  }
  report_diagnostics(ctx, diags);
  std::string err;
  if (!files::write_atomic(*out, corpus::keywords_yaml(lists, std::filesystem::path(file).filename().string()), &err)) {
    *ctx.err << "qualrank corpus keywords import: error: cannot write " << out->string() << ": " << err << '\n';
    return 1;
  }
  std::vector<std::vector<std::string>> rows{{"source", "terms", "listed"}};
  for (const auto& [source, terms] : lists.sources)
    rows.push_back({source, std::to_string(terms.size()), std::to_string(lists.listed[source])});
  if (!ctx.quiet)
    *ctx.out << files::display_path(*out, ctx.workspace) << ": " << lists.sources.size() << " sources\n"
             << text::columns(rows, {false, true, true}, "  ");
  return 0;
}

}  // namespace

int cmd_corpus_keywords(Context& ctx, const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "import") return keywords_import(ctx, {args.begin() + 1, args.end()});
  if (ctx.describe) return keywords_import(ctx, args);  // the catalog (manual, completion) describes its one subcommand
  std::ostream& out = args.empty() || (args[0] != "--help" && args[0] != "-h") ? *ctx.err : *ctx.out;
  out << "usage: qualrank corpus keywords import FILE [-o FILE] [--force]\n";
  return &out == ctx.err ? 2 : 0;
}

int cmd_corpus_retrieve(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("corpus retrieve options");
  desc.add_options()
      ("keywords", po::value<std::vector<std::string>>()->composing(), "keyword file(s) (default: corpus/keywords.yaml); repeatable")
      ("from", po::value<std::string>(), "first month (or year, or day) of the window, e.g. 2023-01 (default: the keywords file's)")
      ("to", po::value<std::string>(), "last month (or year, or day) of the window, e.g. 2025-04 (inclusive)")
      ("any-date", "no window: every stored document, whatever its date (forgets a window --from/--to gave)")
      ("format", po::value<std::string>()->default_value("text"), "text or json (on stdout)");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "corpus retrieve",
                     "[--keywords FILE ...] [--from YYYY-MM] [--to YYYY-MM] [--format text|json]\n\n"
                     "Writes corpus/retrieved.jsonl: every document in the window that a term of its source matches\n"
                     "(title, body or a comment), with which terms matched where. A source without a keyword list is\n"
                     "taken whole. Its first line records the window and what it was made from; a plain re-run keeps\n"
                     "the window --from/--to gave last time (and says so), else the keywords file's.",
                     desc, args, vm, rc))
    return rc;
  auto format = vm["format"].as<std::string>();
  if (!check_choice(ctx, "corpus retrieve", "format", format, {"text", "json"})) return 2;
  for (const char* b : {"from", "to"})
    if (vm.count(b) && !corpus::is_date_bound(vm[b].as<std::string>())) {
      *ctx.err << "qualrank corpus retrieve: error: --" << b << " '" << vm[b].as<std::string>()
               << "' is not a date YYYY, YYYY-MM or YYYY-MM-DD\n";
      return 2;
    }
  if (vm.count("any-date") && (vm.count("from") || vm.count("to"))) {
    *ctx.err << "qualrank corpus retrieve: error: --any-date and --from/--to contradict each other\n";
    return 2;
  }
  Diagnostics diags;
  auto sources = corpus::corpus_sources(ctx.workspace, diags);
  if (diags.has_errors()) return report_diagnostics(ctx, diags);
  Diagnostics ignored;
  const auto previous = corpus::stored_retrieval_provenance(ctx.workspace, ignored);
  corpus::RetrievalProvenance provenance;
  std::vector<std::string> keyword_files = vm.count("keywords") ? vm["keywords"].as<std::vector<std::string>>()
                                                                 : std::vector<std::string>{kKeywordsFile};
  corpus::KeywordConfig config;
  for (const auto& kf : keyword_files) {
    // --keywords FILE: from the workspace, or the current folder (input_path); else the workspace's own file.
    const bool given = vm.count("keywords") > 0;
    const std::string shown = given ? kf : std::string(kKeywordsFile);
    std::string why;
    std::filesystem::path path = ctx.workspace / kf;
    std::optional<std::string> text;
    if (!given) text = files::read_inside(ctx.workspace, kf, &why);
    else if (auto found = input_path(ctx, kf, &why); found && why.empty()) {
      path = *found;
      text = files::read(path);
    }
    if (!text) {
      diags.error({shown, 0, 0}, given ? (why.empty() ? std::string("cannot read the file") : why)
                                       : "no keywords: write " + shown + " or run 'qualrank corpus keywords import FILE'");
      continue;
    }
    {
      std::error_code ec;
      auto inside = std::filesystem::relative(std::filesystem::weakly_canonical(path, ec), std::filesystem::weakly_canonical(ctx.workspace, ec), ec);
      const bool in_ws = !ec && !inside.empty() && *inside.begin() != "..";
      provenance.keyword_files.emplace_back(in_ws ? inside.generic_string() : std::filesystem::absolute(path).lexically_normal().string(),
                                            sha256_hex(*text));
    }
    auto c = corpus::read_keywords(*text, shown, diags);
    if (!c) continue;
    for (auto& [s, terms] : c->sources) {
      if (config.sources.count(s)) {
        diags.error(terms.empty() ? Location{shown, 0, 0} : terms.front().where, "source '" + s + "' has a keyword list in two files");
        continue;
      }
      config.sources[s] = std::move(terms);
    }
    if (!c->from.empty()) config.from = c->from;
    if (!c->to.empty()) config.to = c->to;
  }
  // The window: --from/--to, else the one they gave the last retrieval (a plain re-run keeps it), else the
  // keywords file's; --any-date none.
  std::string window_note;
  if (vm.count("from") || vm.count("to")) {
    provenance.window_from_options = true;
    if (vm.count("from")) config.from = vm["from"].as<std::string>();
    if (vm.count("to")) config.to = vm["to"].as<std::string>();
    if (previous && previous->window_from_options && (previous->from != config.from || previous->to != config.to))
      window_note = "the window changed: " + corpus::window_text(config.from, config.to) + " (the last retrieval: " +
                    corpus::window_text(previous->from, previous->to) + ")";
  } else if (vm.count("any-date")) {
    config.from.clear(), config.to.clear();
    provenance.window_from_options = true;
    if (previous && (!previous->from.empty() || !previous->to.empty()))
      window_note = "the window changed: any date (the last retrieval: " + corpus::window_text(previous->from, previous->to) + ")";
  } else if (previous && previous->window_from_options) {
    config.from = previous->from, config.to = previous->to;
    provenance.window_from_options = true;
    window_note = "window " + corpus::window_text(config.from, config.to) +
                  ", as the last retrieval was given it (--from/--to change it, --any-date drops it)";
  } else if (previous && (previous->from != config.from || previous->to != config.to)) {
    window_note = "the window changed: " + corpus::window_text(config.from, config.to) + " from the keywords file (the last retrieval: " +
                  corpus::window_text(previous->from, previous->to) + ")";
  }
  provenance.from = config.from, provenance.to = config.to;
  if (const auto k = std::min(config.from.size(), config.to.size()); k > 0 && config.to.substr(0, k) < config.from.substr(0, k)) {
    *ctx.err << "qualrank corpus retrieve: error: the window ends (" << config.to << ") before it starts (" << config.from << ")\n";
    return 2;
  }
  for (const auto& [s, terms] : config.sources)
    if (std::find(sources.begin(), sources.end(), s) == sources.end())
      diags.warning(terms.empty() ? Location{} : terms.front().where, "source '" + s + "' is not in the corpus (corpus/manifest.json)");
  if (diags.has_errors()) return report_diagnostics(ctx, diags);
  files::WorkspaceLock lock(ctx.workspace);
  if (!lock_held(ctx, "corpus retrieve", lock)) return 1;
  std::vector<corpus::SourceRetrieval> results;
  corpus::Manifest manifest;
  if (auto m = corpus::read_manifest(ctx.workspace, diags)) manifest = std::move(*m);
  for (const auto& [s, entry] : manifest.sources) provenance.sources[s] = entry.sha256;
  // What each stored file hashed to when it was last read unchanged (a source is 45 MB in the bench; hashing
  // it again on every retrieval was a sixth of the work). A hand-edited file is hashed again: its times change.
  files::HashCache hash_cache(ctx.workspace / corpus::kHashCacheFile);
  for (const auto& s : sources) {
    const std::string path = corpus::store_path(s);
    std::string why;
    auto bytes = files::read_inside_mapped(ctx.workspace, path, &why);
    if (!bytes) {
      diags.error({path, 0, 0}, why);
      continue;
    }
    const std::string_view text = bytes->view();
    // The text read is hashed here, not read again: a source edited since its import is said. The hash is
    // worked out on a thread of its own while the text is scanned (a tenth of the work, and the scan's threads
    // wait for nothing), unless the cache has it; the warning still comes before what the scan says.
    const bool listed = manifest.sources.count(s) > 0;
    std::string sha256 = listed ? hash_cache.find(path, bytes->identity()) : std::string();
    std::future<std::string> hashing;
    if (listed && sha256.empty()) hashing = std::async(std::launch::async, [text] { return sha256_hex(text); });
    auto it = config.sources.find(s);
    const std::vector<corpus::KeywordTerm>* terms = it == config.sources.end() ? nullptr : &it->second;
    Diagnostics scanned;
    results.push_back(corpus::retrieve_source(text, path, s, terms, config.from, config.to, scanned));
    if (hashing.valid()) {
      sha256 = hashing.get();
      hash_cache.put(path, bytes->identity(), sha256);
    }
    if (listed)
      if (const auto e = corpus::stored_hash_mismatch(s, sha256, manifest); !e.empty()) diags.warning({"corpus/manifest.json", 0, 0}, e);
    diags.append(scanned);
    if (terms)
      for (std::size_t t = 0; t < terms->size(); ++t)
        if (results.back().term_documents[t] == 0)
          diags.warning((*terms)[t].where, "'" + (*terms)[t].term + "' (source " + s + ") matches no document");
  }
  if (diags.has_errors()) return report_diagnostics(ctx, diags);
  std::string err;
  // The file's text built once at its size, each source's lines freed as they are copied in.
  std::string lines = corpus::retrieval_provenance_line(provenance);
  std::size_t bytes = lines.size();
  for (const auto& r : results) bytes += r.jsonl.size();
  lines.reserve(bytes);
  for (auto& r : results) {
    lines += r.jsonl;
    std::string().swap(r.jsonl);
  }
  if (!files::write_atomic(ctx.workspace / "corpus/retrieved.jsonl", lines, &err)) {
    *ctx.err << "qualrank corpus retrieve: error: cannot write corpus/retrieved.jsonl: " << err << '\n';
    return 1;
  }
  hash_cache.save();
  report_diagnostics(ctx, diags);
  std::size_t stored = 0, in_window = 0, retrieved = 0;
  for (const auto& r : results) {
    stored += r.documents;
    in_window += r.in_window;
    retrieved += r.retrieved.size();
  }
  const std::string window = config.from.empty() && config.to.empty() ? std::string("any date")
                                                                       : (config.from.empty() ? "..." : config.from) + " to " + (config.to.empty() ? "..." : config.to);
  if (format == "json") {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    j["from"] = config.from;
    j["to"] = config.to;
    j["window_from"] = provenance.window_from_options ? "options" : "keywords";
    j["stored"] = stored;
    j["in_window"] = in_window;
    j["retrieved"] = retrieved;
    nlohmann::ordered_json per = nlohmann::ordered_json::array();
    for (const auto& r : results) {
      nlohmann::ordered_json o = nlohmann::ordered_json::object();
      o["source"] = r.source;
      o["whole"] = r.whole;
      o["stored"] = r.documents;
      o["in_window"] = r.in_window;
      o["retrieved"] = r.retrieved.size();
      nlohmann::ordered_json kw = nlohmann::ordered_json::array();
      if (!r.whole) {
        const auto& terms = config.sources.at(r.source);
        for (std::size_t t = 0; t < terms.size(); ++t) kw.push_back({{"term", terms[t].term}, {"documents", r.term_documents[t]}});
      }
      o["keywords"] = std::move(kw);
      per.push_back(std::move(o));
    }
    j["sources"] = std::move(per);
    *ctx.out << j.dump(2) << '\n';
    return 0;
  }
  if (!window_note.empty()) *ctx.err << "qualrank corpus retrieve: " << window_note << '\n';
  if (ctx.quiet) return 0;
  *ctx.out << "corpus/retrieved.jsonl: " << retrieved << " of " << in_window << " documents in the window (" << window
           << "; " << stored << " stored)\n\n";
  std::vector<std::vector<std::string>> rows{{"source", "stored", "in window", "retrieved", "keywords"}};
  for (const auto& r : results)
    rows.push_back({r.source, std::to_string(r.documents), std::to_string(r.in_window), std::to_string(r.retrieved.size()),
                    r.whole ? std::string("none: taken whole") : std::to_string(config.sources.at(r.source).size())});
  *ctx.out << text::columns(rows, {false, true, true, true, false}, "  ");
  bool first_whole = true;
  for (const auto& r : results)
    if (r.whole) {
      *ctx.out << (first_whole ? "\n" : "") << "source " << r.source << " has no keyword list: all " << r.in_window
               << " documents in the window taken whole\n";
      first_whole = false;
    }
  std::vector<std::vector<std::string>> kw{{"source", "keyword", "documents"}};
  for (const auto& r : results) {
    if (r.whole) continue;
    const auto& terms = config.sources.at(r.source);
    for (std::size_t t = 0; t < terms.size(); ++t) kw.push_back({r.source, terms[t].term, std::to_string(r.term_documents[t])});
  }
  if (kw.size() > 1) *ctx.out << "\ndocuments matched per keyword:\n" << text::columns(kw, {false, false, true}, "  ");
  return 0;
}

}  // namespace qualrank::cli
