// One fuzz target = one small .cpp with QUALRANK_FUZZ_TARGET(name) { ... }: the body gets the input bytes and
// calls one parser of the library with a Diagnostics. Built two ways (tests/fuzz/CMakeLists.txt):
//  * fuzz build (make fuzz; clang, -fsanitize=fuzzer,address,undefined): the macro defines libFuzzer's
//    LLVMFuzzerTestOneInput, one executable per target;
//  * replay build (ordinary compiler, part of make test; and make fuzz-replay under ASan+UBSan): every
//    target registers itself by name in one executable, qualrank_fuzz_replay, whose main() runs files through
//    a named target (tests/fuzz/replay_main.cpp).
// A target fails (abort) on an uncaught exception (the CLI's "internal error", exit 3), on an error that is not
// located in a file, and on invalid UTF-8 in what a parser accepted; the sanitizers catch the rest.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "qualrank/model/guideline.h"
#include "qualrank/model/taxonomy.h"
#include "qualrank/util/diagnostics.h"

namespace qualrank::fuzz {

using TargetFn = int (*)(const std::uint8_t*, std::size_t);
bool register_target(const char* name, TargetFn fn);

// The second fixture study's design (tests/fixtures/fieldwork), loaded once.
const Taxonomy& taxonomy();
const Guideline& guideline();

// Writes `data` to a per-process temporary file ending in `ext` (for parsers that take a path: zip archives,
// transcript sources read by extension) and returns its path. Overwritten by the next call.
std::filesystem::path temp_file(std::string_view data, const std::string& ext);

// Aborts unless every error and warning names a file (a located diagnostic) and its message is capped.
void check_located(const Diagnostics& diags);
// Aborts when `s` (something a parser accepted without error) is not valid UTF-8.
void check_utf8(std::string_view s, const char* what);

// A transcript source for import-transcript (`ext`: .txt, .srt, .vtt, .docx), read by its extension as the CLI
// reads it (UTF-8 check, UTF-16 with a byte-order mark converted, a .docx opened with the zip limits); what
// it accepts must be valid UTF-8.
int transcript_source(const std::uint8_t* data, std::size_t size, const std::string& ext);

// A REFI-QDA file (`ext`: .qdc, a codebook; .qdpx, a project zip) read as qualrank import reads it.
int refi_file(const std::uint8_t* data, std::size_t size, const std::string& ext);

// For a libFuzzer custom mutator (fuzz build only) of a target whose input is a zip archive: byte mutations
// of a whole archive almost always break its CRCs, so the XML inside is hardly reached. When `data` is a zip
// of at most 1 MiB, one entry is mutated with `mutate` (LLVMFuzzerMutate), the entry named `prefer` three
// times in four, and the archive is written again (stored, same entry order); otherwise, and one time in
// eight, `data` itself is mutated. Returns the new size (at most `max_size`).
std::size_t mutate_zip(std::uint8_t* data, std::size_t size, std::size_t max_size, unsigned seed, const char* prefer,
                       std::size_t (*mutate)(std::uint8_t*, std::size_t, std::size_t));

}  // namespace qualrank::fuzz

#ifndef QUALRANK_FUZZ_REPLAY
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);
// Defines libFuzzer's custom mutator for a target whose input is a zip with the entry `prefer` (fuzz build only).
#define QUALRANK_FUZZ_ZIP_MUTATOR(prefer)                                                                        \
  extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t max_size,  \
                                                 unsigned seed) {                                              \
    return qualrank::fuzz::mutate_zip(data, size, max_size, seed, prefer, LLVMFuzzerMutate);                  \
  }
#else
#define QUALRANK_FUZZ_ZIP_MUTATOR(prefer)
#endif

#ifdef QUALRANK_FUZZ_REPLAY
#define QUALRANK_FUZZ_TARGET(name)                                                                       \
  static int fuzz_target_##name(const std::uint8_t* data, std::size_t size);                           \
  [[maybe_unused]] static const bool fuzz_registered_##name =                                           \
      qualrank::fuzz::register_target(#name, fuzz_target_##name);                                      \
  static int fuzz_target_##name(const std::uint8_t* data, std::size_t size)
#else
#define QUALRANK_FUZZ_TARGET(name) extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
#endif
