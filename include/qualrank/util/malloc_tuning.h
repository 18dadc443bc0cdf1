// Tuning glibc's malloc for a command that builds a large study: transparent huge pages for the heap.
//
// A report on 2,000 transcripts touches 570 MB, 145,000 pages of 4 KiB: on a virtual machine each first touch
// (a page fault) cost about 7 us, a second of system time in all, and the loaded study's pointers missed the
// TLB. glibc backs its heap with 2 MiB pages when asked (the tunable glibc.malloc.hugetlb=1, glibc 2.35+,
// which calls madvise(MADV_HUGEPAGE) on what it maps; the kernel's THP mode "madvise", Debian's default, then
// honours it) and grows the heap 64 MiB at a time (glibc.malloc.top_pad), so whole huge pages fit. Tunables
// are read once, when a program starts, so `tune_malloc_and_reexec` starts the program again with them set
// (execv of the file /proc/self/exe names: same process id, name, arguments, files and environment). It does nothing when
// GLIBC_TUNABLES is set already, and not empty (the user's own choice is kept) or QUALRANK_MALLOC_TUNED is set (the run it
// started, or a user who wants none: QUALRANK_MALLOC_TUNED=0). In the run it starts, both variables are
// removed again, so programs that qualrank runs inherit neither. Only the command line calls it, once it has
// found the workspace and before it writes anything, and only for a workspace whose transcripts hold 8 MB or
// more (or, in `agreement`, label tables of 8 MB or more; cli::tune_for_files): the second start costs about 18 ms (loading the program and its libraries again), which a small
// study does not win back.
#pragma once

namespace qualrank {

// Returns only when no new start is made (or the exec fails: then the command runs untuned).
void tune_malloc_and_reexec(char** argv);

}  // namespace qualrank
