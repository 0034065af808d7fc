// The Monte Carlo runner: samples a script with random dice on several threads and reports each
// outcome's frequency with a 95% Wilson interval.
//
// Determinism: samples are cut into chunks of chunk_size; chunk c is rolled from stream c of
// Generator(seed) (independent xoshiro streams 2^128 outputs apart), and per-outcome counts are
// summed, which does not depend on which worker ran which chunk. So the result depends only on
// the seed and the number of samples: the same for 1, 2 or 16 threads.
#pragma once
#include <cstdint>
#include <functional>

#include "core/odds/Exact.hpp"
#include "core/odds/Result.hpp"
#include "core/odds/Script.hpp"

namespace umpire::odds {

struct MonteCarloOptions {
    static constexpr std::uint64_t chunk_size = 4096;

    // Samples to draw (fixed mode).
    std::uint64_t samples = 1'000'000;
    std::uint64_t seed = 0;
    // Worker threads; 0 means std::thread::hardware_concurrency().
    unsigned threads = 0;
    // If > 0: ignore `samples` and sample until the widest 95% half-width over all outcomes is
    // below this (as a probability: 0.001 is +-0.1 percentage points), or max_samples is reached
    // (then Result::note says so). Sampling proceeds in rounds sized from the widths so far.
    double target_half_width = 0;
    std::uint64_t max_samples = 100'000'000;
    // Called on the calling thread about ten times a second and once at the end with 1.0, with the
    // fraction done (in target mode, of the samples currently predicted to be needed).
    std::function<void(double fraction)> progress;
    // The whole run's time limit (--timeout): past it the workers stop and a RuleError says so.
    RunBounds bounds;
};

// Runs the script. The factory is called once per worker thread (see Script.hpp). The first
// exception a script throws stops every worker and is rethrown here.
Result monte_carlo(const ScriptFactory& factory, const MonteCarloOptions& options = {});

}  // namespace umpire::odds
