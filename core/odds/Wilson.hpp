// The Wilson score interval for a binomial proportion: the confidence interval the Monte Carlo
// runner reports. Unlike the normal approximation p +- z sqrt(p(1-p)/n) it stays inside [0, 1]
// and does not collapse to a zero width for an outcome seen 0 or n times, which matters for the
// rare outcomes (a KIA on a 12) the odds engine is asked about.
#pragma once
#include <cstdint>

namespace umpire::odds {

struct Interval {
    double low = 0;
    double high = 0;
    double half_width() const { return (high - low) / 2; }
};

// z of a two-sided 95% interval.
inline constexpr double z95 = 1.959963984540054;

// Interval for `successes` out of `trials` (trials > 0; an empty sample gives [0, 1]).
Interval wilson_interval(std::uint64_t successes, std::uint64_t trials, double z = z95);

}  // namespace umpire::odds
