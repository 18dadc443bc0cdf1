#include "qualrank/util/diagnostics.h"

namespace qualrank {

std::string format_diagnostic(const Diagnostic& d) {
  std::string s = d.where.file.empty() ? std::string("qualrank") : d.where.file;
  if (d.where.line > 0) {
    s += ':' + std::to_string(d.where.line);
    if (d.where.column > 0) s += ':' + std::to_string(d.where.column);
  }
  switch (d.severity) {
    case Severity::error: s += ": error: "; break;
    case Severity::warning: s += ": warning: "; break;
    case Severity::note: s += ": note: "; break;
  }
  return s + d.message;
}

void Diagnostics::error(Location where, std::string message) {
  add({Severity::error, std::move(where), std::move(message)});
}
void Diagnostics::warning(Location where, std::string message) {
  add({Severity::warning, std::move(where), std::move(message)});
}
void Diagnostics::note(Location where, std::string message) {
  add({Severity::note, std::move(where), std::move(message)});
}
void Diagnostics::add(Diagnostic d) {
  if (d.severity == Severity::error) ++error_count_;
  items_.push_back(std::move(d));
}
void Diagnostics::append(const Diagnostics& other) {
  for (const auto& d : other.items_) add(d);
}
void Diagnostics::print(std::ostream& out) const {
  for (const auto& d : items_) out << format_diagnostic(d) << '\n';
}
void Diagnostics::clear() {
  items_.clear();
  error_count_ = 0;
}

}  // namespace qualrank
