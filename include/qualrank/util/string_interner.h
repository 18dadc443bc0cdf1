// A string interner: maps distinct strings to dense indices 0, 1, 2, ... in order of first appearance.
// Built for hot loops over millions of short strings (label-table cells, unit ids): the strings live in
// one contiguous arena (no allocation per string), and lookups use an open-addressing table of indices
// with the cached hash of each string, so a probe compares bytes only when the hashes match.
#pragma once
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace qualrank {

class StringInterner {
 public:
  StringInterner() { slots_.assign(16, kEmpty); }

  // The index of `s`, adding it when new (`added`, when given, says which).
  int intern(std::string_view s, bool* added = nullptr) {
    const std::uint64_t h = std::hash<std::string_view>{}(s);
    std::size_t mask = slots_.size() - 1, i = static_cast<std::size_t>(h) & mask;
    while (true) {
      const std::int32_t at = slots_[i];
      if (at == kEmpty) break;
      if (hashes_[static_cast<std::size_t>(at)] == h && view(at) == s) {
        if (added) *added = false;
        return at;
      }
      i = (i + 1) & mask;
    }
    const auto index = static_cast<std::int32_t>(hashes_.size());
    offsets_.push_back(arena_.size());
    arena_.append(s);
    hashes_.push_back(h);
    slots_[i] = index;
    if (hashes_.size() * 2 > slots_.size()) grow();
    if (added) *added = true;
    return index;
  }

  // The index of `s`, or -1 when it was never interned.
  int find(std::string_view s) const {
    const std::uint64_t h = std::hash<std::string_view>{}(s);
    std::size_t mask = slots_.size() - 1, i = static_cast<std::size_t>(h) & mask;
    for (std::int32_t at = slots_[i]; at != kEmpty; at = slots_[i = (i + 1) & mask])
      if (hashes_[static_cast<std::size_t>(at)] == h && view(at) == s) return at;
    return -1;
  }

  // The string with index `i` (valid until the next intern()).
  std::string_view operator[](int i) const { return view(i); }
  int size() const { return static_cast<int>(hashes_.size()); }
  // The bytes of all strings interned.
  std::size_t bytes() const { return arena_.size(); }
  // Reserves room for about `n` strings of `bytes` in all (counting those there). Called again with larger
  // figures (one file after another), it grows at least geometrically, so the strings are not copied again
  // and again; room reserved and not used costs address space only.
  void reserve(std::size_t n, std::size_t bytes) {
    auto at_least = [](auto& v, std::size_t want) {
      if (want > v.capacity()) v.reserve(std::max(want, 2 * v.capacity()));
    };
    at_least(offsets_, n);
    at_least(hashes_, n);
    at_least(arena_, bytes);
    while (slots_.size() < 2 * n) grow();
  }

 private:
  static constexpr std::int32_t kEmpty = -1;

  std::string_view view(std::int32_t i) const {
    const auto k = static_cast<std::size_t>(i);
    const std::size_t end = k + 1 < offsets_.size() ? offsets_[k + 1] : arena_.size();
    return std::string_view(arena_).substr(offsets_[k], end - offsets_[k]);
  }

  void grow() {
    std::vector<std::int32_t> bigger(slots_.size() * 2, kEmpty);
    const std::size_t mask = bigger.size() - 1;
    for (std::size_t k = 0; k < hashes_.size(); ++k) {
      std::size_t i = static_cast<std::size_t>(hashes_[k]) & mask;
      while (bigger[i] != kEmpty) i = (i + 1) & mask;
      bigger[i] = static_cast<std::int32_t>(k);
    }
    slots_.swap(bigger);
  }

  std::string arena_;                  // every string, back to back
  std::vector<std::size_t> offsets_;   // start of string k in arena_
  std::vector<std::uint64_t> hashes_;  // hash of string k
  std::vector<std::int32_t> slots_;    // open addressing: string index or kEmpty; size a power of two
};

}  // namespace qualrank
