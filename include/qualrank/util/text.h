// Text helpers: UTF-8 checking and Unicode case folding (ICU), trimming, splitting, natural id order.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace qualrank::text {

struct Utf8Error {
  int line = 0;    // 1-based line of the first invalid byte
  int column = 0;  // 1-based column, counted in code points before it + 1
  std::size_t offset = 0;  // byte offset
};

// Returns the position of the first invalid UTF-8 sequence, or nullopt if `s` is valid UTF-8.
std::optional<Utf8Error> find_invalid_utf8(std::string_view s);

// Full Unicode simple case folding of valid UTF-8 (ICU u_foldCase per code point); invalid bytes are kept.
std::string fold_case(std::string_view s);

// `s` in Unicode normalisation form C (canonically equivalent spellings made one: "Zoë" typed composed, or
// as "Zoe" + U+0308 combining diaeresis), with, for each byte of the result and one past its end, the offset in
// `s` of the normalisation segment it came from (a base character and its marks), so that a range found in the
// result maps back to whole characters of `s`. Invalid UTF-8 bytes are kept as U+FFFD.
struct NfcText {
  std::string text;
  std::vector<std::size_t> origin;  // text.size() + 1 entries
};
// Whether the bytes [at, end) of a normalised text start and end on whole characters of the text it was made
// from: neither edge falls inside a normalisation segment (`origin` as NfcText's; "cafe" is not whole in
// "cafe" + U+0301). The one check every NFC match makes before mapping back (origin[at], origin[end]).
inline bool whole_characters(const std::vector<std::size_t>& origin, std::size_t at, std::size_t end) {
  return !(at > 0 && origin[at - 1] == origin[at]) && !(end + 1 < origin.size() && origin[end] == origin[end - 1]);
}
NfcText nfc_with_origin(std::string_view s);
// Whether `s` is valid UTF-8 already in NFC (nfc_with_origin(s).text == s, each byte its own offset); all-ASCII
// text is, checked without ICU.
bool is_nfc(std::string_view s);
// Where `needle` first occurs in `hay` at or after byte `from`, compared under NFC and starting and ending on
// whole characters of `hay` (a match never ends before a combining mark that follows it): [begin, end) in
// `hay`'s bytes, or nullopt.
std::optional<std::pair<std::size_t, std::size_t>> find_canonical(std::string_view hay, std::string_view needle, std::size_t from = 0);
// Appends code point `cp` (at most U+10FFFF; the caller has refused surrogates) to `out` as UTF-8.
void append_utf8(std::string& out, std::uint32_t cp);
// Simple case folding of one code point, written as UTF-8 into `out`; returns the number of bytes (1-4).
std::size_t fold_code_point(int32_t code_point, char out[4]);

std::string_view trim(std::string_view s);
std::vector<std::string> split(std::string_view s, char sep);  // pieces trimmed; empty pieces kept
// A label compared as people mean it: trimmed, then case-folded (fold_case(trim(s))).
inline std::string fold_trimmed(std::string_view s) { return fold_case(trim(s)); }
std::vector<std::string> split_nonempty(std::string_view s, char sep);  // trimmed, empty pieces dropped
bool starts_with_ci(std::string_view s, std::string_view prefix);  // ASCII case-insensitive
std::string to_lower_ascii(std::string_view s);
std::string join(const std::vector<std::string>& parts, std::string_view sep);
// "1 interview", "3 interviews": `n` and the word for one or for many.
template <class N>
std::string plural(N n, std::string_view one, std::string_view many) {
  return std::to_string(n) + " " + std::string(n == 1 ? one : many);
}

// Why `id` cannot name a participant (and so a file, transcripts/ID.md): empty, a leading '.', a space, a
// control character, ':', '/', '\\', or an invisible or direction-changing format character (U+200B-U+200F,
// U+202A-U+202E, U+2060-U+2069, U+FEFF) that would make the name read differently than it is; "" when it can.
std::string participant_id_problem(std::string_view id);
// "contains an invisible or direction-changing character (such as U+202E)" when `s` holds one of the
// characters above (a name with one prints as another name), else "".
std::string invisible_character_problem(std::string_view s);
// `s` for a message: control bytes shown as \xNN and the invisible or direction-changing characters above as
// \uXXXX, so what is printed reads as what was given.
std::string escape_controls(std::string_view s);
// `s` for a message when it may not be valid UTF-8 (a file name): each byte of an invalid sequence shown as
// \xnn (lowercase hex: "P\xff.md"), the rest as escape_controls shows it.
std::string escape_invalid_utf8(std::string_view s);

// `s` for a terminal, the one rule every front end (the reconcile walks, their listings) prints input text by:
// nothing in it can move the cursor, clear or reset the screen, or overwrite what was printed before it. Each
// C0 control and DEL is drawn in caret notation ("^[" for ESC, "^M" for CR, "^J" for LF, "^@" for NUL, "^?"
// for DEL), each C1 control (U+0080-U+009F) as "<U+009B>", each byte of an invalid UTF-8 sequence as "\xff";
// a tab becomes the spaces to the next multiple of 8 columns (counted in code points from the start of `s` or
// its last line break). Everything else, valid UTF-8, is kept as given. With `keep_newlines` (text printed as
// several lines, a turn's text) a line feed, and a CR LF pair, stays one line break; without it (a title on
// its line) a line feed is shown as "^J" too.
std::string terminal_safe(std::string_view s, bool keep_newlines = false);

// True for a real calendar date written YYYY-MM-DD (proleptic Gregorian; 2025-02-30 and 2023-02-29 are not).
bool is_calendar_date(std::string_view s);
// Why `s` is not an ISO 8601 date or date-time as exports write them, or "" when it is: YYYY-MM-DD, optionally
// followed by 'T' or a space and HH:MM[:SS[.fraction]], optionally then 'Z' or +HH:MM / -HH:MM (+HHMM, +HH);
// every field in its range (a real calendar day, hour 0-23, minute 0-59, second 0-60).
std::string iso_datetime_problem(std::string_view s);

// Number of code points in valid UTF-8 (continuation bytes are not counted).
std::size_t count_code_points(std::string_view s);
// Terminal columns of `s`, by code point (Unicode's East Asian Width): wide and fullwidth characters (Han, kana,
// Hangul, most emoji) take 2, combining marks and other zero-width characters 0, the rest 1. For aligning
// plain-text tables; the terminal screens measure whole grapheme clusters (tui/text_cells.h).
std::size_t display_columns(std::string_view s);

// Code-point offsets of byte offsets into one text, in any order, each in O(1) amortised: a count is kept at
// every 4 KiB so a query counts at most 4 KiB (counting from the start per query made 200,000 spans on one
// turn quadratic). The text must outlive the object.
class CodePointOffsets {
 public:
  explicit CodePointOffsets(std::string_view text);
  // Code points in text[0, byte); `byte` past the end counts the whole text.
  std::size_t at(std::size_t byte) const;

 private:
  static constexpr std::size_t kBlock = 256;  // a lookup counts at most this many bytes; the table is 1/32 of the text
  std::string_view text_;
  std::vector<std::size_t> before_block_;  // code points before byte k * kBlock
};

// Rows of cells as a plain-text table: each line opens with `indent`, cells are padded to their column's widest
// (in code points) and separated by two spaces, left-aligned unless `right` sets their column's flag; the last
// cell of a row is not padded and no line ends in a space.
std::string columns(const std::vector<std::vector<std::string>>& rows, const std::vector<bool>& right = {},
                    std::string_view indent = "");

// `x` with `digits` decimals ("%.*f"), "n/a" for NaN, and never a negative zero: -0.001 to two decimals is
// "0.00", not "-0.00" (a sign on a number shown as zero reads as a direction that is not there).
std::string fixed(double x, int digits);

// "Natural" order for taxonomy ids: A.2 < A.10, A.1 < A.1.i, C.9 < C.10; roman numerals compare as numbers.
bool natural_less(std::string_view a, std::string_view b);

// Backslash-escapes what Markdown would read as markup (CommonMark: any ASCII punctuation may be escaped):
// \ ` * _ [ ] < > # | ! ~ &.
std::string markdown_escape(std::string_view s);

// Edit distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);
// The candidate closest to `word` (edit distance, ASCII case ignored) when it is at most `max_distance` away,
// the first of equals in `candidates` order; "" when none is that close. For "did you mean '...'?".
std::string closest(std::string_view word, const std::vector<std::string>& candidates, std::size_t max_distance = 2);

// Removes characters XML 1.0 forbids (C0 controls other than tab, LF, CR; U+FFFE/U+FFFF).
// Returns how many were removed.
std::size_t strip_xml_invalid(std::string& s);

// Replaces each invalid UTF-8 sequence (the maximal subpart ICU's U8_NEXT rejects) with U+FFFD.
// Returns how many were replaced; valid UTF-8 is left untouched.
std::size_t replace_invalid_utf8(std::string& s);

}  // namespace qualrank::text
