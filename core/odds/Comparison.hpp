// The same script under two rulesets (say asl and asl-house-mg), outcome by outcome: what
// `umpire odds SCRIPT --compare OTHER` prints.
#pragma once
#include <string>
#include <vector>

#include "core/odds/Result.hpp"

namespace umpire::odds {

struct ComparisonRow {
    Outcome outcome;
    std::string key;
    bool is_exact = false;        // both results exact: the three fractions below are exact
    mpq_class first, second, difference;  // difference = second - first
    double first_value = 0, second_value = 0, difference_value = 0;
};

struct Comparison {
    std::string first_label, second_label;
    Result first, second;
    std::vector<ComparisonRow> rows;  // every outcome of either result, ordered by outcome
    bool is_exact() const { return first.is_exact() && second.is_exact(); }
};

// Rows for the union of outcomes; an outcome missing from one result has probability 0 there.
Comparison compare(const Result& first, const Result& second, std::string first_label = "first",
                   std::string second_label = "second");

}  // namespace umpire::odds
