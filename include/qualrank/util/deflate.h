// Raw deflate (RFC 1951) with ISA-L's igzip at level 1, as zip entries hold it: the workbook writer's pieces
// (report/xlsx/xlsx_stream.cpp) and the zip archives qualrank writes (util/zip.cpp). igzip's level 1 deflates
// several times faster than zlib's level 1 for a somewhat larger result (on the 2,000-transcript bench: 230 MB of
// sheet XML in 0.19 s of CPU against 0.77 s).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <isa-l/igzip_lib.h>

namespace qualrank::deflate {

// ISA-L's AVX-512 deflate and CRC return with the upper halves of the vector registers still in use (no
// `vzeroupper`); until they are cleared, every SSE instruction on the thread (double arithmetic, say) waits on
// them: deflating inline on one core, the codebook of the 2,000-transcript bench took 0.3 s more CPU (1.8 s
// instead of 1.5 s). Called after each use; a no-op where there is no AVX.
void clear_upper_vector_state();

// A thread's igzip stream and its level buffer, made once and reset for each use.
class IgzipStream {
 public:
  static constexpr int kLevel = 1;
  IgzipStream() : level_buf_(ISAL_DEF_LVL1_DEFAULT) {}
  // A fresh raw-deflate stream with the whole 32 KiB window: nothing of the use before stays
  // (isal_deflate_init leaves the history buffer).
  isal_zstream* reset();

 private:
  isal_zstream zs_{};
  std::vector<std::uint8_t> level_buf_;
};

// `input` deflated whole into `out` (replaced). The bytes depend on the input alone: the room igzip is offered
// is a function of the input's size, never of what a buffer held before. False when igzip fails.
bool deflate_raw(std::string_view input, std::string& out);

// CRC-32 (ISO 3309, as zip and gzip use it) of `input`.
std::uint32_t crc32(std::string_view input);

}  // namespace qualrank::deflate
