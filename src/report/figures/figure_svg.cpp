// The SVG back end of the figures (figure_drawing.h): a standalone SVG 1.1 document written as text, no
// scripts, no links, no styles from outside; every text and the title escaped for XML.
#include <cstdio>
#include <sstream>

#include "figure_drawing.h"
#include "qualrank/report/figures/svg_charts.h"
#include "qualrank/util/text.h"

namespace qualrank::figure {

namespace {

std::string num(double v) {
  std::string s = text::fixed(v, 2);
  // "12.50" -> "12.5", "3.00" -> "3": shorter files, the same numbers.
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s == "-0" ? "0" : s;
}

std::string hex(Colour c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02X%02X%02X", c.r, c.g, c.b);
  return buf;
}

std::string paint(const Paint& p) {
  std::string o = " fill=\"" + (p.fill ? hex(*p.fill) : std::string("none")) + "\"";
  if (p.stroke) {
    o += " stroke=\"" + hex(*p.stroke) + "\" stroke-width=\"" + num(p.width) + "\"";
    if (!p.dash.empty()) {
      o += " stroke-dasharray=\"";
      for (std::size_t i = 0; i < p.dash.size(); ++i) o += (i ? " " : "") + num(p.dash[i]);
      o += "\"";
    }
  }
  return o;
}

void write(std::ostringstream& o, const Path& p) {
  if (p.points.empty()) return;
  o << "<path d=\"";
  for (std::size_t i = 0; i < p.points.size(); ++i) o << (i ? " L" : "M") << num(p.points[i].x) << " " << num(p.points[i].y);
  if (p.closed) o << " Z";
  o << "\"" << paint(p.paint) << "/>\n";
}

void write(std::ostringstream& o, const Circle& c) {
  o << "<circle cx=\"" << num(c.centre.x) << "\" cy=\"" << num(c.centre.y) << "\" r=\"" << num(c.radius) << "\"" << paint(c.paint) << "/>\n";
}

void write(std::ostringstream& o, const Text& t) {
  std::string s = t.text;
  text::strip_xml_invalid(s);
  o << "<text x=\"" << num(t.at.x) << "\" y=\"" << num(t.at.y) << "\" font-size=\"" << num(t.size) << "\"";
  if (t.bold) o << " font-weight=\"bold\"";
  if (t.anchor == Anchor::middle) o << " text-anchor=\"middle\"";
  if (t.anchor == Anchor::end) o << " text-anchor=\"end\"";
  if (t.colour.r || t.colour.g || t.colour.b) o << " fill=\"" << hex(t.colour) << "\"";
  if (t.rotated) o << " transform=\"rotate(-90 " << num(t.at.x) << " " << num(t.at.y) << ")\"";
  o << ">" << svg::escape(s) << "</text>\n";
}

}  // namespace

std::string to_svg(const Drawing& d, const std::string& qualrank_version) {
  std::ostringstream o;
  std::string title = clean(d.title);
  text::strip_xml_invalid(title);
  o << "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
    << "<!-- Written by qualrank " << qualrank_version << " from report.json; do not edit. -->\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" << num(d.width) << "pt\" height=\"" << num(d.height)
    << "pt\" viewBox=\"0 0 " << num(d.width) << " " << num(d.height) << "\" font-family=\"" << kFontFamily
    << ", sans-serif\">\n<title>" << svg::escape(title) << "</title>\n";
  for (const Mark& m : d.marks) std::visit([&](const auto& v) { write(o, v); }, m);
  o << "</svg>\n";
  return o.str();
}

}  // namespace qualrank::figure
