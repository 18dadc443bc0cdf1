// Re-applying one side's changes on top of another's: a line-based three-way merge, as diff3 and
// `git merge-file` do, for an editor whose file changed on disk while it held unsaved changes
// (`qualrank annotate`). The differences come from Myers' greedy O(ND) algorithm (E. W. Myers, "An O(ND)
// Difference Algorithm and Its Variations", Algorithmica 1(2), 1986), run after the common first and last
// lines are set aside, so a few edits in a large file cost little.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qualrank::text {

// Lines of `text`, each with its line break (the last one may have none). Views into `text`.
std::vector<std::string_view> split_lines_keep(std::string_view text);

// Lines [base_begin, base_end) of the base are replaced by lines [other_begin, other_end) of the other text
// (0-based; an empty base range is an insertion before line base_begin).
struct LineHunk {
  std::size_t base_begin = 0, base_end = 0;
  std::size_t other_begin = 0, other_end = 0;
};

// The hunks that turn `base` into `other`, in order, none overlapping; nullopt when the two differ in more
// than `max_edits` inserted plus deleted lines (the cost is O((N + M) * D), its memory O(D^2)).
std::optional<std::vector<LineHunk>> diff_lines(const std::vector<std::string_view>& base,
                                                const std::vector<std::string_view>& other, std::size_t max_edits);

struct Rebased {
  std::string text;                   // theirs with ours' hunks applied
  std::vector<LineHunk> ours;         // every hunk of base -> ours
  std::vector<std::size_t> skipped;   // indexes into `ours` not applied: they overlap a change of theirs
};

// Applies the changes that turn `base` into `ours` onto `theirs`. A hunk of ours is applied unless it overlaps
// a hunk of theirs (lines both changed; an insertion at the very place the other side inserts is not an
// overlap: ours goes after theirs). nullopt when either side differs from base in more than `max_edits` lines.
std::optional<Rebased> rebase_lines(std::string_view base, std::string_view ours, std::string_view theirs,
                                    std::size_t max_edits = 2000);
// The same, applying only the hunks of ours whose index is in `only` (sorted), the others counted skipped.
std::optional<Rebased> rebase_lines(std::string_view base, std::string_view ours, std::string_view theirs,
                                    const std::vector<std::size_t>* only, std::size_t max_edits = 2000);

}  // namespace qualrank::text
