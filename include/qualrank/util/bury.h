// Burying: a large structure no longer needed just before the process exits is kept, not freed.
//
// Freeing a study of 2,000 transcripts block by block (400,000 segments, a million strings) took 0.4 s at
// the end of `report`, after its last file was written; the process exit returns the memory at once. This is
// what LLVM's BuryPointer does for clang's -disable-free. Only a front end that is about to exit turns it on
// (`enable_burial`, called by the command line); otherwise (the library, tests, the terminal coder) `bury`
// destroys the object as usual. A buried object stays reachable from a global list, so leak checkers do not
// report it.
#pragma once
#include <memory>

namespace qualrank {

void enable_burial(bool on = true);
bool burial_enabled();

namespace detail {
void keep_forever(std::shared_ptr<void> object);
}

// Destroys `object` now, or (burial enabled) keeps it until the process exits.
template <class T>
void bury(std::unique_ptr<T> object) {
  if (object && burial_enabled()) detail::keep_forever(std::shared_ptr<void>(std::move(object)));
}

// Burial off while it lives (and back as it was after): for a step that is not the process's last, such as the
// report that `package` makes before its exports (its study, buried, would stay beside the next one).
class NoBurial {
 public:
  NoBurial() : was_(burial_enabled()) { enable_burial(false); }
  NoBurial(const NoBurial&) = delete;
  NoBurial& operator=(const NoBurial&) = delete;
  ~NoBurial() { enable_burial(was_); }

 private:
  bool was_;
};

// Buries the object `held` owns when the scope ends, on every path out of it (declared after `held`):
//   auto study = load_study(...);
//   const BuryAtEnd keep(study);
template <class T>
class BuryAtEnd {
 public:
  explicit BuryAtEnd(std::unique_ptr<T>& held) : held_(held) {}
  BuryAtEnd(const BuryAtEnd&) = delete;
  BuryAtEnd& operator=(const BuryAtEnd&) = delete;
  ~BuryAtEnd() { bury(std::move(held_)); }

 private:
  std::unique_ptr<T>& held_;
};

}  // namespace qualrank
