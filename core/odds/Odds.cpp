#include "core/odds/Odds.hpp"

namespace umpire::odds {

Result odds(const ScriptFactory& factory, const OddsOptions& options) {
    if (!options.monte_carlo_only) {
        if (auto exact = enumerate(factory(), options.budget, options.monte_carlo.bounds)) return std::move(*exact);
    }
    Result r = monte_carlo(factory, options.monte_carlo);
    if (!options.monte_carlo_only) {
        const std::string why = "exact enumeration needs more than " +
                                std::to_string(options.budget) +
                                " paths (the budget), so this is a Monte Carlo estimate";
        r.note = r.note.empty() ? why : why + "; " + r.note;
    }
    return r;
}

}  // namespace umpire::odds
