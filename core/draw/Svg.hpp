// A plain, self-contained SVG writer shared by every picture Umpire draws (the odds charts in
// core/odds/SvgChart, the hex and tabletop maps in core/draw/MapSvg): shapes and text appended in
// drawing order, numbers in a fixed short format, text escaped. No fonts, scripts or external
// references, so a file opens in any browser and diffs cleanly.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace umpire::draw {

using Points = std::vector<std::pair<double, double>>;
// data-* attributes of an element, name (without "data-") and value: what a page's script reads
// off a shape (the hex map's data-hex and data-terrain, read by `umpire serve`'s hover).
using DataAttributes = std::vector<std::pair<std::string, std::string>>;

class Svg {
public:
    Svg(double width, double height);

    // `css_class` and `title` (a tooltip) are optional; colours are any SVG colour text.
    void rect(double x, double y, double w, double h, const std::string& fill,
              const std::string& css_class = "", const std::string& title = "");
    void line(double x1, double y1, double x2, double y2, const std::string& stroke,
              double stroke_width = 1);
    // anchor: "start", "middle" or "end".
    void text(double x, double y, const std::string& content, const std::string& anchor = "start",
              double size = 12, const std::string& fill = "#222", const std::string& css_class = "");
    void polygon(const Points& points, const std::string& fill, const std::string& stroke = "none",
                 const std::string& css_class = "", const std::string& title = "",
                 double stroke_width = 1, const DataAttributes& data = {});
    void circle(double cx, double cy, double r, const std::string& fill,
                const std::string& stroke = "none", const std::string& css_class = "",
                const std::string& title = "", double stroke_width = 1);
    // An open line through the points; dash: an SVG dash array ("6 3") or "" for solid.
    void polyline(const Points& points, const std::string& stroke, double stroke_width = 1,
                  const std::string& dash = "", const std::string& css_class = "",
                  double opacity = 1);
    // A line with an arrow head at (x2, y2).
    void arrow(double x1, double y1, double x2, double y2, const std::string& colour,
               double stroke_width = 2, const std::string& css_class = "");
    // Groups: everything drawn until end_group() is inside <g class=... opacity=...>.
    void begin_group(const std::string& css_class, double opacity = 1);
    void end_group();

    double width() const { return width_; }
    double height() const { return height_; }

    // The complete document (a white background unless transparent).
    std::string str(bool background = false) const;

    // XML-escapes & < > " '.
    static std::string escape(const std::string& text);
    // Up to 2 decimals, no trailing zeros: 12, 12.5, 12.25.
    static std::string number(double x);

private:
    static std::string attrs(const std::string& css_class);
    double width_, height_;
    std::string body_;
};

}  // namespace umpire::draw
