// The terminal coder's recovery file (recovery.h).
#include "recovery.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <stdexcept>
#include <nlohmann/json.hpp>

#include "qualrank/util/files.h"
#include "qualrank/util/sha256.h"
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

namespace {

std::string base_file(const CodingDocument& doc) {
  std::string f = recovery_file(doc);
  return f.substr(0, f.size() - 5) + ".base";
}

bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

using Change = CodingDocument::Reloaded::Change;
const char* const kKinds[] = {"addition", "removal", "memo", "exemplar"};

nlohmann::json change_json(const Change& c) {
  nlohmann::json j;
  j["kind"] = kKinds[static_cast<int>(c.kind)];
  j["turn"] = c.turn;
  j["span"] = c.span ? nlohmann::json(*c.span) : nlohmann::json(nullptr);
  j["node"] = c.node;
  j["memo"] = c.memo;
  j["exemplar"] = c.exemplar;
  j["label"] = c.label;
  return j;
}

Change change_of(const nlohmann::json& j) {
  Change c;
  const std::string kind = j.at("kind").get<std::string>();
  int k = 0;
  while (k < 4 && kind != kKinds[k]) ++k;
  if (k == 4) throw std::runtime_error("unknown kind");
  c.kind = static_cast<Change::Kind>(k);
  c.turn = j.at("turn").get<int>();
  if (!j.at("span").is_null()) c.span = j.at("span").get<std::string>();
  c.node = j.at("node").get<std::string>();
  c.memo = j.at("memo").get<std::string>();
  c.exemplar = j.at("exemplar").get<bool>();
  c.label = j.at("label").get<std::string>();
  return c;
}

}  // namespace

bool keep_unsaved(const fs::path& root, const CodingDocument& doc, std::string* error, KeptBase* kept,
                  const std::vector<Change>& not_reapplied) {
  if (!doc.dirty() && not_reapplied.empty()) {
    remove_recovery(root, doc);
    if (kept) kept->sha256.clear(), kept->text.clear();
    return true;
  }
  const std::string& base = doc.saved_text();
  const std::string& edited = doc.edited_text();
  std::error_code ec;
  fs::create_directories(root / ".qualrank-recover", ec);
  // The base is hashed and written when it is not the one kept last (a 5 MB transcript hashes in ~15 ms: not
  // after every edit).
  const bool same_base = kept && !kept->sha256.empty() && kept->text == base;
  const std::string sha = same_base ? kept->sha256 : sha256_hex(base);
  if (!same_base) {
    if (!files::write_atomic(root / base_file(doc), base, error)) return false;
    if (kept) kept->sha256 = sha, kept->text = base;
  }
  // The one stretch that differs, cut at character boundaries so that it is UTF-8 as the texts are.
  const std::size_t common = std::min(base.size(), edited.size());
  std::size_t prefix = static_cast<std::size_t>(std::mismatch(base.begin(), base.begin() + static_cast<std::ptrdiff_t>(common), edited.begin()).first - base.begin());
  while (prefix > 0 && ((prefix < edited.size() && continuation(edited[prefix])) || (prefix < base.size() && continuation(base[prefix]))))
    --prefix;
  const std::size_t tail = std::min(base.size(), edited.size()) - prefix;
  std::size_t suffix = static_cast<std::size_t>(
      std::mismatch(base.rbegin(), base.rbegin() + static_cast<std::ptrdiff_t>(tail), edited.rbegin()).first - base.rbegin());
  while (suffix > 0 && (continuation(edited[edited.size() - suffix]) || continuation(base[base.size() - suffix]))) --suffix;
  nlohmann::json j;
  j["transcript"] = doc.transcript().file;
  j["coder"] = doc.coder();
  j["time"] = utc_now();
  j["base_sha256"] = sha;
  j["keep_start"] = prefix;
  j["keep_end"] = suffix;
  j["between"] = edited.substr(prefix, edited.size() - prefix - suffix);
  if (!not_reapplied.empty()) {
    j["not_reapplied"] = nlohmann::json::array();
    for (const auto& c : not_reapplied) j["not_reapplied"].push_back(change_json(c));
  }
  return files::write_atomic(root / recovery_file(doc), j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", error);
}

std::optional<Recovery> find_recovery(const fs::path& root, const CodingDocument& doc, std::string* problem) {
  const std::string rel = recovery_file(doc);
  if (!files::exists(root / rel)) return std::nullopt;
  auto fail = [&](const std::string& why) -> std::optional<Recovery> {
    if (problem) *problem = rel + ": " + why;
    return std::nullopt;
  };
  std::string why;
  auto content = files::read_inside(root, rel, &why);
  if (!content) return fail(why);
  try {
    auto j = nlohmann::json::parse(*content);
    Recovery r;
    r.transcript = j.at("transcript").get<std::string>();
    r.coder = j.at("coder").get<std::string>();
    r.time = j.at("time").get<std::string>();
    if (r.transcript != doc.transcript().file || text::fold_case(r.coder) != text::fold_case(doc.coder()))
      return fail("it is for " + r.transcript + " by " + r.coder + ", not this transcript and coder");
    auto base = files::read_inside(root, base_file(doc), &why);
    if (!base || sha256_hex(*base) != j.at("base_sha256").get<std::string>())
      return fail("the text it was written on (" + base_file(doc) + ") is missing or changed; not used");
    const auto prefix = j.at("keep_start").get<std::size_t>(), suffix = j.at("keep_end").get<std::size_t>();
    if (prefix + suffix > base->size()) return fail("not a recovery file (not the JSON annotate writes)");
    r.edited = base->substr(0, prefix) + j.at("between").get<std::string>() + base->substr(base->size() - suffix);
    r.base = std::move(*base);
    if (j.contains("not_reapplied"))
      for (const auto& c : j.at("not_reapplied")) r.not_reapplied.push_back(change_of(c));
    return r;
  } catch (const std::exception&) {
    return fail("not a recovery file (not the JSON annotate writes)");
  }
}

void remove_recovery(const fs::path& root, const CodingDocument& doc) {
  std::error_code ec;
  fs::remove(root / recovery_file(doc), ec);
  fs::remove(root / base_file(doc), ec);
  fs::remove(root / ".qualrank-recover", ec);  // only when empty
}

}  // namespace qualrank::tui
