// Unit tests for the eight-bytes-at-a-time tests (include/qualrank/util/swar.h): each word-level answer
// against the bytes looked at one by one, for every byte value at every position in varied words.
#include "catch.h"

#include <cstdint>
#include <cstring>

#include "qualrank/util/swar.h"

using namespace qualrank;

namespace {

std::uint64_t word_of(const unsigned char (&bytes)[8]) {
  std::uint64_t w;
  std::memcpy(&w, bytes, 8);
  return w;
}

}  // namespace

TEST_CASE("swar tests agree with the bytes one by one", "[swar]") {
  // Backgrounds: plain letters, bytes just above the bounds tested, high bytes, zeros, and mixtures.
  const unsigned char backgrounds[][8] = {{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}, {0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20, 0x20},
                                          {0x21, 0x27, 0x3d, 0x3f, 0x5e, 0x60, 0x79, 0x7f}, {0xff, 0x80, 0xc3, 0xa9, 0xe2, 0x80, 0x9c, 0x7f},
                                          {0, 0, 0, 0, 0, 0, 0, 0}, {0x01, 0x5f, 0x78, 0x26, 0x3c, 0x3e, 0x22, 0x0a}};
  int checked = 0;
  for (const auto& background : backgrounds)
    for (int position = 0; position < 8; ++position)
      for (int value = 0; value < 256; ++value) {
        unsigned char bytes[8];
        std::memcpy(bytes, background, 8);
        bytes[position] = static_cast<unsigned char>(value);
        const std::uint64_t w = word_of(bytes);
        CHECK(swar::load(reinterpret_cast<const char*>(bytes)) == w);
        bool zero = false, high = false, below20 = false;
        bool has[256] = {};
        for (unsigned char b : bytes) {
          zero |= b == 0;
          high |= b >= 0x80;
          below20 |= b < 0x20 || b >= 0x80;
          has[b] = true;
        }
        CHECK((swar::zero_byte(w) != 0) == zero);
        CHECK((swar::high_byte(w) != 0) == high);
        CHECK((swar::below_or_high(w, 0x20) != 0) == below20);
        for (int bound : {0x80, 0xCC, 0xF0, 0xFF}) {
          bool at_least = false;
          for (unsigned char b : bytes) at_least |= b >= bound;
          CHECK((swar::at_least_high(w, static_cast<unsigned char>(bound)) != 0) == at_least);
        }
        for (int probe_value : {int{'&'}, int{'<'}, int{'>'}, int{'"'}, int{'_'}, int{'x'}, int{'\n'}, 0xff, 0}) {
          const auto probe = static_cast<unsigned char>(probe_value);
          CHECK((swar::has_byte(w, probe) != 0) == has[probe]);
        }
        ++checked;
      }
  CHECK(checked == 6 * 8 * 256);
}
