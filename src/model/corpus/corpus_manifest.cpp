// The corpus store's bookkeeping: corpus/manifest.json (per source: documents, SHA-256 of the stored file,
// import date, the export it came from), merging a newer export into the stored documents by id, and the
// all-or-nothing import that writes the changed source files and the manifest together.
#include <algorithm>
#include <unordered_map>

#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/files.h"
#include "qualrank/util/sha256.h"
#include "qualrank/util/text.h"

namespace qualrank::corpus {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

}  // namespace

std::string store_path(std::string_view source) { return "corpus/" + std::string(source) + ".jsonl"; }

std::optional<Manifest> read_manifest(const fs::path& workspace, Diagnostics& diags) {
  const std::string name = "corpus/manifest.json";
  std::string why;
  if (!files::exists(workspace / name)) return std::nullopt;
  auto text = files::read_inside(workspace, name, &why);
  if (!text) {
    diags.error({name, 0, 0}, why);
    return std::nullopt;
  }
  json j = json::parse(*text, nullptr, false);
  Manifest m;
  if (!j.is_object() || !j.contains("sources") || !j["sources"].is_object()) {
    diags.error({name, 1, 1}, "not a corpus manifest (a JSON object with \"sources\")");
    return std::nullopt;
  }
  for (auto it = j["sources"].begin(); it != j["sources"].end(); ++it) {
    const auto& v = it.value();
    if (!v.is_object() || !source_name_problem(it.key()).empty()) {
      diags.error({name, 0, 0}, "source '" + it.key() + "': not a valid entry");
      continue;
    }
    SourceEntry e;
    e.documents = v.value("documents", std::size_t{0});
    e.sha256 = v.value("sha256", std::string());
    e.imported = v.value("imported", std::string());
    e.from = v.value("from", std::string());
    m.sources[it.key()] = e;
  }
  return m;
}

std::string manifest_text(const Manifest& m) {
  ojson j = ojson::object();
  j["format"] = 1;
  ojson sources = ojson::object();
  for (const auto& [name, e] : m.sources) {
    ojson o = ojson::object();
    o["file"] = store_path(name);
    o["documents"] = e.documents;
    o["sha256"] = e.sha256;
    o["imported"] = e.imported;
    o["from"] = e.from;
    sources[name] = std::move(o);
  }
  j["sources"] = std::move(sources);
  return j.dump(2) + "\n";
}

std::vector<std::string> corpus_sources(const fs::path& workspace, Diagnostics& diags) {
  auto m = read_manifest(workspace, diags);
  std::vector<std::string> out;
  if (!m) {
    if (!diags.has_errors()) diags.error({"corpus/manifest.json", 0, 0}, "no corpus yet: run 'qualrank corpus import'");
    return out;
  }
  for (const auto& [name, e] : m->sources) out.push_back(name);
  return out;
}

std::vector<Document> merge_documents(std::vector<Document> stored, std::vector<Document> incoming, MergeCounts& counts) {
  std::unordered_map<std::string, std::size_t> at;
  for (std::size_t k = 0; k < stored.size(); ++k) at.emplace(stored[k].id, k);
  std::vector<bool> seen(stored.size(), false);
  for (auto& d : incoming) {
    auto it = at.find(d.id);
    if (it == at.end()) {
      ++counts.added;
      at.emplace(d.id, stored.size());
      seen.push_back(true);
      stored.push_back(std::move(d));
      continue;
    }
    seen[it->second] = true;
    if (stored[it->second] == d) {
      ++counts.unchanged;
    } else {
      ++counts.updated;
      stored[it->second] = std::move(d);
    }
  }
  counts.kept = static_cast<std::size_t>(std::count(seen.begin(), seen.end(), false));
  std::sort(stored.begin(), stored.end(), [](const Document& a, const Document& b) { return text::natural_less(a.id, b.id); });
  return stored;
}

std::optional<std::map<std::string, MergeCounts>> import_export(const fs::path& workspace, std::string_view text,
                                                               const std::string& file, const std::string& source,
                                                               Diagnostics& diags, const ImportOptions& options) {
  if (!source.empty())
    if (auto why = source_name_problem(source); !why.empty()) {
      diags.error({file, 0, 0}, "--source '" + source + "': " + why);
      return std::nullopt;
    }
  auto parsed = parse_export(text, file, diags, options);
  if (diags.has_errors()) return std::nullopt;
  std::map<std::string, std::vector<Document>> by_source;
  std::map<std::string, std::vector<Location>> where_of;  // each document's place in the export
  for (std::size_t k = 0; k < parsed.documents.size(); ++k) {
    const auto& own = parsed.sources[k];
    if (!own.empty() && !source.empty() && own != source) {
      diags.error(parsed.where[k], "the document's source '" + own + "' is not --source '" + source + "'");
      continue;
    }
    const std::string& s = own.empty() ? source : own;
    if (s.empty()) {
      diags.error(parsed.where[k], "no source: give --source NAME (or a 'source' field)");
      continue;
    }
    if (auto why = source_name_problem(s); !why.empty()) {
      diags.error(parsed.where[k], "source '" + s + "': " + why);
      continue;
    }
    by_source[s].push_back(std::move(parsed.documents[k]));
    where_of[s].push_back(parsed.where[k]);
  }
  if (diags.has_errors()) return std::nullopt;
  if (by_source.empty() && !source.empty()) by_source[source];
  Manifest manifest;
  if (auto m = read_manifest(workspace, diags)) manifest = *m;
  if (diags.has_errors()) return std::nullopt;
  std::map<std::string, MergeCounts> counts;
  std::map<std::string, std::string> texts;
  for (auto& [name, docs] : by_source) {
    std::vector<Document> stored;
    const std::string path = store_path(name);
    if (files::exists(workspace / path)) {
      std::string why;
      auto old = files::read_inside(workspace, path, &why);
      if (!old) {
        diags.error({path, 0, 0}, why);
        continue;
      }
      stored = read_store(*old, path, diags);
    }
    // Two documents of this export with one url (two numbers for one issue): the second is refused, naming
    // the first.
    {
      std::map<std::string, std::size_t> first_of;
      for (std::size_t k = 0; k < docs.size(); ++k) {
        if (docs[k].url.empty()) continue;
        auto [it, fresh] = first_of.emplace(docs[k].url, k);
        if (!fresh) {
          const auto& w = where_of[name][it->second];
          diags.error(where_of[name][k], "the same url as the document at " + std::to_string(w.line) + ":" + std::to_string(w.column) +
                                             " (id " + docs[it->second].id + "): " + docs[k].url);
        }
      }
      if (diags.has_errors()) continue;
    }
    // Another repository's export under this source would replace its documents by number: refused, located
    // at the export's first document of another repository.
    std::map<std::string, std::size_t> stored_repos;
    for (const auto& d : stored)
      if (auto r = repository_of(d.url); !r.empty()) ++stored_repos[r];
    if (!stored_repos.empty()) {
      for (std::size_t k = 0; k < docs.size(); ++k) {
        const auto r = repository_of(docs[k].url);
        if (r.empty() || stored_repos.count(r)) continue;
        std::string held;
        for (const auto& [repo, n] : stored_repos) held += (held.empty() ? "" : ", ") + repo;
        diags.error(where_of[name][k], "this export's documents are from " + r + ", but source '" + name + "' holds documents of " + held +
                            ": import it under a --source of its own (it would replace " + name + "'s issues of the same numbers)");
        break;
      }
      if (diags.has_errors()) continue;
    }
    auto merged = merge_documents(std::move(stored), std::move(docs), counts[name]);
    if (merged.size() > kMaxDocuments) {
      diags.error({path, 0, 0}, std::to_string(merged.size()) + " documents, over the limit of " + std::to_string(kMaxDocuments));
      continue;
    }
    texts[name] = store_text(merged);
    auto& e = manifest.sources[name];
    e.documents = merged.size();
    e.sha256 = sha256_hex(texts[name]);
    e.imported = files::today_utc();
    e.from = fs::path(file).filename().string();
  }
  if (diags.has_errors()) return std::nullopt;
  files::StagedFiles staged(workspace);
  std::string err;
  for (const auto& [name, t] : texts)
    if (!staged.stage_inside(store_path(name), t, &err)) {
      diags.error({store_path(name), 0, 0}, "cannot write: " + err);
      return std::nullopt;
    }
  if (!staged.stage_inside("corpus/manifest.json", manifest_text(manifest), &err) || !staged.commit(&err)) {
    diags.error({"corpus/manifest.json", 0, 0}, "cannot write: " + err);
    return std::nullopt;
  }
  return counts;
}

}  // namespace qualrank::corpus
