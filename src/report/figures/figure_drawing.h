// A figure as a small description: paths, circles and text on a page measured in points (1/72 in), y down.
// The charts of report.json are built as Drawings (figure_charts.cpp, figure_taxonomy.cpp) and written twice
// from the same Drawing: as SVG text (figure_svg.cpp) and as PDF through cairo (figure_pdf.cpp), so the two
// files of a figure show the same marks at the same places.
#pragma once
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace qualrank::figure {

struct Colour {
  unsigned char r = 0, g = 0, b = 0;
};

// The Okabe-Ito palette (Okabe & Ito 2008, "Color Universal Design"): distinguishable with the common
// colour-vision deficiencies. Every chart also tells its series apart by dash and marker shape.
namespace palette {
inline constexpr Colour black{0x00, 0x00, 0x00};
inline constexpr Colour orange{0xE6, 0x9F, 0x00};
inline constexpr Colour sky_blue{0x56, 0xB4, 0xE9};
inline constexpr Colour green{0x00, 0x9E, 0x73};
inline constexpr Colour yellow{0xF0, 0xE4, 0x42};
inline constexpr Colour blue{0x00, 0x72, 0xB2};
inline constexpr Colour vermillion{0xD5, 0x5E, 0x00};
inline constexpr Colour purple{0xCC, 0x79, 0xA7};
inline constexpr Colour grey{0x59, 0x59, 0x59};        // ticks and axis words
inline constexpr Colour light_grey{0xD9, 0xD9, 0xD9};  // grid, shaded ranges
inline constexpr Colour white{0xFF, 0xFF, 0xFF};
}  // namespace palette

struct Point {
  double x = 0, y = 0;
};

// How a mark is painted: a fill, a stroke (of `width` points, dashed when `dash` is not empty: on, off, ...).
struct Paint {
  std::optional<Colour> fill;
  std::optional<Colour> stroke;
  double width = 0.75;
  std::vector<double> dash;
};

// A line through the points (a polygon when `closed`).
struct Path {
  std::vector<Point> points;
  bool closed = false;
  Paint paint;
};

struct Circle {
  Point centre;
  double radius = 2;
  Paint paint;
};

enum class Anchor { start, middle, end };

// One line of text: `at` is the baseline's start, middle or end (as `anchor`); `rotated` turns it a quarter
// anticlockwise about `at` (a y axis's words). The text is UTF-8 with no control characters (figure::clean).
struct Text {
  Point at;
  std::string text;
  double size = 8;
  bool bold = false;
  Anchor anchor = Anchor::start;
  Colour colour = palette::black;
  bool rotated = false;
};

using Mark = std::variant<Path, Circle, Text>;

struct Drawing {
  double width = 0, height = 0;  // points
  std::string title;             // the SVG's <title> (never drawn)
  std::vector<Mark> marks;       // painted in order

  void line(Point a, Point b, Colour c, double w = 0.75, std::vector<double> dash = {});
  void rect(double x, double y, double w, double h, Paint p);
  void text(Point at, std::string s, double size, Anchor anchor = Anchor::start, bool bold = false, Colour c = palette::black);
};

// The widths the figures are made for: one column of a two-column paper (3.5 in) and the full text width
// (7.16 in), as IEEE's templates set them (ACM's sigconf: 241 pt and 506 pt, a scale of 96 and 98 %).
inline constexpr double kOneColumn = 252;
inline constexpr double kTwoColumns = 516;
// The height of IEEE's text block: no figure may be taller (a float with its caption must fit a page).
inline constexpr double kMaxHeight = 686;

// The one font of the figures: DejaVu Sans (Debian's fonts-dejavu-core), regular and bold, named to fontconfig
// through cairo; figure_pdf.cpp embeds its subset, figure_svg.cpp names it first in font-family.
inline constexpr const char* kFontFamily = "DejaVu Sans";

// The advance width in points of `s` set in the figures' font at `size` (bold or not). Thread-safe.
double text_width(const std::string& s, double size, bool bold = false);

// `s` as figure text: invalid UTF-8 replaced with U+FFFD, control characters (newlines too) with spaces.
std::string clean(std::string s);

// `s` broken at spaces into lines of at most `width` points; a word longer than a line is broken between
// characters onto as many lines as it needs. No text is ever dropped or ended with "…".
std::vector<std::string> wrap(const std::string& s, double size, double width, bool bold = false);

// The SVG document of `d`: standalone XML (an XML declaration, the SVG namespace, width and height in pt, a
// viewBox in points), every text escaped; numbers with at most two decimals. Same Drawing, same bytes.
std::string to_svg(const Drawing& d, const std::string& qualrank_version);

// The PDF of `d` (one page of d.width x d.height points) made by cairo, the font's subset embedded,
// /CreationDate from `epoch` (seconds since 1970), Creator "qualrank VERSION". Same Drawing, same bytes.
// Returns "" (and sets *error) when cairo fails.
std::string to_pdf(const Drawing& d, const std::string& qualrank_version, long long epoch, std::string* error);

}  // namespace qualrank::figure
