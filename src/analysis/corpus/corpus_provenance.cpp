// The provenance of the corpus's derived files (analysis/corpus/corpus_provenance.h).
#include "qualrank/analysis/corpus/corpus_provenance.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

#include "qualrank/util/files.h"
#include "qualrank/util/hash_cache.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"

namespace qualrank::corpus {

namespace {

constexpr const char* kRetrieved = "corpus/retrieved.jsonl";

// The SHA-256 of a file (relative: in the workspace; absolute: a --keywords file elsewhere), or "" when it
// cannot be read.
std::string file_sha256(const std::filesystem::path& workspace, const std::string& path) {
  std::string why;
  if (std::filesystem::path(path).is_absolute()) {
    auto text = files::read(path);
    return text ? sha256_hex(*text) : std::string();
  }
  if (!files::exists(workspace / path)) return "";
  auto text = files::read_inside(workspace, path, &why);
  return text ? sha256_hex(*text) : std::string();
}

}  // namespace

std::string retrieval_provenance_line(const RetrievalProvenance& p) {
  nlohmann::ordered_json r = nlohmann::ordered_json::object();
  r["from"] = p.from;
  r["to"] = p.to;
  r["window_from"] = p.window_from_options ? "options" : "keywords";
  nlohmann::ordered_json kw = nlohmann::ordered_json::array();
  for (const auto& [file, hash] : p.keyword_files) kw.push_back({{"file", file}, {"sha256", hash}});
  r["keywords"] = std::move(kw);
  nlohmann::ordered_json src = nlohmann::ordered_json::object();
  for (const auto& [s, hash] : p.sources) src[s] = hash;
  r["sources"] = std::move(src);
  nlohmann::ordered_json line = nlohmann::ordered_json::object();
  line["retrieval"] = std::move(r);
  return line.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::optional<RetrievalProvenance> read_retrieval_provenance(std::string_view line, const std::string& file, int line_no,
                                                             Diagnostics& diags) {
  if (line.find("\"retrieval\"") == std::string_view::npos) return std::nullopt;
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (!j.is_object() || !j.contains("retrieval")) return std::nullopt;
  const auto& r = j["retrieval"];
  auto str = [&](const char* key) { return r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : std::string(); };
  bool ok = r.is_object() && r.contains("sources") && r["sources"].is_object() && r.contains("keywords") && r["keywords"].is_array();
  RetrievalProvenance p;
  if (ok) {
    p.from = str("from");
    p.to = str("to");
    p.window_from_options = str("window_from") == "options";
    for (const auto& k : r["keywords"]) {
      if (!k.is_object() || !k.contains("file") || !k["file"].is_string() || !k.contains("sha256") || !k["sha256"].is_string()) {
        ok = false;
        break;
      }
      p.keyword_files.emplace_back(k["file"].get<std::string>(), k["sha256"].get<std::string>());
    }
    for (const auto& [s, h] : r["sources"].items()) {
      if (!h.is_string()) {
        ok = false;
        break;
      }
      p.sources[s] = h.get<std::string>();
    }
  }
  if (!ok) {
    diags.error({file, line_no, 1}, "a malformed retrieval record ({\"retrieval\": {\"from\", \"to\", \"keywords\", \"sources\"}}): run 'qualrank corpus retrieve'");
    return std::nullopt;
  }
  return p;
}

std::optional<RetrievalProvenance> stored_retrieval_provenance(const std::filesystem::path& workspace, Diagnostics& diags) {
  if (!files::exists(workspace / kRetrieved)) return std::nullopt;
  std::string why;
  auto text = files::read_inside(workspace, kRetrieved, &why);
  if (!text) {
    diags.error({kRetrieved, 0, 0}, why);
    return std::nullopt;
  }
  const auto first = std::string_view(*text).substr(0, text->find('\n'));
  return read_retrieval_provenance(first, kRetrieved, 1, diags);
}

std::string window_text(std::string_view from, std::string_view to) {
  if (from.empty() && to.empty()) return "any date";
  return (from.empty() ? std::string("...") : std::string(from)) + " to " + (to.empty() ? std::string("...") : std::string(to));
}

std::string sample_provenance_lines(const SampleProvenance& p) {
  std::string out = "# drawn by: qualrank corpus sample\n";
  auto line = [&](const char* key, const std::string& value) { out += std::string("# ") + key + ": " + value + "\n"; };
  line("rule", p.rule);
  line("seed", p.seed);
  line("confidence", p.confidence);
  line("margin", p.margin);
  line("proportion", p.proportion);
  line("size", p.size);
  line("stratify", p.stratify);
  line("population", std::to_string(p.population));
  line("population sha256", p.population_sha256);
  std::string ex;
  for (const auto& [name, hash] : p.excluded) ex += (ex.empty() ? "" : ", ") + name + " " + hash;
  line("excluded samples", ex.empty() ? "none" : ex);
  return out;
}

std::optional<SampleProvenance> read_sample_provenance(std::string_view text) {
  SampleProvenance p;
  bool any = false;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    auto t = text::trim(text.substr(at, nl - at));
    at = nl + 1;
    if (t.empty()) continue;
    if (t[0] != '#') break;  // the header ends at the first document
    t = text::trim(t.substr(1));
    const auto colon = t.find(": ");
    if (colon == std::string_view::npos) continue;
    const std::string key(t.substr(0, colon));
    const std::string value(text::trim(t.substr(colon + 2)));
    if (key == "drawn by") any = true;
    else if (key == "rule") p.rule = value;
    else if (key == "seed") p.seed = value;
    else if (key == "confidence") p.confidence = value;
    else if (key == "margin") p.margin = value;
    else if (key == "proportion") p.proportion = value;
    else if (key == "size") p.size = value;
    else if (key == "stratify") p.stratify = value;
    else if (key == "population") p.population = static_cast<std::size_t>(std::strtoull(value.c_str(), nullptr, 10));
    else if (key == "population sha256") p.population_sha256 = value;
    else if (key == "excluded samples" && value != "none")
      for (const auto& item : text::split_nonempty(value, ',')) {
        const auto sp = item.find(' ');
        p.excluded.emplace_back(item.substr(0, sp), sp == std::string::npos ? std::string() : item.substr(sp + 1));
      }
  }
  if (!any) return std::nullopt;
  return p;
}

std::string samples_rule(const std::filesystem::path& workspace) {
  bool any = false, all_majority = true;
  for (const auto& p : files::list_files(workspace / "corpus/samples", ".txt")) {
    auto text = files::read(p);
    if (!text) continue;
    if (auto sp = read_sample_provenance(*text)) {
      any = true;
      all_majority = all_majority && sp->rule == "majority";
    }
  }
  return any && all_majority ? "majority" : "unanimous";
}

namespace {

std::string hash_mismatch(const std::string& rel, const std::string& now, const std::string& recorded) {
  if (now == recorded) return {};
  return rel + " is not the file corpus/manifest.json records (SHA-256 " + now.substr(0, 12) + "..., recorded " +
         recorded.substr(0, 12) + "...): edited by hand or corrupted since its import";
}

}  // namespace

std::string stored_hash_mismatch(const std::string& source, const std::string& sha256, const Manifest& manifest) {
  auto it = manifest.sources.find(source);
  return it == manifest.sources.end() ? std::string() : hash_mismatch(store_path(source), sha256, it->second.sha256);
}

std::vector<std::string> manifest_mismatches(const std::filesystem::path& workspace, const Manifest& manifest) {
  std::vector<std::string> out;
  // The digests corpus retrieve remembered (util/hash_cache.h), only read here: status and validate write
  // nothing; a file whose identity or times changed since is hashed again.
  const files::HashCache remembered(workspace / kHashCacheFile);
  for (const auto& [s, entry] : manifest.sources) {
    const std::string rel = store_path(s);
    const std::string now = remembered.digest_of(workspace, rel);
    if (now.empty()) out.push_back(rel + " is missing (corpus/manifest.json lists source " + s + ")");
    else if (auto why = hash_mismatch(rel, now, entry.sha256); !why.empty()) out.push_back(why);
  }
  return out;
}

std::vector<std::string> retrieval_changes(const std::filesystem::path& workspace, const RetrievalProvenance& p,
                                           const Manifest& manifest) {
  std::vector<std::string> out;
  for (const auto& [s, entry] : manifest.sources) {
    auto it = p.sources.find(s);
    if (it == p.sources.end()) out.push_back("source " + s + " was imported after the retrieval");
    else if (it->second != entry.sha256) out.push_back(store_path(s) + " changed (re-imported " + entry.imported + ")");
  }
  for (const auto& [s, hash] : p.sources)
    if (!manifest.sources.count(s)) out.push_back("source " + s + " is no longer in the corpus");
  for (const auto& [file, hash] : p.keyword_files) {
    const std::string now = file_sha256(workspace, file);
    if (now.empty()) out.push_back(file + " is gone");
    else if (now != hash) out.push_back(file + " changed");
  }
  return out;
}

bool check_retrieval_current(const std::filesystem::path& workspace, std::string_view retrieved, Diagnostics& diags,
                             bool refuse) {
  Diagnostics local;
  auto p = read_retrieval_provenance(retrieved.substr(0, retrieved.find('\n')), kRetrieved, 1, local);
  diags.append(local);
  if (local.has_errors()) return false;
  auto report = [&](const std::string& message) {
    if (refuse) diags.error({kRetrieved, 1, 1}, message);
    else diags.warning({kRetrieved, 1, 1}, message);
  };
  if (!p) {
    report("records neither its window nor what it was retrieved from (written by an older qualrank): run 'qualrank corpus retrieve'");
    return false;
  }
  Diagnostics ignored;
  auto manifest = read_manifest(workspace, ignored);
  auto changes = retrieval_changes(workspace, *p, manifest ? *manifest : Manifest{});
  if (changes.empty()) return true;
  report("stale: " + text::join(changes, "; ") + " since this retrieval; run 'qualrank corpus retrieve' (it keeps the window, " +
         window_text(p->from, p->to) + ")");
  return false;
}

}  // namespace qualrank::corpus
