// The odds engine's charts: horizontal bar charts over the shared SVG writer (core/draw/Svg.hpp:
// rect, line, text, polygon, circle, ... and number/escape), which the map renderer uses too.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "core/draw/Svg.hpp"

namespace umpire::odds {

class SvgChart : public draw::Svg {
public:
    using draw::Svg::Svg;

    struct Series {
        std::string name;
        std::string colour;
        std::vector<double> values;  // one per label, as probabilities in 0..1
        std::vector<std::string> notes;  // optional, one per label: added to the bar's tooltip
    };
    struct Chart {
        std::string title;
        std::vector<std::string> labels;
        std::vector<Series> series;
        std::string css_class = "chart";  // the <g> the chart is drawn in
    };
    // A horizontal bar chart: one row per label, one bar per series in each row (side by side
    // for a comparison), the percentage at the end of each bar, a legend if there are several
    // series. Bars are <rect class="bar">; the legend swatches are <rect class="legend">.
    static std::string bar_chart(const std::string& title, const std::vector<std::string>& labels,
                                 const std::vector<Series>& series);
    // The size a chart takes, and drawing it with its top-left corner at (x, y).
    static std::pair<double, double> size_of(const Chart& chart);
    void draw(const Chart& chart, double x, double y);
};

}  // namespace umpire::odds
