// Dice benchmarks. Build and run:
//   cmake -S . -B build-rel -G Ninja -DCMAKE_BUILD_TYPE=Release -DUMPIRE_BENCH=ON -DUMPIRE_TESTS=OFF
//   cmake --build build-rel --target dice_bench && build-rel/bench/dice_bench
// items_per_second is dice (or DRs, or expressions) per second.
#include <benchmark/benchmark.h>

#include "core/dice/AslDr.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/dice/Distribution.hpp"
#include "core/dice/GeneratorSource.hpp"

using namespace umpire::dice;

// d6 through the DieSource interface, as every rule rolls them (a virtual call per die).
static void bm_d6_via_source(benchmark::State& state) {
    GeneratorSource source(1);
    DieSource& dice = source;
    for (auto _ : state) benchmark::DoNotOptimize(dice.die(6));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_d6_via_source);

static void bm_raw_generator_next(benchmark::State& state) {
    Generator g(1);
    for (auto _ : state) benchmark::DoNotOptimize(g.next());
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_raw_generator_next);

static void bm_asl_dr(benchmark::State& state) {
    GeneratorSource source(1);
    for (auto _ : state) benchmark::DoNotOptimize(AslDr::roll(source));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_asl_dr);

static void bm_parse_and_roll(benchmark::State& state) {
    GeneratorSource source(1);
    for (auto _ : state) benchmark::DoNotOptimize(DiceExpression("2d6+d3-1").roll(source).total);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_parse_and_roll);

static void bm_roll_parsed(benchmark::State& state) {
    GeneratorSource source(1);
    const DiceExpression e("2d6+d3-1");
    for (auto _ : state) benchmark::DoNotOptimize(e.roll(source).total);
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(bm_roll_parsed);

static void bm_distribution_2d6(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(Distribution::sum_of_dice(2, 6));
}
BENCHMARK(bm_distribution_2d6)->Unit(benchmark::kMicrosecond);

static void bm_distribution_40d6_sum(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(Distribution::sum_of_dice(40, 6));
}
BENCHMARK(bm_distribution_40d6_sum)->Unit(benchmark::kMicrosecond);

static void bm_distribution_40d6_count_at_least_5(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(Distribution::count_at_least(40, 6, 5));
}
BENCHMARK(bm_distribution_40d6_count_at_least_5)->Unit(benchmark::kMicrosecond);

static void bm_distribution_4d6kh3(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(DiceExpression("4d6kh3").distribution());
}
BENCHMARK(bm_distribution_4d6kh3)->Unit(benchmark::kMicrosecond);

static void bm_distribution_100d6_sum(benchmark::State& state) {
    for (auto _ : state) benchmark::DoNotOptimize(Distribution::sum_of_dice(100, 6));
}
BENCHMARK(bm_distribution_100d6_sum)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
