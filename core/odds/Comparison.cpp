#include "core/odds/Comparison.hpp"

#include <algorithm>
#include <set>

namespace umpire::odds {

Comparison compare(const Result& first, const Result& second, std::string first_label,
                   std::string second_label) {
    Comparison c;
    c.first_label = std::move(first_label);
    c.second_label = std::move(second_label);
    c.first = first;
    c.second = second;
    const bool exact = c.is_exact();
    std::set<std::string> seen;
    auto add = [&](const OutcomeStats& o) {
        if (!seen.insert(o.key).second) return;
        ComparisonRow row;
        row.outcome = o.outcome;
        row.key = o.key;
        row.is_exact = exact;
        const OutcomeStats* a = first.find(o.key);
        const OutcomeStats* b = second.find(o.key);
        row.first_value = a ? a->probability : 0.0;
        row.second_value = b ? b->probability : 0.0;
        if (exact) {
            row.first = a ? a->exact : mpq_class(0);
            row.second = b ? b->exact : mpq_class(0);
            row.difference = row.second - row.first;
            row.difference_value = row.difference.get_d();
        } else {
            row.difference_value = row.second_value - row.first_value;
        }
        c.rows.push_back(std::move(row));
    };
    for (const auto& o : first.outcomes) add(o);
    for (const auto& o : second.outcomes) add(o);
    std::stable_sort(c.rows.begin(), c.rows.end(), [](const ComparisonRow& a, const ComparisonRow& b) {
        return (a.outcome <=> b.outcome) < 0;
    });
    return c;
}

}  // namespace umpire::odds
