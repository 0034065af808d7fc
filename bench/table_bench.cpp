// Benchmarks of the tabletop geometry kernel (core/table): the calls a Bolt Action shooting step
// makes per model (distance, arc test) and per HE hit (template placement).
#include <benchmark/benchmark.h>

#include <vector>

#include "core/table/Arc.hpp"
#include "core/table/Placement.hpp"
#include "core/table/Template.hpp"

using namespace umpire::table;

namespace {

// A ten-man squad in a loose two-rank line (about 1″ between bases) with three friendly models
// 2–3″ away, as when supporting infantry stands near the target.
std::vector<Model> squad() {
    std::vector<Model> ts;
    for (int i = 0; i < 10; ++i)
        ts.push_back(Model{.centre = {1.9 * (i % 5) + 0.4 * (i / 5), 1.8 * (i / 5)}, .side = 2, .unit = 1});
    return ts;
}
std::vector<Model> friends() {
    return {Model{.centre = {-2.2, 0.5}, .side = 1, .unit = 7},
            Model{.centre = {3.0, -2.4}, .side = 1, .unit = 7},
            Model{.centre = {9.8, 3.9}, .side = 1, .unit = 7}};
}

void BM_distance(benchmark::State& state) {
    Point a{1.25, 2.5}, b{7.75, -3.0};
    for (auto _ : state) {
        benchmark::DoNotOptimize(a);
        benchmark::DoNotOptimize(distance(a, b));
    }
}
BENCHMARK(BM_distance);

void BM_edge_distance(benchmark::State& state) {
    Model a{.centre = {1.25, 2.5}}, b{.centre = {7.75, -3.0}, .base_mm = 40};
    for (auto _ : state) {
        benchmark::DoNotOptimize(a);
        benchmark::DoNotOptimize(edge_distance(a, b));
    }
}
BENCHMARK(BM_edge_distance);

void BM_in_arc_point(benchmark::State& state) {
    Point o{0, 0}, t{8, 7};
    for (auto _ : state) {
        benchmark::DoNotOptimize(o);
        benchmark::DoNotOptimize(in_arc(o, 10.0, kFixedHalfAngle, t));
    }
}
BENCHMARK(BM_in_arc_point);

void BM_in_arc_model(benchmark::State& state) {
    Point o{0, 0};
    Model t{.centre = {8, 8.6}};
    for (auto _ : state) {
        benchmark::DoNotOptimize(o);
        benchmark::DoNotOptimize(in_arc(o, 0.0, kFixedHalfAngle, t));
    }
}
BENCHMARK(BM_in_arc_model);

void BM_count_under(benchmark::State& state) {
    const auto ts = squad();
    for (auto _ : state) benchmark::DoNotOptimize(count_under({3.9, 0.9}, 3.0, ts));
}
BENCHMARK(BM_count_under);

// One HE template over the 10-model squad with 3 friends nearby, for each template size.
void BM_place_template(benchmark::State& state) {
    const auto ts = squad();
    const auto fs = friends();
    const double diameter = static_cast<double>(state.range(0));
    std::size_t hits = 0;
    for (auto _ : state) {
        const Placement p = place_template(diameter, ts, fs);
        hits = p.hits.size();
        benchmark::DoNotOptimize(hits);
    }
    state.counters["hits"] = static_cast<double>(hits);
}
BENCHMARK(BM_place_template)->DenseRange(1, 4)->Unit(benchmark::kMicrosecond);

// Two touching 1″ templates (automatic cannon, Diagram 10).
void BM_place_two_templates(benchmark::State& state) {
    const auto ts = squad();
    const auto fs = friends();
    for (auto _ : state) benchmark::DoNotOptimize(place_templates(2, 1.0, ts, fs).hits.size());
}
BENCHMARK(BM_place_two_templates)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
