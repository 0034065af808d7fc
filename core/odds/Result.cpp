#include "core/odds/Result.hpp"

#include <algorithm>

#include "core/odds/Wilson.hpp"

namespace umpire::odds {

namespace {
// The entries of a map keyed by outcome key, in the order a Result lists its outcomes (by Outcome,
// then key). Pointers are sorted, not OutcomeStats: moving one moved its GMP fraction, and each
// such move made a fresh fraction (an allocation) for the moved-from one.
template <class Map>
std::vector<const typename Map::value_type*> in_outcome_order(const Map& entries) {
    std::vector<const typename Map::value_type*> order;
    order.reserve(entries.size());
    for (const auto& entry : entries) order.push_back(&entry);
    std::sort(order.begin(), order.end(), [](const auto* a, const auto* b) {
        const auto c = a->second.first <=> b->second.first;
        return c != 0 ? c < 0 : a->first < b->first;
    });
    return order;
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
    for (const auto* entry : in_outcome_order(sums)) {
        OutcomeStats& s = r.outcomes.emplace_back();
        s.outcome = entry->second.first;
        s.key = entry->first;
        s.exact = entry->second.second;
        s.probability = s.low = s.high = s.exact.get_d();
    }
    return r;
}

Result Result::from_counts(const std::map<std::string, std::pair<Outcome, std::uint64_t>>& counts,
                           std::uint64_t samples) {
    Result r;
    r.method = Method::monte_carlo;
    r.samples = samples;
    r.outcomes.reserve(counts.size());
    for (const auto* entry : in_outcome_order(counts)) {
        OutcomeStats& s = r.outcomes.emplace_back();
        s.outcome = entry->second.first;
        s.key = entry->first;
        s.count = entry->second.second;
        s.probability = samples ? static_cast<double>(s.count) / samples : 0.0;
        const Interval i = wilson_interval(s.count, samples);
        s.low = i.low;
        s.high = i.high;
    }
    return r;
}

// The outcome's own value: its shared block (the variant, its key text), and per field of a table
// its map node with the name, and the strings, at most the key's length again.
std::size_t result_bytes(const Result& result) {
    std::size_t bytes = sizeof(Result);
    for (const auto& o : result.outcomes) {
        const std::size_t fields = o.outcome.is_table() ? o.outcome.fields().size() : 0;
        bytes += result_entry_bytes(o.key) + 160 + 2 * o.outcome.key().capacity() + 96 * fields;
    }
    return bytes;
}

}  // namespace umpire::odds
