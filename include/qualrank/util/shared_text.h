// A short string that repeats many times (a participant id, a role, a question id, a node id, a coder):
// interned in one process-wide pool, so a copy is a pointer (8 bytes, no allocation) instead of a 32-byte
// std::string. 2,000 transcripts give 240,000 coded segments and 400,000 applied codes that each held
// several such strings, and every Location its file name (FileName, util/diagnostics.h). Reads as a const
// std::string; assigning a string interns it.
// The pool keeps every distinct string for the life of the process (they are few: ids, names, memos), and is
// safe to use from several threads.
#pragma once
#include <compare>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>

namespace qualrank {

class SharedText {
 public:
  SharedText() = default;
  SharedText(std::string_view s) : p_(s.empty() ? nullptr : intern(s)) {}  // NOLINT
  SharedText(const std::string& s) : SharedText(std::string_view(s)) {}   // NOLINT
  SharedText(const char* s) : SharedText(std::string_view(s)) {}          // NOLINT

  const std::string& str() const noexcept { return p_ ? *p_ : empty_string(); }
  operator const std::string&() const noexcept { return str(); }  // NOLINT: reads as the string it holds
  operator std::string_view() const noexcept { return str(); }     // NOLINT
  bool empty() const noexcept { return !p_; }
  std::size_t size() const noexcept { return str().size(); }
  std::size_t length() const noexcept { return str().size(); }
  bool starts_with(std::string_view s) const noexcept { return std::string_view(str()).starts_with(s); }
  bool ends_with(std::string_view s) const noexcept { return std::string_view(str()).ends_with(s); }
  void clear() noexcept { p_ = nullptr; }
  // Appending interns the longer string, and the shorter one stays in the pool: not for building a long string
  // piece by piece (every prefix would be kept); build it in a std::string and assign it.
  SharedText& operator+=(std::string_view s) { return *this = SharedText(str() + std::string(s)); }
  SharedText& operator+=(char c) { return *this = SharedText(str() + c); }
  const char* c_str() const noexcept { return str().c_str(); }
  const char* data() const noexcept { return str().data(); }
  std::string::const_iterator begin() const noexcept { return str().begin(); }
  std::string::const_iterator end() const noexcept { return str().end(); }
  char operator[](std::size_t i) const noexcept { return str()[i]; }
  std::size_t find(std::string_view s, std::size_t pos = 0) const noexcept { return str().find(s, pos); }
  std::size_t find(char c, std::size_t pos = 0) const noexcept { return str().find(c, pos); }
  std::size_t rfind(std::string_view s, std::size_t pos = std::string::npos) const noexcept { return str().rfind(s, pos); }
  std::size_t rfind(char c, std::size_t pos = std::string::npos) const noexcept { return str().rfind(c, pos); }
  std::string substr(std::size_t pos = 0, std::size_t n = std::string::npos) const { return str().substr(pos, n); }
  int compare(std::string_view s) const noexcept { return std::string_view(str()).compare(s); }
  char front() const noexcept { return str().front(); }
  char back() const noexcept { return str().back(); }

  // Interned: equal strings share one pointer.
  friend bool operator==(const SharedText& a, const SharedText& b) noexcept { return a.p_ == b.p_; }
  friend std::strong_ordering operator<=>(const SharedText& a, const SharedText& b) noexcept {
    return a.p_ == b.p_ ? std::strong_ordering::equal : a.str() <=> b.str();
  }
  template <class T>
    requires(std::is_convertible_v<const T&, std::string_view> && !std::is_same_v<T, SharedText>)
  friend bool operator==(const SharedText& a, const T& b) {
    return std::string_view(a.str()) == std::string_view(b);
  }
  template <class T>
    requires(std::is_convertible_v<const T&, std::string_view> && !std::is_same_v<T, SharedText>)
  friend auto operator<=>(const SharedText& a, const T& b) {
    return std::string_view(a.str()) <=> std::string_view(b);
  }
  template <class T>
    requires(std::is_convertible_v<const T&, std::string_view> && !std::is_same_v<T, SharedText>)
  friend std::string operator+(const SharedText& a, const T& b) {
    std::string out = a.str();
    out += std::string_view(b);
    return out;
  }
  template <class T>
    requires(std::is_convertible_v<const T&, std::string_view> && !std::is_same_v<T, SharedText>)
  friend std::string operator+(const T& a, const SharedText& b) {
    std::string out(std::string_view{a});
    out += b.str();
    return out;
  }
  friend std::string operator+(const SharedText& a, const SharedText& b) { return a.str() + b.str(); }
  friend std::string operator+(const SharedText& a, char c) { return a.str() + c; }
  friend std::string operator+(char c, const SharedText& a) { return c + a.str(); }
  friend std::ostream& operator<<(std::ostream& out, const SharedText& s) { return out << s.str(); }

 private:
  static const std::string& empty_string() noexcept {
    static const std::string none;
    return none;
  }
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  static const std::string* intern(std::string_view s) {
    // A small cache per thread in front of the pool: parsing and building segments ask for the same few
    // strings (a transcript's coder, its nodes) over and over, mostly without taking the lock.
    const std::size_t h = Hash{}(s);
    thread_local const std::string* cache[64] = {};
    const std::string*& slot = cache[h & 63];
    if (slot && *slot == s) return slot;
    return slot = pooled(s);
  }
  static const std::string* pooled(std::string_view s) {
    // Never destroyed (a SharedText in a static object may outlive any destruction order); its nodes keep
    // their addresses as it grows.
    static auto* mutex = new std::mutex;
    static auto* pool = new std::unordered_set<std::string, Hash, std::equal_to<>>;
    std::lock_guard<std::mutex> lock(*mutex);
    auto it = pool->find(s);
    if (it == pool->end()) it = pool->emplace(s).first;
    return &*it;
  }
  const std::string* p_ = nullptr;
};

}  // namespace qualrank

template <>
struct std::hash<qualrank::SharedText> {
  std::size_t operator()(const qualrank::SharedText& s) const noexcept { return std::hash<std::string>{}(s.str()); }
};
