// The answer of the odds engine: the probability of each outcome a script returned, and how it
// was obtained (exact enumeration, with how many paths; or Monte Carlo, with how many samples,
// the seed and a 95% interval per outcome).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <gmpxx.h>

#include "core/odds/Outcome.hpp"

namespace umpire::odds {

enum class Method { exact, monte_carlo };

struct OutcomeStats {
    Outcome outcome;
    std::string key;          // outcome.key()
    mpq_class exact;          // the exact probability (exact results only; 0 otherwise)
    double probability = 0;   // exact as a double, or the Monte Carlo estimate
    std::uint64_t count = 0;  // paths (exact) or samples (Monte Carlo) that gave this outcome
    double low = 0, high = 0; // 95% Wilson interval (Monte Carlo); both == probability if exact
    double half_width() const { return (high - low) / 2; }
};

struct Result {
    Method method = Method::exact;
    std::vector<OutcomeStats> outcomes;  // ordered by Outcome (numbers numerically, ...)
    std::uint64_t paths = 0;             // exact: script runs (leaves of the decision tree)
    std::uint64_t samples = 0;           // Monte Carlo: samples drawn
    std::uint64_t seed = 0;              // Monte Carlo: the seed
    unsigned threads = 0;                // Monte Carlo: worker threads used
    std::string note;                    // e.g. why Monte Carlo was used instead of exact
    std::string condition;               // what it is conditioned on ("ift=1KIA, P = 1/18"); "" = nothing
    // The probability of the outcomes that a chain cut short (umpire.odds.chain at its max_steps
    // or epsilon): they are counted as the state stood at the cut. Exact results only; 0 = none.
    mpq_class truncated = 0;

    bool is_exact() const { return method == Method::exact; }
    // "exact" or "monte-carlo".
    std::string method_name() const;
    // nullptr if the outcome never occurred.
    const OutcomeStats* find(const std::string& key) const;
    const OutcomeStats* find(const Outcome& outcome) const { return find(outcome.key()); }
    // Probability of an outcome (0 if it never occurred); exact only for exact results.
    mpq_class exact_probability(const Outcome& outcome) const;
    double probability(const Outcome& outcome) const;
    // The widest 95% half-width over all outcomes (0 for exact results).
    double widest_half_width() const;

    // Builders used by the runners and by marginal()/joint(): from exact probabilities per key
    // (each probability must be > 0), or from sample counts (computing Wilson intervals).
    static Result from_exact(const std::map<std::string, std::pair<Outcome, mpq_class>>& sums,
                             std::uint64_t paths);
    static Result from_counts(const std::map<std::string, std::pair<Outcome, std::uint64_t>>& counts,
                              std::uint64_t samples);
};

// C++ memory as a MemoryBudget counts it (an estimate, never under what is held: checked with
// mallinfo2 in tests/core/odds/test_memory_budget.cpp). One OutcomeStats with its key text and the
// fraction's limbs (the outcome itself is shared with the tally's copy, Outcome.hpp), plus the
// pointer the builders sort by.
inline std::size_t result_entry_bytes(std::size_t key_capacity) {
    return sizeof(OutcomeStats) + key_capacity + 1 + 64 + sizeof(void*);
}
inline std::size_t result_entry_bytes(const std::string& key) { return result_entry_bytes(key.capacity()); }
// A whole Result: its entries, and its outcomes' own values (for a Result that no longer shares
// them with a tally: the one a report is built from).
std::size_t result_bytes(const Result& result);

}  // namespace umpire::odds
