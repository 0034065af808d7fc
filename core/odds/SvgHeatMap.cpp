#include "core/odds/SvgHeatMap.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/draw/Svg.hpp"

namespace umpire::odds {

namespace {
// Linear blend of two colours given as 0xRRGGBB, t in 0..1.
std::string blend(unsigned from, unsigned to, double t) {
    t = std::clamp(t, 0.0, 1.0);
    auto channel = [&](int shift) {
        const double a = (from >> shift) & 0xff, b = (to >> shift) & 0xff;
        return static_cast<unsigned>(std::lround(a + (b - a) * t));
    };
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", channel(16), channel(8), channel(0));
    return buf;
}

std::string value_text(double v, bool percent, bool difference) {
    char buf[32];
    if (percent) std::snprintf(buf, sizeof buf, difference ? "%+.1f" : "%.1f", 100 * v);
    else std::snprintf(buf, sizeof buf, difference ? "%+.3g" : "%.3g", v);
    return buf;
}

// Each panel's colour scale: probabilities 0..1 (differences -max|d|..+max|d|), numbers min..max.
std::pair<double, double> scale_of(const HeatPanel& panel, bool percent) {
    double lo = 0, hi = percent ? 1 : 0, widest = 0;
    bool first = true;
    for (const auto& row : panel.values)
        for (const auto& v : row) {
            if (!v) continue;
            widest = std::max(widest, std::fabs(*v));
            if (!percent) {
                lo = first ? *v : std::min(lo, *v);
                hi = first ? *v : std::max(hi, *v);
                first = false;
            }
        }
    if (panel.difference) return {-widest, widest};
    return {lo, hi};
}
}  // namespace

// Layout: a title line, then the panels left to right; each panel has its title, the y labels in a
// left column, one square cell per (x, y) (y grows downwards in the order given), the x labels
// below, and the axis names.
std::string to_svg(const HeatMap& map) {
    const double cell = 44, top = 56, label_w = 64, gap = 40, bottom = 44;
    const double nx = static_cast<double>(map.x_labels.size()), ny = static_cast<double>(map.y_labels.size());
    const double panel_w = label_w + cell * nx;
    const double n_panels = static_cast<double>(map.panels.size());
    const double width = std::max(gap / 2 + n_panels * (panel_w + gap), 400.0);
    const double height = top + cell * ny + bottom;
    draw::Svg svg(width, height);
    svg.text(8, 20, map.title, "start", 14);
    for (std::size_t p = 0; p < map.panels.size(); ++p) {
        const HeatPanel& panel = map.panels[p];
        const double x0 = gap / 2 + static_cast<double>(p) * (panel_w + gap);
        const auto [lo, hi] = scale_of(panel, map.percent);
        svg.begin_group(panel.difference ? "panel difference" : "panel");
        svg.text(x0 + label_w, top - 12, panel.title + (map.percent ? " (%)" : ""), "start", 12);
        for (std::size_t y = 0; y < map.y_labels.size(); ++y) {
            const double cy = top + cell * static_cast<double>(y);
            svg.text(x0 + label_w - 6, cy + cell / 2 + 4, map.y_labels[y], "end", 11);
            for (std::size_t x = 0; x < map.x_labels.size(); ++x) {
                const double cx = x0 + label_w + cell * static_cast<double>(x);
                const auto v = y < panel.values.size() && x < panel.values[y].size() ? panel.values[y][x] : std::nullopt;
                const std::string where = map.x_name + "=" + map.x_labels[x] + ", " + map.y_name + "=" + map.y_labels[y];
                if (!v) {
                    svg.rect(cx, cy, cell - 2, cell - 2, "#eeeeee", "cell empty", where + ": no value");
                    continue;
                }
                std::string fill;
                if (panel.difference) {
                    const double t = hi > 0 ? *v / hi : 0;
                    fill = t >= 0 ? blend(0xffffff, 0x2166ac, t) : blend(0xffffff, 0xb2182b, -t);
                } else {
                    fill = blend(0xffffff, 0x08519c, hi > lo ? (*v - lo) / (hi - lo) : 0);
                }
                const std::string text = value_text(*v, map.percent, panel.difference);
                svg.rect(cx, cy, cell - 2, cell - 2, fill, "cell", where + ": " + text);
                const double depth = panel.difference ? (hi > 0 ? std::fabs(*v) / hi : 0) : (hi > lo ? (*v - lo) / (hi - lo) : 0);
                const bool dark = depth > 0.55;
                svg.text(cx + (cell - 2) / 2, cy + cell / 2 + 3, text, "middle", 10, dark ? "#ffffff" : "#222");
            }
        }
        for (std::size_t x = 0; x < map.x_labels.size(); ++x)
            svg.text(x0 + label_w + cell * (static_cast<double>(x) + 0.5) - 1, top + cell * ny + 14, map.x_labels[x],
                     "middle", 11);
        svg.text(x0 + label_w + cell * nx / 2, top + cell * ny + 32, map.x_name, "middle", 12);
        svg.text(x0 + 4, top - 12 + 14, map.y_name, "start", 11, "#666");
        svg.end_group();
    }
    return svg.str(true);
}

}  // namespace umpire::odds
