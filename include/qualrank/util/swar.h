// Eight bytes at a time ("SIMD within a register"): tests on a 64-bit word of text that say whether any of
// its bytes is a given byte, below a bound or not ASCII, so that hot loops over long texts (workbook cells)
// look at single bytes only in the rare words that need it. Portable C++ (no intrinsics); the tests are the
// classic ones of Mycroft (1987) and Anderson's "Bit Twiddling Hacks" (haszero, hasless), exact: a word
// reports a byte only when it holds one.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

namespace qualrank::swar {

inline constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
inline constexpr std::uint64_t kHighs = 0x8080808080808080ULL;

// The 8 bytes at `p` (any alignment), first byte lowest.
inline std::uint64_t load(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

// Nonzero when a byte of `w` is zero. Exact when no byte has its high bit set (a word of ASCII) and, for any
// word, nonzero exactly when some byte is zero (the lowest such byte always sets its high bit).
inline std::uint64_t zero_byte(std::uint64_t w) { return (w - kOnes) & ~w & kHighs; }

// Nonzero when a byte of `w` equals `b`.
inline std::uint64_t has_byte(std::uint64_t w, unsigned char b) { return zero_byte(w ^ (kOnes * b)); }

// Nonzero when a byte of `w` is below `n` (n <= 128) or not ASCII (>= 0x80).
inline std::uint64_t below_or_high(std::uint64_t w, unsigned char n) { return ((w - kOnes * n) | w) & kHighs; }

// Nonzero when a byte of `w` is not ASCII.
inline std::uint64_t high_byte(std::uint64_t w) { return w & kHighs; }

// Nonzero when a byte of `w` is at least `b` (b >= 0x80): its high bit is set and its low seven bits plus
// 0x100 - b carry into the high bit (no carry crosses bytes: at most 0x7F + 0x80).
inline std::uint64_t at_least_high(std::uint64_t w, unsigned char b) {
  return ((w & ~kHighs) + kOnes * static_cast<std::uint64_t>(0x100 - b)) & w & kHighs;
}

}  // namespace qualrank::swar
