// Label files of a corpus sample: corpus/labels/<sample>/<coder>.csv and decisions.csv (RFC 4180), and the
// sample lists corpus/samples/<sample>.txt.
#include "qualrank/model/corpus/corpus_labels.h"

#include <algorithm>
#include <map>
#include <set>

#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_screening.h"
#include "qualrank/util/csv.h"
#include "qualrank/util/files.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"

namespace qualrank::corpus {

namespace {

template <class T>
auto position(std::vector<T>& v, std::string_view doc) {
  return std::lower_bound(v.begin(), v.end(), doc, [](const T& a, std::string_view d) { return doc_less(a.doc, d); });
}

// The rows of a labels or decisions file, checked alike: doc is SOURCE#ID, nodes not empty and no node
// twice, no document twice. `more` reads the file's other columns into the row (and may report errors).
template <class T, class More>
std::vector<T> read_rows(std::string_view text, const std::string& file, Diagnostics& diags, const char* header,
                         const std::vector<const char*>& needed, More&& more) {
  std::vector<T> out;
  auto table = csv::parse(text, file, diags);
  for (const char* n : needed)
    if (table.column(n) < 0) {
      diags.error({file, table.header_line, 1}, std::string("the columns are ") + header + " (no '" + n + "')");
      return out;
    }
  const int doc = table.column("doc"), nodes = table.column("nodes");
  std::map<std::string, int> seen;
  for (const auto& r : table.rows) {
    T row;
    row.doc = std::string(text::trim(r.fields[static_cast<std::size_t>(doc)]));
    row.line = r.line;
    row.nodes = split_nodes(r.fields[static_cast<std::size_t>(nodes)]);
    if (row.doc.find('#') == std::string::npos) {
      diags.error({file, r.line, 1}, "'" + row.doc + "' is not a document (SOURCE#ID)");
      continue;
    }
    if (row.nodes.empty()) {
      diags.error({file, r.line, 1}, "'" + row.doc + "' has no nodes");
      continue;
    }
    auto sorted = row.nodes;
    std::sort(sorted.begin(), sorted.end());
    if (auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end()) {
      diags.error({file, r.line, 1}, "node '" + *dup + "' is given twice");
      continue;
    }
    if (!more(row, table, r)) continue;
    auto [it, fresh] = seen.emplace(row.doc, r.line);
    if (!fresh) {
      diags.error({file, r.line, 1}, "'" + row.doc + "' is listed twice (first on line " + std::to_string(it->second) + ")");
      continue;
    }
    out.push_back(std::move(row));
  }
  std::sort(out.begin(), out.end(), [](const T& a, const T& b) { return doc_less(a.doc, b.doc); });
  return out;
}

std::string cell(const csv::Table& table, const csv::Record& r, const char* name) {
  const int c = table.column(name);
  return c < 0 ? std::string() : r.fields[static_cast<std::size_t>(c)];
}

// The `sample` cell: empty, or 16 lowercase hex digits (sample_stamp); false after a located error.
bool read_stamp(std::string& out, const csv::Table& t, const csv::Record& r, const std::string& file, Diagnostics& diags) {
  out = std::string(text::trim(cell(t, r, "sample")));
  if (out.empty() || (out.size() == 16 && out.find_first_not_of("0123456789abcdef") == std::string::npos)) return true;
  diags.error({file, r.line, 1}, "sample is the 16 hex digits of the draw the row was made on (or empty), not '" + out + "'");
  return false;
}

}  // namespace

std::string sample_path(std::string_view sample) { return "corpus/samples/" + std::string(sample) + ".txt"; }
std::string labels_dir(std::string_view sample) { return "corpus/labels/" + std::string(sample); }
std::string labels_path(std::string_view sample, std::string_view coder) {
  return labels_dir(sample) + "/" + std::string(coder) + ".csv";
}
std::string decisions_path(std::string_view sample) { return labels_dir(sample) + "/decisions.csv"; }

std::vector<std::string> read_sample(std::string_view text, const std::string& file, Diagnostics& diags) {
  std::vector<std::string> out;
  std::map<std::string, int, std::less<>> seen;
  int line = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    ++line;
    auto t = text::trim(text.substr(at, nl - at));
    at = nl + 1;
    if (t.empty() || t[0] == '#') continue;
    if (t.find('#') == std::string_view::npos) {
      diags.error({file, line, 1}, "'" + std::string(t) + "' is not a document (SOURCE#ID)");
      continue;
    }
    auto [it, fresh] = seen.emplace(std::string(t), line);
    if (!fresh) {
      diags.error({file, line, 1}, "'" + std::string(t) + "' is listed twice (first on line " + std::to_string(it->second) + ")");
      continue;
    }
    out.emplace_back(t);
  }
  return out;
}

std::string sample_stamp(std::string_view sample_text) { return sha256_hex(sample_text).substr(0, 16); }

std::optional<SampleList> load_sample_list(const std::filesystem::path& workspace, std::string_view sample, Diagnostics& diags) {
  const std::string rel = sample_path(sample), name(sample);
  if (!files::exists(workspace / rel)) {
    diags.error({rel, 0, 0}, "no sample '" + name + "': draw it with 'qualrank corpus sample " + name + "'");
    return std::nullopt;
  }
  std::string why;
  auto text = files::read_inside(workspace, rel, &why);
  if (!text) {
    diags.error({rel, 0, 0}, why);
    return std::nullopt;
  }
  return SampleList{read_sample(*text, rel, diags), sample_stamp(*text)};
}

std::string labels_cell(const CodersLabels& labels) {
  std::string out;
  for (const auto& [coder, nodes] : labels) {
    if (!out.empty()) out += "; ";
    out += coder + "=" + join_nodes(nodes);
  }
  return out;
}

std::optional<CodersLabels> parse_labels_cell(std::string_view cell) {
  // Read by words, not by splitting at ';': a node id may hold ';' (never '=' nor a blank), a coder's name
  // neither. A word with '=' starts a coder's entry; the entry before it ends in the "; " labels_cell writes
  // between entries, whose ';' is taken off its last word.
  CodersLabels out;
  std::set<std::string, std::less<>> seen;  // (a set: a cell of many coders stays linear)
  for (auto& word : split_nodes(cell)) {
    const auto eq = word.find('=');
    if (eq == std::string::npos) {
      if (out.empty()) return std::nullopt;
      out.back().second.push_back(std::move(word));
      continue;
    }
    if (!out.empty()) {
      auto& nodes = out.back().second;
      if (nodes.empty() || nodes.back().empty() || nodes.back().back() != ';') return std::nullopt;
      nodes.back().pop_back();
      if (nodes.back().empty()) nodes.pop_back();
      if (nodes.empty()) return std::nullopt;
    }
    std::string coder = word.substr(0, eq), first = word.substr(eq + 1);
    if (!coder_name_problem(coder).empty() || first.find('=') != std::string::npos) return std::nullopt;
    if (!seen.insert(coder).second) return std::nullopt;
    out.emplace_back(std::move(coder), std::vector<std::string>{});
    if (!first.empty()) out.back().second.push_back(std::move(first));
  }
  if (!out.empty() && out.back().second.empty()) return std::nullopt;
  return out;
}

std::string join_nodes(const std::vector<std::string>& nodes) { return text::join(nodes, " "); }

std::vector<std::string> split_nodes(std::string_view cell) {
  std::vector<std::string> out;
  std::size_t i = 0;
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (i < cell.size()) {
    while (i < cell.size() && blank(cell[i])) ++i;
    std::size_t j = i;
    while (j < cell.size() && !blank(cell[j])) ++j;
    if (j > i) out.emplace_back(cell.substr(i, j - i));
    i = j;
  }
  return out;
}

std::vector<DocumentLabel> read_labels(std::string_view text, const std::string& file, Diagnostics& diags) {
  return read_rows<DocumentLabel>(text, file, diags, "doc, nodes, note, sample", {"doc", "nodes"},
                                  [&](DocumentLabel& l, const csv::Table& t, const csv::Record& r) {
                                    l.note = cell(t, r, "note");
                                    return read_stamp(l.sample, t, r, file, diags);
                                  });
}

std::string labels_text(const std::vector<DocumentLabel>& labels) {
  std::string out = "doc,nodes,note,sample\n";
  for (const auto& l : labels) out += csv::format_record({l.doc, join_nodes(l.nodes), l.note, l.sample}, false);
  return out;
}

std::optional<DocumentLabel> set_label(std::vector<DocumentLabel>& labels, DocumentLabel label) {
  auto it = position(labels, label.doc);
  if (it != labels.end() && it->doc == label.doc) {
    DocumentLabel old = std::move(*it);
    *it = std::move(label);
    return old;
  }
  labels.insert(it, std::move(label));
  return std::nullopt;
}

std::optional<DocumentLabel> remove_label(std::vector<DocumentLabel>& labels, std::string_view doc) {
  auto it = position(labels, doc);
  if (it == labels.end() || it->doc != doc) return std::nullopt;
  DocumentLabel old = std::move(*it);
  labels.erase(it);
  return old;
}

const DocumentLabel* find_label(const std::vector<DocumentLabel>& labels, std::string_view doc) {
  auto it = std::lower_bound(labels.begin(), labels.end(), doc,
                             [](const DocumentLabel& a, std::string_view d) { return doc_less(a.doc, d); });
  return it != labels.end() && it->doc == doc ? &*it : nullptr;
}

std::vector<CoderLabels> read_all_labels(const std::filesystem::path& workspace, std::string_view sample, Diagnostics& diags) {
  std::vector<CoderLabels> out;
  for (const auto& p : files::list_files(workspace / labels_dir(sample), ".csv")) {
    const std::string name = p.stem().string();
    if (name == "decisions") continue;
    if (auto why = coder_name_problem(name); !why.empty()) {  // a stray file, or a name the tables reserve
      diags.warning({labels_path(sample, name), 0, 0}, "not read as a coder's labels: " + why);
      continue;
    }
    const std::string rel = labels_path(sample, name);
    std::string why;
    auto text = files::read_inside(workspace, rel, &why);
    if (!text) {
      diags.error({rel, 0, 0}, why);
      continue;
    }
    auto labels = read_labels(*text, rel, diags);
    if (labels.empty()) {  // the labeller opened and quit, or every label removed: not a coder of this sample
      diags.warning({rel, 0, 0}, "holds no label: not counted as a coder of sample " + std::string(sample) +
                                     " (label with 'qualrank corpus label --coder " + name + " --sample " + std::string(sample) +
                                     "', or remove the file)");
      continue;
    }
    out.push_back({name, std::move(labels)});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.coder < b.coder; });
  return out;
}

std::vector<LabelDecision> read_decisions(std::string_view text, const std::string& file, Diagnostics& diags) {
  return read_rows<LabelDecision>(
      text, file, diags, "doc, nodes, how, decider, date, note, labels, sample", {"doc", "nodes", "how", "decider", "date"},
      [&](LabelDecision& d, const csv::Table& t, const csv::Record& r) {
        d.how = std::string(text::trim(cell(t, r, "how")));
        d.decider = std::string(text::trim(cell(t, r, "decider")));
        d.date = std::string(text::trim(cell(t, r, "date")));
        d.note = cell(t, r, "note");
        if (d.how != "majority" && d.how != "other" && !(d.how.starts_with("coder:") && d.how.size() > 6)) {
          diags.error({file, r.line, 1}, "how is coder:NAME, majority or other, not '" + d.how + "'");
          return false;
        }
        if (!text::is_calendar_date(d.date)) {
          diags.error({file, r.line, 1}, "date is YYYY-MM-DD, not '" + d.date + "'");
          return false;
        }
        const std::string labels(text::trim(cell(t, r, "labels")));
        auto made_on = parse_labels_cell(labels);
        if (!made_on) {
          diags.error({file, r.line, 1}, "labels are the coders' labels the decision was made on, as 'CODER=NODE NODE; CODER=NODE', not '" +
                                             labels + "'");
          return false;
        }
        d.labels = std::move(*made_on);
        return read_stamp(d.sample, t, r, file, diags);
      });
}

std::string decisions_text(const std::vector<LabelDecision>& decisions) {
  std::string out = "doc,nodes,how,decider,date,note,labels,sample\n";
  for (const auto& d : decisions)
    out += csv::format_record({d.doc, join_nodes(d.nodes), d.how, d.decider, d.date, d.note, labels_cell(d.labels), d.sample}, false);
  return out;
}

bool set_decision(std::vector<LabelDecision>& decisions, LabelDecision d) {
  auto it = position(decisions, d.doc);
  if (it != decisions.end() && it->doc == d.doc) {
    *it = std::move(d);
    return true;
  }
  decisions.insert(it, std::move(d));
  return false;
}

std::string coder_name_problem(std::string_view name) {
  const std::string general =
      "a coder name has 1 to 64 characters: letters, digits, '.', '_' and '-', not first '.' or '-'";
  if (screener_name_problem(name).empty() == false) return general;
  // The names the files and tables already give a meaning: decisions.csv, the label table's columns, the
  // team's consensus (in any case: one file on a case-insensitive system).
  const std::string folded = text::fold_case(name);
  for (const char* reserved : {"decisions", "final_label", "consensus", "unit"})
    if (folded == reserved) return general + ", and is not '" + std::string(name) + "' (a name the files and tables reserve)";
  return {};
}


}  // namespace qualrank::corpus
