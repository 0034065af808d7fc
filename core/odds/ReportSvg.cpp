// The SVG half of Report.hpp: the odds as SvgChart::bar_chart bars.
#include "core/odds/Report.hpp"
#include "core/odds/SvgChart.hpp"

namespace umpire::odds {

namespace {
const char* const first_colour = "#4e79a7";
const char* const second_colour = "#f28e2b";

std::string method_text(const Result& r) {
    return r.is_exact() ? "exact, " + std::to_string(r.paths) + " paths"
                        : "Monte Carlo, " + std::to_string(r.samples) + " samples";
}
}  // namespace

std::string to_svg(const Result& result, const std::string& title) {
    std::vector<std::string> labels;
    SvgChart::Series series{"probability", first_colour, {}};
    for (const auto& o : result.outcomes) {
        labels.push_back(o.outcome.display());
        series.values.push_back(o.probability);
    }
    const std::string heading = (title.empty() ? "" : title + " — ") + method_text(result);
    return SvgChart::bar_chart(heading, labels, {series});
}

std::string to_svg(const Comparison& c, const std::string& title) {
    std::vector<std::string> labels;
    SvgChart::Series first{c.first_label + " (" + method_text(c.first) + ")", first_colour, {}};
    SvgChart::Series second{c.second_label + " (" + method_text(c.second) + ")", second_colour, {}};
    for (const auto& row : c.rows) {
        labels.push_back(row.outcome.display());
        first.values.push_back(row.first_value);
        second.values.push_back(row.second_value);
    }
    const std::string heading =
        title.empty() ? c.first_label + " vs " + c.second_label : title;
    return SvgChart::bar_chart(heading, labels, {first, second});
}

}  // namespace umpire::odds
