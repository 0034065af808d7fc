// Questions about table outcomes ({kia = true, malfunction = false, ...}): the distribution of
// one field (marginal), of a few fields together (joint: the full table is the joint of all
// fields), and the probability of an event, possibly given another (P(malfunction | KIA)).
// Works on exact results (exact answers) and Monte Carlo results (counts, with Wilson intervals).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "core/odds/MemoryBudget.hpp"
#include "core/odds/Result.hpp"
#include "core/odds/Wilson.hpp"

namespace umpire::odds {

using Predicate = std::function<bool(const Outcome&)>;

// The outcome's field `name` equals `value` (a scalar outcome has only nil fields).
Predicate field_is(std::string name, Scalar value);
// Parses "name=value" (also "name==value" and "name~=value" / "name!=value" for inequality),
// and "name<value", "name<=value", "name>value", "name>=value" for numbers (false when the field
// is not a number); the value reads as true, false, nil, a number, or else a string
// ("kia=true", "shots=3", "result=1KIA", "final_dr<=4"). ParseError on text without a name,
// an operator or (for an ordering) a number.
Predicate parse_field_predicate(const std::string& text);

// Distribution of one field: outcomes are that field's values (nil where a table lacks it).
Result marginal(const Result& result, const std::string& field);
// Distribution of some fields together: outcomes are tables holding only those fields.
Result joint(const Result& result, const std::vector<std::string>& fields);
// The distribution given `condition`: only the outcomes meeting it, renormalized (exact: each
// probability divided by P(condition); Monte Carlo: the samples meeting it become the samples,
// so the intervals widen honestly). Its marginals answer "malfunction given a KIA".
// RuleError if the condition never happens. The copies it makes are charged to `memory` while they
// are built, if given (MemoryBudget.hpp): MemoryLimitError if they would pass it.
Result given(const Result& result, const Predicate& condition, MemoryBudget* memory = nullptr);

struct Probability {
    bool is_exact = false;
    mpq_class exact;          // exact results only
    double value = 0;         // exact as a double, or the estimate
    std::uint64_t count = 0;  // Monte Carlo: samples in the event (and in the condition)
    std::uint64_t trials = 0; // Monte Carlo: samples considered (all, or those meeting `given`)
    Interval interval;        // Monte Carlo: 95% Wilson interval; [value, value] if exact
};

// P(event).
Probability probability(const Result& result, const Predicate& event);
// P(event | given). RuleError if `given` never happens.
Probability conditional(const Result& result, const Predicate& event, const Predicate& given);

}  // namespace umpire::odds
