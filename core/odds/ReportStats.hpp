// The figures of a report table: the union of the sides' outcomes as rows, and for numbers the
// tails ("at least x", "at most x") and the moments (mean, variance, standard deviation). Exact
// sides get exact rationals (GMP); Monte Carlo sides get the same figures of their estimates.
#pragma once
#include <vector>

#include "core/odds/Report.hpp"

namespace umpire::odds {

// Rows for the union of the sides' outcomes (ordered by Outcome; an outcome missing from a side
// has probability 0 there); if every outcome is a number, each cell's tails and each side's
// moments.
ReportTable make_table(const std::vector<const Result*>& sides);

// The moments of a numeric result (RuleError if an outcome is not a number).
ReportMoments moments(const Result& result);

}  // namespace umpire::odds
