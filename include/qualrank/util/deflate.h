// Raw deflate (RFC 1951), as zip entries hold it: ISA-L's igzip at level 1 for the workbook writer's pieces
// (report/xlsx/xlsx_stream.cpp; several times faster than zlib's level 1 for a somewhat larger result: 230 MB of
// sheet XML in 0.19 s of CPU against 0.77 s on the 2,000-transcript bench), and zlib's level 1 for whole
// entries of the zip archives qualrank writes (util/zip.cpp; deflate_raw says why).
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
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

// Runs `zs` (just reset, perhaps primed with a dictionary) over `input`, writing from the start of `buffer`:
// `last` ends the stream, else a sync flush ends it on a byte boundary (pieces deflated apart then concatenate
// into one stream). igzip's bytes depend on the room it is given (where it ends a block), so the room offered is
// a function of the input's size alone, never of what `buffer` held before: `buffer` is grown as needed, never
// shrunk (a thread may keep one for all its pieces). Returns the bytes made, or nullopt when igzip fails.
std::optional<std::size_t> deflate_into(isal_zstream* zs, std::string_view input, bool last, std::string& buffer);

// `input` deflated whole, as one raw stream, into `out` (replaced), by zlib at level 1, not igzip: igzip's levels
// 1 and 2 (libisal 2.30, AVX-512) were seen to give another deflate of the same input in about 1 process of 300
// (the same bytes with address randomisation off; a transcript's 227-byte .codes file), and an archive must be
// the same bytes every time. False when zlib fails.
bool deflate_raw(std::string_view input, std::string& out);

// CRC-32 (ISO 3309, as zip and gzip use it) of `input`.
std::uint32_t crc32(std::string_view input);

}  // namespace qualrank::deflate
