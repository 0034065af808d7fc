#include "core/odds/Wilson.hpp"

#include <algorithm>
#include <cmath>

namespace umpire::odds {

// centre = (p + z^2/2n) / (1 + z^2/n), half = z sqrt(p(1-p)/n + z^2/4n^2) / (1 + z^2/n).
Interval wilson_interval(std::uint64_t successes, std::uint64_t trials, double z) {
    if (trials == 0) return {0, 1};
    const double n = static_cast<double>(trials);
    const double p = static_cast<double>(successes) / n;
    const double z2 = z * z;
    const double denominator = 1 + z2 / n;
    const double centre = (p + z2 / (2 * n)) / denominator;
    const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator;
    // At 0 or n successes the bound is exactly 0 or 1 in theory; say so rather than leave a
    // rounding residue like 1e-18 that a reader would take for a real bound.
    return {successes == 0 ? 0.0 : std::max(0.0, centre - half),
            successes == trials ? 1.0 : std::min(1.0, centre + half)};
}

}  // namespace umpire::odds
