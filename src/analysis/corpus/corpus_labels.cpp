// The labels of a corpus sample as categories: agreement before reconciliation, majority, final labels and the
// exported label table (analysis/corpus/corpus_labels.h).
#include "qualrank/analysis/corpus/corpus_labels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

#include "qualrank/analysis/agreement/agreement_stats.h"
#include "qualrank/model/corpus/corpus_screening.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/text.h"

namespace qualrank::corpus {

LabelNodes label_nodes(const std::vector<std::string>& nodes, const Taxonomy& taxonomy) {
  LabelNodes out;
  out.nodes = nodes;
  std::sort(out.nodes.begin(), out.nodes.end(), [&](const std::string& a, const std::string& b) {
    const auto* na = taxonomy.find(a);
    const auto* nb = taxonomy.find(b);
    const int la = na ? na->level : 0, lb = nb ? nb->level : 0;
    return la != lb ? la < lb : taxonomy.rank_of(a) < taxonomy.rank_of(b);
  });
  out.nodes.erase(std::unique(out.nodes.begin(), out.nodes.end()), out.nodes.end());
  if (out.nodes.empty()) {
    out.problem = "no node";
    return out;
  }
  out.category = out.nodes.back();
  for (std::size_t k = 0; k + 1 < out.nodes.size(); ++k)
    if (!taxonomy.is_within(out.category, out.nodes[k])) {
      out.problem = "'" + out.nodes[k] + "' and '" + out.category +
                    "' are not on one path from the root: a label is one node and, optionally, its ancestors";
      break;
    }
  return out;
}

SampleLabels resolve_sample_labels(const std::vector<std::string>& sample, const std::vector<CoderLabels>& coders,
                                   const std::vector<LabelDecision>& decisions, const std::string& decisions_file,
                                   const std::string& sample_name, const Taxonomy& taxonomy, const NodeResolver& resolve,
                                   Diagnostics& diags) {
  SampleLabels s;
  s.docs = sample;
  std::sort(s.docs.begin(), s.docs.end(), [](const auto& a, const auto& b) { return doc_less(a, b); });
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t d = 0; d < s.docs.size(); ++d) index.emplace(s.docs[d], d);
  s.categories.assign(s.docs.size(), std::vector<std::string>(coders.size()));
  s.nodes.assign(s.docs.size(), std::vector<std::vector<std::string>>(coders.size()));
  s.notes.assign(s.docs.size(), std::vector<std::string>(coders.size()));
  s.decisions.assign(s.docs.size(), std::nullopt);
  s.decided_category.assign(s.docs.size(), "");
  // Resolves the nodes of one row (renamed ids of earlier taxonomy versions map to today's); nullopt after an error.
  auto resolved = [&](const std::vector<std::string>& written, const std::string& file, int line) -> std::optional<LabelNodes> {
    std::vector<std::string> ids;
    for (const auto& w : written) {
      auto r = resolve(w);
      if (!r.node) {
        diags.error({file, line, 1}, (r.problem.empty() ? "'" + w + "' is not a node of the taxonomy" : r.problem) +
                                         did_you_mean(taxonomy, w));
        return std::nullopt;
      }
      ids.push_back(*r.node);
    }
    auto ln = label_nodes(ids, taxonomy);
    if (!ln.problem.empty()) {
      diags.error({file, line, 1}, ln.problem);
      return std::nullopt;
    }
    return ln;
  };
  for (std::size_t c = 0; c < coders.size(); ++c) {
    s.coders.push_back(coders[c].coder);
    const std::string file = labels_path(sample_name, coders[c].coder);
    for (const auto& l : coders[c].labels) {
      auto it = index.find(l.doc);
      if (it == index.end()) {
        s.not_in_sample.push_back({file, l.line, l.doc, l.sample});
        continue;
      }
      if (auto ln = resolved(l.nodes, file, l.line)) {
        s.categories[it->second][c] = ln->category;
        s.nodes[it->second][c] = std::move(ln->nodes);
        s.notes[it->second][c] = l.note;
      }
    }
  }
  for (const auto& d : decisions) {
    auto it = index.find(d.doc);
    if (it == index.end()) {
      s.not_in_sample.push_back({decisions_file, d.line, d.doc, d.sample});
      continue;
    }
    if (auto ln = resolved(d.nodes, decisions_file, d.line)) {
      LabelDecision copy = d;
      copy.nodes = ln->nodes;
      s.decided_category[it->second] = ln->category;
      s.decisions[it->second] = std::move(copy);
    }
  }
  s.round_categories = s.categories;
  // Decisions made on labels that changed since: the labels each records against the coders' files now.
  for (std::size_t doc = 0; doc < s.docs.size(); ++doc) {
    const auto& d = s.decisions[doc];
    if (!d || d->labels.empty()) continue;  // recorded nothing (an older qualrank): never stale
    std::map<std::string, std::vector<std::string>> then, now;
    for (const auto& [coder, nodes] : d->labels) {
      // The nodes as today's taxonomy names them (a renamed id is the same label); one that no longer resolves
      // is kept as written, and so differs.
      std::vector<std::string> ids;
      for (const auto& w : nodes) {
        auto r = resolve(w);
        ids.push_back(r.node ? *r.node : w);
      }
      auto ln = label_nodes(ids, taxonomy);
      then[coder] = ln.problem.empty() ? ln.nodes : ids;
    }
    for (std::size_t c = 0; c < s.coders.size(); ++c)
      if (!s.categories[doc][c].empty()) now[s.coders[c]] = s.nodes[doc][c];
    SampleLabels::StaleDecision stale{doc, d->line, {}};
    std::set<std::string> names;
    for (const auto& [c, unused] : then) names.insert(c);
    for (const auto& [c, unused] : now) names.insert(c);
    static const std::vector<std::string> none;
    for (const auto& c : names) {
      auto a = then.find(c), b = now.find(c);
      const auto& was = a == then.end() ? none : a->second;
      const auto& is = b == now.end() ? none : b->second;
      if (was != is) stale.changes.push_back({c, was, is});
    }
    if (!stale.changes.empty()) s.stale_decisions.push_back(std::move(stale));
    // The round counts what the decision was made on: each current coder's category then ("" when the coder had
    // not labelled it), when every recorded label still names nodes of the taxonomy.
    std::vector<std::string> met(s.coders.size());
    bool resolvable = true;
    for (std::size_t c = 0; c < s.coders.size(); ++c) {
      auto it = then.find(s.coders[c]);
      if (it == then.end()) continue;
      for (const auto& id : it->second) resolvable = resolvable && taxonomy.find(id) != nullptr;
      if (!it->second.empty()) met[c] = it->second.back();
    }
    if (resolvable) s.round_categories[doc] = std::move(met);
  }
  return s;
}

std::string outside_reason(const SampleLabels& s, const SampleLabels::Outside& o) {
  if (o.stamp.empty()) return " (drawn again since?)";
  if (o.stamp != s.sample_stamp) return " (made on an earlier draw: the sample was drawn again since)";
  return " (not a document of this draw)";
}

void warn_stale_decisions(const SampleLabels& s, const std::string& sample, Diagnostics& diags) {
  for (const auto& d : s.stale_decisions)
    diags.warning({decisions_path(sample), d.line, 1},
                  "stale: the decision on " + s.docs[d.doc] + " was made on labels that changed since (" + d.what() +
                      "); it still counts as decided: 'qualrank corpus reconcile --sample " + sample +
                      " --decider NAME' shows it again (k keeps it)");
}

std::string SampleLabels::LabelChange::what() const {
  if (then.empty()) return coder + " labelled it";
  if (now.empty()) return coder + "'s label was removed";
  return coder + "'s label changed";
}

std::string SampleLabels::StaleDecision::what() const {
  std::vector<std::string> parts;
  for (const auto& c : changes) parts.push_back(c.what());
  return text::join(parts, ", ");
}

DocState doc_state(const SampleLabels& s, std::size_t d) { return categories_state(s.categories[d]); }

DocState categories_state(const std::vector<std::string>& categories) {
  std::size_t given = 0;
  const std::string* first = nullptr;
  bool differ = false;
  for (const auto& c : categories) {
    if (c.empty()) continue;
    ++given;
    if (!first) first = &c;
    else if (c != *first) differ = true;
  }
  if (given == 0) return DocState::unlabelled;
  if (differ) return DocState::disagreed;
  return given == categories.size() ? DocState::agreed : DocState::partial;
}

std::optional<std::vector<std::string>> majority_nodes(const SampleLabels& s, std::size_t d) {
  std::map<std::string, std::size_t> votes;
  std::size_t given = 0;
  for (const auto& c : s.categories[d])
    if (!c.empty()) ++votes[c], ++given;
  for (const auto& [category, n] : votes)
    if (2 * n > given)
      for (std::size_t c = 0; c < s.coders.size(); ++c)
        if (s.categories[d][c] == category) return s.nodes[d][c];
  return std::nullopt;
}

std::string final_category(const SampleLabels& s, std::size_t d) {
  if (!s.decided_category[d].empty()) return s.decided_category[d];
  return doc_state(s, d) == DocState::agreed ? s.categories[d].front() : std::string();
}

LabelAgreement sample_agreement(const SampleLabels& s) {
  LabelAgreement a;
  a.coders = s.coders.size();
  // The round's categories: a decided document as it was when decided (round_categories).
  const auto& categories = s.round_categories;
  std::map<std::string, int> category_index;
  for (const auto& row : categories)
    for (const auto& c : row)
      if (!c.empty()) category_index.emplace(c, 0);
  int k = 0;
  for (auto& [c, i] : category_index) i = k++;
  stats::RatingTable table;
  table.coders = static_cast<int>(s.coders.size());
  table.categories = std::max(k, 1);
  for (std::size_t d = 0; d < s.docs.size(); ++d) {
    const auto state = categories_state(categories[d]);
    if (state == DocState::disagreed) {
      ++a.disagreements;
      if (s.decisions[d]) ++a.decided;
    }
    // Every document some coder labelled is a unit (-1: a coder who has not labelled it), as in the label table
    // `qualrank agreement --labels` reads: Fleiss' kappa drops those not labelled by all, percent agreement keeps
    // those labelled by two or more.
    if (std::all_of(categories[d].begin(), categories[d].end(), [](const std::string& c) { return c.empty(); })) continue;
    const bool all = std::none_of(categories[d].begin(), categories[d].end(), [](const std::string& c) { return c.empty(); });
    if (all) ++a.labelled_by_all;
    if (all && state == DocState::agreed) ++a.agreeing;
    ++table.units;
    for (const auto& c : categories[d]) table.codes.push_back(c.empty() ? -1 : category_index[c]);
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool rated = table.units > 0 && table.coders >= 2;
  a.all_agree = a.labelled_by_all > 0 && table.coders >= 2 ? static_cast<double>(a.agreeing) / static_cast<double>(a.labelled_by_all) : nan;
  a.labelled_by_two = rated ? static_cast<std::size_t>(stats::pairable_units(table)) : 0;
  a.percent_agreement = rated ? stats::percent_agreement(table) : nan;
  a.fleiss_kappa = rated ? stats::fleiss_kappa(table).kappa : nan;
  if (rated) {
    // Per category, Fleiss' kappa over the documents every coder labelled (as the overall kappa): a category that
    // occurs only where a coder is missing is left out.
    std::vector<bool> occurs(static_cast<std::size_t>(table.categories), false);
    const auto m = static_cast<std::size_t>(table.coders);
    for (std::size_t u = 0; u < static_cast<std::size_t>(table.units); ++u) {
      const int* row = table.codes.data() + u * m;
      if (std::any_of(row, row + m, [](int c) { return c < 0; })) continue;
      for (std::size_t c = 0; c < m; ++c) occurs[static_cast<std::size_t>(row[c])] = true;
    }
    const auto per = stats::fleiss_kappa_per_category(table);
    for (const auto& [c, i] : category_index)
      if (occurs[static_cast<std::size_t>(i)]) a.per_category.emplace_back(c, per[static_cast<std::size_t>(i)]);
  }
  a.cohen_kappa = nan;
  if (table.coders == 2 && table.units > 0) {
    std::vector<int> x, y;
    for (int u = 0; u < table.units; ++u) {
      x.push_back(table.codes[static_cast<std::size_t>(2 * u)]);
      y.push_back(table.codes[static_cast<std::size_t>(2 * u + 1)]);
    }
    a.cohen_kappa = stats::cohen_kappa(x, y, table.categories);
  }
  return a;
}

std::string label_table_text(const SampleLabels& s) {
  std::vector<std::string> header{"unit"};
  for (const auto& c : s.coders) header.push_back("Label_" + c);
  header.push_back("Final_Label");
  std::string out = csv::format_record(header, false);
  for (std::size_t d = 0; d < s.docs.size(); ++d) {
    std::vector<std::string> row{s.docs[d]};
    row.insert(row.end(), s.round_categories[d].begin(), s.round_categories[d].end());  // as decided
    row.push_back(final_category(s, d));
    out += csv::format_record(row, false);
  }
  return out;
}

}  // namespace qualrank::corpus
