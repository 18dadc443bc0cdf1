// `qualrank corpus reconcile`: the documents of a sample the coders labelled differently, decided one by one
// (keep a coder's label, the majority's, or another), all by majority (--majority: ties listed, not decided),
// or one given on the command line (--doc). Each decision is saved as made in
// corpus/labels/<sample>/decisions.csv with its decider, date, how and note; the agreement before
// reconciliation (Fleiss' kappa: analysis/corpus/corpus_labels.h) is printed first.
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "../cli.h"
#include "qualrank/analysis/corpus/corpus_labels.h"
#include "qualrank/model/coding_edit.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_screening.h"
#include "qualrank/model/history/versions.h"
#include "qualrank/model/workspace.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"
#include "../coding/reconcile_session.h"

namespace qualrank::cli {

using namespace qualrank::corpus;

namespace {

std::string fmt(double x) { return std::isnan(x) ? "n/a" : text::fixed(x, 4); }

// Where each of `docs` is in the stored sources: one pass over each source's file keeps each document's line
// (offset and length) and title; the rest of a document is read when it is shown (read_document), so a walk over
// many open documents holds one body at a time.
struct StoredAt {
  std::uint64_t offset = 0, length = 0;
  std::string title;
  bool found = false;
};
std::map<std::string, StoredAt> doc_index(const std::filesystem::path& workspace, const std::vector<std::string>& docs) {
  std::map<std::string, StoredAt> out;
  std::map<std::string, int> sources;
  for (const auto& d : docs) out[d], sources[d.substr(0, d.find('#'))];
  for (const auto& [source, unused] : sources) {
    const std::string rel = store_path(source);
    auto text = files::exists(workspace / rel) ? files::read_inside(workspace, rel) : std::nullopt;
    if (!text) continue;
    std::vector<std::uint64_t> starts{0};
    for (std::size_t at = text->find('\n'); at != std::string::npos; at = text->find('\n', at + 1)) starts.push_back(at + 1);
    Diagnostics ignored;
    for_each_stored(*text, rel, ignored, [&](const DocumentView& v) {
      auto it = out.find(doc_ref(source, v.id));
      if (it == out.end() || v.line < 1 || static_cast<std::size_t>(v.line) > starts.size()) return;
      const auto l = static_cast<std::size_t>(v.line);
      const std::uint64_t b = starts[l - 1], e = l < starts.size() ? starts[l] : text->size();
      it->second = {b, e - b, std::string(v.title), true};
    });
  }
  return out;
}

// What the walk shows of a document besides its title.
struct DocumentEvidence {
  std::string url, created, body;
  std::vector<std::string> labels;
  bool found = false;
};
DocumentEvidence read_document(const std::filesystem::path& workspace, const std::string& doc, const StoredAt& at) {
  DocumentEvidence d;
  if (!at.found) return d;
  const std::string source = doc.substr(0, doc.find('#')), rel = store_path(source);
  auto path = files::resolve_inside(workspace, rel);
  if (!path) return d;
  std::ifstream in(*path, std::ios::binary);
  std::string line(at.length, '\0');
  in.seekg(static_cast<std::streamoff>(at.offset));
  in.read(line.data(), static_cast<std::streamsize>(at.length));
  if (!in) return d;
  Diagnostics ignored;
  for_each_stored(line, rel, ignored, [&](const DocumentView& v) {
    if (doc_ref(source, v.id) != doc) return;  // the file changed since it was indexed: shown as not found
    d.url = v.url, d.created = v.created, d.body = v.body, d.found = true;
    for (const auto& l : v.labels) d.labels.emplace_back(l);
  });
  return d;
}

// The terminal's width when standard output is one (at least 40 columns), else 80.
std::size_t terminal_width() {
  struct winsize w {};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col >= 40) return w.ws_col;
  return 80;
}

// `s` (terminal-safe already) wrapped at word boundaries to `width` code points, each line opening with `indent`;
// a blank line of `s` stays blank (no trailing spaces).
std::vector<std::string> wrap_lines(const std::string& s, std::size_t width, const std::string& indent) {
  std::vector<std::string> out;
  std::string w = reconcile::wrapped(s, width, indent);
  std::size_t at = 0;
  while (at < w.size()) {
    auto nl = w.find('\n', at);
    std::string line = w.substr(at, nl - at);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out.push_back(std::move(line));
    at = nl == std::string::npos ? w.size() : nl + 1;
  }
  return out;
}

// A label's nodes as the walk shows them: "ID Name" each, root first, " > " between.
std::string named_label(const Taxonomy& taxonomy, const std::vector<std::string>& nodes) {
  std::vector<std::string> shown;
  for (const auto& id : nodes) {
    const auto* n = taxonomy.find(id);
    shown.push_back(n && !n->name.empty() ? id + " " + n->name : id);
  }
  return text::terminal_safe(text::join(shown, " > "));
}

// The label as the terminal shows it (text::terminal_safe): its ids and its last node's name.
std::string describe(const Taxonomy& taxonomy, const std::vector<std::string>& nodes) {
  std::string s = join_nodes(nodes);
  if (const auto* n = nodes.empty() ? nullptr : taxonomy.find(nodes.back())) s += " (" + n->name + ")";
  return text::terminal_safe(s);
}

struct Session {
  Context& ctx;
  std::string sample;
  std::string decider;
  std::vector<LabelDecision> decisions;  // as in the file (nodes as written there)
  bool save(LabelDecision d) {
    set_decision(decisions, std::move(d));
    const std::string rel = decisions_path(sample);
    auto target = files::resolve_inside(ctx.workspace, rel);
    std::string err;
    if (!target || !files::write_atomic(*target, decisions_text(decisions), &err)) {
      *ctx.err << "qualrank corpus reconcile: error: cannot write " << rel << ": " << (target ? err : "outside the workspace") << '\n';
      return false;
    }
    return true;
  }
};

}  // namespace

int cmd_corpus_reconcile(Context& ctx, const std::vector<std::string>& args) {
  po::options_description desc("corpus reconcile options");
  desc.add_options()
      ("sample", po::value<std::string>(), "the sample (corpus/samples/NAME.txt)")
      ("decider", po::value<std::string>(), "who decides (recorded with each decision)")
      ("majority", "decide every open document by majority (more than half of the coders who labelled it: one coder's label when only one did); ties are listed, not decided")
      ("doc", po::value<std::string>(), "decide this document (SOURCE#ID) with --keep, --node or --majority")
      ("keep", po::value<std::string>(), "--doc: keep this coder's label")
      ("node", po::value<std::vector<std::string>>()->composing(), "--doc: this label instead (node id, name or alias; ID,ID)")
      ("note", po::value<std::string>(), "a note kept with the decision (line breaks are kept)")
      ("status", "print the agreement before reconciliation and the open documents (disagreements, and documents some coders have not labelled); decide nothing")
      ("format", po::value<std::string>()->default_value("text"), "--status: text or json");
  po::variables_map vm;
  int rc = 0;
  if (!parse_options(ctx, "corpus reconcile",
                     "--sample NAME --status [--format text|json]\n"
                     "       qualrank corpus reconcile --sample NAME --decider NAME --majority\n"
                     "       qualrank corpus reconcile --sample NAME --decider NAME --doc SOURCE#ID (--keep CODER | --node ID[,ID] | --majority) [--note TEXT]\n"
                     "       qualrank corpus reconcile --sample NAME --decider NAME      (walks the open documents, reading answers from stdin)\n\n"
                     "Decisions go to corpus/labels/NAME/decisions.csv (doc, nodes, how, decider, date, note, and the coders'\n"
                     "labels and the draw they were made on); 'qualrank corpus labels export' writes them as Final_Label.\n"
                     "Agreement is reported before reconciliation. A decision whose coders' labels changed since is stale:\n"
                     "--status lists it, the walk shows it again (k keeps it).",
                     desc, args, vm, rc))
    return rc;
  auto usage = [&](const std::string& m) {
    *ctx.err << "qualrank corpus reconcile: error: " << m << '\n';
    return 2;
  };
  if (!vm.count("sample")) return usage("give --sample NAME");
  const std::string sample = vm["sample"].as<std::string>();
  if (!screener_name_problem(sample).empty()) return usage("'" + sample + "' is not a sample name");
  if (!check_choice(ctx, "corpus reconcile", "format", vm["format"].as<std::string>(), {"text", "json"})) return 2;
  const bool status_only = vm.count("status") > 0, one = vm.count("doc") > 0;
  const int ways = static_cast<int>(vm.count("keep") + vm.count("node") + vm.count("majority"));
  if (status_only && (one || ways || vm.count("note"))) return usage("--status decides nothing: no --doc, --keep, --node, --majority or --note");
  if (one && ways != 1) return usage("--doc takes one of --keep CODER, --node ID[,ID] or --majority");
  if (!one && (vm.count("keep") || vm.count("node") || vm.count("note"))) return usage("--keep, --node and --note go with --doc");
  if (!status_only && !vm.count("decider")) return usage("give --decider NAME (who decides is recorded with each decision)");
  const std::string decider = vm.count("decider") ? vm["decider"].as<std::string>() : "";
  if (!status_only && (decider.empty() || decider.find_first_of("\r\n") != std::string::npos)) return usage("--decider is a name on one line");

  Diagnostics diags;
  auto ws = load_workspace_design(ctx.workspace, diags);
  if (!ws) return report_diagnostics(ctx, diags);
  auto version = taxonomy_at(*ws, std::nullopt, diags);
  if (!version) return report_diagnostics(ctx, diags);
  const Taxonomy& taxonomy = version->taxonomy;
  files::WorkspaceLock lock(ctx.workspace);
  if (!lock_held(ctx, "corpus reconcile", lock)) return 1;
  auto s = load_sample_labels(ctx.workspace, sample, taxonomy, version->resolve, diags);
  if (!s) return report_diagnostics(ctx, diags);
  report_diagnostics(ctx, diags);
  if (s->coders.size() < 2) {
    *ctx.err << "qualrank corpus reconcile: error: reconciling needs two or more coders; sample " << sample << " has "
             << s->coders.size() << " (" << labels_dir(sample) << "/CODER.csv)\n";
    return 1;
  }
  Session session{ctx, sample, decider, {}};
  for (std::size_t d = 0; d < s->docs.size(); ++d)
    if (s->decisions[d]) session.decisions.push_back(*s->decisions[d]);
  const auto agreement = sample_agreement(*s);
  // Open: a disagreement, or a document some coders labelled and others did not (its label is not final until
  // the others label it or a decision is made), without a decision.
  std::vector<std::size_t> open;
  std::size_t partial = 0;
  for (std::size_t d = 0; d < s->docs.size(); ++d) {
    const auto st = doc_state(*s, d);
    if ((st == DocState::disagreed || st == DocState::partial) && !s->decisions[d]) {
      open.push_back(d);
      partial += st == DocState::partial;
    }
  }
  // What a decision records it was made on: each coder's label of the document now.
  auto made_on = [&](std::size_t d) {
    CodersLabels labels;
    for (std::size_t c = 0; c < s->coders.size(); ++c)
      if (!s->categories[d][c].empty()) labels.emplace_back(s->coders[c], s->nodes[d][c]);
    return labels;
  };
  auto labels_of = [&](std::size_t d) {
    std::vector<std::string> parts;
    for (std::size_t c = 0; c < s->coders.size(); ++c)
      parts.push_back(s->coders[c] + ": " + (s->categories[d][c].empty() ? "-" : join_nodes(s->nodes[d][c])));
    return text::terminal_safe(text::join(parts, "; "));
  };
  // A stale decision's changes as the decider reads them: "bob's label changed (TOOL.1 then, COM.1 now)".
  auto changes_of = [&](const SampleLabels::StaleDecision& sd) {
    std::vector<std::string> parts;
    for (const auto& c : sd.changes)
      parts.push_back(c.what() + " (" + (c.then.empty() ? std::string("-") : join_nodes(c.then)) + " then, " +
                      (c.now.empty() ? std::string("-") : join_nodes(c.now)) + " now)");
    return text::terminal_safe(text::join(parts, "; "));
  };
  if (status_only && vm["format"].as<std::string>() == "json") {
    auto num = [](double x) { return std::isnan(x) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(x); };
    nlohmann::ordered_json j = {{"sample", sample}, {"documents", s->docs.size()}, {"coders", s->coders},
                                {"labelled_by_all", agreement.labelled_by_all}, {"agreeing", agreement.agreeing},
                                {"all_agree", num(agreement.all_agree)}, {"labelled_by_two", agreement.labelled_by_two},
                                {"percent_agreement", num(agreement.percent_agreement)},
                                {"fleiss_kappa", num(agreement.fleiss_kappa)}, {"cohen_kappa", num(agreement.cohen_kappa)},
                                {"disagreements", agreement.disagreements}, {"decided", agreement.decided},
                                {"partial", partial}};
    nlohmann::ordered_json o = nlohmann::ordered_json::array();
    for (auto d : open) {
      nlohmann::ordered_json labels = nlohmann::ordered_json::object();
      for (std::size_t c = 0; c < s->coders.size(); ++c)
        labels[s->coders[c]] = s->categories[d][c].empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s->nodes[d][c]);
      o.push_back({{"doc", s->docs[d]}, {"labels", labels}});
    }
    j["open"] = std::move(o);
    nlohmann::ordered_json st = nlohmann::ordered_json::array();
    for (const auto& sd : s->stale_decisions) {
      nlohmann::ordered_json changes = nlohmann::ordered_json::array();
      for (const auto& c : sd.changes)
        changes.push_back({{"coder", c.coder}, {"then", c.then.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.then)},
                           {"now", c.now.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.now)}});
      st.push_back({{"doc", s->docs[sd.doc]}, {"line", sd.line}, {"changes", std::move(changes)}});
    }
    j["stale"] = std::move(st);
    *ctx.out << j.dump(2) << '\n';
    return 0;
  }
  if (!ctx.quiet) {
    *ctx.out << "sample " << sample << ": " << grouped(s->docs.size()) << " documents, " << s->coders.size() << " coders ("
             << text::terminal_safe(text::join(s->coders, ", ")) << ")\n"
             << "agreement before reconciliation, over the " << agreement.labelled_by_all << " documents every coder labelled: "
             << agreement.agreeing << " alike (all agree: " << fmt(agreement.all_agree) << "), Fleiss' kappa "
             << fmt(agreement.fleiss_kappa);
    if (s->coders.size() == 2) *ctx.out << ", Cohen's kappa " << fmt(agreement.cohen_kappa);
    *ctx.out << "\npercent agreement (mean share of agreeing coder pairs, over the " << agreement.labelled_by_two
             << " documents two or more coders labelled): " << fmt(agreement.percent_agreement);
    *ctx.out << "\ndisagreements: " << agreement.disagreements << ", decided " << agreement.decided << ", open " << open.size();
    if (partial > 0) *ctx.out << " (" << partial << " of them labelled by some coders only)";
    if (!s->stale_decisions.empty())
      *ctx.out << ", stale " << s->stale_decisions.size() << " (decided on labels that changed since: the walk shows them again)";
    *ctx.out << '\n';
  }
  if (status_only) {
    for (auto d : open) *ctx.out << "  " << text::terminal_safe(s->docs[d]) << "  " << labels_of(d) << '\n';
    for (const auto& sd : s->stale_decisions)
      *ctx.out << "  " << text::terminal_safe(s->docs[sd.doc]) << "  stale: " << changes_of(sd) << '\n';
    return 0;
  }
  auto decide = [&](std::size_t d, std::vector<std::string> nodes, std::string how, std::string note) {
    return session.save({s->docs[d], std::move(nodes), std::move(how), decider, files::today_utc(), std::move(note), 0,
                         made_on(d), s->sample_stamp});
  };
  if (one) {
    const std::string given = vm["doc"].as<std::string>();
    std::size_t d = s->docs.size();
    for (std::size_t k = 0; k < s->docs.size(); ++k)
      if (s->docs[k] == given) d = k;
    if (d == s->docs.size()) {
      *ctx.err << "qualrank corpus reconcile: error: '" << given << "' is not a document of sample " << sample << '\n';
      return 1;
    }
    std::vector<std::string> nodes;
    std::string how;
    if (vm.count("keep")) {
      const std::string coder = vm["keep"].as<std::string>();
      auto it = std::find(s->coders.begin(), s->coders.end(), coder);
      if (it == s->coders.end()) {
        *ctx.err << "qualrank corpus reconcile: error: no coder '" << coder << "' (the coders: " << text::join(s->coders, ", ") << ")\n";
        return 1;
      }
      const auto c = static_cast<std::size_t>(it - s->coders.begin());
      if (s->categories[d][c].empty()) {
        *ctx.err << "qualrank corpus reconcile: error: " << coder << " has not labelled " << given << '\n';
        return 1;
      }
      nodes = s->nodes[d][c], how = "coder:" + coder;
    } else if (vm.count("majority")) {
      auto m = majority_nodes(*s, d);
      if (!m) {
        *ctx.err << "qualrank corpus reconcile: error: " << given << " has no majority (" << labels_of(d) << ")\n";
        return 1;
      }
      nodes = *m, how = "majority";
    } else {
      std::vector<std::string> written;
      for (const auto& n : vm["node"].as<std::vector<std::string>>())
        for (auto& piece : text::split_nonempty(n, ',')) written.push_back(piece);
      auto ids = resolve_node_ids(written, taxonomy, version->resolve, {"--node", 0, 0}, diags);
      if (!ids) return report_diagnostics(ctx, diags);
      auto ln = label_nodes(*ids, taxonomy);
      if (!ln.problem.empty()) {
        *ctx.err << "qualrank corpus reconcile: error: " << ln.problem << '\n';
        return 1;
      }
      nodes = ln.nodes, how = "other";
    }
    const bool replaced = s->decisions[d].has_value();
    const std::string shown = describe(taxonomy, nodes);
    if (!decide(d, nodes, how, vm.count("note") ? vm["note"].as<std::string>() : "")) return 1;
    if (!ctx.quiet) *ctx.out << given << ": " << shown << " [" << how << "]" << (replaced ? " (replaces the earlier decision)" : "") << '\n';
    return 0;
  }
  if (vm.count("majority")) {
    std::size_t decided = 0;
    std::vector<std::string> ties;
    for (auto d : open) {
      if (auto m = majority_nodes(*s, d)) {
        set_decision(session.decisions, {s->docs[d], *m, "majority", decider, files::today_utc(), "", 0, made_on(d), s->sample_stamp});
        ++decided;
      } else {
        ties.push_back(text::terminal_safe(s->docs[d]) + "  " + labels_of(d));
      }
    }
    if (decided > 0) {
      const std::string rel = decisions_path(sample);
      auto target = files::resolve_inside(ctx.workspace, rel);
      std::string err;
      if (!target || !files::write_atomic(*target, decisions_text(session.decisions), &err)) {
        *ctx.err << "qualrank corpus reconcile: error: cannot write " << rel << ": " << (target ? err : "outside the workspace") << '\n';
        return 1;
      }
    }
    if (!ctx.quiet) {
      *ctx.out << "decided by majority: " << decided << "; no majority (not decided): " << ties.size() << '\n';
      for (const auto& t : ties) *ctx.out << "  " << t << '\n';
      if (!s->stale_decisions.empty())
        *ctx.out << "stale decisions (made on labels that changed since), left as they are: " << s->stale_decisions.size()
                 << " (the walk shows them again, or decide one with --doc)\n";
    }
    return 0;
  }
  // The walk: one open document at a time, answers read line by line from stdin. What the documents and labels
  // hold reaches the terminal through text::terminal_safe: a title's ESC[2J cannot clear the screen, nor its CR
  // overwrite the [k/N] SOURCE#ID that says which document is decided.
  // Then the stale decisions (made on labels that changed since), each shown with the decision; k keeps it.
  std::vector<std::size_t> walk = open;
  std::map<std::size_t, const SampleLabels::StaleDecision*> stale_at;
  for (const auto& sd : s->stale_decisions) walk.push_back(sd.doc), stale_at[sd.doc] = &sd;
  auto stored = doc_index(ctx.workspace, [&] {
    std::vector<std::string> docs;
    for (auto d : walk) docs.push_back(s->docs[d]);
    return docs;
  }());
  const std::size_t width = terminal_width();
  constexpr std::size_t kBodyLines = 12;
  std::size_t done = 0;
  for (std::size_t k = 0; k < walk.size(); ++k) {
    const std::size_t d = walk[k];
    const auto* stale = stale_at.count(d) ? stale_at[d] : nullptr;
    const StoredAt& at = stored[s->docs[d]];
    *ctx.out << "\n[" << k + 1 << "/" << walk.size() << "] " << text::terminal_safe(s->docs[d]) << "  "
             << text::terminal_safe(at.title) << '\n';
    // The evidence: where the document is, its GitHub labels, the start of its body, then each coder's label
    // with the coder's note (the reason given for it).
    const auto e = read_document(ctx.workspace, s->docs[d], at);
    if (!e.found) {
      const std::string rel = text::terminal_safe(store_path(s->docs[d].substr(0, s->docs[d].find('#'))));
      *ctx.out << (at.found ? "  (" + rel + " changed since the walk began: run it again to see the document)\n"
                            : "  (not in the stored corpus: " + rel + ")\n");
    } else {
      *ctx.out << "  " << text::terminal_safe(e.url.empty() ? std::string("(no url)") : e.url)
               << (e.created.empty() ? "" : "  " + text::terminal_safe(e.created.substr(0, 10))) << '\n';
      *ctx.out << "  labels: " << (e.labels.empty() ? std::string("(none)") : text::terminal_safe(text::join(e.labels, ", "))) << '\n';
      const auto body = wrap_lines(text::terminal_safe(e.body, true), width - 5, "    ");
      if (text::trim(e.body).empty()) {
        *ctx.out << "    (no body)\n";
      } else {
        for (std::size_t i = 0; i < body.size() && i < kBodyLines; ++i) *ctx.out << body[i] << '\n';
        if (body.size() > kBodyLines)
          *ctx.out << "    \u2026 (" << body.size() - kBodyLines << " more line" << (body.size() - kBodyLines == 1 ? "" : "s") << ")\n";
      }
    }
    for (std::size_t c = 0; c < s->coders.size(); ++c) {
      *ctx.out << "  " << c + 1 << ") " << text::terminal_safe(s->coders[c]) << ": "
               << (s->categories[d][c].empty() ? std::string("-") : named_label(taxonomy, s->nodes[d][c])) << '\n';
      if (!s->notes[d][c].empty())
        for (const auto& l : wrap_lines(text::terminal_safe("note: " + s->notes[d][c], true), width - 6, "     "))
          *ctx.out << l << '\n';
    }
    if (stale) {
      const auto& was = *s->decisions[d];
      *ctx.out << "  decided " << text::terminal_safe(was.date) << " by " << text::terminal_safe(was.decider) << ": "
               << named_label(taxonomy, was.nodes) << " [" << text::terminal_safe(was.how) << "]\n"
               << "  since then: " << changes_of(*stale) << '\n';
    }
    auto m = majority_nodes(*s, d);
    for (;;) {
      *ctx.out << (stale ? "k keep the decision, keep 1-" : "keep 1-") << s->coders.size() << (m ? ", m majority" : "")
               << ", o NODE[,NODE] other, s skip, q quit: " << std::flush;
      std::string line;
      if (!std::getline(std::cin, line)) {
        *ctx.out << "\n";
        k = walk.size();
        break;
      }
      std::string answer(text::trim(line));
      std::vector<std::string> nodes;
      std::string how;
      if (answer == "q") {
        k = walk.size();
        break;
      }
      if (answer == "s") break;
      if (answer == "k" && stale) {  // the same decision, now made on the labels as they are
        const auto& was = *s->decisions[d];
        if (!decide(d, was.nodes, was.how, was.note)) return 1;
        ++done;
        *ctx.out << "kept: " << describe(taxonomy, was.nodes) << " [" << was.how << "]\n";
        break;
      }
      if (answer == "m" && m) {
        nodes = *m, how = "majority";
      } else if (answer == "o" || answer.starts_with("o ") || answer.starts_with("o\t")) {
        // Another label: on this line (o NODE[,NODE]) or, after a bare o, on the next.
        std::string given = answer.substr(1);
        if (answer == "o") {
          *ctx.out << "nodes (ids or names, comma-separated; Enter to go back): " << std::flush;
          if (!std::getline(std::cin, given)) given.clear();
          if (text::trim(given).empty()) continue;
        }
        Diagnostics node_diags;
        std::vector<std::string> written = text::split_nonempty(given, ',');
        if (written.empty()) continue;
        auto ids = resolve_node_ids(written, taxonomy, version->resolve, {"answer", 0, 0}, node_diags);
        if (!ids) {
          for (const auto& item : node_diags.items()) *ctx.out << item.message << '\n';
          continue;
        }
        auto ln = label_nodes(*ids, taxonomy);
        if (!ln.problem.empty()) {
          *ctx.out << ln.problem << '\n';
          continue;
        }
        nodes = ln.nodes, how = "other";
      } else if (!answer.empty() && answer.find_first_not_of("0123456789") == std::string::npos && answer.size() < 4 &&
                 std::stoul(answer) >= 1 && std::stoul(answer) <= s->coders.size() &&
                 !s->categories[d][std::stoul(answer) - 1].empty()) {
        const auto c = std::stoul(answer) - 1;
        nodes = s->nodes[d][c], how = "coder:" + s->coders[c];
      } else {
        continue;
      }
      *ctx.out << "note (Enter for none): " << std::flush;
      std::string note;
      if (!std::getline(std::cin, note)) note.clear();
      if (!decide(d, nodes, how, std::string(text::trim(note)))) return 1;
      ++done;
      *ctx.out << "decided: " << describe(taxonomy, nodes) << " [" << how << "]\n";
      break;
    }
  }
  if (!ctx.quiet) {
    *ctx.out << "decided " << done << " of " << walk.size() << " open documents";
    if (!stale_at.empty()) *ctx.out << " (" << stale_at.size() << " of them decided before, on labels that changed since)";
    *ctx.out << '\n';
  }
  return 0;
}

}  // namespace qualrank::cli
