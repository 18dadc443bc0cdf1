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
  auto key = std::make_pair(d.where.file, d.severity);
  if (d.severity != Severity::note && ++per_file_[key] > kPerFile) {
    ++dropped_[key];
    return;
  }
  if (d.message.size() > kMessageBytes) {
    std::size_t cut = kMessageBytes;
    while (cut > 0 && (static_cast<unsigned char>(d.message[cut]) & 0xC0) == 0x80) --cut;  // a whole character
    d.message = d.message.substr(0, cut) + "… (message cut)";
  }
  items_.push_back(std::move(d));
}
void Diagnostics::append(const Diagnostics& other) {
  for (const auto& d : other.items_) add(d);
  for (const auto& [key, n] : other.dropped_) {
    dropped_[key] += n;
    per_file_[key] += n;
    if (key.second == Severity::error) error_count_ += n;
  }
}
int Diagnostics::dropped() const {
  int n = 0;
  for (const auto& [key, count] : dropped_) n += count;
  return n;
}
void Diagnostics::print(std::ostream& out) const {
  for (const auto& d : items_) out << format_diagnostic(d) << '\n';
  for (const auto& [key, n] : dropped_)
    out << (key.first.empty() ? std::string("qualrank") : key.first) << ": note: " << n << " more "
        << (key.second == Severity::error ? "errors" : "warnings") << " in this file not shown (at most " << kPerFile
        << " are listed)\n";
}
void Diagnostics::clear() {
  items_.clear();
  error_count_ = 0;
  per_file_.clear();
  dropped_.clear();
}

}  // namespace qualrank
