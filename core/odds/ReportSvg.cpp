// The SVG half of Report.hpp: the joint outcomes as one bar chart, and beside it one chart per
// field, stacked in a column. Numeric charts name their mean and standard deviation in the title
// and carry "at least"/"at most" in each bar's tooltip; rows below the fold threshold on every
// side become one bar, as in the text.
#include <algorithm>
#include <cstdio>

#include "core/odds/Report.hpp"
#include "core/odds/SvgChart.hpp"

namespace umpire::odds {

namespace {
const char* const colours[] = {"#4e79a7", "#f28e2b"};

std::string method_text(const Result& r) {
    return r.is_exact() ? "exact, " + std::to_string(r.paths) + " paths"
                        : "Monte Carlo, " + std::to_string(r.samples) + " samples";
}

std::string pct(double p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f%%", 100 * p);
    return buf;
}

std::string moments_text(const Report& report, const ReportTable& table) {
    std::string out;
    for (std::size_t i = 0; i < table.moments.size(); ++i) {
        char buf[96];
        std::snprintf(buf, sizeof buf, "mean %.4g, sd %.4g", table.moments[i].mean_value, table.moments[i].sd);
        out += (i ? "; " : "") + (report.sides.size() > 1 ? report.sides[i].label + " " : "") + buf;
    }
    return out;
}

SvgChart::Chart chart_of(const Report& report, const ReportTable& table, std::string title,
                         const TextOptions& o, const std::string& css_class) {
    SvgChart::Chart chart;
    chart.css_class = css_class;
    if (table.numeric) title += " (" + moments_text(report, table) + ")";
    chart.title = std::move(title);
    for (std::size_t i = 0; i < report.sides.size(); ++i) {
        const auto& side = report.sides[i];
        const std::string name = report.sides.size() == 1 ? "probability"
                                                          : side.label + " (" + method_text(side.result) + ")";
        chart.series.push_back({name, colours[i % 2], {}, {}});
    }
    std::size_t folded = 0;
    std::vector<double> folded_sum(report.sides.size(), 0.0);
    const std::vector<std::string> labels = row_labels(table);
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const ReportRow& row = table.rows[r];
        const bool rare = std::all_of(row.sides.begin(), row.sides.end(),
                                      [&](const ReportCell& c) { return c.probability < o.fold_below; });
        if (rare) {
            ++folded;
            for (std::size_t i = 0; i < row.sides.size(); ++i) folded_sum[i] += row.sides[i].probability;
            continue;
        }
        chart.labels.push_back(labels[r]);
        for (std::size_t i = 0; i < row.sides.size(); ++i) {
            const auto& c = row.sides[i];
            chart.series[i].values.push_back(c.probability);
            chart.series[i].notes.push_back(
                table.numeric ? "at least " + pct(c.at_least_value) + ", at most " + pct(c.at_most_value) : "");
        }
    }
    if (folded > 0) {
        char label[64];
        std::snprintf(label, sizeof label, "%zu below %g%%", folded, 100 * o.fold_below);
        chart.labels.push_back(label);
        for (std::size_t i = 0; i < folded_sum.size(); ++i) {
            chart.series[i].values.push_back(folded_sum[i]);
            chart.series[i].notes.push_back("folded: each below the threshold on every side");
        }
    }
    return chart;
}
}  // namespace

std::string to_svg(const Report& report, const TextOptions& options) {
    std::string heading = report.title;
    if (report.sides.size() == 1) heading += (heading.empty() ? "" : " — ") + method_text(report.sides[0].result);
    const SvgChart::Chart joint = chart_of(report, report.outcomes, heading, options, "chart joint");
    std::vector<SvgChart::Chart> fields;
    for (const auto& [name, table] : report.fields)
        fields.push_back(chart_of(report, table, name, options, "chart field"));

    const double gap = 24;
    auto [width, height] = SvgChart::size_of(joint);
    const double column_x = width + gap;
    double column_w = 0, column_h = 0;
    for (const auto& f : fields) {
        const auto [w, h] = SvgChart::size_of(f);
        column_w = std::max(column_w, w);
        column_h += h + (column_h > 0 ? gap : 0);
    }
    if (!fields.empty()) width = column_x + column_w;
    SvgChart svg(width, std::max(height, column_h));
    svg.draw(joint, 0, 0);
    double y = 0;
    for (const auto& f : fields) {
        svg.draw(f, column_x, y);
        y += SvgChart::size_of(f).second + gap;
    }
    return svg.str();
}

}  // namespace umpire::odds
