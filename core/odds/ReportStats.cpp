#include "core/odds/ReportStats.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "core/Error.hpp"
#include "core/odds/Joint.hpp"

namespace umpire::odds {

namespace {

bool is_number(const Outcome& o) { return !o.is_table() && std::holds_alternative<double>(o.scalar()); }

double number_of(const Outcome& o) { return std::get<double>(o.scalar()); }

// Tails by two running sums over the rows in ascending numeric order: at_most accumulates from
// the first row, at_least from the last. Exact sides sum rationals, so P(>= x) + P(<= x) - P(x)
// is exactly 1 (less any truncated mass, which is not an outcome).
void fill_tails(ReportTable& table, std::size_t side, bool exact) {
    mpq_class below = 0, above = 0;
    double below_value = 0, above_value = 0;
    for (auto& row : table.rows) {
        auto& c = row.sides[side];
        below += c.exact;
        below_value += c.probability;
        c.at_most = exact ? below : mpq_class(0);
        c.at_most_value = exact ? below.get_d() : below_value;
    }
    for (auto it = table.rows.rbegin(); it != table.rows.rend(); ++it) {
        auto& c = it->sides[side];
        above += c.exact;
        above_value += c.probability;
        c.at_least = exact ? above : mpq_class(0);
        c.at_least_value = exact ? above.get_d() : above_value;
    }
}

}  // namespace

// Mean = sum x p(x); variance = sum (x - mean)^2 p(x), both over the outcomes' own probabilities
// (for a conditioned or truncated result, those already sum to what the result reports).
ReportMoments moments(const Result& result) {
    ReportMoments m;
    m.is_exact = result.is_exact();
    if (m.is_exact) {
        mpq_class total = 0;
        for (const auto& o : result.outcomes) {
            if (!is_number(o.outcome)) throw RuleError("moments of a non-numeric outcome " + o.outcome.display());
            m.mean += mpq_class(number_of(o.outcome)) * o.exact;
            total += o.exact;
        }
        if (total != 0) m.mean /= total;
        for (const auto& o : result.outcomes) {
            const mpq_class d = mpq_class(number_of(o.outcome)) - m.mean;
            m.variance += d * d * o.exact;
        }
        if (total != 0) m.variance /= total;
        m.mean_value = m.mean.get_d();
        m.variance_value = m.variance.get_d();
    } else {
        double total = 0;
        for (const auto& o : result.outcomes) {
            if (!is_number(o.outcome)) throw RuleError("moments of a non-numeric outcome " + o.outcome.display());
            m.mean_value += number_of(o.outcome) * o.probability;
            total += o.probability;
        }
        if (total > 0) m.mean_value /= total;
        for (const auto& o : result.outcomes) {
            const double d = number_of(o.outcome) - m.mean_value;
            m.variance_value += d * d * o.probability;
        }
        if (total > 0) m.variance_value /= total;
    }
    m.sd = std::sqrt(m.variance_value);
    return m;
}

ReportTable make_table(const std::vector<const Result*>& sides) {
    ReportTable table;
    // Each side's outcomes by key, looked up once per row and side: Result::find walks the list,
    // which made a report of n outcomes cost n^2 (`umpire odds d100000` took 22 s).
    std::vector<std::unordered_map<std::string_view, const OutcomeStats*>> by_key(sides.size());
    for (std::size_t i = 0; i < sides.size(); ++i) {
        by_key[i].reserve(sides[i]->outcomes.size());
        for (const auto& o : sides[i]->outcomes) by_key[i].emplace(o.key, &o);
    }
    std::unordered_set<std::string_view> seen;
    bool numeric = true;
    for (const Result* side : sides)
        for (const auto& o : side->outcomes) {
            if (!is_number(o.outcome)) numeric = false;
            if (!seen.insert(o.key).second) continue;
            ReportRow row;
            row.outcome = o.outcome;
            row.key = o.key;
            for (std::size_t i = 0; i < sides.size(); ++i) {
                ReportCell c;
                const auto found = by_key[i].find(o.key);
                if (found != by_key[i].end()) {
                    const OutcomeStats* s = found->second;
                    c.exact = s->exact;
                    c.probability = s->probability;
                    c.count = s->count;
                    c.low = s->low;
                    c.high = s->high;
                }
                row.sides.push_back(std::move(c));
            }
            table.rows.push_back(std::move(row));
        }
    std::stable_sort(table.rows.begin(), table.rows.end(),
                     [](const ReportRow& a, const ReportRow& b) { return (a.outcome <=> b.outcome) < 0; });
    table.numeric = numeric && !table.rows.empty();
    if (table.numeric)
        for (std::size_t i = 0; i < sides.size(); ++i) {
            fill_tails(table, i, sides[i]->is_exact());
            table.moments.push_back(moments(*sides[i]));
        }
    return table;
}

bool Report::is_exact() const {
    return std::all_of(sides.begin(), sides.end(), [](const ReportSide& s) { return s.result.is_exact(); });
}

namespace {
// The fields of a table result (every outcome's, so a field only some outcomes carry is kept).
void add_field_names(const Result& result, std::vector<std::string>& names) {
    for (const auto& o : result.outcomes) {
        if (!o.outcome.is_table()) continue;
        for (const auto& [name, value] : o.outcome.fields())
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
}
}  // namespace

Report build_report(std::string title, std::vector<ReportSide> sides) {
    Report report;
    report.title = std::move(title);
    report.sides = std::move(sides);
    std::vector<const Result*> results;
    std::vector<std::string> names;
    for (const auto& s : report.sides) {
        results.push_back(&s.result);
        add_field_names(s.result, names);
    }
    std::sort(names.begin(), names.end());
    report.outcomes = make_table(results);
    for (const auto& name : names) {
        std::vector<Result> marginals;
        for (const auto* r : results) marginals.push_back(marginal(*r, name));
        std::vector<const Result*> m;
        for (const auto& r : marginals) m.push_back(&r);
        report.fields.emplace_back(name, make_table(m));
    }
    return report;
}

}  // namespace umpire::odds
