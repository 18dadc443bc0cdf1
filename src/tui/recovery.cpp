// The terminal coder's recovery file (recovery.h).
#include "recovery.h"

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

#include "qualrank/util/files.h"
#include "qualrank/util/text.h"

namespace qualrank::tui {

namespace fs = std::filesystem;

namespace {

std::string utc_now() {
  std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm);
  return buf;
}

}  // namespace

std::string recovery_file(const CodingDocument& doc) {
  return ".qualrank-recover/" + fs::path(doc.transcript().file).stem().string() + "." + text::fold_case(doc.coder()) + ".json";
}

bool keep_unsaved(const fs::path& root, const CodingDocument& doc, std::string* error) {
  if (!doc.dirty()) {
    remove_recovery(root, doc);
    return true;
  }
  nlohmann::json j;
  j["transcript"] = doc.transcript().file;
  j["coder"] = doc.coder();
  j["time"] = utc_now();
  j["base"] = doc.saved_text();
  j["edited"] = doc.edited_text();
  std::error_code ec;
  fs::create_directories(root / ".qualrank-recover", ec);
  return files::write_atomic(root / recovery_file(doc), j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", error);
}

std::optional<Recovery> find_recovery(const fs::path& root, const CodingDocument& doc, std::string* problem) {
  const std::string rel = recovery_file(doc);
  if (!files::exists(root / rel)) return std::nullopt;
  std::string why;
  auto content = files::read_inside(root, rel, &why);
  if (!content) {
    if (problem) *problem = rel + ": " + why;
    return std::nullopt;
  }
  try {
    auto j = nlohmann::json::parse(*content);
    Recovery r{j.at("transcript").get<std::string>(), j.at("coder").get<std::string>(), j.at("time").get<std::string>(),
               j.at("base").get<std::string>(), j.at("edited").get<std::string>()};
    if (r.transcript != doc.transcript().file || text::fold_case(r.coder) != text::fold_case(doc.coder())) {
      if (problem) *problem = rel + ": it is for " + r.transcript + " by " + r.coder + ", not this transcript and coder";
      return std::nullopt;
    }
    return r;
  } catch (const std::exception&) {
    if (problem) *problem = rel + ": not a recovery file (not the JSON annotate writes)";
    return std::nullopt;
  }
}

void remove_recovery(const fs::path& root, const CodingDocument& doc) {
  std::error_code ec;
  fs::remove(root / recovery_file(doc), ec);
  fs::remove(root / ".qualrank-recover", ec);  // only when empty
}

}  // namespace qualrank::tui
