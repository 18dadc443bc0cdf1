// Label-table reader (contract in include/qualrank/analysis/agreement/label_table.h).
//
// One streaming pass per file: csv::for_each_record hands over each record as string views; the header
// picks the unit, coder and consensus columns; each data row's cells are trimmed and interned (a hash map
// from the raw cell text to a small int), and each distinct raw text is classified once, when first met:
// resolved through the taxonomy (or taken as a free category) into a category index. Rows go straight into
// the row-major units x coders code array of stats::RatingTable. Unit ids are interned too, which finds
// repeated ids without a std::string per unit (each unit keeps its id's index, so repeated ids may be
// kept as separate units). At the end the categories are sorted (taxonomy or natural
// order) and the codes renumbered once.
#include "qualrank/analysis/agreement/label_table.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <numeric>

#include "qualrank/util/csv.h"
#include "qualrank/util/files.h"
#include "qualrank/util/edit_distance.h"
#include "qualrank/util/text.h"

namespace qualrank {

namespace {

constexpr int kMaxErrorsPerKind = 20;
static_assert(kMaxLabelCoders > 1);
constexpr int kUnknown = -2;  // a raw value that is not a category (unknown to the taxonomy)

bool ieq(std::string_view a, std::string_view b) {
  return text::to_lower_ascii(text::trim(a)) == text::to_lower_ascii(text::trim(b));
}

// 1-based column (in code points) of `field` when it is a view into `text` (unquoted fields are); 0 else.
int column_of(std::string_view text, std::string_view field) {
  if (field.data() < text.data() || field.data() > text.data() + text.size()) return 0;
  const auto at = static_cast<std::size_t>(field.data() - text.data());
  const auto nl = text.rfind('\n', at == 0 ? 0 : at - 1);
  const std::size_t start = (nl == std::string_view::npos || at == 0) ? 0 : nl + 1;
  return static_cast<int>(text::count_code_points(text.substr(start, at - start))) + 1;
}

// Counts errors of one kind in one file; reports the first kMaxErrorsPerKind and then one summary.
struct ErrorBudget {
  int count = 0;
  bool take() { return ++count <= kMaxErrorsPerKind; }
  void summarise(Diagnostics& diags, const std::string& file, const std::string& what) const {
    if (count > kMaxErrorsPerKind)
      diags.error({file, 0, 0}, std::to_string(count - kMaxErrorsPerKind) + " more " + what + " (not listed)");
  }
};

struct UnknownLabel {
  Location first;
  std::int64_t cells = 0;
  std::string problem;
};

// State shared by all files: the table being built and the value -> category maps.
class Reader {
 public:
  Reader(const LabelColumns& columns, const LabelVocabulary& vocabulary, Diagnostics& diags)
      : columns_(columns), vocab_(vocabulary), diags_(diags) {
    table_.ratings.categories = 1;
  }

  void read(const LabelInput& input);
  LabelTable finish();

 private:
  bool header(const LabelInput& input, int line, const std::vector<std::string_view>& fields);
  void row(const LabelInput& input, int line, const std::vector<std::string_view>& fields);
  int category_of(std::string_view value);
  int category_of_uncached(std::string_view value);
  static constexpr int kCacheBits = 10;
  std::array<std::uint64_t, std::size_t{1} << kCacheBits> cache_key_{};  // 0: empty (a key's top byte is never 0)
  std::array<int, std::size_t{1} << kCacheBits> cache_category_{};
  int coder_index(const std::string& name);
  void reserve_for(std::string_view text);

  const LabelColumns& columns_;
  const LabelVocabulary& vocab_;
  Diagnostics& diags_;
  LabelTable table_;
  StringInterner raw_;                  // distinct trimmed cell values
  std::vector<int> raw_category_;       // raw value -> category index, or kUnknown
  std::vector<std::string> raw_problem_;  // raw value -> why it is unknown
  StringInterner categories_;           // category names (node ids or free values), first-seen order

  // Per-file state.
  std::size_t field_count_ = 0;
  int unit_col_ = 0, consensus_col_ = -1;
  std::vector<int> coder_cols_;    // column of each of this file's coders
  std::vector<int> coder_global_;  // ... and its index in table_.coders
  std::vector<int> row_codes_;     // scratch: one row, stride_ wide
  // Row stride of table_.ratings.codes while reading: at least table_.coders.size(), doubled when a new
  // coder needs more, so the rows read so far are copied a few times at most; finish() packs the rows.
  std::size_t stride_ = 0;
  std::map<int, UnknownLabel> unknown_;  // raw value -> first place (this file)
  ErrorBudget bad_width_, bad_unit_, duplicate_;

  // Repeated unit ids (all inputs): id index -> the first unit with it, and the later rows' places.
  std::vector<std::int64_t> first_unit_;
  std::map<int, std::vector<Location>> repeats_;
  void warn_duplicates();
};

constexpr std::size_t kListedRepeats = 5;  // rows listed per repeated unit id
constexpr int kListedRepeatedIds = 20;     // repeated unit ids warned about one by one

int Reader::coder_index(const std::string& name) {
  for (std::size_t i = 0; i < table_.coders.size(); ++i)
    if (table_.coders[i] == name) return static_cast<int>(i);
  // A coder new to the table: the rows read so far get a missing rating for it. They are laid out anew only
  // when the stride is full (doubling it), so k new coders copy the rows a few times, O(units k) in all, not
  // once per coder, O(units k^2).
  const std::size_t width = table_.coders.size() + 1;
  if (width > stride_) {
    const std::size_t stride = std::min<std::size_t>(std::max<std::size_t>(2 * stride_, width), kMaxLabelCoders);
    auto& codes = table_.ratings.codes;
    const auto units = static_cast<std::size_t>(table_.ratings.units);
    if (units > 0) {
      std::vector<int> wider(units * stride, -1);
      for (std::size_t u = 0; u < units; ++u)
        std::copy_n(codes.begin() + static_cast<std::ptrdiff_t>(u * stride_), stride_,
                    wider.begin() + static_cast<std::ptrdiff_t>(u * stride));
      codes.swap(wider);
    }
    stride_ = stride;
  }
  table_.coders.push_back(name);
  table_.ratings.coders = static_cast<int>(width);
  return static_cast<int>(width) - 1;
}

bool Reader::header(const LabelInput& input, int line, const std::vector<std::string_view>& fields) {
  std::vector<std::string> names;
  for (auto f : fields) names.emplace_back(text::trim(f));
  field_count_ = names.size();
  auto find = [&](const std::string& want) -> int {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (ieq(names[i], want)) return static_cast<int>(i);
    return -1;
  };
  bool ok = true;
  unit_col_ = 0;
  if (!columns_.unit.empty() && (unit_col_ = find(columns_.unit)) < 0) {
    diags_.error({input.name, line, 0}, "no unit column '" + columns_.unit + "' in the header");
    ok = false;
  }
  consensus_col_ = -1;
  if (!columns_.consensus.empty()) {
    if ((consensus_col_ = find(columns_.consensus)) < 0) {
      diags_.error({input.name, line, 0}, "no consensus column '" + columns_.consensus + "' in the header");
      ok = false;
    }
  } else {
    consensus_col_ = find("Final_Label");
    if (consensus_col_ < 0) consensus_col_ = find("final");
  }
  coder_cols_.clear();
  if (!columns_.coders.empty()) {
    for (const auto& c : columns_.coders) {
      int col = find(c);
      if (col < 0) {
        diags_.error({input.name, line, 0}, "no coder column '" + c + "' in the header");
        ok = false;
      } else {
        coder_cols_.push_back(col);
      }
    }
  } else {
    for (std::size_t i = 0; i < names.size(); ++i) {
      const int col = static_cast<int>(i);
      if (col == unit_col_ || col == consensus_col_) continue;
      if (text::starts_with_ci(names[i], "label") || text::starts_with_ci(names[i], "coder")) coder_cols_.push_back(col);
    }
  }
  for (int col : coder_cols_)
    if (col == unit_col_ || col == consensus_col_) {
      diags_.error({input.name, line, 0}, "column '" + names[static_cast<std::size_t>(col)] +
                                              "' cannot be both a coder and the unit or consensus column");
      ok = false;
    }
  if (ok && coder_cols_.size() < 2) {
    diags_.error({input.name, line, 0},
                 coder_cols_.empty() ? "no coder columns (headers starting with 'Label' or 'coder'); name them with --coder-cols"
                                     : "only one coder column ('" + names[static_cast<std::size_t>(coder_cols_[0]) ] +
                                           "'); agreement needs at least two");
    ok = false;
  }
  if (!ok) return false;
  // At most kMaxLabelCoders coders in all files together: every coder pair is a statistic of the report.
  std::size_t coders = table_.coders.size();
  for (int col : coder_cols_) {
    const auto& name = names[static_cast<std::size_t>(col)];
    if (std::find(table_.coders.begin(), table_.coders.end(), name) != table_.coders.end()) continue;
    if (++coders > kMaxLabelCoders) {
      diags_.error({input.name, line, column_of(input.text, fields[static_cast<std::size_t>(col)])},
                   "more than " + std::to_string(kMaxLabelCoders) +
                       " coder columns (the limit on coders in label tables)");
      return false;
    }
  }
  coder_global_.clear();
  for (int col : coder_cols_) {
    const auto& name = names[static_cast<std::size_t>(col)];
    const int g = coder_index(name);
    if (std::find(coder_global_.begin(), coder_global_.end(), g) != coder_global_.end()) {
      diags_.error({input.name, line, 0}, "coder column '" + name + "' appears twice in the header");
      return false;
    }
    coder_global_.push_back(g);
  }
  if (consensus_col_ >= 0) table_.has_consensus = true;
  return true;
}

int Reader::category_of(std::string_view value) {
  // A short value (a node id like "C.10" or "A.1.i") is first looked for in a small cache keyed by its bytes:
  // ten million cells then cost no string hash. The cache keeps what the full lookup below gave.
  std::uint64_t key = 0;
  std::size_t slot = 0;
  const bool short_value = value.size() < 8;
  if (short_value) {
    std::memcpy(&key, value.data(), value.size());
    key |= static_cast<std::uint64_t>(value.size() + 1) << 56;  // the length in the top byte: never 0
    slot = static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ULL) >> (64 - kCacheBits));
    if (cache_key_[slot] == key) return cache_category_[slot];
  }
  const int category = category_of_uncached(value);
  if (short_value) {
    cache_key_[slot] = key;
    cache_category_[slot] = category;
  }
  return category;
}

int Reader::category_of_uncached(std::string_view value) {
  bool added = false;
  const int raw = raw_.intern(value, &added);
  if (!added) return raw_category_[static_cast<std::size_t>(raw)];
  int category = kUnknown;
  std::string problem;
  if (vocab_.taxonomy == nullptr) {
    category = categories_.intern(value);
  } else {
    NodeResolution r = (*vocab_.resolve)(std::string(value));
    if (r.node) {
      category = categories_.intern(*r.node);
    } else {
      problem = r.problem.empty() ? "unknown taxonomy node '" + std::string(value) + "'" : r.problem;
      if (!vocab_.taxonomy->resolve(value)) {
        // Not a node at all (rather than, say, deprecated): suggest a close id for a typo.
        std::size_t best = 3;
        std::string hint;
        const std::string lower = value.size() <= 256 ? text::to_lower_ascii(value) : std::string();
        for (const auto& id : vocab_.taxonomy->order()) {
          if (lower.empty()) break;  // far longer than any id: no suggestion
          const auto d = text::edit_distance_at_most(text::to_lower_ascii(id), lower, 2);
          if (d < best) {
            best = d;
            hint = id;
          }
        }
        if (!hint.empty()) problem += " (did you mean '" + hint + "'?)";
      }
    }
  }
  raw_category_.push_back(category);
  raw_problem_.push_back(std::move(problem));
  return category;
}

void Reader::row(const LabelInput& input, int line, const std::vector<std::string_view>& fields) {
  if (fields.size() != field_count_) {
    if (bad_width_.take())
      diags_.error({input.name, line, 0}, "row has " + std::to_string(fields.size()) + " fields, the header has " +
                                              std::to_string(field_count_));
    return;
  }
  row_codes_.assign(stride_, -1);
  bool ok = true;
  auto code_of = [&](std::string_view cell) {
    const std::string_view value = text::trim(cell);
    if (value.empty()) return -1;
    const int category = category_of(value);
    if (category == kUnknown) {
      const int raw = raw_.find(value);
      auto [it, fresh] = unknown_.try_emplace(raw);
      if (fresh) it->second = {{input.name, line, column_of(input.text, value)}, 0, raw_problem_[static_cast<std::size_t>(raw)]};
      ++it->second.cells;
      ok = false;
    }
    return category;
  };
  for (std::size_t k = 0; k < coder_cols_.size(); ++k)
    row_codes_[static_cast<std::size_t>(coder_global_[k])] = code_of(fields[static_cast<std::size_t>(coder_cols_[k])]);
  const int consensus = consensus_col_ >= 0 ? code_of(fields[static_cast<std::size_t>(consensus_col_)]) : -1;
  const std::string_view unit = text::trim(fields[static_cast<std::size_t>(unit_col_)]);
  if (unit.empty()) {
    if (bad_unit_.take()) diags_.error({input.name, line, 0}, "empty unit id");
    return;
  }
  if (!ok) return;
  bool added = false;
  const int id = table_.unit_ids.intern(unit, &added);
  if (added) {
    first_unit_.push_back(table_.ratings.units);
  } else if (columns_.duplicates == DuplicateUnits::error) {
    if (duplicate_.take()) {
      const auto first = static_cast<std::size_t>(first_unit_[static_cast<std::size_t>(id)]);
      diags_.error({input.name, line, column_of(input.text, unit)},
                   "duplicate unit id '" + std::string(unit) + "' (first at " +
                       table_.files[static_cast<std::size_t>(table_.unit_source[first])] + ":" +
                       std::to_string(table_.unit_line[first]) + ")");
    }
    return;
  } else {
    repeats_[id].push_back({input.name, line, column_of(input.text, unit)});
    if (columns_.duplicates == DuplicateUnits::first) return;
  }
  table_.unit_key.push_back(id);
  table_.ratings.codes.insert(table_.ratings.codes.end(), row_codes_.begin(), row_codes_.end());
  table_.consensus.push_back(consensus);
  table_.unit_source.push_back(static_cast<int>(table_.sources.size()) - 1);
  table_.unit_line.push_back(line);
  ++table_.ratings.units;
}

void Reader::reserve_for(std::string_view text) {
  // Estimate the rows from the mean length of the first lines, so the big arrays grow once.
  std::size_t lines = 0, at = 0;
  while (lines < 64 && (at = text.find('\n', at)) != std::string_view::npos) {
    ++lines;
    ++at;
  }
  if (lines < 2 || at == 0) return;
  // With several files, the arrays grow at least geometrically (as push_back would), not to the exact rows of
  // the files so far: an exact reserve per file would copy the rows read again for each file.
  const std::size_t rows = table_.unit_line.size() + text.size() / std::max<std::size_t>(1, at / lines) + 16;
  auto at_least = [](auto& v, std::size_t want) {
    if (want > v.capacity()) v.reserve(std::max(want, 2 * v.capacity()));
  };
  at_least(table_.ratings.codes, rows * std::max<std::size_t>(stride_, 1));
  at_least(table_.consensus, rows);
  at_least(table_.unit_source, rows);
  at_least(table_.unit_line, rows);
  at_least(table_.unit_key, rows);
  at_least(first_unit_, rows);
  table_.unit_ids.reserve(rows, table_.unit_ids.bytes() + text.size() / 4);
}

void Reader::read(const LabelInput& input) {
  table_.sources.push_back(input.source);
  table_.files.push_back(input.name);
  unknown_.clear();
  bad_width_ = bad_unit_ = duplicate_ = ErrorBudget{};
  bool have_header = false, usable = true;
  const auto units_before = table_.ratings.units;
  const int errors_before = diags_.error_count();
  csv::for_each_record(input.text, input.name, diags_, [&](int line, const std::vector<std::string_view>& fields) {
    if (!have_header) {
      have_header = true;
      usable = header(input, line, fields);
      if (usable) reserve_for(input.text);
      return usable;
    }
    row(input, line, fields);
    return true;
  });
  if (!have_header && usable) diags_.error({input.name, 1, 0}, "empty label table (no header row)");
  for (const auto& [raw, u] : unknown_)
    diags_.error(u.first, u.problem + (vocab_.version > 0 ? " in taxonomy version " + std::to_string(vocab_.version) : "") +
                              " (" + std::to_string(u.cells) + (u.cells == 1 ? " cell" : " cells") + " in this file)");
  // (after the unknown labels' errors, which are reported once per label at the end: rows refused for them
  // are rows, and the table is not "without rows")
  if (have_header && usable && table_.ratings.units == units_before && diags_.error_count() == errors_before)
    diags_.warning({input.name, 0, 0}, "the label table has a header but no rows");
  bad_width_.summarise(diags_, input.name, "rows with a different number of fields");
  bad_unit_.summarise(diags_, input.name, "rows with an empty unit id");
  duplicate_.summarise(diags_, input.name, "duplicate unit ids");
}

// One warning per repeated unit id (in the order their second rows were read), at its second row.
void Reader::warn_duplicates() {
  std::vector<std::pair<const Location*, int>> order;  // (second row, id)
  for (const auto& [id, places] : repeats_) order.emplace_back(&places.front(), id);
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    const auto fa = std::find(table_.files.begin(), table_.files.end(), a.first->file);
    const auto fb = std::find(table_.files.begin(), table_.files.end(), b.first->file);
    return fa != fb ? fa < fb : a.first->line < b.first->line;
  });
  const bool keep = columns_.duplicates == DuplicateUnits::keep;
  int listed = 0;
  std::int64_t rows_left = 0;
  for (const auto& [second, id] : order) {
    const auto& places = repeats_[id];
    if (listed == kListedRepeatedIds) {
      rows_left += static_cast<std::int64_t>(places.size()) + 1;
      continue;
    }
    ++listed;
    const auto first = static_cast<std::size_t>(first_unit_[static_cast<std::size_t>(id)]);
    std::string rows = table_.files[static_cast<std::size_t>(table_.unit_source[first])] + ":" +
                       std::to_string(table_.unit_line[first]);
    for (std::size_t k = 0; k < places.size() && k + 1 < kListedRepeats; ++k)
      rows += ", " + places[k].file + ":" + std::to_string(places[k].line);
    if (places.size() + 1 > kListedRepeats)
      rows += " and " + std::to_string(places.size() + 1 - kListedRepeats) + " more";
    const std::size_t n = places.size() + 1;
    diags_.warning(*second, "unit id '" + std::string(table_.unit_ids[id]) + "' is on " + std::to_string(n) +
                                " rows (" + rows + "); " +
                                (keep ? "each row is counted as a separate unit"
                                      : "only the first is counted, the other " +
                                            (n == 2 ? std::string("row is") : std::to_string(n - 1) + " rows are") +
                                            " left out") +
                                " (--duplicates keep|first|error)");
  }
  const auto more = static_cast<int>(order.size()) - listed;
  if (more > 0)
    diags_.warning({table_.files.front(), 0, 0}, std::to_string(more) + " more repeated unit ids on " +
                                                     std::to_string(rows_left) + " rows (not listed)");
}

LabelTable Reader::finish() {
  if (!repeats_.empty()) warn_duplicates();
  // Pack the rows to the table's width (they were read stride_ apart).
  const auto width = static_cast<std::size_t>(table_.ratings.coders);
  if (width < stride_) {
    auto& codes = table_.ratings.codes;
    for (std::size_t u = 0; u < static_cast<std::size_t>(table_.ratings.units); ++u)
      std::copy_n(codes.begin() + static_cast<std::ptrdiff_t>(u * stride_), width,
                  codes.begin() + static_cast<std::ptrdiff_t>(u * width));
    codes.resize(static_cast<std::size_t>(table_.ratings.units) * width);
    codes.shrink_to_fit();
  }
  // Sort the categories (taxonomy order, or natural order for free categories) and renumber the codes.
  const int n = categories_.size();
  std::vector<std::string> names;
  names.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) names.emplace_back(categories_[i]);
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const Taxonomy* tax = vocab_.taxonomy;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const auto& x = names[static_cast<std::size_t>(a)];
    const auto& y = names[static_cast<std::size_t>(b)];
    if (tax) {
      const auto rx = tax->rank_of(x), ry = tax->rank_of(y);
      if (rx != ry) return rx < ry;
    }
    if (text::natural_less(x, y)) return true;
    if (text::natural_less(y, x)) return false;
    return x < y;
  });
  std::vector<int> renumber(static_cast<std::size_t>(n));
  table_.categories.clear();
  for (int k = 0; k < n; ++k) {
    renumber[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;
    table_.categories.push_back(names[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])]);
  }
  for (int& c : table_.ratings.codes)
    if (c >= 0) c = renumber[static_cast<std::size_t>(c)];
  for (int& c : table_.consensus)
    if (c >= 0) c = renumber[static_cast<std::size_t>(c)];
  table_.ratings.categories = std::max(1, n);
  return std::move(table_);
}

}  // namespace

std::string_view LabelTable::label(std::int64_t u, int c) const {
  const int code = ratings.codes[static_cast<std::size_t>(u) * static_cast<std::size_t>(ratings.coders) + static_cast<std::size_t>(c)];
  return code < 0 ? std::string_view() : std::string_view(categories[static_cast<std::size_t>(code)]);
}

std::string_view LabelTable::consensus_label(std::int64_t u) const {
  const int code = consensus.empty() ? -1 : consensus[static_cast<std::size_t>(u)];
  return code < 0 ? std::string_view() : std::string_view(categories[static_cast<std::size_t>(code)]);
}

LabelTable read_label_tables(const std::vector<LabelInput>& inputs, const LabelColumns& columns,
                             const LabelVocabulary& vocabulary, Diagnostics& diags) {
  Reader reader(columns, vocabulary, diags);
  for (const auto& input : inputs) reader.read(input);
  return reader.finish();
}

LabelTable read_label_files(const std::vector<std::filesystem::path>& paths, const std::filesystem::path& base,
                            const LabelColumns& columns, const LabelVocabulary& vocabulary, Diagnostics& diags) {
  std::vector<std::string> texts;
  std::vector<LabelInput> inputs;
  texts.reserve(paths.size());
  std::map<std::string, int> stems;
  for (const auto& p : paths) ++stems[p.stem().string()];
  for (const auto& p : paths) {
    const std::string name = files::display_path(p, base);
    std::string why;
    auto content = files::read_input(p, files::kTableInput, &why);
    if (!content) {
      diags.error({name, 0, 0}, why == "cannot read the file" ? "cannot read the label table" : why);
      continue;
    }
    if (auto bad = text::find_invalid_utf8(*content)) {
      diags.error({name, bad->line, bad->column}, "invalid UTF-8");
      continue;
    }
    texts.push_back(std::move(*content));
    std::string source = p.stem().string();
    if (stems[source] > 1) source = std::filesystem::path(name).replace_extension().generic_string();
    inputs.push_back({name, source, {}});
  }
  for (std::size_t i = 0; i < inputs.size(); ++i) inputs[i].text = texts[i];
  return read_label_tables(inputs, columns, vocabulary, diags);
}

}  // namespace qualrank
