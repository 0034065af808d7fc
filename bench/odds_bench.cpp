// Odds engine benchmarks. Build and run:
//   cmake -S . -B build-odds-rel -G Ninja -DCMAKE_BUILD_TYPE=Release -DUMPIRE_BENCH=ON -DUMPIRE_TESTS=OFF
//   cmake --build build-odds-rel --target odds_bench -j2 && build-odds-rel/bench/odds_bench
// The scripts are C++ references of rules the Lua rulesets implement, so these figures are the
// engine's own cost (enumeration, probability arithmetic, threading); a Lua script adds its
// interpreter time per run on top.
#include <benchmark/benchmark.h>

#include <array>
#include <string>

#include "core/dice/AslDr.hpp"
#include "core/odds/Exact.hpp"
#include "core/odds/MonteCarlo.hpp"

using namespace umpire;
using namespace umpire::odds;

namespace {

// An IFT-like attack: 4 FP column, +1 DRM, the result looked up by Final DR (rows <= 0 .. >= 15,
// as in the ASL IFT), and a B11 weapon malfunctioning on an original DR >= 11.
const std::array<const char*, 16> ift_4fp = {"2KIA", "1KIA", "K/2", "2MC", "1MC", "1MC", "NMC",
                                             "PTC", "-", "-", "-", "-", "-", "-", "-", "-"};

Outcome ift_attack(dice::DieSource& d) {
    const auto dr = dice::AslDr::roll(d);
    const int final_dr = std::clamp(static_cast<int>(dr.total()) + 1, 0, 15);
    Fields f;
    f["result"] = std::string(ift_4fp[static_cast<std::size_t>(final_dr)]);
    f["malfunction"] = dr.total() >= 11;
    return Outcome(std::move(f));
}

ScriptFactory ift_factory() { return [] { return Script(ift_attack); }; }

}  // namespace

// Exact odds of the attack: 36 paths, each a script run plus exact path probability. Its Result is
// charged against a run's memory cap, as `umpire odds` charges it (core/odds/MemoryBudget.hpp).
static void bm_exact_2d6_attack(benchmark::State& state) {
    MemoryBudget memory(std::size_t{256} << 20);
    RunBounds bounds;
    bounds.memory = &memory;
    for (auto _ : state) benchmark::DoNotOptimize(enumerate(ift_attack, default_budget, bounds));
    state.counters["paths"] = 36;
    state.SetItemsProcessed(state.iterations() * 36);  // items = paths
}
BENCHMARK(bm_exact_2d6_attack)->Unit(benchmark::kMicrosecond);

// 40 dice counted at 5+: one decision of 41 binomial branches instead of 6^40 sequences.
static void bm_exact_count_40d6(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(enumerate([](dice::DieSource& d) { return Outcome(d.count(40, 6, 5, 6)); }));
    state.SetItemsProcessed(state.iterations() * 41);
}
BENCHMARK(bm_exact_count_40d6)->Unit(benchmark::kMicrosecond);

// 10 dice as a pool (multisets: C(15,5) = 3003 branches), counted at 5+ by the script.
static void bm_exact_pool_10d6(benchmark::State& state) {
    for (auto _ : state)
        benchmark::DoNotOptimize(enumerate([](dice::DieSource& d) {
            unsigned hits = 0;
            for (auto f : d.pool(10, 6)) hits += f >= 5;
            return Outcome(hits);
        }));
    state.SetItemsProcessed(state.iterations() * 3003);
}
BENCHMARK(bm_exact_pool_10d6)->Unit(benchmark::kMillisecond);

// Monte Carlo throughput on 1 and 2 worker threads: items = samples. The merge and the Result are
// charged against a run's memory cap, as `umpire odds` charges them.
static void bm_monte_carlo_attack(benchmark::State& state) {
    MemoryBudget memory(std::size_t{256} << 20);
    MonteCarloOptions options;
    options.bounds.memory = &memory;
    options.samples = 1 << 20;
    options.threads = static_cast<unsigned>(state.range(0));
    for (auto _ : state) benchmark::DoNotOptimize(monte_carlo(ift_factory(), options));
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(options.samples));
}
BENCHMARK(bm_monte_carlo_attack)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// Monte Carlo until every outcome's 95% half-width is below 0.1 percentage points, 2 threads:
// compare with bm_exact_2d6_attack for the exact-vs-Monte-Carlo ratio on the same script.
static void bm_monte_carlo_to_0_1pp(benchmark::State& state) {
    MemoryBudget memory(std::size_t{256} << 20);
    MonteCarloOptions options;
    options.bounds.memory = &memory;
    options.target_half_width = 0.001;
    options.threads = 2;
    std::uint64_t samples = 0;
    for (auto _ : state) {
        const Result r = monte_carlo(ift_factory(), options);
        samples = r.samples;
        benchmark::DoNotOptimize(r);
    }
    state.counters["samples"] = static_cast<double>(samples);
}
BENCHMARK(bm_monte_carlo_to_0_1pp)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
