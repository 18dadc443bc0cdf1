#include "qualrank/analysis/corpus/corpus_table.h"

#include <algorithm>
#include <limits>
#include <filesystem>
#include <map>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "qualrank/util/text.h"

namespace qualrank {

namespace {

// Natural order of period names: runs of digits compare as numbers (2024-H2 before 2024-H10, 9 before 10),
// everything else character by character.
bool period_less(std::string_view a, std::string_view b) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t i0 = i, j0 = j;
      while (i < a.size() && digit(a[i])) ++i;
      while (j < b.size() && digit(b[j])) ++j;
      auto x = a.substr(i0, i - i0), y = b.substr(j0, j - j0);
      while (x.size() > 1 && x[0] == '0') x.remove_prefix(1);
      while (y.size() > 1 && y[0] == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j || (a.size() - i == b.size() - j && a < b);
}

}  // namespace

std::optional<PeriodList> parse_period_list(const std::string& text, const std::string& file, Diagnostics& diags) {
  const std::string stem = std::filesystem::path(file).stem().string();
  const auto cut = stem.rfind('_');
  if (cut == std::string::npos || cut == 0 || cut + 1 == stem.size()) {
    diags.error({file, 0, 0}, "a period list is named SOURCE_PERIOD.txt (e.g. pytorch_2024.txt), SOURCE as the label table's file name");
    return std::nullopt;
  }
  if (auto bad = text::find_invalid_utf8(text)) {
    diags.error({file, bad->line, bad->column}, "invalid UTF-8 (a period list is UTF-8 text)");
    return std::nullopt;
  }
  PeriodList out;
  out.source = stem.substr(0, cut);
  out.period = stem.substr(cut + 1);
  out.file = file;
  int line = 0;
  out.ids.reserve(std::min<std::size_t>(kMaxPeriodIds, static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1));
  // A byte order mark at the start is skipped, as in a transcript or a .codes file.
  for (std::size_t at = text.starts_with("\xEF\xBB\xBF") ? 3 : 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    ++line;
    std::string id(text::trim(std::string_view(text).substr(at, nl - at)));
    at = nl + 1;
    if (id.empty()) continue;
    if (out.ids.size() >= kMaxPeriodIds) {
      diags.error({file, line, 1}, "more than " + std::to_string(kMaxPeriodIds) + " ids in one period list");
      return std::nullopt;
    }
    out.ids.emplace_back(std::move(id), line);
  }
  return out;
}

CorpusTable corpus_table(const LabelTable& table, const Taxonomy& taxonomy, int level, const std::vector<PeriodList>& periods,
                         Diagnostics& diags) {
  CorpusTable out;
  out.level = level;
  // Periods in natural order; each source's id -> period index.
  for (const auto& p : periods)
    if (std::find(out.periods.begin(), out.periods.end(), p.period) == out.periods.end()) out.periods.push_back(p.period);
  std::sort(out.periods.begin(), out.periods.end(), [](const std::string& a, const std::string& b) { return period_less(a, b); });
  std::map<std::string, std::size_t> source_index;
  for (std::size_t s = 0; s < table.sources.size(); ++s) source_index.emplace(table.sources[s], s);
  // Keyed by views of the lists' own ids and the table's (both outlive this function): no copy of a million ids.
  std::vector<std::unordered_map<std::string_view, std::pair<std::size_t, const PeriodList*>>> period_of(table.sources.size());
  for (const auto& p : periods) {
    auto s = source_index.find(p.source);
    if (s == source_index.end()) {
      diags.error({p.file, 0, 0}, "lists units of source '" + p.source + "', but no label table is named " + p.source +
                                      (table.sources.empty() ? "" : " (the sources: " + text::join(table.sources, ", ") + ")"));
      continue;
    }
    const std::size_t k = static_cast<std::size_t>(std::find(out.periods.begin(), out.periods.end(), p.period) - out.periods.begin());
    period_of[s->second].reserve(period_of[s->second].size() + p.ids.size());
    for (const auto& [id, line] : p.ids) {
      auto [it, fresh] = period_of[s->second].try_emplace(id, k, &p);
      if (!fresh && (it->second.first != k || it->second.second != &p))
        diags.error({p.file, line, 1}, "unit '" + id + "' is listed in period " + it->second.second->period + " too (" +
                                           it->second.second->file + "); a unit belongs to one period");
    }
  }
  // Groups: the level-`level` ancestors of the consensus labels, taxonomy order.
  std::vector<int> group_of_category;
  std::vector<std::string> names;
  for (const auto& c : table.categories) {
    auto g = taxonomy.ancestor_at(c, level);
    if (!g) {
      group_of_category.push_back(-1);
      continue;
    }
    auto it = std::find(names.begin(), names.end(), *g);
    if (it == names.end()) names.push_back(*g), it = names.end() - 1;
    group_of_category.push_back(static_cast<int>(it - names.begin()));
  }
  std::vector<std::size_t> order(names.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return taxonomy.rank_of(names[a]) < taxonomy.rank_of(names[b]); });
  std::vector<int> position(names.size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = static_cast<int>(i);
  std::vector<std::vector<std::int64_t>> group_counts(table.sources.size(), std::vector<std::int64_t>(names.size(), 0));
  out.rows.resize(table.sources.size());
  for (std::size_t s = 0; s < table.sources.size(); ++s) {
    out.rows[s].source = table.sources[s];
    out.rows[s].by_period.assign(out.periods.size(), 0);
  }
  std::vector<std::unordered_set<std::string_view>> seen(table.sources.size());  // ids of the table, per source
  if (!periods.empty())
    for (std::int64_t u = 0; u < table.units(); ++u) seen[static_cast<std::size_t>(table.unit_source[static_cast<std::size_t>(u)])].insert(table.unit_id(u));
  for (std::int64_t u = 0; u < table.units(); ++u) {
    const auto s = static_cast<std::size_t>(table.unit_source[static_cast<std::size_t>(u)]);
    CorpusRow& row = out.rows[s];
    ++row.units;
    if (auto it = period_of[s].find(table.unit_id(u)); it != period_of[s].end()) ++row.by_period[it->second.first];
    else ++row.no_period;
    const int c = table.consensus[static_cast<std::size_t>(u)];
    const int g = c < 0 ? -1 : group_of_category[static_cast<std::size_t>(c)];
    if (c < 0) ++row.open;
    else if (g < 0) ++row.ungrouped;
    else ++group_counts[s][static_cast<std::size_t>(position[static_cast<std::size_t>(g)])];
  }
  // Only groups with units, in taxonomy order.
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::int64_t n = 0;
    for (const auto& counts : group_counts) n += counts[i];
    if (n > 0) kept.push_back(i);
  }
  for (std::size_t i : kept) out.groups.push_back(names[order[i]]);
  out.total.source = "total";
  out.total.by_period.assign(out.periods.size(), 0);
  out.total.by_group.assign(kept.size(), 0);
  for (std::size_t s = 0; s < out.rows.size(); ++s) {
    CorpusRow& row = out.rows[s];
    for (std::size_t i : kept) row.by_group.push_back(group_counts[s][i]);
    out.total.units += row.units;
    out.total.no_period += row.no_period;
    out.total.open += row.open;
    out.total.ungrouped += row.ungrouped;
    for (std::size_t k = 0; k < row.by_period.size(); ++k) out.total.by_period[k] += row.by_period[k];
    for (std::size_t k = 0; k < row.by_group.size(); ++k) out.total.by_group[k] += row.by_group[k];
    if (!periods.empty() && row.no_period > 0)
      diags.warning({table.files[s], 0, 0}, std::to_string(row.no_period) + " of its " + std::to_string(row.units) +
                                                " units are in no period list (" + row.source + "_PERIOD.txt)");
  }
  for (const auto& p : periods) {
    auto s = source_index.find(p.source);
    if (s == source_index.end()) continue;
    std::size_t missing = 0;
    const std::pair<std::string, int>* first = nullptr;
    for (const auto& entry : p.ids)
      if (!seen[s->second].count(entry.first) && missing++ == 0) first = &entry;
    if (missing > 0)
      diags.warning({p.file, first->second, 1}, std::to_string(missing) + " listed id" + (missing == 1 ? " is" : "s are") +
                                                    " not in the label table of " + p.source + ", the first '" + first->first + "'");
  }
  return out;
}

double fp_rate(const CorpusRow& row) {
  return row.retrieved > 0 ? static_cast<double>(row.screened_out) / static_cast<double>(row.retrieved)
                           : std::numeric_limits<double>::quiet_NaN();
}

double CorpusTable::mean_fp_rate() const {
  double sum = 0;
  int n = 0;
  for (const auto& r : rows)
    if (r.retrieved > 0) sum += fp_rate(r), ++n;
  return n ? sum / n : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace qualrank
