// The exact runner: enumerates every path of a script's decision tree (see EnumeratingSource)
// and sums the exact probability of each outcome.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>

#include <string>

#include "core/odds/MemoryBudget.hpp"
#include "core/odds/Result.hpp"
#include "core/odds/Script.hpp"

namespace umpire::odds {

// Script runs the exact runner may spend before giving up (one run per path).
inline constexpr std::uint64_t default_budget = 1'000'000;

// Bounds of a whole odds run (`--timeout`), and its progress for a terminal.
struct RunBounds {
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    double seconds = 0;  // the limit as given, for the message
    // Called about ten times a second once the run has taken a second, with the fraction done:
    // for the exact runner, the probability of the paths visited so far.
    std::function<void(const char* what, double fraction)> progress;
    // Throws RuleError naming the limit if the deadline has passed; `done` says how far it got.
    void check(const std::string& done) const;
    // The run's memory cap for what the engine holds outside the scripts' hosts: the Result it
    // builds from a tally and the Monte Carlo workers' merged counts (MemoryBudget.hpp). A refused
    // charge throws MemoryLimitError. Null: not charged.
    MemoryBudget* memory = nullptr;
};

// The exact distribution of the script's outcomes, or nullopt if it would take more than `budget`
// paths: the cue to switch to Monte Carlo. The walk gives up as soon as it has run `budget`
// paths with more to go, or at once if the first path alone implies more than 1000 x budget
// paths (its branch product; e.g. forty dice rolled one by one). Errors thrown by the script
// propagate; a script that is not a function of its dice gets a RuleError.
std::optional<Result> enumerate(const Script& script, std::uint64_t budget = default_budget,
                                const RunBounds& bounds = {});

}  // namespace umpire::odds
