#include "core/odds/SvgChart.hpp"

#include <algorithm>
#include <cstdio>

namespace umpire::odds {

// Layout: a title line, then one row per label (label text right-aligned in a left column sized
// to the longest label, bars growing right from a baseline, scaled so the largest value fills the
// plot width), then the legend. Sizes assume ~7 px per character at 12 px.
std::string SvgChart::bar_chart(const std::string& title, const std::vector<std::string>& labels,
                                const std::vector<Series>& series) {
    const double bar_h = 16, bar_gap = 2, row_gap = 10, top = 36, plot_w = 420, pct_w = 70;
    std::size_t longest = 4;
    for (const auto& l : labels) longest = std::max(longest, l.size());
    const double label_w = std::min<double>(7.0 * static_cast<double>(longest), 320) + 16;
    const double n = static_cast<double>(std::max<std::size_t>(series.size(), 1));
    const double row_h = n * bar_h + (n - 1) * bar_gap + row_gap;
    const double legend_h = series.size() > 1 ? 24 : 0;
    const double width = label_w + plot_w + pct_w;
    const double height = top + row_h * static_cast<double>(labels.size()) + legend_h + 8;

    double max_value = 0;
    for (const auto& s : series)
        for (double v : s.values) max_value = std::max(max_value, v);
    if (max_value <= 0) max_value = 1;

    SvgChart svg(width, height);
    svg.text(8, 20, title, "start", 14);
    svg.line(label_w, top - 4, label_w, top + row_h * static_cast<double>(labels.size()) - row_gap + 4,
             "#888");
    for (std::size_t i = 0; i < labels.size(); ++i) {
        const double y0 = top + row_h * static_cast<double>(i);
        svg.text(label_w - 8, y0 + (row_h - row_gap) / 2 + 4, labels[i], "end");
        for (std::size_t k = 0; k < series.size(); ++k) {
            const double v = i < series[k].values.size() ? series[k].values[i] : 0.0;
            const double y = y0 + static_cast<double>(k) * (bar_h + bar_gap);
            const double w = plot_w * v / max_value;
            char pct[32];
            std::snprintf(pct, sizeof pct, "%.2f%%", 100 * v);
            const std::string tip =
                labels[i] + (series.size() > 1 ? " (" + series[k].name + ")" : "") + ": " + pct;
            svg.rect(label_w, y, w, bar_h, series[k].colour, "bar", tip);
            svg.text(label_w + w + 4, y + bar_h - 4, pct, "start", 11, "#444");
        }
    }
    if (series.size() > 1) {
        double x = label_w;
        const double y = height - legend_h;
        for (const auto& s : series) {
            svg.rect(x, y, 12, 12, s.colour, "legend");
            svg.text(x + 16, y + 10, s.name, "start", 12);
            x += 16 + 7.0 * static_cast<double>(s.name.size()) + 24;
        }
    }
    return svg.str();
}

}  // namespace umpire::odds
