// What `umpire odds` does: exact enumeration if it fits the budget, Monte Carlo otherwise, and a
// Result that says which was done (Result::method, and Result::note when it fell back).
#pragma once
#include <cstdint>

#include "core/odds/Exact.hpp"
#include "core/odds/MonteCarlo.hpp"

namespace umpire::odds {

struct OddsOptions {
    std::uint64_t budget = default_budget;  // paths the exact runner may spend (--budget)
    bool monte_carlo_only = false;          // skip the exact attempt (--monte-carlo)
    MonteCarloOptions monte_carlo;          // --samples, --seed, threads, target, progress, and the
                                            // whole run's bounds (monte_carlo.bounds: --timeout)
};

// The exact attempt uses one Script from the factory; Monte Carlo makes one per worker.
Result odds(const ScriptFactory& factory, const OddsOptions& options = {});

}  // namespace umpire::odds
