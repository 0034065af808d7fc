#include "core/odds/Report.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace umpire::odds {

namespace {

std::string percent(double p, const char* format = "%.4f%%") {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, 100 * p);
    return buf;
}

std::string fraction(const mpq_class& q) { return q.get_str(); }

std::string signed_fraction(const mpq_class& q) { return (q > 0 ? "+" : "") + q.get_str(); }

// Left-aligned columns, two spaces apart.
std::string layout(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> width;
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (width.size() <= i) width.push_back(0);
            width[i] = std::max(width[i], row[i].size());
        }
    std::string out;
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t i = 0; i < row.size(); ++i) {
            line += row[i];
            if (i + 1 < row.size()) line += std::string(width[i] - row[i].size() + 2, ' ');
        }
        out += line + "\n";
    }
    return out;
}

std::string method_line(const Result& r) {
    if (r.is_exact()) return "exact: " + std::to_string(r.paths) + " paths evaluated";
    char widest[64];
    std::snprintf(widest, sizeof widest, "%.4f", 100 * r.widest_half_width());
    return "monte-carlo: " + std::to_string(r.samples) + " samples, seed " +
           std::to_string(r.seed) + ", " + std::to_string(r.threads) +
           (r.threads == 1 ? " thread" : " threads") + "; widest 95% half-width " + widest + " percentage points";
}

std::string estimate(const OutcomeStats& o) {
    return percent(o.probability) + " ± " + percent(o.half_width(), "%.4f");
}

}  // namespace

std::string format_table(const Result& result) {
    std::vector<std::vector<std::string>> rows;
    if (result.is_exact()) {
        rows.push_back({"outcome", "probability", "percent"});
        for (const auto& o : result.outcomes)
            rows.push_back({o.outcome.display(), fraction(o.exact), percent(o.probability)});
    } else {
        rows.push_back({"outcome", "estimate ± 95%", "interval", "samples"});
        for (const auto& o : result.outcomes)
            rows.push_back({o.outcome.display(), estimate(o),
                            "[" + percent(o.low) + ", " + percent(o.high) + "]",
                            std::to_string(o.count)});
    }
    std::string out = layout(rows) + method_line(result) + "\n";
    if (!result.condition.empty()) out += "given: " + result.condition + "\n";
    if (!result.note.empty()) out += "note: " + result.note + "\n";
    if (result.truncated > 0)
        out += "truncated: " + fraction(result.truncated) + " (" + percent(result.truncated.get_d()) +
               ") of the probability is in outcomes a chain cut short at its max_steps or epsilon\n";
    return out;
}

std::string format_table(const Comparison& c) {
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"outcome", c.first_label, c.second_label, "difference"});
    for (const auto& row : c.rows) {
        auto side = [&](const Result& r, const mpq_class& q, double value) {
            if (row.is_exact) return fraction(q) + "  " + percent(value);
            const OutcomeStats* o = r.find(row.key);
            return o ? estimate(*o) : percent(0.0);
        };
        std::string diff = percent(row.difference_value, "%+.4f") + " pp";
        if (row.is_exact) diff = signed_fraction(row.difference) + "  " + diff;
        rows.push_back({row.outcome.display(), side(c.first, row.first, row.first_value),
                        side(c.second, row.second, row.second_value), diff});
    }
    std::string out = layout(rows);
    for (const Result* side : {&c.first, &c.second}) {
        out += (side == &c.first ? c.first_label : c.second_label) + ": " + method_line(*side) + "\n";
        if (!side->condition.empty()) out += "  given: " + side->condition + "\n";
        if (!side->note.empty()) out += "  note: " + side->note + "\n";
        if (side->truncated > 0)
            out += "  truncated: " + fraction(side->truncated) + " (" + percent(side->truncated.get_d()) +
                   ") cut short by a chain's max_steps or epsilon\n";
    }
    return out;
}

}  // namespace umpire::odds
