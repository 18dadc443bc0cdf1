// The terminal coder's model (annotate_model.h): pure state and library calls, no terminal.
#include "annotate_model.h"

#include <algorithm>
#include <cstdlib>

#include "qualrank/util/text.h"

namespace qualrank::tui {

AnnotateModel::AnnotateModel(CodingDocument doc, const Taxonomy& taxonomy, NodeResolver resolve, const Guideline* guideline)
    : doc_(std::move(doc)), taxonomy_(taxonomy), resolve_(std::move(resolve)), guideline_(guideline),
      matcher_(keyword_rules(taxonomy)) {
  const auto& turns = doc_.transcript().turns;
  for (std::size_t i = 0; i < turns.size(); ++i)
    if (!turns[i].interviewer) participants_.push_back(i);
  turn_changed();
}

const Turn* AnnotateModel::current_turn() const {
  if (participants_.empty()) return nullptr;
  return &doc_.transcript().turns[participants_[current_]];
}

int AnnotateModel::current_number() const {
  const Turn* t = current_turn();
  return t ? t->number : 0;
}

void AnnotateModel::turn_changed() {
  const Turn* t = current_turn();
  words_ = t ? split_words(t->text) : std::vector<Word>{};
  selection_.reset();
  highlight_ = 0;
  focus_codes_ = false;
}

bool AnnotateModel::move(int delta) {
  if (participants_.empty()) return false;
  long target = static_cast<long>(current_) + delta;
  target = std::clamp(target, 0L, static_cast<long>(participants_.size()) - 1);
  if (static_cast<std::size_t>(target) == current_) return false;
  current_ = static_cast<std::size_t>(target);
  turn_changed();
  return true;
}

bool AnnotateModel::go_to_turn(int number) {
  for (std::size_t k = 0; k < participants_.size(); ++k)
    if (doc_.transcript().turns[participants_[k]].number == number) {
      if (k != current_) {
        current_ = k;
        turn_changed();
      }
      return true;
    }
  return false;
}

bool AnnotateModel::next_uncoded() {
  std::size_t n = participants_.size();
  for (std::size_t step = 1; step <= n; ++step) {
    std::size_t k = (current_ + step) % n;
    const Turn& t = doc_.transcript().turns[participants_[k]];
    if (t.codes.empty() && t.spans.empty()) {
      current_ = k;
      turn_changed();
      return true;
    }
  }
  set_message("every turn is coded");
  return false;
}

bool AnnotateModel::go_first() {
  if (participants_.empty()) return false;
  return move(-static_cast<int>(current_));
}

bool AnnotateModel::go_last() {
  if (participants_.empty()) return false;
  return move(static_cast<int>(participants_.size() - 1 - current_));
}

bool AnnotateModel::search(const std::string& query, int delta) {
  if (!query.empty()) search_ = query;
  if (search_.empty()) {
    set_message("no search yet ('/' searches)");
    return false;
  }
  const std::string q = text::fold_case(search_);
  const auto& turns = doc_.transcript().turns;
  const std::size_t n = participants_.size();
  // Where the search goes on from in the current turn: after (before) the last match when it is still what is
  // selected, else the selection's start.
  std::optional<std::size_t> anchor;
  if (match_ && match_->turn == current_ && match_->selection == selection_) anchor = match_->pos;
  else if (auto sb = selection_bytes()) anchor = sb->first;
  // The current turn first (after the anchor; without one, all of it forward and none of it backward), the
  // other turns, then the current one again, whole (wrapping).
  for (std::size_t step = 0; step <= n && n > 0; ++step) {
    if (step == 0 && !anchor && delta < 0) continue;
    if (step == n && !anchor && delta >= 0) break;  // searched whole at step 0
    std::size_t k = delta < 0 ? (current_ + n - step % n) % n : (current_ + step) % n;
    const Turn& t = turns[participants_[k]];
    // Positions compare with the text's where case folding kept the byte offsets (the length did not change).
    const std::string folded = text::fold_case(t.text);
    const bool same_offsets = folded.size() == t.text.size();
    std::optional<std::size_t> pos;
    for (auto p = folded.find(q); p != std::string::npos; p = folded.find(q, p + 1)) {
      if (step == 0 && anchor && (!same_offsets || (delta < 0 ? p >= *anchor : p <= *anchor))) continue;
      pos = p;
      if (delta >= 0) break;  // the first one forward, the last one backward
    }
    if (!pos) continue;
    current_ = k;
    turn_changed();
    std::size_t first = words_.size(), last = 0;
    if (same_offsets)
      for (std::size_t w = 0; w < words_.size(); ++w)
        if (words_[w].begin < *pos + q.size() && *pos < words_[w].end) {
          first = std::min(first, w);
          last = std::max(last, w);
        }
    if (first < words_.size()) selection_ = std::make_pair(first, last);
    match_ = Match{k, *pos, selection_};
    set_message("found \"" + search_ + "\" in t" + std::to_string(t.number) + " (n next, N previous)");
    return true;
  }
  set_message("\"" + search_ + "\" is in no participant turn");
  return false;
}

std::vector<std::string> AnnotateModel::memo_lines() const {
  std::vector<std::string> out;
  for (std::size_t k : participants_) {
    const Turn& t = doc_.transcript().turns[k];
    if (t.codes.empty() && t.spans.empty()) continue;
    for (const auto& c : doc_.codings(t))  // by the turn itself: a search by number per turn was quadratic
      if (!c.memo.empty())
        out.push_back("t" + std::to_string(t.number) + " " + node_label(c.written) + (c.span ? " \"" + *c.span + "\"" : "") + ": " + c.memo);
  }
  return out;
}

void AnnotateModel::select_start() {
  focus_codes_ = false;
  if (words_.empty()) return;
  selection_ = std::make_pair(std::size_t{0}, std::size_t{0});
}

void AnnotateModel::select_move(int delta) {
  focus_codes_ = false;
  if (words_.empty()) return;
  if (!selection_) {
    select_start();
    if (delta <= 0) return;
    --delta;
  }
  long len = static_cast<long>(selection_->second - selection_->first);
  long first = std::clamp(static_cast<long>(selection_->first) + delta, 0L, static_cast<long>(words_.size()) - 1 - len);
  selection_ = std::make_pair(static_cast<std::size_t>(first), static_cast<std::size_t>(first + len));
}

void AnnotateModel::select_extend(int delta) {
  if (words_.empty()) return;
  if (!selection_) {
    select_start();
    if (delta <= 0) return;
    --delta;
  }
  long last = std::clamp(static_cast<long>(selection_->second) + delta, static_cast<long>(selection_->first),
                         static_cast<long>(words_.size()) - 1);
  selection_->second = static_cast<std::size_t>(last);
}

void AnnotateModel::clear_selection() { selection_.reset(); }

std::optional<std::pair<std::size_t, std::size_t>> AnnotateModel::selection_bytes() const {
  const Turn* t = current_turn();
  if (!t || !selection_) return std::nullopt;
  const std::size_t wb = words_[selection_->first].begin, we = words_[selection_->second].end;
  return trim_punctuation(t->text, wb, we);
}

std::optional<std::string> AnnotateModel::selected_text() const {
  auto sb = selection_bytes();
  if (!sb) return std::nullopt;
  return current_turn()->text.substr(sb->first, sb->second - sb->first);
}

std::optional<int> AnnotateModel::selection_line() const {
  auto sb = selection_bytes();
  if (!sb) return std::nullopt;
  return current_turn()->line_of(sb->first);
}

int AnnotateModel::selected_occurrence() const {
  const Turn* t = current_turn();
  auto text = selected_text();
  if (!t || !text) return 1;
  std::size_t b = selection_bytes()->first;
  int n = 1;  // occurrences of the selected text that start before the selection
  for (auto p = t->text.find(*text); p != std::string::npos && p < b; p = t->text.find(*text, p + 1)) ++n;
  return n;
}

std::vector<CodingView> AnnotateModel::codings() const {
  const Turn* t = current_turn();
  return t ? doc_.codings(*t) : std::vector<CodingView>{};
}

void AnnotateModel::cycle_coding(int delta) {
  focus_codes_ = true;
  auto n = codings().size();
  if (n == 0) {
    highlight_ = 0;
    return;
  }
  highlight_ = static_cast<std::size_t>((static_cast<long>(highlight_) + delta + static_cast<long>(n)) % static_cast<long>(n));
}

std::string AnnotateModel::node_id(const std::string& written) const {
  auto r = resolve_ ? resolve_(written) : NodeResolution{};
  return r.node ? *r.node : written;
}

std::string AnnotateModel::node_label(const std::string& written) const {
  std::string id = node_id(written);
  const auto* n = taxonomy_.find(id);
  return n ? id + " " + n->name : written + " (unknown node)";
}

std::vector<std::string> AnnotateModel::suggestions() const {
  const Turn* t = current_turn();
  if (!t) return {};
  auto target = selected_text();
  std::vector<std::string> present;
  for (const auto& c : codings())
    if (c.span == target) present.push_back(node_id(c.written));
  std::vector<std::string> out;
  std::string_view text = target ? std::string_view(*target) : std::string_view(t->text);
  for (auto& id : matcher_.suggest(text))
    if (std::find(present.begin(), present.end(), id) == present.end()) out.push_back(std::move(id));
  if (learned_)
    for (auto& c : learned_->suggest(text, 3))
      if (c.confidence >= 0.3 && std::find(present.begin(), present.end(), c.code) == present.end() &&
          std::find(out.begin(), out.end(), c.code) == out.end())
        out.push_back(std::move(c.code));
  return out;
}

std::vector<PickerRow> AnnotateModel::picker_rows(const std::string& query, bool with_suggestions) const {
  std::string q = text::fold_case(text::trim(query));
  auto matches = [&](const std::string& id) {
    if (q.empty()) return true;
    const auto* n = taxonomy_.find(id);
    if (!n) return false;
    if (text::fold_case(id).find(q) != std::string::npos || text::fold_case(n->name).find(q) != std::string::npos) return true;
    for (const auto& a : n->aliases)
      if (text::fold_case(a).find(q) != std::string::npos) return true;
    return false;
  };
  std::vector<PickerRow> rows;
  for (const auto& id : with_suggestions ? suggestions() : std::vector<std::string>{})
    if (matches(id)) {
      const auto* n = taxonomy_.find(id);
      rows.push_back({id, n ? n->name : "", 0, true, true});
    }
  // Nodes that match, with their ancestors so the tree stays readable.
  std::vector<bool> keep(taxonomy_.order().size(), false);
  for (std::size_t k = 0; k < taxonomy_.order().size(); ++k) {
    const auto& id = taxonomy_.order()[k];
    if (!matches(id)) continue;
    for (const auto* n = taxonomy_.find(id); n; n = n->parent.empty() ? nullptr : taxonomy_.find(n->parent))
      keep[taxonomy_.rank_of(n->id)] = true;
  }
  for (std::size_t k = 0; k < taxonomy_.order().size(); ++k) {
    if (!keep[k]) continue;
    const auto* n = taxonomy_.find(taxonomy_.order()[k]);
    if (n->status == "deprecated") continue;
    rows.push_back({n->id, n->name, n->level - 1, false, matches(n->id)});
  }
  return rows;
}

std::size_t first_pick(const std::vector<PickerRow>& rows, const std::string& query) {
  std::string q = text::fold_case(text::trim(query));
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (!q.empty() && text::fold_case(rows[k].id) == q) return k;
  for (std::size_t k = 0; k < rows.size(); ++k)
    if (rows[k].match) return k;
  return 0;
}

std::size_t step_pick(const std::vector<PickerRow>& rows, std::size_t from, int delta) {
  std::size_t at = from;
  const int step = delta < 0 ? -1 : 1;
  for (int moved = 0; moved < std::abs(delta);) {
    std::size_t k = at;
    do {
      if ((step < 0 && k == 0) || (step > 0 && k + 1 >= rows.size())) return at;
      k = static_cast<std::size_t>(static_cast<long>(k) + step);
    } while (!rows[k].match);
    at = k;
    ++moved;
  }
  return at;
}

void AnnotateModel::error_message(const Diagnostics& diags) {
  for (const auto& d : diags.items())
    if (d.severity == Severity::error) {
      set_message("error: " + d.message);
      return;
    }
  set_message("error: the edit could not be made");
}

bool AnnotateModel::apply(const CodingEdit& edit) {
  ++changes_;
  undo_.push_back({doc_.apply(edit), current_, std::nullopt});
  clear_redo();
  set_message(edit.summary);
  return true;
}

bool AnnotateModel::add_code(const std::string& node, const std::string& memo) {
  int n = current_number();
  if (!n) {
    set_message("error: the transcript has no participant turn");
    return false;
  }
  CodingTarget target;
  target.turn = n;
  target.span = selected_text();
  if (target.span) target.occurrence = selected_occurrence();  // the words the user selected, where the text repeats
  Diagnostics diags;
  auto edit = doc_.plan_add(target, {node_id(node)}, memo, diags);
  if (!edit) {
    error_message(diags);
    return false;
  }
  apply(*edit);
  // Highlight the new coding.
  auto list = codings();
  for (std::size_t k = 0; k < list.size(); ++k)
    if (node_id(list[k].written) == node_id(node) && list[k].span == target.span &&
        (!target.span || list[k].occurrence == *target.occurrence))
      highlight_ = k;
  return true;
}

bool AnnotateModel::accept_suggestion(std::size_t k) {
  auto s = suggestions();
  if (k >= s.size()) {
    set_message(s.empty() ? "no suggestion for this turn" : "there are only " + std::to_string(s.size()) + " suggestions");
    return false;
  }
  return add_code(s[k]);
}

std::optional<std::string> AnnotateModel::highlighted_memo() const {
  auto list = codings();
  if (highlight_ >= list.size()) return std::nullopt;
  return list[highlight_].memo;
}

std::optional<std::pair<CodingTarget, std::string>> AnnotateModel::highlighted_target(const char* none) {
  auto list = codings();
  if (highlight_ >= list.size()) {
    set_message(none);
    return std::nullopt;
  }
  const auto& c = list[highlight_];
  CodingTarget target;
  target.turn = c.turn;
  target.span = c.span;
  if (c.span) target.occurrence = c.occurrence;
  return std::make_pair(target, node_id(c.written));
}

bool AnnotateModel::toggle_exemplar() {
  auto h = highlighted_target("error: this turn has no coding to pick as an exemplar (code it first)");
  if (!h) return false;
  const bool on = !codings()[highlight_].exemplar;
  Diagnostics diags;
  auto edit = doc_.plan_exemplar(h->first, h->second, on, diags);
  if (!edit) {
    error_message(diags);
    return false;
  }
  const std::size_t keep = highlight_;
  apply(*edit);
  highlight_ = keep;
  return true;
}

bool AnnotateModel::set_memo(const std::string& memo) {
  auto h = highlighted_target("error: this turn has no coding to write a memo for (code it first)");
  if (!h) return false;
  Diagnostics diags;
  auto edit = doc_.plan_memo(h->first, h->second, memo, diags);
  if (!edit) {
    error_message(diags);
    return false;
  }
  if (edit->splices.empty()) {
    set_message("memo unchanged");
    return true;
  }
  return apply(*edit);
}

bool AnnotateModel::remove_highlighted() {
  auto h = highlighted_target("error: this turn has no coding to remove");
  if (!h) return false;
  Diagnostics diags;
  auto edit = doc_.plan_remove(h->first, {h->second}, diags);
  if (!edit) {
    error_message(diags);
    return false;
  }
  apply(*edit);
  if (highlight_ > 0 && highlight_ >= codings().size()) --highlight_;
  return true;
}

void AnnotateModel::clear_redo() {
  redo_.erase(std::remove_if(redo_.begin(), redo_.end(), [](const Step& s) { return !s.lost; }), redo_.end());
}

std::vector<CodingDocument::Reloaded::Change> AnnotateModel::unapplied() const {
  std::vector<CodingDocument::Reloaded::Change> out;
  for (const auto& s : undo_)
    if (s.lost) out.push_back(*s.lost);
  for (auto it = redo_.rbegin(); it != redo_.rend(); ++it)
    if (it->lost) out.push_back(*it->lost);
  return out;
}

bool AnnotateModel::reapply(Step s) {
  using Kind = CodingDocument::Reloaded::Change::Kind;
  const auto& c = *s.lost;
  go_to_turn(c.turn);
  CodingTarget target;
  target.turn = c.turn;
  target.span = c.span;
  Diagnostics diags;
  std::optional<CodingEdit> edit;
  switch (c.kind) {
    case Kind::addition: edit = doc_.plan_add(target, {c.node}, c.memo, diags); break;
    case Kind::removal: edit = doc_.plan_remove(target, {c.node}, diags); break;
    case Kind::memo: edit = doc_.plan_memo(target, c.node, c.memo, diags); break;
    case Kind::exemplar: edit = doc_.plan_exemplar(target, c.node, c.exemplar, diags); break;
  }
  if (!edit) {
    error_message(diags);
    const std::string said = "cannot apply again (" + message_ + "): " + c.label + " (kept: 'r' tries again)";
    redo_.push_back(std::move(s));  // stays, for another try after the text is changed by hand
    set_message(said);
    return false;
  }
  ++changes_;
  undo_.push_back({doc_.apply(*edit), s.turn, std::nullopt});
  if (c.kind == Kind::addition && c.exemplar) {  // the mark went with the addition
    Diagnostics ignored;
    if (auto mark = doc_.plan_exemplar(target, c.node, true, ignored)) undo_.push_back({doc_.apply(*mark), s.turn, std::nullopt});
  }
  highlight_ = 0;
  set_message("redone: applied again: " + c.label);
  return true;
}

// Undo and redo: take the last step off one stack, apply it, and put what undoes that on the other.
bool AnnotateModel::replay(std::vector<Step>& from, std::vector<Step>& to, const char* nothing, const char* done) {
  if (from.empty()) {
    set_message(nothing);
    return false;
  }
  Step s = std::move(from.back());
  from.pop_back();
  if (s.lost) {
    if (&from == &redo_) return reapply(std::move(s));
    go_to_turn(s.lost->turn);
    set_message("undone: nothing to take back, this change was NOT re-applied at the reload: " + s.lost->label +
                " ('r' applies it again)");
    to.push_back(std::move(s));
    return true;
  }
  ++changes_;
  to.push_back({doc_.apply(s.edit), s.turn, std::nullopt});
  if (s.turn != current_ && s.turn < participants_.size()) {
    current_ = s.turn;
    turn_changed();
  } else {
    highlight_ = 0;
  }
  set_message(std::string(done) + s.edit.summary);
  return true;
}

bool AnnotateModel::undo() { return replay(undo_, redo_, "nothing to undo", "undone: "); }

bool AnnotateModel::redo() { return replay(redo_, undo_, "nothing to redo", "redone: "); }

bool AnnotateModel::save() {
  std::string error;
  conflict_ = false;
  if (!doc_.dirty()) {
    set_message("no changes to save");
    return true;
  }
  switch (doc_.save_checked(&error)) {
    case CodingDocument::SaveResult::saved:
      ++changes_;
      set_message("saved " + doc_.target_file());
      return true;
    case CodingDocument::SaveResult::changed_on_disk:
      conflict_ = true;
      set_message("not saved: " + error);
      return false;
    case CodingDocument::SaveResult::failed:
      break;
  }
  set_message("error: cannot write " + doc_.target_file() + ": " + error);
  return false;
}

bool AnnotateModel::after_reread(const CodingDocument::Reloaded& r, int at, const std::string& what, const std::string& last) {
  ++changes_;
  participants_.clear();
  const auto& turns = doc_.transcript().turns;
  for (std::size_t i = 0; i < turns.size(); ++i)
    if (!turns[i].interviewer) participants_.push_back(i);
  current_ = 0;
  match_.reset();
  if (!go_to_turn(at)) turn_changed();
  // What was not re-applied stays on the undo stack, newest on top ('u' shows each, 'r' applies it again).
  for (const auto& c : r.changes) {
    std::size_t pos = current_;
    for (std::size_t k = 0; k < participants_.size(); ++k)
      if (turns[participants_[k]].number == c.turn) pos = k;
    undo_.push_back({CodingEdit{!doc_.inline_coder(), {}, c.label}, pos, c});
  }
  if (!r.not_reapplied.empty()) {
    set_message(what + "; NOT re-applied (kept; u shows, r re-applies): " + text::join(r.not_reapplied, "; ") + last);
    return false;
  }
  set_message(what + last);
  return true;
}

namespace {

// Moves undo steps (top of the stack last) from the text `before` onto `after`, the same text with one region
// changed (between their common start and common end): a step whose splices lie outside that region is shifted
// by it; the first step that touches it is dropped with every older one (they undo onto it). Returns how many
// were dropped.
template <class Step>
std::size_t rebase_steps(std::vector<Step>& steps, const std::string& before, const std::string& after) {
  std::size_t p = 0;
  while (p < before.size() && p < after.size() && before[p] == after[p]) ++p;
  std::size_t q = 0;
  while (q < before.size() - p && q < after.size() - p && before[before.size() - 1 - q] == after[after.size() - 1 - q]) ++q;
  // The region [rb, re) of the text a step applies to, and how much longer it is after the reload.
  std::size_t rb = p, re = before.size() - q;
  const std::ptrdiff_t grow = static_cast<std::ptrdiff_t>(after.size()) - static_cast<std::ptrdiff_t>(before.size());
  if (grow == 0 && rb >= re) return 0;  // the same text
  for (std::size_t k = steps.size(); k-- > 0;) {
    auto& splices = steps[k].edit.splices;
    // A splice before the region erases only bytes before it; one after, only bytes after it.
    auto before_region = [&](const TextSplice& sp) { return sp.offset + sp.erase <= rb; };
    auto after_region = [&](const TextSplice& sp) { return sp.offset >= re; };
    if (!std::all_of(splices.begin(), splices.end(), [&](const TextSplice& sp) { return before_region(sp) || after_region(sp); })) {
      // Changes kept because a reload could not re-apply them (no splices) stay: they are re-planned, not undone.
      const auto end = steps.begin() + static_cast<std::ptrdiff_t>(k + 1);
      const auto kept = std::stable_partition(steps.begin(), end, [](const Step& s) { return s.lost.has_value(); });
      const std::size_t dropped = static_cast<std::size_t>(end - kept);
      steps.erase(kept, end);
      return dropped;
    }
    std::ptrdiff_t moves = 0;  // how far this step moves the region when it is undone
    for (auto& sp : splices) {
      if (before_region(sp)) moves += static_cast<std::ptrdiff_t>(sp.insert.size()) - static_cast<std::ptrdiff_t>(sp.erase);
      else sp.offset = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(sp.offset) + grow);
    }
    rb = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(rb) + moves);
    re = static_cast<std::size_t>(static_cast<std::ptrdiff_t>(re) + moves);
  }
  return 0;
}

}  // namespace

bool AnnotateModel::reload(bool then_save) {
  Diagnostics diags;
  const int at = current_number();
  const std::string before = doc_.edited_text();
  auto r = doc_.reload(diags);
  conflict_ = false;
  if (!r) {
    error_message(diags);
    return false;
  }
  // The undo history stays where the reload changed none of the text it undoes.
  const std::size_t levels = static_cast<std::size_t>(std::count_if(undo_.begin(), undo_.end(), [](const Step& s) { return !s.lost; }));
  const std::size_t dropped = rebase_steps(undo_, before, doc_.edited_text());
  clear_redo();
  const std::string what = "reloaded from disk, re-applied " + std::to_string(r->reapplied) + " change(s)";
  std::string undo_note;
  if (dropped == levels && levels > 0) undo_note = "; the undo history is cleared";
  else if (dropped > 0) undo_note = "; the " + std::to_string(dropped) + " oldest undo step(s) are cleared";
  if (!after_reread(*r, at, what, undo_note)) return false;
  if (!doc_.dirty()) {
    set_message("reloaded from disk: it already has your changes, nothing to save");
    return true;
  }
  if (then_save) {
    if (!save()) return false;
    set_message(what + "; saved");
    return true;
  }
  return true;
}

bool AnnotateModel::recover(const std::string& base, const std::string& edited, const std::string& when,
                            const std::vector<CodingDocument::Reloaded::Change>& kept) {
  Diagnostics diags;
  const int at = current_number();
  auto r = doc_.restore_unsaved(base, edited, diags);
  if (!r) {
    error_message(diags);
    return false;
  }
  undo_.clear();
  redo_.clear();
  // The recovered changes as one step: undoing it gives the file as it is on disk.
  const std::string& now = doc_.edited_text();
  const std::string& disk = doc_.saved_text();
  if (now != disk) {
    std::size_t p = 0;
    while (p < now.size() && p < disk.size() && now[p] == disk[p]) ++p;
    std::size_t q = 0;
    while (q < now.size() - p && q < disk.size() - p && now[now.size() - 1 - q] == disk[disk.size() - 1 - q]) ++q;
    CodingEdit undo;
    undo.codes_file = !doc_.inline_coder();
    undo.summary = "the recovered unsaved changes of " + when;
    undo.splices.push_back({p, now.size() - p - q, disk.substr(p, disk.size() - p - q)});
    undo_.push_back({std::move(undo), current_, std::nullopt});
  }
  // Changes kept by the earlier session (older) before the ones this recovery could not re-apply.
  CodingDocument::Reloaded all = *r;
  all.changes.insert(all.changes.begin(), kept.begin(), kept.end());
  std::vector<std::string> labels;
  for (const auto& c : kept) labels.push_back(c.label);
  all.not_reapplied.insert(all.not_reapplied.begin(), labels.begin(), labels.end());
  return after_reread(all, at, "recovered the unsaved changes of " + when + ": re-applied " + std::to_string(r->reapplied) +
                                   " change(s), not saved yet ('w' saves)");
}

}  // namespace qualrank::tui
