// Keyword retrieval, the first step of building a corpus from issue reports by mining software repositories:
// per source a list of terms, a document retrieved when one matches (the way the study of the keyword lists
// in docs/corpus.md selected its issues). Terms are compiled into one Aho-Corasick automaton per source (Aho &
// Corasick 1975; analysis/autocode.cpp), each with its own whole-word and case rules; every field of a
// document is scanned once. Which term matched where is kept for a reviewer to audit. A large file is read in
// pieces of 1 MiB on the worker threads (util/parallel.h), joined in file order.
#include "qualrank/analysis/corpus/corpus_retrieve.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <optional>

#include "qualrank/analysis/autocode.h"
#include "qualrank/model/corpus/corpus.h"
#include "qualrank/util/parallel.h"
#include "qualrank/util/text.h"

namespace qualrank::corpus {

std::string hit_field(const KeywordHit& h) {
  switch (h.field) {
    case KeywordHit::title: return "title";
    case KeywordHit::body: return "body";
    default: return "comment " + std::to_string(h.comment);
  }
}

namespace {

// `v` as a JSON string (what nlohmann's dump writes for it: '"', '\\', and control characters escaped; invalid
// UTF-8 replaced by U+FFFD), appended to `out`. Written by hand: a retrieved line per document is too many to
// build as JSON objects (a tenth of retrieval's time went to that).
void append_json_string(std::string& out, std::string_view v) {
  if (text::find_invalid_utf8(v)) {
    out += nlohmann::json(std::string(v)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return;
  }
  out += '"';
  for (char ch : v) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          static const char* hex = "0123456789abcdef";
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

// One line of corpus/retrieved.jsonl (SourceRetrieval::jsonl), appended to `out`.
void append_retrieved_line(std::string& out, const std::string& source, bool whole, const RetrievedDocument& d,
                           const std::vector<KeywordTerm>* terms) {
  out += "{\"doc\":";
  append_json_string(out, doc_ref(source, d.id));
  out += ",\"source\":";
  append_json_string(out, source);
  out += ",\"id\":";
  append_json_string(out, d.id);
  out += whole ? ",\"whole\":true,\"matches\":[" : ",\"whole\":false,\"matches\":[";
  for (std::size_t k = 0; k < d.hits.size(); ++k) {
    const auto& h = d.hits[k];
    out += k ? ",{\"term\":" : "{\"term\":";
    append_json_string(out, terms ? (*terms)[h.term].term : std::string());
    out += ",\"in\":\"";
    out += hit_field(h);
    out += "\",\"at\":";
    out += std::to_string(h.at);
    out += ",\"count\":";
    out += std::to_string(h.count);
    out += '}';
  }
  out += "]}\n";
}

// What one piece of a stored file gives; pieces are joined in file order.
struct Piece {
  std::size_t documents = 0, in_window = 0;
  std::vector<RetrievedDocument> retrieved;
  std::string jsonl;  // retrieved's lines of corpus/retrieved.jsonl
  std::vector<std::size_t> term_documents;
  Diagnostics diags;
};

void retrieve_piece(std::string_view text, int first_line, const std::string& file, const std::string& source,
                    const std::vector<KeywordTerm>* terms, const KeywordMatcher* matcher, std::string_view from,
                    std::string_view to, Piece& out) {
  out.term_documents.assign(matcher ? matcher->rule_count() : 0, 0);
  std::vector<KeywordHit> hits;
  std::vector<std::size_t> last_doc_of_term(out.term_documents.size(), static_cast<std::size_t>(-1));
  auto scan_field = [&](std::string_view field_text, KeywordHit::Field field, std::size_t comment) {
    if (field_text.empty()) return;
    const std::size_t first = hits.size();
    scan_spans(*matcher, field_text, [&](std::size_t rule, std::size_t begin, std::size_t) {
      for (std::size_t k = first; k < hits.size(); ++k)
        if (hits[k].term == rule) {
          ++hits[k].count;
          return;
        }
      hits.push_back({rule, comment, field, begin, 1});
    });
  };
  for_each_stored(text, file, out.diags, [&](const DocumentView& d) {
    ++out.documents;
    if (!in_window(d.created, from, to)) return;
    ++out.in_window;
    if (!matcher) {
      out.retrieved.push_back({std::string(d.id), {}});
      return;
    }
    hits.clear();
    scan_field(d.title, KeywordHit::title, 0);
    scan_field(d.body, KeywordHit::body, 0);
    for (std::size_t c = 0; c < d.comments.size(); ++c) scan_field(d.comments[c].body, KeywordHit::comment_body, c + 1);
    if (hits.empty()) return;
    std::stable_sort(hits.begin(), hits.end(), [](const KeywordHit& a, const KeywordHit& b) { return a.term < b.term; });
    const std::size_t index = out.retrieved.size();
    for (const auto& h : hits)
      if (last_doc_of_term[h.term] != index) {
        last_doc_of_term[h.term] = index;
        ++out.term_documents[h.term];
      }
    out.retrieved.push_back({std::string(d.id), hits});
  }, first_line);
  for (const auto& d : out.retrieved) append_retrieved_line(out.jsonl, source, matcher == nullptr, d, terms);
}

}  // namespace

SourceRetrieval retrieve_source(std::string_view stored, const std::string& file, const std::string& source,
                                const std::vector<KeywordTerm>* terms, std::string_view from, std::string_view to,
                                Diagnostics& diags) {
  SourceRetrieval r;
  r.source = source;
  r.whole = terms == nullptr;
  std::optional<KeywordMatcher> matcher;
  if (terms) {
    std::vector<KeywordRule> rules;
    for (const auto& t : *terms) rules.push_back({t.term, {}, t.whole_word, t.case_sensitive});
    matcher.emplace(rules, MatcherOptions{true});
  }
  // Pieces of about kPieceBytes, cut after a line end, scanned on the worker threads and joined in order: the
  // cuts depend on the text only, so the thread count never changes the result. Small enough that the threads
  // end a source together; each piece's lines are counted on the threads too (for the lines diagnostics name).
  constexpr std::size_t kPieceBytes = 1u << 20;
  std::vector<std::string_view> pieces;
  for (std::size_t pos = 0; pos < stored.size();) {
    std::size_t end = pos + kPieceBytes >= stored.size() ? stored.size() : stored.find('\n', pos + kPieceBytes);
    end = end == std::string_view::npos ? stored.size() : std::min(stored.size(), end + 1);
    pieces.push_back(stored.substr(pos, end - pos));
    pos = end;
  }
  std::vector<int> first_lines(pieces.size() + 1, 0);
  parallel_for(pieces.size(), [&](std::size_t k) {
    // (by memchr, line to line: std::count widened every byte to a 64-bit sum, a twentieth of retrieval's time)
    int n = 0;
    for (const char *q = pieces[k].data(), *e = q + pieces[k].size(); (q = static_cast<const char*>(std::memchr(q, '\n', static_cast<std::size_t>(e - q)))); ++q)
      ++n;
    first_lines[k + 1] = n;
  });
  first_lines[0] = 1;
  for (std::size_t k = 1; k <= pieces.size(); ++k) first_lines[k] += first_lines[k - 1];
  std::vector<Piece> parts(pieces.size());
  parallel_for(pieces.size(), [&](std::size_t k) {
    retrieve_piece(pieces[k], first_lines[k], file, source, terms, matcher ? &*matcher : nullptr, from, to, parts[k]);
  });
  r.term_documents.assign(terms ? terms->size() : 0, 0);
  // Joined into buffers of their final size, each piece freed once joined (a source's lines are held once).
  std::size_t documents = 0, bytes = 0;
  for (const auto& part : parts) documents += part.retrieved.size(), bytes += part.jsonl.size();
  r.retrieved.reserve(documents);
  r.jsonl.reserve(bytes);
  for (auto& part : parts) {
    diags.append(part.diags);
    if (part.diags.has_errors()) break;  // the first error ends the file's reading, as in one pass
    r.documents += part.documents;
    r.in_window += part.in_window;
    for (std::size_t t = 0; t < part.term_documents.size(); ++t) r.term_documents[t] += part.term_documents[t];
    for (auto& d : part.retrieved) r.retrieved.push_back(std::move(d));
    r.jsonl += part.jsonl;
    std::vector<RetrievedDocument>().swap(part.retrieved);
    std::string().swap(part.jsonl);
  }
  return r;
}

std::vector<RetrievedRef> read_retrieved(std::string_view text, const std::string& file, Diagnostics& diags) {
  std::vector<RetrievedRef> out;
  int line = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    ++line;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    auto row = text.substr(pos, end - pos);
    pos = end + 1;
    if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    auto j = nlohmann::json::parse(row, nullptr, false);
    if (line == 1 && j.is_object() && j.contains("retrieval")) continue;  // the provenance line (corpus_provenance.h)
    if (!j.is_object() || !j.contains("doc") || !j["doc"].is_string() || !j.contains("source") || !j["source"].is_string()) {
      diags.error({file, line, 1}, "not a retrieved document ({\"doc\": ..., \"source\": ...})");
      continue;
    }
    out.push_back({j["doc"].get<std::string>(), j["source"].get<std::string>()});
  }
  return out;
}

}  // namespace qualrank::corpus
