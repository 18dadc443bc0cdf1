// LaTeX text and the booktabs tables of the LaTeX outputs (report/latex/latex_tables.h renders them from
// report.json). Every character that LaTeX would read as markup is escaped here, once, by latex::escape; the
// files are UTF-8 for a document with
//   \usepackage[utf8]{inputenc}  \usepackage[T1]{fontenc}  \usepackage{lmodern}  \usepackage{booktabs}
//   \usepackage{longtable}  \usepackage{array}
// (kPreambleLines; docs/latex.md).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace qualrank::latex {

// The \usepackage lines a document needs for every file qualrank writes, one per line.
extern const char* const kPreambleLines;

// `text` as LaTeX text-mode input that prints as `text` (with T1 fonts and utf8 input):
// - & % $ # _ { } become \& \% \$ \# \_ \{ \}; \ ~ ^ < > | " become \textbackslash{} \textasciitilde{}
//   \textasciicircum{} \textless{} \textgreater{} \textbar{} \textquotedbl{}; [ ] are braced ({[} {]}) so that
//   a cell never reads as the optional argument of \\; / becomes \slash{} (a line may break after it);
// - the T1 ligatures -- `` '' ,, !` ?` are broken with {} (a-{}-b), so "--" stays two hyphens;
// - newlines, tabs and other control characters become one space each;
// - characters that the utf8 input encoding declares and pdflatex typesets with T1 fonts and no other package
//   (Latin letters with their accents, typographic quotes and dashes, the ellipsis, the euro sign, ...) stay as
//   they are, in UTF-8;
// - Greek letters become math (\ensuremath{\kappa}), the minus sign U+2212 becomes \ensuremath{-}, the
//   comparison signs U+2264 U+2265 U+2260 become \ensuremath{\leq} \ensuremath{\geq} \ensuremath{\neq};
// - any other character (which pdflatex cannot typeset without more packages), and each byte that is not
//   UTF-8, becomes its code point as text: "[U+2691]", "[U+FFFD]".
// Never fails; the result is linear in the input.
std::string escape(std::string_view text);

// Running text of a caption or a note (a question's wording, a statement, a warning), escaped as `escape`
// does, with the typography of a paper: "<=" and ">=" become $\le$ and $\ge$, and a hyphen between digits
// (a range, "14-15") an en dash ("14--15"); a date's hyphens (2025-03-01, 2025-03) stay as they are.
std::string prose(std::string_view text);

// `text` cut to at most `max_chars` characters (code points) at a word boundary, with "…" after its last whole
// word (the first word cut when it alone is longer); `text` itself when it is that short. Whitespace runs
// become one space.
std::string shortened(std::string_view text, std::size_t max_chars);

// What a cell or a caption shows for an undefined number (a p-value of a constant ranking, W of one group
// member): an em dash, "---".
extern const char* const kUndefined;

// A label or file-name part: ASCII letters (lowered) and digits kept, every run of other characters one '-',
// no '-' at either end; "item" when nothing is left. "III.R" -> "iii-r", "Zoë & co" -> "zo-co".
std::string slug(std::string_view text);

// A number cell: `digits` decimals (text::fixed: no negative zero), a leading minus as a math minus
// ("$-$0.25"); kUndefined ("---") when `value` is not a number.
std::string number(const nlohmann::ordered_json& value, int digits);
// An integer cell (kUndefined when not a number).
std::string integer(const nlohmann::ordered_json& value);
// A p-value cell: "\textless{} 0.001" below 0.001, else three decimals; kUndefined when not a number.
std::string p_value(const nlohmann::ordered_json& value);

// Lines of LaTeX stacked in one cell (a nested tabular, no rules): `align` 'l' or 'r', bottom-aligned for a
// head (`head` true), else top-aligned; the one line itself when there is one.
std::string stacked(const std::vector<std::string>& lines, char align, bool head);

// A table of already-LaTeX cells (escape, number, ...), with booktabs rules only.
struct Column {
  std::string head;   // LaTeX (escaped by the caller)
  std::string spec;   // "l", "r", "p{0.30\linewidth}", or "X": wrapped, ragged right, at a width TeX computes
                      // where the table is set: the fixed columns as wide as their widest cells, the rest of the
                      // line shared by the X columns by their longest cell, each at least its longest word; in
                      // \small, then \footnotesize (2pt between columns), when that is wider than the line
};

struct Table {
  std::string caption;  // LaTeX
  std::string label;    // "tab:..." (slugged parts only)
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;  // each as many cells as columns
  std::vector<std::size_t> rules;              // a \midrule before these rows (by index)
  std::string note;                            // LaTeX, a paragraph under the table; may be empty
  bool long_table = false;                     // longtable (breaks across pages) instead of a table float
  // A float wider than the line even in \scriptsize is set as two tabulars, one under the other, when `split`
  // (a column index > 1) is given: columns [0, split), then column 0 again with [split, end). TeX decides where
  // the table is set, so one file fits a one-column line and both columns of a two-column page.
  std::size_t split = 0;
};

// The table: a float ("table", [tbp], \centering, the caption above the tabular, as wide as the line when a
// column is "X") or a longtable (caption, then
// the head repeated on every page), \toprule, the head, \midrule, the rows, \bottomrule; no vertical lines.
std::string render(const Table& table);

// One .tex file: a comment naming what it holds, where it comes from and the preamble it needs, then `body`.
std::string file(std::string_view what, std::string_view qualrank_version, std::string_view body);

}  // namespace qualrank::latex
