// Text of the figures (figure_drawing.h): measured by cairo in the figures' one font, cleaned and
// wrapped to a width (never cut), and the Drawing's small helpers.
#include <cairo.h>

#include <algorithm>
#include <map>
#include <mutex>

#include "figure_drawing.h"
#include "qualrank/util/text.h"

namespace qualrank::figure {

void Drawing::line(Point a, Point b, Colour c, double w, std::vector<double> dash) {
  Paint p;
  p.stroke = c;
  p.width = w;
  p.dash = std::move(dash);
  marks.emplace_back(Path{{a, b}, false, std::move(p)});
}

void Drawing::rect(double x, double y, double w, double h, Paint p) {
  marks.emplace_back(Path{{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}, true, std::move(p)});
}

void Drawing::text(Point at, std::string s, double size, Anchor anchor, bool bold, Colour c) {
  Text t;
  t.at = at;
  t.text = clean(std::move(s));
  t.size = size;
  t.anchor = anchor;
  t.bold = bold;
  t.colour = c;
  marks.emplace_back(std::move(t));
}

namespace {

// The figures' scaled fonts by size and weight, made once each (a toy font face is a fontconfig lookup), on a
// recording surface's options (a vector surface: unhinted metrics, as the PDF's); shared under a lock.
struct Measure {
  std::mutex lock;
  std::map<std::pair<double, bool>, cairo_scaled_font_t*> fonts;  // (never freed: used until the process ends)

  cairo_scaled_font_t* font(double size, bool bold) {
    auto& f = fonts[{size, bold}];
    if (!f) {
      cairo_font_face_t* face = cairo_toy_font_face_create(kFontFamily, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
      cairo_matrix_t matrix, identity;
      cairo_matrix_init_scale(&matrix, size, size);
      cairo_matrix_init_identity(&identity);
      cairo_font_options_t* options = cairo_font_options_create();
      cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
      cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
      f = cairo_scaled_font_create(face, &matrix, &identity, options);
      cairo_font_options_destroy(options);
      cairo_font_face_destroy(face);
    }
    return f;
  }
};

Measure& measure() {
  static Measure* m = new Measure;  // (never freed: used until the process ends)
  return *m;
}

}  // namespace

double text_width(const std::string& s, double size, bool bold) {
  if (s.empty()) return 0;
  Measure& m = measure();
  std::lock_guard<std::mutex> guard(m.lock);
  cairo_text_extents_t e;
  cairo_scaled_font_text_extents(m.font(size, bold), s.c_str(), &e);
  return e.x_advance;
}

std::string clean(std::string s) {
  text::replace_invalid_utf8(s);
  for (char& c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = ' ';
  return s;
}

namespace {

// The byte length of the UTF-8 sequence that `lead` opens (1 for a stray continuation byte).
std::size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

}  // namespace

namespace {

// `word` cut at character boundaries into pieces of at most `width` points each (a piece holds at least one
// character, so a character wider than the line still goes on a line of its own). Nothing is dropped.
std::vector<std::string> split_word(const std::string& word, double size, double width, bool bold) {
  std::vector<std::string> pieces;
  std::string piece;
  for (std::size_t i = 0; i < word.size();) {
    const std::size_t n = std::min(sequence_length(static_cast<unsigned char>(word[i])), word.size() - i);
    const std::string c = word.substr(i, n);
    i += n;
    if (!piece.empty() && text_width(piece + c, size, bold) > width) {
      pieces.push_back(piece);
      piece.clear();
    }
    piece += c;
  }
  if (!piece.empty()) pieces.push_back(piece);
  return pieces;
}

}  // namespace

std::vector<std::string> wrap(const std::string& s, double size, double width, bool bold) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    std::size_t j = s.find(' ', i);
    if (j == std::string::npos) j = s.size();
    if (i == j) break;
    const std::string word = s.substr(i, j - i);
    i = j;
    const std::string joined = line.empty() ? word : line + " " + word;
    if (text_width(joined, size, bold) <= width) {
      line = joined;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    auto pieces = split_word(word, size, width, bold);
    line = pieces.back();
    pieces.pop_back();
    lines.insert(lines.end(), pieces.begin(), pieces.end());
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

}  // namespace qualrank::figure
