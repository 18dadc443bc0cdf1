// name_search (name_search.h). The automaton is fed the folded bytes of each unit as the fold makes it; a
// key that ends with a unit's last byte starts kMaxKeyBytes or fewer folded bytes back, so two rings (the
// unit that each recent folded byte belongs to, and each recent unit's place) find its first unit in O(1).
// Whether the unit after an occurrence is a word unit is known only when that unit comes: occurrences wait
// in `pending_` until then (or the text's end).
#include "name_search.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>

namespace qualrank::name_search {

namespace {

constexpr std::size_t kRing = kMaxKeyBytes + 1;

struct Unit {  // left uninitialised: a slot is read only after it was written
  std::uint64_t folded_begin;
  std::size_t begin;
  bool word, after_invisible;
};

// The two rings (128 KiB), one per thread for all its scans: a scan of a file name costs no allocation.
struct Rings {
  std::array<std::uint64_t, kRing> unit_of;
  std::array<Unit, kRing> units;
};

Rings& thread_rings() {
  thread_local std::unique_ptr<Rings> rings = std::make_unique<Rings>();
  return *rings;
}

class Matcher : public text::FoldSink {
 public:
  Matcher(const KeywordMatcher& keys, Scan& out)
      : keys_(keys), out_(out), unit_of_(thread_rings().unit_of), units_ring_(thread_rings().units) {}

  void unit(const text::FoldedUnit& u) override {
    if (!pending_.empty()) {
      if (!u.word || u.after_invisible) out_.hits.insert(out_.hits.end(), pending_.begin(), pending_.end());
      pending_.clear();
    }
    const std::uint64_t index = units_++;
    units_ring_[index % kRing] = {folded_, u.begin, u.word, u.after_invisible};
    for (unsigned char b : u.folded) {
      unit_of_[folded_ % kRing] = index;
      ++folded_;
      state_ = keys_.step(state_, b);
    }
    keys_.outputs(state_, [&](std::size_t rule, std::size_t len) {
      if (len == 0 || len > kMaxKeyBytes || len > folded_) return;
      const std::uint64_t start = folded_ - len;
      const std::uint64_t first = unit_of_[start % kRing];
      const Unit& f = units_ring_[first % kRing];
      if (f.folded_begin != start) return;  // starts inside a unit
      if (first > 0 && units_ring_[(first - 1) % kRing].word && !f.after_invisible) return;
      pending_.push_back({units_ring_[first % kRing].begin, u.end, rule});
    });
  }
  void kept_markup(std::size_t begin, std::size_t end) override { out_.markup.emplace_back(begin, end); }
  void finish() {
    out_.hits.insert(out_.hits.end(), pending_.begin(), pending_.end());
    pending_.clear();
  }

 private:
  const KeywordMatcher& keys_;
  Scan& out_;
  int32_t state_ = 0;
  std::uint64_t folded_ = 0, units_ = 0;
  std::array<std::uint64_t, kRing>& unit_of_;
  std::array<Unit, kRing>& units_ring_;
  std::vector<Hit> pending_;
};

}  // namespace

Scan scan(std::string_view text, text::NameFold mode, const KeywordMatcher& keys) {
  Scan out;
  Matcher m(keys, out);
  text::fold_for_names(text, mode, m);
  m.finish();
  return out;
}

std::vector<Hit> leftmost_longest(std::vector<Hit> hits) {
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
    if (a.begin != b.begin) return a.begin < b.begin;
    if (a.end != b.end) return a.end > b.end;
    return a.key < b.key;
  });
  std::vector<Hit> out;
  std::size_t taken_to = 0;
  for (const Hit& h : hits) {
    if (!out.empty() && h.begin < taken_to) continue;
    out.push_back(h);
    taken_to = h.end;
  }
  return out;
}

std::vector<std::pair<int, int>> line_columns(std::string_view text, const std::vector<std::size_t>& sorted_offsets) {
  std::vector<std::pair<int, int>> out;
  out.reserve(sorted_offsets.size());
  int line = 1, column = 1;
  std::size_t at = 0;
  for (std::size_t offset : sorted_offsets) {
    for (; at < offset && at < text.size(); ++at) {
      const auto c = static_cast<unsigned char>(text[at]);
      if (c == '\n') {
        ++line;
        column = 1;
      } else if ((c & 0xC0) != 0x80) {
        ++column;
      }
    }
    out.emplace_back(line, column);
  }
  return out;
}

}  // namespace qualrank::name_search
