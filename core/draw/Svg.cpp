#include "core/draw/Svg.hpp"

#include <cmath>
#include <cstdio>

namespace umpire::draw {

Svg::Svg(double width, double height) : width_(width), height_(height) {}

std::string Svg::escape(const std::string& text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += c;
        }
    }
    return out;
}

std::string Svg::number(double x) {
    if (!std::isfinite(x)) x = 0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    if (s == "-0") s = "0";
    return s;
}

std::string Svg::attrs(const std::string& css_class) {
    return css_class.empty() ? std::string() : " class=\"" + escape(css_class) + "\"";
}

static std::string close(const std::string& element, const std::string& title) {
    if (title.empty()) return "/>\n";
    return "><title>" + Svg::escape(title) + "</title></" + element + ">\n";
}

void Svg::rect(double x, double y, double w, double h, const std::string& fill,
               const std::string& css_class, const std::string& title) {
    body_ += "<rect" + attrs(css_class) + " x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" +
             number(w) + "\" height=\"" + number(h) + "\" fill=\"" + escape(fill) + "\"" + close("rect", title);
}

void Svg::line(double x1, double y1, double x2, double y2, const std::string& stroke, double stroke_width) {
    body_ += "<line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) +
             "\" y2=\"" + number(y2) + "\" stroke=\"" + escape(stroke) + "\" stroke-width=\"" +
             number(stroke_width) + "\"/>\n";
}

void Svg::text(double x, double y, const std::string& content, const std::string& anchor, double size,
               const std::string& fill, const std::string& css_class) {
    body_ += "<text" + (css_class.empty() ? std::string() : " class=\"" + escape(css_class) + "\"") + " x=\"" +
             number(x) + "\" y=\"" + number(y) + "\" text-anchor=\"" + escape(anchor) +
             "\" font-size=\"" + number(size) + "\" fill=\"" + escape(fill) + "\">" + escape(content) +
             "</text>\n";
}

static std::string point_list(const Points& points) {
    std::string s;
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i) s += ' ';
        s += Svg::number(points[i].first) + "," + Svg::number(points[i].second);
    }
    return s;
}

void Svg::polygon(const Points& points, const std::string& fill, const std::string& stroke,
                  const std::string& css_class, const std::string& title, double stroke_width,
                  const DataAttributes& data) {
    std::string data_text;
    for (const auto& [name, value] : data) data_text += " data-" + escape(name) + "=\"" + escape(value) + "\"";
    body_ += "<polygon" + attrs(css_class) + data_text + " points=\"" + point_list(points) + "\" fill=\"" + escape(fill) +
             "\" stroke=\"" + escape(stroke) + "\"" +
             (stroke_width != 1 ? " stroke-width=\"" + number(stroke_width) + "\"" : std::string()) +
             close("polygon", title);
}

void Svg::circle(double cx, double cy, double r, const std::string& fill, const std::string& stroke,
                 const std::string& css_class, const std::string& title, double stroke_width) {
    body_ += "<circle" + attrs(css_class) + " cx=\"" + number(cx) + "\" cy=\"" + number(cy) + "\" r=\"" +
             number(r) + "\" fill=\"" + escape(fill) + "\" stroke=\"" + escape(stroke) + "\"" +
             (stroke_width != 1 ? " stroke-width=\"" + number(stroke_width) + "\"" : std::string()) +
             close("circle", title);
}

void Svg::polyline(const Points& points, const std::string& stroke, double stroke_width,
                   const std::string& dash, const std::string& css_class, double opacity) {
    body_ += "<polyline" + attrs(css_class) + " points=\"" + point_list(points) +
             "\" fill=\"none\" stroke=\"" + escape(stroke) + "\" stroke-width=\"" + number(stroke_width) +
             "\" stroke-linecap=\"round\" stroke-linejoin=\"round\"" +
             (dash.empty() ? std::string() : " stroke-dasharray=\"" + escape(dash) + "\"") +
             (opacity != 1 ? " opacity=\"" + number(opacity) + "\"" : std::string()) + "/>\n";
}

void Svg::arrow(double x1, double y1, double x2, double y2, const std::string& colour, double stroke_width,
                const std::string& css_class) {
    const double dx = x2 - x1, dy = y2 - y1, len = std::hypot(dx, dy);
    if (len <= 0) return;
    const double ux = dx / len, uy = dy / len, head = 4 + 3 * stroke_width;
    const double bx = x2 - ux * head, by = y2 - uy * head;
    begin_group(css_class);
    line(x1, y1, bx, by, colour, stroke_width);
    polygon({{x2, y2}, {bx - uy * head / 2, by + ux * head / 2}, {bx + uy * head / 2, by - ux * head / 2}}, colour);
    end_group();
}

void Svg::begin_group(const std::string& css_class, double opacity) {
    body_ += "<g" + attrs(css_class) + (opacity != 1 ? " opacity=\"" + number(opacity) + "\"" : std::string()) + ">\n";
}

void Svg::end_group() { body_ += "</g>\n"; }

std::string Svg::str(bool background) const {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(width_) + "\" height=\"" +
           number(height_) + "\" viewBox=\"0 0 " + number(width_) + " " + number(height_) +
           "\" font-family=\"sans-serif\">\n" +
           (background ? "<rect x=\"0\" y=\"0\" width=\"" + number(width_) + "\" height=\"" + number(height_) +
                             "\" fill=\"#ffffff\"/>\n"
                       : std::string()) +
           body_ + "</svg>\n";
}

}  // namespace umpire::draw
