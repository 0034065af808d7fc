#include "core/odds/Result.hpp"

#include <algorithm>

#include "core/odds/Wilson.hpp"

namespace umpire::odds {

namespace {
void sort_outcomes(std::vector<OutcomeStats>& outcomes) {
    std::sort(outcomes.begin(), outcomes.end(),
              [](const OutcomeStats& a, const OutcomeStats& b) {
                  const auto c = a.outcome <=> b.outcome;
                  return c != 0 ? c < 0 : a.key < b.key;
              });
}
}  // namespace

std::string Result::method_name() const { return is_exact() ? "exact" : "monte-carlo"; }

const OutcomeStats* Result::find(const std::string& key) const {
    for (const auto& o : outcomes)
        if (o.key == key) return &o;
    return nullptr;
}

mpq_class Result::exact_probability(const Outcome& outcome) const {
    const auto* o = find(outcome);
    return o ? o->exact : mpq_class(0);
}

double Result::probability(const Outcome& outcome) const {
    const auto* o = find(outcome);
    return o ? o->probability : 0.0;
}

double Result::widest_half_width() const {
    double widest = 0;
    for (const auto& o : outcomes) widest = std::max(widest, o.half_width());
    return widest;
}

Result Result::from_exact(const std::map<std::string, std::pair<Outcome, mpq_class>>& sums,
                          std::uint64_t paths) {
    Result r;
    r.method = Method::exact;
    r.paths = paths;
    // Reserved: growing the vector copied every OutcomeStats made so far, each with its GMP fraction.
    r.outcomes.reserve(sums.size());
    for (const auto& [key, entry] : sums) {
        OutcomeStats s;
        s.outcome = entry.first;
        s.key = key;
        s.exact = entry.second;
        s.probability = s.low = s.high = entry.second.get_d();
        r.outcomes.push_back(std::move(s));
    }
    sort_outcomes(r.outcomes);
    return r;
}

Result Result::from_counts(const std::map<std::string, std::pair<Outcome, std::uint64_t>>& counts,
                           std::uint64_t samples) {
    Result r;
    r.method = Method::monte_carlo;
    r.samples = samples;
    r.outcomes.reserve(counts.size());
    for (const auto& [key, entry] : counts) {
        OutcomeStats s;
        s.outcome = entry.first;
        s.key = key;
        s.count = entry.second;
        s.probability = samples ? static_cast<double>(entry.second) / samples : 0.0;
        const Interval i = wilson_interval(entry.second, samples);
        s.low = i.low;
        s.high = i.high;
        r.outcomes.push_back(std::move(s));
    }
    sort_outcomes(r.outcomes);
    return r;
}

}  // namespace umpire::odds
