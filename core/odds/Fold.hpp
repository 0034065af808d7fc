// State folding: the exact odds of a process that advances in steps, by dynamic programming over
// its distinct states instead of enumerating every path of dice.
//
// A process is a state (any value, given here as its canonical text: equal texts are equal
// states), a step that rolls dice and returns the next state, and a stop test. Enumerating whole
// paths costs the product of every step's branches: a chain of n shots at 36 branches each is 36^n
// runs. Folding keeps a distribution of states instead. Each step takes every distinct live state
// once, enumerates that step's own dice alone (an EnumeratingSource per state), and sums the
// probability of every next state it reaches; states that are equal merge. A state that passes the
// stop test leaves the frontier and is collected. The cost is (steps) x (distinct states per step)
// x (paths of one step), linear in the number of steps when the states stay few, as they do when a
// chain's state is what the rules track (a counter, a flag, a total).
//
// Unbounded processes (re-roll until, explode, "fire while ROF holds") end at max_steps, or as soon
// as the live mass is below epsilon; the live states at that moment are collected as they stand,
// marked truncated, and their total is the truncated mass, exact.
//
// A step must be a function of its state and dice alone. The engine checks what it can: each
// state's first path is run twice, and the two runs must ask for the same dice and reach the same
// next state; every later path replays a prefix of dice that must ask the same (EnumeratingSource).
// A difference is a RuleError naming the step.
#pragma once
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmpxx.h>

#include "core/Error.hpp"
#include "core/dice/DieSource.hpp"

namespace umpire::odds {

struct FoldOptions {
    std::uint32_t max_steps = 100;  // steps at most; live states then are truncated
    mpq_class epsilon = 0;          // stop once the live mass is below this (0: never)
    std::uint64_t budget = 1'000'000;  // step runs at most, over the whole fold
    std::string name = "the chain's step";  // names the step in errors
    std::string first_name = "the chain's first step";  // fold_after_first: names the first step
    // How a state reads in errors (a host's state text may hold several parts); empty: as it is.
    std::function<std::string(const std::string& state)> describe;
    // Told an estimate of the bytes the fold's state maps hold (state texts, probabilities, map
    // nodes) each time a new state is reached and after each step; it may throw to stop the fold
    // (a host charges it against its memory cap). Empty: not told.
    std::function<void(std::size_t bytes)> on_memory;
};

struct FoldedState {
    std::string state;
    mpq_class probability;
    bool truncated = false;  // still live when the fold ended (max_steps or epsilon)
};

struct FoldResult {
    std::vector<FoldedState> states;  // distinct end states, by state text
    mpq_class truncated;              // total probability of the truncated states
    std::uint32_t steps = 0;          // steps taken
    std::uint64_t runs = 0;           // step runs (paths of one step, summed over states and steps)
    std::size_t widest = 1;           // the most live states in any step
};

// The fold went past FoldOptions::budget step runs: too large to do exactly.
struct FoldOverBudget : RuleError {
    using RuleError::RuleError;
};

using FoldStep = std::function<std::string(const std::string& state, dice::DieSource& dice)>;
using FoldStop = std::function<bool(const std::string& state)>;

FoldResult fold(const std::string& initial, const FoldStep& step, const FoldStop& stop,
                const FoldOptions& options = {});

// A chain with a first step of its own (an attack whose later shots differ from the first): `first`
// is enumerated from `initial` alone, and each distinct state it reaches starts a chain of its own,
// folded as fold() folds it (max_steps and epsilon count from there, with that state's mass as 1);
// the end states of all of them merge, each weighted by the probability of its start. The result
// is exactly that of enumerating the first step's paths and folding the chain on each, which is
// what a script does when it calls the first step and then the chain, but the script around the
// chain runs once per distinct end state instead of once per path of the first step. steps counts
// the first step; truncated is the total mass cut short over all the chains.
FoldResult fold_after_first(const std::string& initial, const FoldStep& first, const FoldStep& step,
                            const FoldStop& stop, const FoldOptions& options = {});

}  // namespace umpire::odds
