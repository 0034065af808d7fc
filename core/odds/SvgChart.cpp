#include "core/odds/SvgChart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace umpire::odds {

SvgChart::SvgChart(double width, double height) : width_(width), height_(height) {}

std::string SvgChart::escape(const std::string& text) {
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

std::string SvgChart::number(double x) {
    if (!std::isfinite(x)) x = 0;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    if (s == "-0") s = "0";
    return s;
}

void SvgChart::rect(double x, double y, double w, double h, const std::string& fill,
                    const std::string& css_class, const std::string& title) {
    body_ += "<rect";
    if (!css_class.empty()) body_ += " class=\"" + escape(css_class) + "\"";
    body_ += " x=\"" + number(x) + "\" y=\"" + number(y) + "\" width=\"" + number(w) +
             "\" height=\"" + number(h) + "\" fill=\"" + escape(fill) + "\"";
    if (title.empty()) body_ += "/>\n";
    else body_ += "><title>" + escape(title) + "</title></rect>\n";
}

void SvgChart::line(double x1, double y1, double x2, double y2, const std::string& stroke,
                    double stroke_width) {
    body_ += "<line x1=\"" + number(x1) + "\" y1=\"" + number(y1) + "\" x2=\"" + number(x2) +
             "\" y2=\"" + number(y2) + "\" stroke=\"" + escape(stroke) + "\" stroke-width=\"" +
             number(stroke_width) + "\"/>\n";
}

void SvgChart::text(double x, double y, const std::string& content, const std::string& anchor,
                    double size, const std::string& fill) {
    body_ += "<text x=\"" + number(x) + "\" y=\"" + number(y) + "\" text-anchor=\"" +
             escape(anchor) + "\" font-size=\"" + number(size) + "\" fill=\"" + escape(fill) +
             "\">" + escape(content) + "</text>\n";
}

void SvgChart::polygon(const std::vector<std::pair<double, double>>& points,
                       const std::string& fill, const std::string& stroke) {
    body_ += "<polygon points=\"";
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (i) body_ += ' ';
        body_ += number(points[i].first) + "," + number(points[i].second);
    }
    body_ += "\" fill=\"" + escape(fill) + "\" stroke=\"" + escape(stroke) + "\"/>\n";
}

void SvgChart::circle(double cx, double cy, double r, const std::string& fill,
                      const std::string& stroke) {
    body_ += "<circle cx=\"" + number(cx) + "\" cy=\"" + number(cy) + "\" r=\"" + number(r) +
             "\" fill=\"" + escape(fill) + "\" stroke=\"" + escape(stroke) + "\"/>\n";
}

std::string SvgChart::str() const {
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
           "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + number(width_) +
           "\" height=\"" + number(height_) + "\" viewBox=\"0 0 " + number(width_) + " " +
           number(height_) + "\" font-family=\"sans-serif\">\n" + body_ + "</svg>\n";
}

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
