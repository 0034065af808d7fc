// A plain, self-contained SVG writer: shapes and text appended in drawing order, numbers in a
// fixed short format, text escaped. No fonts, scripts or external references, so the file opens
// in any browser and diffs cleanly. Drawing helpers (rect, line, text, polygon, circle) are meant
// to be reused (e.g. for hex maps); bar_chart() is the odds engine's chart.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace umpire::odds {

class SvgChart {
public:
    SvgChart(double width, double height);

    // `css_class` and `title` (a tooltip) are optional; colours are any SVG colour text.
    void rect(double x, double y, double w, double h, const std::string& fill,
              const std::string& css_class = "", const std::string& title = "");
    void line(double x1, double y1, double x2, double y2, const std::string& stroke,
              double stroke_width = 1);
    // anchor: "start", "middle" or "end".
    void text(double x, double y, const std::string& content, const std::string& anchor = "start",
              double size = 12, const std::string& fill = "#222");
    void polygon(const std::vector<std::pair<double, double>>& points, const std::string& fill,
                 const std::string& stroke = "none");
    void circle(double cx, double cy, double r, const std::string& fill,
                const std::string& stroke = "none");

    // The complete document.
    std::string str() const;

    // XML-escapes & < > " '.
    static std::string escape(const std::string& text);
    // Up to 2 decimals, no trailing zeros: 12, 12.5, 12.25.
    static std::string number(double x);

    struct Series {
        std::string name;
        std::string colour;
        std::vector<double> values;  // one per label, as probabilities in 0..1
    };
    // A horizontal bar chart: one row per label, one bar per series in each row (side by side
    // for a comparison), the percentage at the end of each bar, a legend if there are several
    // series. Bars are <rect class="bar">; the legend swatches are <rect class="legend">.
    static std::string bar_chart(const std::string& title, const std::vector<std::string>& labels,
                                 const std::vector<Series>& series);

private:
    double width_, height_;
    std::string body_;
};

}  // namespace umpire::odds
