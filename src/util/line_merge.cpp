// Line-based diff (Myers 1986) and three-way rebase (line_merge.h).
#include "qualrank/util/line_merge.h"

#include <algorithm>

namespace qualrank::text {

std::vector<std::string_view> split_lines_keep(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.push_back(text.substr(start, end - start));
    start = end;
  }
  return out;
}

std::optional<std::vector<LineHunk>> diff_lines(const std::vector<std::string_view>& a,
                                                const std::vector<std::string_view>& b, std::size_t max_edits) {
  const std::size_t n = a.size(), m = b.size();
  std::size_t pre = 0;
  while (pre < n && pre < m && a[pre] == b[pre]) ++pre;
  std::size_t suf = 0;
  while (suf < n - pre && suf < m - pre && a[n - 1 - suf] == b[m - 1 - suf]) ++suf;
  const long N = static_cast<long>(n - pre - suf), M = static_cast<long>(m - pre - suf);
  std::vector<LineHunk> hunks;
  if (N == 0 && M == 0) return hunks;
  if (N == 0 || M == 0) {
    hunks.push_back({pre, pre + static_cast<std::size_t>(N), pre, pre + static_cast<std::size_t>(M)});
    return hunks;
  }
  auto A = [&](long i) { return a[pre + static_cast<std::size_t>(i)]; };
  auto B = [&](long j) { return b[pre + static_cast<std::size_t>(j)]; };
  const long D = std::min<long>(N + M, static_cast<long>(max_edits));
  // v[k + off]: the furthest x reached on diagonal k. trace[d] keeps v's window [-d-1, d+1] as it was before
  // step d, for the walk back.
  const long off = D + 1;
  std::vector<long> v(static_cast<std::size_t>(2 * D + 3), 0);
  std::vector<std::vector<long>> trace;
  long found = -1;
  for (long d = 0; d <= D && found < 0; ++d) {
    trace.emplace_back(v.begin() + (off - d - 1), v.begin() + (off + d + 2));
    for (long k = -d; k <= d; k += 2) {
      long x = (k == -d || (k != d && v[k - 1 + off] < v[k + 1 + off])) ? v[k + 1 + off] : v[k - 1 + off] + 1;
      long y = x - k;
      while (x < N && y < M && A(x) == B(y)) ++x, ++y;
      v[k + off] = x;
      if (x >= N && y >= M) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return std::nullopt;
  // Walk back, collecting the matched line pairs (diagonal moves).
  std::vector<std::pair<long, long>> matches;
  long x = N, y = M;
  for (long d = found; d >= 0; --d) {
    const auto& w = trace[static_cast<std::size_t>(d)];
    auto at = [&](long k) { return w[static_cast<std::size_t>(k + d + 1)]; };
    long k = x - y;
    long prev_k = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
    long prev_x = d == 0 ? 0 : at(prev_k), prev_y = prev_x - prev_k;
    if (d == 0) prev_x = prev_y = 0;
    while (x > prev_x && y > prev_y) {
      matches.emplace_back(x - 1, y - 1);
      --x, --y;
    }
    x = prev_x, y = prev_y;
  }
  std::reverse(matches.begin(), matches.end());
  matches.emplace_back(N, M);  // a sentinel closing the last gap
  long pa = 0, pb = 0;
  for (auto [i, j] : matches) {
    if (i > pa || j > pb)
      hunks.push_back({pre + static_cast<std::size_t>(pa), pre + static_cast<std::size_t>(i),
                       pre + static_cast<std::size_t>(pb), pre + static_cast<std::size_t>(j)});
    pa = i + 1, pb = j + 1;
  }
  return hunks;
}

namespace {

bool overlap(const LineHunk& o, const LineHunk& t) {
  const bool oe = o.base_begin == o.base_end, te = t.base_begin == t.base_end;
  if (oe && te) return false;  // two insertions: ours after theirs
  if (oe) return t.base_begin < o.base_begin && o.base_begin < t.base_end;
  if (te) return o.base_begin < t.base_begin && t.base_begin < o.base_end;
  return o.base_begin < t.base_end && t.base_begin < o.base_end;
}

}  // namespace

std::optional<Rebased> rebase_lines(std::string_view base, std::string_view ours, std::string_view theirs,
                                    std::size_t max_edits) {
  return rebase_lines(base, ours, theirs, nullptr, max_edits);
}

std::optional<Rebased> rebase_lines(std::string_view base, std::string_view ours, std::string_view theirs,
                                    const std::vector<std::size_t>* only, std::size_t max_edits) {
  const auto bl = split_lines_keep(base), ol = split_lines_keep(ours), tl = split_lines_keep(theirs);
  auto oh = diff_lines(bl, ol, max_edits);
  if (!oh) return std::nullopt;
  auto th = diff_lines(bl, tl, max_edits);
  if (!th) return std::nullopt;
  Rebased out;
  out.ours = *oh;
  // Every hunk applied, in base order: theirs (with their lines), then ours that do not overlap one of theirs.
  struct Applied {
    const LineHunk* h;
    bool mine;
  };
  std::vector<Applied> applied;
  for (const auto& t : *th) applied.push_back({&t, false});
  for (std::size_t i = 0; i < oh->size(); ++i) {
    const LineHunk& o = (*oh)[i];
    bool wanted = !only || std::binary_search(only->begin(), only->end(), i);
    bool clash = std::any_of(th->begin(), th->end(), [&](const LineHunk& t) { return overlap(o, t); });
    if (!wanted || clash) {
      out.skipped.push_back(i);
      continue;
    }
    applied.push_back({&o, true});
  }
  std::stable_sort(applied.begin(), applied.end(), [](const Applied& x, const Applied& y) {
    if (x.h->base_begin != y.h->base_begin) return x.h->base_begin < y.h->base_begin;
    const bool xe = x.h->base_begin == x.h->base_end, ye = y.h->base_begin == y.h->base_end;
    if (xe != ye) return xe;      // an insertion before a replacement starting at the same line
    return !x.mine && y.mine;     // theirs before ours
  });
  std::size_t cursor = 0;
  out.text.reserve(theirs.size() + ours.size() / 8);
  for (const auto& ap : applied) {
    for (; cursor < ap.h->base_begin; ++cursor) out.text += bl[cursor];
    const auto& lines = ap.mine ? ol : tl;
    for (std::size_t j = ap.h->other_begin; j < ap.h->other_end; ++j) out.text += lines[j];
    cursor = std::max(cursor, ap.h->base_end);
  }
  for (; cursor < bl.size(); ++cursor) out.text += bl[cursor];
  return out;
}

}  // namespace qualrank::text
