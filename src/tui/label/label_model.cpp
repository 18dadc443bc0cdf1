// The corpus labeller's model (label_model.h): the sample indexed by id into the stored sources, documents
// parsed on demand, labels saved as made, undo/redo, search, the picker's rows and the document's layout.
#include "label_model.h"

#include <nlohmann/json.hpp>
#include <unicode/utf8.h>

#include <algorithm>
#include <fstream>

#include "qualrank/analysis/corpus/corpus_labels.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/model/corpus/corpus_screening.h"
#include "qualrank/util/files.h"
#include "qualrank/util/text.h"
#include "qualrank/util/workspace_lock.h"

namespace qualrank::tui {

namespace {

constexpr std::size_t kCached = 16;  // documents kept parsed

// `s` as search compares it: in Unicode NFC (text::nfc_with_origin: "Zoe" + U+0308 is "Zoë"), then case-folded
// code point by code point (Unicode simple case folding), with for each byte (and one past the end) the offset
// in `s` of the normalisation segment it came from, so a match maps back to whole characters of `s`.
text::NfcText searchable(std::string_view s) {
  text::NfcText n = text::nfc_with_origin(s);
  text::NfcText out;
  out.text.reserve(n.text.size());
  out.origin.reserve(n.text.size() + 1);
  const auto* p = reinterpret_cast<const uint8_t*>(n.text.data());
  const auto len = static_cast<int32_t>(n.text.size());
  for (int32_t i = 0; i < len;) {
    const std::size_t from = n.origin[static_cast<std::size_t>(i)];
    if (p[i] < 0x80) {
      const char c = static_cast<char>(p[i]);
      out.text.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
      out.origin.push_back(from);
      ++i;
      continue;
    }
    UChar32 c;
    U8_NEXT(p, i, len, c);
    char buf[4];
    const std::size_t k = text::fold_code_point(c < 0 ? 0xFFFD : c, buf);
    out.text.append(buf, k);
    out.origin.insert(out.origin.end(), k, from);
  }
  out.origin.push_back(s.size());
  return out;
}

// Byte ranges of `needle` (already searchable()'s form) in `hay`, each starting and ending on whole characters
// of the text `hay` was made from (a match never ends before a combining mark that follows it).
void find_in(const text::NfcText& hay, const std::string& needle, std::vector<std::pair<std::size_t, std::size_t>>& out,
             bool first_only = false) {
  if (needle.empty()) return;
  const auto& o = hay.origin;
  for (std::size_t at = hay.text.find(needle); at != std::string::npos; at = hay.text.find(needle, at + 1)) {
    const std::size_t end = at + needle.size();
    if (!text::whole_characters(o, at, end)) continue;
    out.emplace_back(o[at], o[end]);
    if (first_only) return;
  }
}

// Byte ranges of `terms` in `text`, compared under NFC and case-insensitively (searchable()), sorted and merged.
std::vector<std::pair<std::size_t, std::size_t>> find_marks(std::string_view text, const std::vector<std::string>& terms) {
  std::vector<std::pair<std::size_t, std::size_t>> marks;
  if (terms.empty()) return marks;
  const text::NfcText hay = searchable(text);
  for (const auto& t : terms) find_in(hay, searchable(t).text, marks);
  std::sort(marks.begin(), marks.end());
  std::vector<std::pair<std::size_t, std::size_t>> merged;
  for (const auto& m : marks) {
    if (!merged.empty() && m.first <= merged.back().second) merged.back().second = std::max(merged.back().second, m.second);
    else merged.push_back(m);
  }
  return merged;
}

// One character of a paragraph as the terminal shows it (text::terminal_safe's rule): a control in caret
// notation, a C1 control as <U+0085>, an invalid byte as \xff, anything else as given; a tab's columns depend
// on where it falls on its line (wrap resolves them).
struct Cell {
  std::size_t begin = 0, end = 0;  // bytes of the paragraph
  std::string shown;               // empty: as given
  int width = 0;
  bool tab = false, space = false;
};

std::vector<Cell> cells(std::string_view para) {
  std::vector<Cell> out;
  for (const auto& cl : clusters(para)) {
    Cell c{cl.begin, cl.end, {}, cl.width, false, false};
    const std::string_view piece = para.substr(cl.begin, cl.end - cl.begin);
    const auto first = static_cast<unsigned char>(piece[0]);
    if (piece == "\t") c.tab = c.space = true;
    else if (piece == " ") c.space = true;
    else if (piece.size() > 1 || first < 0x20 || first == 0x7f) {
      std::string safe = text::terminal_safe(piece);
      if (safe != piece) c.width = display_width(safe), c.shown = std::move(safe);
    }
    out.push_back(std::move(c));
  }
  return out;
}

using Marks = std::vector<std::pair<std::size_t, std::size_t>>;

// Wraps one paragraph (no line breaks) to `width` columns, breaking after a space or tab when there is one; a
// tab takes the columns to the next multiple of 8 of the line (no more than the line has left). The marks of
// the paragraph (byte ranges of it) are cut to each line and moved to the bytes shown.
void wrap(std::string_view para, const Marks& marks, const Marks& found, int width, ViewLine::Kind kind, const std::string& indent,
          std::size_t part, std::size_t base, std::vector<ViewLine>& out) {
  width = std::max(width - static_cast<int>(indent.size()), 8);
  const auto cl = cells(para);
  std::vector<int> cols(cl.size(), 0);  // each cell's columns where it falls
  std::size_t k = 0;
  do {
    int used = 0;
    std::size_t j = k, j_after_space = k;
    while (j < cl.size()) {
      int w = cl[j].tab ? std::min(8 - used % 8, width - used) : cl[j].width;
      if (used + w > width) break;
      cols[j] = w, used += w;
      if (cl[j].space) j_after_space = j + 1;
      ++j;
    }
    if (j < cl.size() && j_after_space > k) j = j_after_space;
    if (j == k && j < cl.size()) cols[j] = cl[j].tab ? width : cl[j].width, ++j;  // a character wider than the line
    ViewLine line{indent, {}, {}, kind, part, base + (k < cl.size() ? cl[k].begin : para.size())};
    std::vector<std::size_t> at;  // each cell's byte offset in line.text, and the end
    for (std::size_t c = k; c < j; ++c) {
      at.push_back(line.text.size());
      if (cl[c].tab) line.text.append(static_cast<std::size_t>(cols[c]), ' ');
      else if (!cl[c].shown.empty()) line.text += cl[c].shown;
      else line.text.append(para.substr(cl[c].begin, cl[c].end - cl[c].begin));
    }
    at.push_back(line.text.size());
    const std::size_t start = k < cl.size() ? cl[k].begin : para.size(), end = j > k ? cl[j - 1].end : start;
    auto cut = [&](const Marks& from, Marks& to) {
      for (const auto& [b, e] : from) {
        if (b >= end || e <= start) continue;
        std::size_t first = k, last = j;  // cells [first, last) hold the mark's bytes
        while (first < j && cl[first].end <= b) ++first;
        while (last > first && cl[last - 1].begin >= e) --last;
        if (first < last) to.emplace_back(at[first - k], at[last - k]);
      }
    };
    cut(marks, line.marks);
    cut(found, line.found);
    out.push_back(std::move(line));
    k = j;
  } while (k < cl.size());
}

void add_text(std::string_view text, const std::vector<std::string>& terms, const std::string& query, int width, ViewLine::Kind kind,
              const std::string& indent, std::size_t part, std::vector<ViewLine>& out) {
  for (std::size_t at = 0;;) {
    std::size_t nl = text.find('\n', at);
    std::string_view para = text.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    if (!para.empty() && para.back() == '\r') para.remove_suffix(1);
    wrap(para, find_marks(para, terms), query.empty() ? Marks{} : find_marks(para, {query}), width, kind, indent, part, at, out);
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
}

}  // namespace

std::optional<LabelModel> LabelModel::open(const std::filesystem::path& workspace, const std::string& coder,
                                           const std::string& sample, const Taxonomy& taxonomy, NodeResolver resolve,
                                           Diagnostics& diags) {
  LabelModel m;
  m.workspace_ = workspace;
  m.coder_ = coder;
  m.sample_ = sample;
  m.taxonomy_ = &taxonomy;
  m.resolve_ = std::move(resolve);
  auto list = corpus::load_sample_list(workspace, sample, diags);
  if (!list) return std::nullopt;
  m.docs_ = std::move(list->docs);
  m.sample_stamp_ = std::move(list->stamp);
  std::sort(m.docs_.begin(), m.docs_.end(), [](const auto& a, const auto& b) { return corpus::doc_less(a, b); });
  for (std::size_t i = 0; i < m.docs_.size(); ++i) m.index_.emplace(m.docs_[i], i);
  m.labels_.assign(m.docs_.size(), std::nullopt);
  m.where_.assign(m.docs_.size(), {});
  m.terms_.assign(m.docs_.size(), {});
  // The coder's labels so far.
  const std::string lrel = corpus::labels_path(sample, coder);
  std::string why;
  m.stamp_ = m.stamp();  // before reading: a change while it is read is read again
  if (m.stamp_.exists) {
    auto ltext = files::read_inside(workspace, lrel, &why);
    if (!ltext) diags.error({lrel, 0, 0}, why);
    else m.take_labels(corpus::read_labels(*ltext, lrel, diags));
  }
  if (diags.has_errors()) return std::nullopt;
  // The sources of the sample, each indexed once.
  for (const auto& d : m.docs_) {
    std::string source = d.substr(0, d.find('#'));
    if (std::find(m.sources_.begin(), m.sources_.end(), source) == m.sources_.end()) m.sources_.push_back(source);
  }
  for (std::size_t s = 0; s < m.sources_.size(); ++s) m.rebuild_index(s);
  // The keywords retrieval matched: the lines of retrieved.jsonl of the sample's documents only.
  const std::string rrel = "corpus/retrieved.jsonl";
  if (files::exists(workspace / rrel))
    if (auto rtext = files::read_inside(workspace, rrel, &why)) {
      std::string_view all(*rtext);
      for (std::size_t at = 0; at < all.size();) {
        std::size_t nl = all.find('\n', at);
        if (nl == std::string_view::npos) nl = all.size();
        std::string_view line = all.substr(at, nl - at);
        at = nl + 1;
        auto key = line.find("\"doc\":\"");
        if (key == std::string_view::npos) continue;
        auto end = line.find('"', key + 7);
        if (end == std::string_view::npos) continue;
        auto it = m.index_.find(std::string(line.substr(key + 7, end - key - 7)));
        if (it == m.index_.end()) continue;
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.contains("matches") || !j["matches"].is_array()) continue;
        auto& terms = m.terms_[it->second];
        for (const auto& match : j["matches"])
          if (match.contains("term") && match["term"].is_string()) {
            auto t = match["term"].get<std::string>();
            if (std::find(terms.begin(), terms.end(), t) == terms.end()) terms.push_back(std::move(t));
          }
      }
    }
  m.current_ = 0;
  if (!m.docs_.empty() && m.labels_[0]) {
    if (!m.next_unlabelled()) m.current_ = m.docs_.size() - 1;
  }
  m.message_ = m.docs_.empty() ? "the sample is empty" : m.progress();
  return m;
}

void LabelModel::rebuild_index(std::size_t s) {
  const std::string rel = corpus::store_path(sources_[s]);
  std::string why;
  auto text = files::exists(workspace_ / rel) ? files::read_inside(workspace_, rel, &why) : std::nullopt;
  for (std::size_t i = 0; i < docs_.size(); ++i)
    if (docs_[i].compare(0, sources_[s].size() + 1, sources_[s] + "#") == 0) where_[i] = {s, 0, 0, false};
  if (!text) return;
  std::vector<std::uint64_t> starts{0};
  for (std::size_t at = text->find('\n'); at != std::string::npos; at = text->find('\n', at + 1)) starts.push_back(at + 1);
  Diagnostics ignored;  // a document that cannot be read is shown as missing
  const std::string prefix = sources_[s] + "#";
  corpus::for_each_stored(*text, rel, ignored, [&](const corpus::DocumentView& v) {
    auto it = index_.find(prefix + std::string(v.id));
    if (it == index_.end() || v.line < 1 || static_cast<std::size_t>(v.line) > starts.size()) return;
    const std::uint64_t b = starts[static_cast<std::size_t>(v.line) - 1];
    const std::uint64_t e = static_cast<std::size_t>(v.line) < starts.size() ? starts[static_cast<std::size_t>(v.line)] : text->size();
    where_[it->second] = {s, b, e - b, true};
  });
}

const LabelDocument& LabelModel::document(std::size_t i) {
  for (auto it = cache_.begin(); it != cache_.end(); ++it)
    if (it->first == i) {
      cache_.splice(cache_.begin(), cache_, it);
      return cache_.front().second;
    }
  LabelDocument d;
  d.doc = docs_[i];
  d.terms = terms_[i];
  bool parsed = false;
  for (int attempt = 0; attempt < 2 && !parsed; ++attempt) {
    const Where w = where_[i];
    if (!w.found) break;
    const std::string rel = corpus::store_path(sources_[w.source]);
    std::ifstream in(workspace_ / rel, std::ios::binary);
    std::string line(w.length, '\0');
    in.seekg(static_cast<std::streamoff>(w.offset));
    in.read(line.data(), static_cast<std::streamsize>(w.length));
    Diagnostics ignored;
    if (in)
      corpus::for_each_stored(line, rel, ignored, [&](const corpus::DocumentView& v) {
        if (corpus::doc_ref(sources_[w.source], v.id) != docs_[i]) return;
        d.url = v.url, d.created = v.created, d.title = v.title, d.body = v.body;
        for (const auto& c : v.comments) d.comments.emplace_back(c.author, c.body);
        parsed = true;
      });
    if (!parsed && attempt == 0) rebuild_index(w.source);  // the file changed since it was indexed
  }
  d.missing = !parsed;
  cache_.emplace_front(i, std::move(d));
  if (cache_.size() > kCached) cache_.pop_back();
  return cache_.front().second;
}

void LabelModel::take_labels(std::vector<corpus::DocumentLabel> all) {
  labels_.assign(docs_.size(), std::nullopt);
  labelled_ = 0;
  for (auto& l : all)
    if (auto it = index_.find(l.doc); it != index_.end()) {
      if (!labels_[it->second]) ++labelled_;
      labels_[it->second] = std::move(l);
    }
}

LabelModel::Stamp LabelModel::stamp() const {
  std::error_code ec;
  const auto path = workspace_ / corpus::labels_path(sample_, coder_);
  Stamp s;
  s.size = std::filesystem::file_size(path, ec);
  if (ec) return {};
  s.time = std::filesystem::last_write_time(path, ec);
  if (ec) return {};
  s.exists = true;
  return s;
}

bool LabelModel::reload_labels() {
  const Stamp now = stamp();
  if (now == stamp_) return false;
  const std::string rel = corpus::labels_path(sample_, coder_);
  std::vector<corpus::DocumentLabel> all;
  if (now.exists) {
    std::string why;
    auto text = files::read_inside(workspace_, rel, &why);
    if (!text) {
      message_ = rel + ": " + why;
      return false;
    }
    Diagnostics diags;
    all = corpus::read_labels(*text, rel, diags);
    if (diags.has_errors()) {
      message_ = rel + " has errors (qualrank corpus labels export names them); the labels shown are as read before";
      stamp_ = now;
      return false;
    }
  }
  stamp_ = now;
  auto before = labels_;
  take_labels(std::move(all));
  auto same = [](const std::optional<corpus::DocumentLabel>& a, const std::optional<corpus::DocumentLabel>& b) {
    return a.has_value() == b.has_value() && (!a || (a->nodes == b->nodes && a->note == b->note));
  };
  for (std::size_t i = 0; i < labels_.size(); ++i)
    if (!same(before[i], labels_[i])) return true;
  return false;
}

std::string LabelModel::elsewhere(std::size_t doc) const {
  return docs_[doc] + (labels_[doc] ? ": labelled elsewhere since: " + corpus::join_nodes(labels_[doc]->nodes)
                                    : ": its label was removed elsewhere since");
}

const corpus::DocumentLabel* LabelModel::label(std::size_t i) const { return labels_[i] ? &*labels_[i] : nullptr; }

std::string LabelModel::progress() const { return corpus::progress_text(labelled_, docs_.size()); }

void LabelModel::go(std::size_t i) {
  if (docs_.empty()) return;
  i = std::min(i, docs_.size() - 1);
  if (i != current_) found_.clear();
  current_ = i;
  scroll = 0;
}
void LabelModel::next() { go(current_ + 1); }
void LabelModel::previous() { go(current_ == 0 ? 0 : current_ - 1); }

bool LabelModel::next_unlabelled() {
  reload_labels();  // not one labelled elsewhere meanwhile
  for (std::size_t k = 1; k <= docs_.size(); ++k) {
    const std::size_t i = (current_ + k) % docs_.size();
    if (!labels_[i]) {
      go(i);
      return true;
    }
  }
  return false;
}

LabelModel::Applied LabelModel::apply(std::size_t doc, const std::optional<corpus::DocumentLabel>& to,
                                      const std::optional<corpus::DocumentLabel>& shown) {
  files::WorkspaceLock lock(workspace_);
  if (!lock.locked()) {
    message_ = "not saved: " + lock.why();
    return Applied::failed;
  }
  const std::string rel = corpus::labels_path(sample_, coder_);
  std::vector<corpus::DocumentLabel> all;
  Diagnostics diags;
  const Stamp read = stamp();
  if (read.exists) {
    std::string why;
    auto text = files::read_inside(workspace_, rel, &why);
    if (!text) {
      message_ = "not saved: " + rel + ": " + why;
      return Applied::failed;
    }
    all = corpus::read_labels(*text, rel, diags);  // as on disk now: another labeller's saves are kept
    if (diags.has_errors()) {
      message_ = "not saved: " + rel + " has errors (qualrank corpus labels export names them)";
      return Applied::failed;
    }
  }
  // The document's label on disk: still the one shown, or recorded (or removed) elsewhere since?
  const corpus::DocumentLabel* now = nullptr;
  for (const auto& l : all)
    if (l.doc == docs_[doc]) now = &l;
  const bool unchanged = (now == nullptr) == !shown && (!now || (now->nodes == shown->nodes && now->note == shown->note));
  if (!unchanged) {
    take_labels(std::move(all));
    stamp_ = read;
    return Applied::elsewhere;
  }
  if (to) corpus::set_label(all, *to);
  else corpus::remove_label(all, docs_[doc]);
  auto target = files::resolve_inside(workspace_, rel);
  std::string err;
  if (!target || !files::write_atomic(*target, corpus::labels_text(all), &err)) {
    message_ = "not saved: " + (target ? err : rel + " is outside the workspace");
    return Applied::failed;
  }
  take_labels(std::move(all));
  stamp_ = stamp();  // under the lock: the file as written here
  return Applied::saved;
}

bool LabelModel::label_current(const std::vector<std::string>& nodes, bool add) {
  if (docs_.empty()) return false;
  std::vector<std::string> all = nodes;
  if (add && labels_[current_]) all.insert(all.end(), labels_[current_]->nodes.begin(), labels_[current_]->nodes.end());
  auto ln = corpus::label_nodes(all, *taxonomy_);
  if (!ln.problem.empty()) {
    message_ = ln.problem;
    return false;
  }
  corpus::DocumentLabel l{docs_[current_], ln.nodes, labels_[current_] ? labels_[current_]->note : "", 0, sample_stamp_};
  Change c{current_, labels_[current_], l};
  switch (apply(current_, l, c.before)) {
    case Applied::failed: return false;
    case Applied::elsewhere:
      message_ = elsewhere(current_) + (add ? "; press A again to add to it" : labels_[current_] ? "; press c again to replace it" : "; press c again to label it");
      scroll = 0;
      return false;
    case Applied::saved: break;
  }
  undo_.push_back(std::move(c));
  redo_.clear();
  const auto* n = taxonomy_->find(ln.category);
  message_ = docs_[current_] + ": " + corpus::join_nodes(ln.nodes) + (n ? " (" + n->name + ")" : "") + "; " + progress();
  next_unlabelled();
  return true;
}

bool LabelModel::clear_current() {
  if (docs_.empty() || !labels_[current_]) {
    message_ = "no label to remove";
    return false;
  }
  Change c{current_, labels_[current_], std::nullopt};
  switch (apply(current_, std::nullopt, c.before)) {
    case Applied::failed: return false;
    case Applied::elsewhere:
      message_ = elsewhere(current_) + (labels_[current_] ? "; press x again to remove it" : "");
      scroll = 0;
      return false;
    case Applied::saved: break;
  }
  undo_.push_back(std::move(c));
  redo_.clear();
  message_ = docs_[current_] + ": label removed; " + progress();
  return true;
}

bool LabelModel::undo() {
  if (undo_.empty()) {
    message_ = "nothing to undo";
    return false;
  }
  Change c = undo_.back();
  const Applied a = apply(c.doc, c.before, c.after);
  if (a == Applied::failed) return false;
  undo_.pop_back();
  go(c.doc);
  if (a == Applied::elsewhere) {  // the change is no longer the document's label: nothing to undo there
    message_ = "not undone: " + elsewhere(c.doc);
    return false;
  }
  message_ = "undone: " + docs_[c.doc] + (c.before ? " is " + corpus::join_nodes(c.before->nodes) + " again" : " unlabelled again") +
             "; " + progress();
  redo_.push_back(std::move(c));
  return true;
}

bool LabelModel::redo() {
  if (redo_.empty()) {
    message_ = "nothing to redo";
    return false;
  }
  Change c = redo_.back();
  const Applied a = apply(c.doc, c.after, c.before);
  if (a == Applied::failed) return false;
  redo_.pop_back();
  go(c.doc);
  if (a == Applied::elsewhere) {
    message_ = "not redone: " + elsewhere(c.doc);
    return false;
  }
  message_ = "redone: " + docs_[c.doc] + "; " + progress();
  undo_.push_back(std::move(c));
  return true;
}

bool LabelModel::search(const std::string& query, bool forward) {
  const std::string q = searchable(text::trim(query)).text;
  if (q.empty() || docs_.empty()) return false;
  std::vector<std::pair<std::size_t, std::size_t>> found;
  auto holds = [&](const std::string& s) {
    found.clear();
    find_in(searchable(s), q, found, true);
    return !found.empty();
  };
  for (std::size_t k = 1; k <= docs_.size(); ++k) {
    const std::size_t i = forward ? (current_ + k) % docs_.size() : (current_ + docs_.size() * 2 - k) % docs_.size();
    const auto& d = document(i);
    bool hit = holds(d.title) || holds(d.body) || holds(d.doc);
    for (const auto& c : d.comments) hit = hit || holds(c.second);
    if (hit) {
      go(i);
      found_ = text::trim(query), found_doc_ = i, scroll_to_found_ = true;
      message_ = "found '" + query + "' in " + docs_[i];
      return true;
    }
  }
  message_ = "'" + query + "' is in no document of the sample";
  return false;
}

std::vector<PickerRow> LabelModel::picker_rows(const std::string& query) const {
  const std::string q = text::fold_case(text::trim(query));
  auto matches = [&](const std::string& id) {
    if (q.empty()) return true;
    const auto* n = taxonomy_->find(id);
    if (!n) return false;
    if (text::fold_case(id).find(q) != std::string::npos || text::fold_case(n->name).find(q) != std::string::npos) return true;
    for (const auto& a : n->aliases)
      if (text::fold_case(a).find(q) != std::string::npos) return true;
    return false;
  };
  const auto& order = taxonomy_->order();
  std::vector<bool> keep(order.size(), false);
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (!matches(order[k])) continue;
    for (const auto* n = taxonomy_->find(order[k]); n; n = n->parent.empty() ? nullptr : taxonomy_->find(n->parent))
      keep[taxonomy_->rank_of(n->id)] = true;
  }
  std::vector<PickerRow> rows;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (!keep[k]) continue;
    const auto* n = taxonomy_->find(order[k]);
    if (n->status == "deprecated") continue;
    rows.push_back({n->id, n->name, n->level - 1, false, matches(n->id)});
  }
  return rows;
}

std::vector<ViewLine> LabelModel::layout(int width) {
  std::vector<ViewLine> out;
  if (docs_.empty()) return out;
  const auto& d = document(current_);
  const std::vector<std::string>& terms = d.terms;
  const std::string& query = found_doc_ == current_ ? found_ : std::string();
  std::size_t part = 0;  // each text and line of its own a part (ViewLine::part)
  auto line = [&](std::string text, ViewLine::Kind kind) { out.push_back({std::move(text), {}, {}, kind, part++, 0}); };
  add_text(d.doc + "  " + d.title, terms, query, width, ViewLine::heading, "", part++, out);
  if (d.missing) line("(not in the stored corpus: corpus/" + d.doc.substr(0, d.doc.find('#')) + ".jsonl)", ViewLine::plain);
  else line(text::terminal_safe(d.url + (d.created.empty() ? "" : "  " + d.created.substr(0, 10))), ViewLine::plain);
  std::string label = "label: ";
  if (const auto* l = this->label(current_)) {
    std::vector<std::string> shown;
    for (const auto& id : l->nodes) {
      const auto* n = taxonomy_->find(id);
      shown.push_back(n ? id + " " + n->name : id);
    }
    label += text::join(shown, " > ");
  } else {
    label += "(none)";
  }
  line(label, ViewLine::plain);
  line("matched: " + (terms.empty() ? std::string("(taken whole, or not retrieved)") : text::terminal_safe(text::join(terms, ", "))),
       ViewLine::plain);
  line("", ViewLine::plain);
  add_text(d.body, terms, query, width, ViewLine::body, "", part++, out);
  for (std::size_t c = 0; c < d.comments.size(); ++c) {
    line("", ViewLine::plain);
    line("comment " + std::to_string(c + 1) + " by " + text::terminal_safe(d.comments[c].first), ViewLine::comment_head);
    add_text(d.comments[c].second, terms, query, width, ViewLine::body, "  ", part++, out);
  }
  auto place = [](const ViewLine& l) { return std::make_pair(l.part, l.offset); };
  if (scroll_to_found_) {  // the first occurrence of what was searched, a line of context above it
    scroll_to_found_ = false;
    for (std::size_t i = 0; i < out.size(); ++i)
      if (!out[i].found.empty()) {
        scroll = i > 0 ? static_cast<int>(i) - 1 : 0;
        break;
      }
  } else if (current_ == laid_doc_ && width != laid_width_ && !laid_.empty() && scroll > 0) {
    // A resize: the first line shown is the one holding the place the old first line began at.
    const auto top = laid_[static_cast<std::size_t>(std::min(scroll, static_cast<int>(laid_.size()) - 1))];
    std::size_t i = 0;
    while (i + 1 < out.size() && place(out[i + 1]) <= top) ++i;
    scroll = static_cast<int>(i);
  }
  laid_doc_ = current_, laid_width_ = width;
  laid_.clear();
  for (const auto& l : out) laid_.push_back(place(l));
  return out;
}

}  // namespace qualrank::tui
