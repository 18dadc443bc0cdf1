// Raw deflate with igzip (contract in deflate.h).
#include "qualrank/util/deflate.h"

#include <isa-l/crc.h>

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

bool deflate_raw(std::string_view input, std::string& out) {
  thread_local IgzipStream stream;
  isal_zstream* zs = stream.reset();
  std::size_t room = input.size() + input.size() / 8 + 1024;
  out.assign(room, '\0');
  zs->next_in = reinterpret_cast<std::uint8_t*>(const_cast<char*>(input.data()));
  zs->avail_in = static_cast<std::uint32_t>(input.size());
  zs->end_of_stream = 1;
  zs->flush = NO_FLUSH;
  std::size_t made = 0;
  bool ok = true;
  while (true) {
    zs->next_out = reinterpret_cast<std::uint8_t*>(out.data() + made);
    zs->avail_out = static_cast<std::uint32_t>(room - made);
    if (isal_deflate(zs) != COMP_OK) {
      ok = false;
      break;
    }
    made = room - zs->avail_out;
    if (zs->avail_in == 0 && zs->internal_state.state == ZSTATE_END) break;
    room *= 2;
    out.resize(room);
  }
  out.resize(made);
  clear_upper_vector_state();
  return ok;
}

std::uint32_t crc32(std::string_view input) {
  const std::uint32_t crc = crc32_gzip_refl(0, reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  clear_upper_vector_state();
  return crc;
}

}  // namespace qualrank::deflate
