#include "core/odds/SvgChart.hpp"

#include <algorithm>
#include <cstdio>

namespace umpire::odds {

namespace {
// Layout: a title line, then one row per label (label text right-aligned in a left column sized
// to the longest label, bars growing right from a baseline, scaled so the largest value fills the
// plot width), then the legend. Sizes assume ~7 px per character at 12 px.
struct Layout {
    double bar_h = 16, bar_gap = 2, row_gap = 10, top = 36, plot_w = 420, pct_w = 70;
    double label_w, row_h, legend_h, width, height;
    explicit Layout(const SvgChart::Chart& c) {
        std::size_t longest = 4;
        for (const auto& l : c.labels) longest = std::max(longest, l.size());
        label_w = std::min<double>(7.0 * static_cast<double>(longest), 320) + 16;
        const double n = static_cast<double>(std::max<std::size_t>(c.series.size(), 1));
        row_h = n * bar_h + (n - 1) * bar_gap + row_gap;
        legend_h = c.series.size() > 1 ? 24 : 0;
        width = label_w + plot_w + pct_w;
        height = top + row_h * static_cast<double>(c.labels.size()) + legend_h + 8;
    }
};
}  // namespace

std::pair<double, double> SvgChart::size_of(const Chart& chart) {
    const Layout l(chart);
    return {l.width, l.height};
}

void SvgChart::draw(const Chart& c, double x0, double y0) {
    const Layout l(c);
    double max_value = 0;
    for (const auto& s : c.series)
        for (double v : s.values) max_value = std::max(max_value, v);
    if (max_value <= 0) max_value = 1;

    begin_group(c.css_class);
    const double left = x0 + l.label_w, top = y0 + l.top;
    text(x0 + 8, y0 + 20, c.title, "start", 14);
    line(left, top - 4, left, top + l.row_h * static_cast<double>(c.labels.size()) - l.row_gap + 4, "#888");
    for (std::size_t i = 0; i < c.labels.size(); ++i) {
        const double row_y = top + l.row_h * static_cast<double>(i);
        text(left - 8, row_y + (l.row_h - l.row_gap) / 2 + 4, c.labels[i], "end");
        for (std::size_t k = 0; k < c.series.size(); ++k) {
            const double v = i < c.series[k].values.size() ? c.series[k].values[i] : 0.0;
            const double y = row_y + static_cast<double>(k) * (l.bar_h + l.bar_gap);
            const double w = l.plot_w * v / max_value;
            char pct[32];
            std::snprintf(pct, sizeof pct, "%.2f%%", 100 * v);
            std::string tip = c.labels[i] + (c.series.size() > 1 ? " (" + c.series[k].name + ")" : "") + ": " + pct;
            if (i < c.series[k].notes.size() && !c.series[k].notes[i].empty()) tip += "; " + c.series[k].notes[i];
            rect(left, y, w, l.bar_h, c.series[k].colour, "bar", tip);
            text(left + w + 4, y + l.bar_h - 4, pct, "start", 11, "#444");
        }
    }
    if (c.series.size() > 1) {
        double x = left;
        const double y = y0 + l.height - l.legend_h;
        for (const auto& s : c.series) {
            rect(x, y, 12, 12, s.colour, "legend");
            text(x + 16, y + 10, s.name, "start", 12);
            x += 16 + 7.0 * static_cast<double>(s.name.size()) + 24;
        }
    }
    end_group();
}

std::string SvgChart::bar_chart(const std::string& title, const std::vector<std::string>& labels,
                                const std::vector<Series>& series) {
    const Chart chart{title, labels, series};
    const auto [w, h] = size_of(chart);
    SvgChart svg(w, h);
    svg.draw(chart, 0, 0);
    return svg.str();
}

}  // namespace umpire::odds
