// Raw deflate with igzip (contract in deflate.h).
#include "qualrank/util/deflate.h"

#include <isa-l/crc.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>

namespace qualrank::deflate {

void clear_upper_vector_state() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool avx = __builtin_cpu_supports("avx");
  if (avx) asm volatile("vzeroupper" ::: "memory");
#endif
}

isal_zstream* IgzipStream::reset() {
  std::memset(&zs_, 0, sizeof zs_);
  isal_deflate_init(&zs_);
  zs_.level = kLevel;
  zs_.level_buf = level_buf_.data();
  zs_.level_buf_size = static_cast<std::uint32_t>(level_buf_.size());
  zs_.gzip_flag = IGZIP_DEFLATE;  // raw deflate, as a zip entry holds it
  zs_.hist_bits = 0;              // the whole 32 KiB window
  return &zs_;
}

std::optional<std::size_t> deflate_into(isal_zstream* zs, std::string_view input, bool last, std::string& buffer) {
  std::size_t room = input.size() + input.size() / 8 + 1024;
  buffer.resize(std::max(buffer.size(), room));
  zs->next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(input.data()));
  zs->avail_in = static_cast<std::uint32_t>(input.size());
  zs->end_of_stream = last ? 1 : 0;
  zs->flush = last ? NO_FLUSH : SYNC_FLUSH;
  std::size_t made = 0;
  while (true) {
    zs->next_out = reinterpret_cast<std::uint8_t*>(buffer.data() + made);
    zs->avail_out = static_cast<std::uint32_t>(room - made);
    if (isal_deflate(zs) != COMP_OK) {
      clear_upper_vector_state();
      return std::nullopt;
    }
    made = room - zs->avail_out;
    if (zs->avail_in == 0 && (last ? zs->internal_state.state == ZSTATE_END : zs->avail_out > 0)) break;
    room *= 2;
    buffer.resize(std::max(buffer.size(), room));
  }
  clear_upper_vector_state();
  return made;
}

bool deflate_raw(std::string_view input, std::string& out) {
  z_stream z{};
  if (deflateInit2(&z, 1, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) return false;
  out.assign(deflateBound(&z, input.size()), '\0');  // room for all of it: one Z_FINISH ends the stream
  constexpr std::size_t kStep = 1u << 30;           // (avail_in and avail_out are 32-bit)
  std::size_t in = 0;
  int status = Z_OK;
  while (status == Z_OK) {
    const std::size_t take = std::min(kStep, input.size() - in);
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data() + in));
    z.avail_in = static_cast<uInt>(take);
    z.next_out = reinterpret_cast<Bytef*>(out.data() + z.total_out);
    z.avail_out = static_cast<uInt>(std::min(kStep, out.size() - static_cast<std::size_t>(z.total_out)));
    const std::size_t before = z.avail_in;
    status = ::deflate(&z, in + take == input.size() ? Z_FINISH : Z_NO_FLUSH);
    in += before - z.avail_in;
    if (status == Z_BUF_ERROR) status = Z_OK;  // (no progress possible this round: more room or input next)
  }
  out.resize(static_cast<std::size_t>(z.total_out));
  deflateEnd(&z);
  return status == Z_STREAM_END;
}

std::uint32_t crc32(std::string_view input) {
  const std::uint32_t crc = crc32_gzip_refl(0, reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  clear_upper_vector_state();
  return crc;
}

}  // namespace qualrank::deflate
