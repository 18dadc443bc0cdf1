// Diagnostics: input problems are collected, not thrown, so one run reports them all.
// Printed GCC style: FILE:LINE:COL: error: MESSAGE (LINE/COL left out when unknown).
#pragma once
#include <compare>
#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "qualrank/util/shared_text.h"

namespace qualrank {

// A file name in a Location: a SharedText (util/shared_text.h), interned, so a copy is a pointer. A large study
// copies a Location per code and per segment (over a million times for 2,000 transcripts); file names are few,
// and equal names share one string.
using FileName = SharedText;

struct Location {
  FileName file;     // workspace-relative path where possible
  int line = 0;      // 1-based; 0 = unknown
  int column = 0;    // 1-based; 0 = unknown
};

enum class Severity { error, warning, note };

struct Diagnostic {
  Severity severity = Severity::error;
  Location where;
  std::string message;
};

// Formats one diagnostic as "FILE:LINE:COL: error: MESSAGE".
std::string format_diagnostic(const Diagnostic& d);

// At most kPerFile errors and kPerFile warnings are kept for one file, and at most kPerKind of one kind (the
// message with its quoted values and numbers left out); the rest are counted, and print() ends with one line
// per file saying how many were not shown. Messages are cut to kMessageBytes, and a quoted value ('...') in a
// message longer than kQuoteBytes to its first kQuoteExcerpt bytes, "…" and its length. A byte of a message
// that is not valid UTF-8 (input quoted before its encoding was checked) is written as \xNN.
class Diagnostics {
 public:
  static constexpr int kPerFile = 100;
  static constexpr int kPerKind = 20;
  static constexpr std::size_t kMessageBytes = 1000;
  static constexpr std::size_t kQuoteBytes = 120;
  static constexpr std::size_t kQuoteExcerpt = 60;

  void error(Location where, std::string message);
  void warning(Location where, std::string message);
  void note(Location where, std::string message);
  void add(Diagnostic d);
  // Counts `n` problems of `file` that a caller already knows would not be kept (more than kPerKind of one
  // kind came from one place), without building their messages: hot error paths of the parsers stay cheap.
  // print() counts them in the file's closing note like any other dropped one.
  void count_dropped(const std::string& file, Severity severity, int n);
  void append(const Diagnostics& other);

  bool has_errors() const { return error_count_ > 0; }
  int error_count() const { return error_count_; }
  const std::vector<Diagnostic>& items() const { return items_; }
  bool empty() const { return items_.empty(); }
  int dropped() const;  // how many were counted but not kept (over kPerFile for their file)
  // Prints every diagnostic, one per line, in the order they were added.
  void print(std::ostream& out) const;
  // The same with only the diagnostics `keep` accepts (the notes of dropped ones all the same).
  void print(std::ostream& out, const std::function<bool(const Diagnostic&)>& keep) const;
  void clear();

 private:
  std::vector<Diagnostic> items_;
  int error_count_ = 0;
  std::map<std::pair<std::string, Severity>, int> per_file_;  // kept so far per (file, severity)
  std::map<std::pair<std::string, Severity>, int> dropped_;   // not kept, per (file, severity)
  std::map<std::tuple<std::string, Severity, std::string>, int> per_kind_;  // kept so far per (file, severity, kind)
};

// Thrown by command orchestration when input errors make it impossible to continue.
// The diagnostics it carries have been (or will be) printed by the CLI.
struct InputError {
  Diagnostics diagnostics;
};

}  // namespace qualrank
