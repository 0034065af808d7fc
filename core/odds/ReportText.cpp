// The text half of Report.hpp: the joint table, then each field's marginal. Every probability
// cell is "FRACTION  PERCENT" (a long fraction as a decimal, so the default table stays narrow),
// numeric tables add "at least"/"at most" and a line of moments, and rows too rare to read are
// folded into one.
#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <vector>

#include "core/odds/Report.hpp"

namespace umpire::odds {

namespace {

std::string percent(double p, const char* format = "%.4f%%") {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, 100 * p);
    return buf;
}

std::string decimal(double x, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    return buf;
}

// An exact value: its fraction if short enough (and no --digits), else a decimal.
std::string exact_text(const mpq_class& q, const TextOptions& o) {
    if (o.digits < 0) {
        std::string s = q.get_str();
        if (s.size() <= kShortFraction) return s;
        return decimal(q.get_d(), 6);
    }
    return decimal(q.get_d(), std::max(o.digits, 1));
}

std::string signed_text(const mpq_class& q, const TextOptions& o) { return (q > 0 ? "+" : "") + exact_text(q, o); }

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
    return "monte-carlo: " + std::to_string(r.samples) + " samples, seed " + std::to_string(r.seed) + ", " +
           std::to_string(r.threads) + (r.threads == 1 ? " thread" : " threads") + "; widest 95% half-width " +
           widest + " percentage points";
}

// One side's columns: the fraction and the percentage (exact), or the estimate ± 95%.
std::vector<std::string> cell_text(const ReportCell& c, bool exact, const TextOptions& o) {
    if (exact) return {exact_text(c.exact, o), percent(c.probability)};
    return {percent(c.probability) + " ± " + percent((c.high - c.low) / 2, "%.4f")};
}



// A tail: exact on a plain exact run; a percentage in a comparison ("first / second"), to keep
// the table narrow (the JSON has both exactly).
std::string tail_text(const mpq_class& q, double value, bool exact, bool plain, const TextOptions& o) {
    return exact && plain ? exact_text(q, o) : percent(value, "%.2f%%");
}

bool is_rare(const ReportRow& row, double below) {
    return std::all_of(row.sides.begin(), row.sides.end(),
                       [below](const ReportCell& c) { return c.probability < below; });
}

// The table of one distribution (joint or a field's) on every side.
std::string table_text(const Report& report, const ReportTable& table, const TextOptions& o) {
    const std::size_t n = report.sides.size();
    std::vector<bool> exact;
    for (const auto& s : report.sides) exact.push_back(s.result.is_exact());
    const bool plain = n == 1, both_exact = report.is_exact();
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head{"outcome"};
    for (std::size_t i = 0; i < n; ++i) {
        if (exact[i]) head.insert(head.end(), {plain ? "probability" : report.sides[i].label, "percent"});
        else head.push_back(plain ? "estimate ± 95%" : report.sides[i].label + " ± 95%");
    }
    if (plain && !exact[0]) head.insert(head.end(), {"interval", "samples"});
    if (!plain) head.push_back("difference");
    if (table.numeric) head.insert(head.end(), {"at least", "at most"});
    rows.push_back(head);

    std::size_t folded = 0;
    std::vector<ReportCell> folded_sum(n);
    const std::vector<std::string> labels = row_labels(table);
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const ReportRow& row = table.rows[r];
        if (is_rare(row, o.fold_below)) {
            ++folded;
            for (std::size_t i = 0; i < n; ++i) {
                folded_sum[i].exact += row.sides[i].exact;
                folded_sum[i].probability += row.sides[i].probability;
                folded_sum[i].count += row.sides[i].count;
            }
            continue;
        }
        std::vector<std::string> line{labels[r]};
        for (std::size_t i = 0; i < n; ++i)
            for (auto& column : cell_text(row.sides[i], exact[i], o)) line.push_back(std::move(column));
        if (plain && !exact[0]) {
            const auto& c = row.sides[0];
            line.push_back("[" + percent(c.low) + ", " + percent(c.high) + "]");
            line.push_back(std::to_string(c.count));
        }
        if (!plain) {
            const double d = row.sides[1].probability - row.sides[0].probability;
            std::string diff = percent(d, "%+.4f") + " pp";
            if (both_exact) diff = signed_text(row.sides[1].exact - row.sides[0].exact, o) + "  " + diff;
            line.push_back(diff);
        }
        if (table.numeric) {
            std::string least, most;
            for (std::size_t i = 0; i < n; ++i) {
                const auto& c = row.sides[i];
                least += (i ? " / " : "") + tail_text(c.at_least, c.at_least_value, exact[i], plain, o);
                most += (i ? " / " : "") + tail_text(c.at_most, c.at_most_value, exact[i], plain, o);
            }
            line.insert(line.end(), {least, most});
        }
        rows.push_back(std::move(line));
    }
    if (folded > 0) {
        // One row for the rare outcomes, at the end; its label states the threshold.
        std::vector<std::string> line{std::to_string(folded) + " more < " + percent(o.fold_below, "%g%%")};
        for (std::size_t i = 0; i < n; ++i)
            for (auto& column : cell_text(folded_sum[i], exact[i], o)) line.push_back(std::move(column));
        rows.push_back(std::move(line));
    }
    std::string out = layout(rows);
    for (std::size_t i = 0; i < table.moments.size(); ++i) {
        const auto& m = table.moments[i];
        char sd[64];
        std::snprintf(sd, sizeof sd, "%.4f", m.sd);
        out += (plain ? std::string() : report.sides[i].label + ": ") + "mean " +
               (m.is_exact ? exact_text(m.mean, o) : decimal(m.mean_value, 6)) + ", sd " + sd +
               (m.is_exact ? " (variance " + exact_text(m.variance, o) + ")" : "") + "\n";
    }
    return out;
}

std::string side_lines(const ReportSide& side, bool plain) {
    const Result& r = side.result;
    const std::string indent = plain ? "" : "  ";
    std::string out = (plain ? "" : side.label + ": ") + method_line(r) + "\n";
    if (!r.condition.empty()) out += indent + "given: " + r.condition + "\n";
    if (!r.note.empty()) out += indent + "note: " + r.note + "\n";
    if (r.truncated > 0)
        out += indent + "truncated: " + r.truncated.get_str() + " (" + percent(r.truncated.get_d()) +
               ") cut short by a chain's max_steps or epsilon\n";
    return out;
}

}  // namespace

std::vector<std::string> row_labels(const ReportTable& table) {
    std::vector<std::string> labels;
    labels.reserve(table.rows.size());
    for (const auto& row : table.rows) labels.push_back(row.outcome.display());
    // Keys differ from each other, but one may read as another row's display (the string "\"5\""
    // beside the number 5 and the string "5"): so again until no two labels are alike. Each pass
    // only turns displays into keys, so it ends.
    for (bool changed = true; changed;) {
        changed = false;
        std::unordered_map<std::string, std::size_t> readers;  // label -> rows shown by it
        for (const auto& label : labels) ++readers[label];
        for (std::size_t r = 0; r < labels.size(); ++r)
            if (readers[labels[r]] > 1 && labels[r] != table.rows[r].outcome.key()) {
                labels[r] = table.rows[r].outcome.key();
                changed = true;
            }
    }
    return labels;
}

std::string format_text(const Report& report, const TextOptions& options) {
    std::string out = table_text(report, report.outcomes, options);
    for (const auto& side : report.sides) out += side_lines(side, report.sides.size() == 1);
    for (const auto& [name, table] : report.fields)
        out += "\nMarginal distribution of " + name + ":\n" + table_text(report, table, options);
    return out;
}

}  // namespace umpire::odds
