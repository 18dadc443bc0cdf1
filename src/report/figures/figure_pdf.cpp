// The PDF back end of the figures (figure_drawing.h): cairo's PDF surface, written into a string. cairo embeds
// the subset of the font the text uses (its subset tag is a hash of the glyphs, so the bytes are the same on
// every run); the document's date is set (never the clock) and its Creator names qualrank. PDF 1.4: cairo 1.18
// (Debian 13) writes 1.5 files with compressed object streams, which hide the Info dictionary (Creator, date)
// from anything that reads the bytes, as figure_report.cpp's "did qualrank write this" does; 1.4 has none,
// so both releases write the same structure.
#include <cairo-pdf.h>
#include <cairo.h>

#include <cmath>
#include <ctime>

#include "figure_drawing.h"

namespace qualrank::figure {

namespace {

cairo_status_t append(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

void set_colour(cairo_t* cr, Colour c) { cairo_set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0); }

// Fills and then strokes the current path, as `p` says.
void paint(cairo_t* cr, const Paint& p) {
  if (p.fill) {
    set_colour(cr, *p.fill);
    if (p.stroke) cairo_fill_preserve(cr);
    else cairo_fill(cr);
  }
  if (p.stroke) {
    set_colour(cr, *p.stroke);
    cairo_set_line_width(cr, p.width);
    cairo_set_dash(cr, p.dash.empty() ? nullptr : p.dash.data(), static_cast<int>(p.dash.size()), 0);
    cairo_stroke(cr);
  }
  cairo_new_path(cr);
}

void draw(cairo_t* cr, const Path& p) {
  if (p.points.empty()) return;
  cairo_move_to(cr, p.points[0].x, p.points[0].y);
  for (std::size_t i = 1; i < p.points.size(); ++i) cairo_line_to(cr, p.points[i].x, p.points[i].y);
  if (p.closed) cairo_close_path(cr);
  cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
  paint(cr, p.paint);
}

void draw(cairo_t* cr, const Circle& c) {
  cairo_new_sub_path(cr);
  cairo_arc(cr, c.centre.x, c.centre.y, c.radius, 0, 2 * M_PI);
  cairo_close_path(cr);
  paint(cr, c.paint);
}

void draw(cairo_t* cr, const Text& t) {
  if (t.text.empty()) return;
  const double w = text_width(t.text, t.size, t.bold);
  const double shift = t.anchor == Anchor::start ? 0 : t.anchor == Anchor::middle ? w / 2 : w;
  cairo_save(cr);
  cairo_translate(cr, t.at.x, t.at.y);
  if (t.rotated) cairo_rotate(cr, -M_PI / 2);
  cairo_select_font_face(cr, kFontFamily, CAIRO_FONT_SLANT_NORMAL, t.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, t.size);
  set_colour(cr, t.colour);
  cairo_move_to(cr, -shift, 0);
  cairo_show_text(cr, t.text.c_str());
  cairo_new_path(cr);
  cairo_restore(cr);
}

// "YYYY-MM-DDTHH:MM:SSZ" of `epoch` (UTC), the form cairo's metadata takes.
std::string iso_date(long long epoch) {
  const std::time_t t = static_cast<std::time_t>(epoch);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::string to_pdf(const Drawing& d, const std::string& qualrank_version, long long epoch, std::string* error) {
  std::string out;
  cairo_surface_t* surface = cairo_pdf_surface_create_for_stream(append, &out, d.width, d.height);
  cairo_pdf_surface_restrict_to_version(surface, CAIRO_PDF_VERSION_1_4);
  const std::string date = iso_date(epoch);
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date.c_str());
  cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, ("qualrank " + qualrank_version).c_str());
  if (!d.title.empty()) cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, clean(d.title).c_str());
  cairo_t* cr = cairo_create(surface);
  for (const Mark& m : d.marks) std::visit([&](const auto& v) { draw(cr, v); }, m);
  cairo_status_t status = cairo_status(cr);
  cairo_destroy(cr);
  cairo_surface_finish(surface);
  if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(surface);
  cairo_surface_destroy(surface);
  if (status != CAIRO_STATUS_SUCCESS) {
    if (error) *error = std::string("cairo: ") + cairo_status_to_string(status);
    return {};
  }
  return out;
}

}  // namespace qualrank::figure
