// Benchmarks of core/bus: event dispatch, a modifier pipeline, the journal.
// Build and run (see docs/performance.md):
//   cmake -S . -B build-bus-rel -G Ninja -DCMAKE_BUILD_TYPE=Release -DUMPIRE_BENCH=ON
//         -DUMPIRE_TESTS=OFF && cmake --build build-bus-rel --target bus_bench
//   build-bus-rel/bench/bus_bench
#include <benchmark/benchmark.h>

#include "core/bus/EventBus.hpp"
#include "core/bus/Journal.hpp"
#include "core/bus/ModifierPipeline.hpp"

using namespace umpire::bus;

// Raising one event with n handlers that each read the payload; the payload is built once so
// the figure is the bus's own cost (lookup, snapshot, ordered calls), not JSON construction.
static void BM_dispatch(benchmark::State& state) {
    EventBus bus;
    std::int64_t sink = 0;
    for (int i = 0; i < state.range(0); ++i)
        bus.subscribe("ift_attack", i % 3, [&sink](Event& e) { sink += e.depth; },
                      "module" + std::to_string(i % 4));
    bus.subscribe("other_event", 0, [&sink](Event&) { ++sink; }, "x");
    Event e;
    e.name = "ift_attack";
    e.payload = {{"fp", 8}, {"drm", 2}};
    for (auto _ : state) {
        bus.dispatch(e);
        benchmark::DoNotOptimize(sink);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_dispatch)->Arg(1)->Arg(5)->Arg(20);

// The same through raise(), which builds and returns an Event (what a Lua call pays).
static void BM_raise_with_payload(benchmark::State& state) {
    EventBus bus;
    std::int64_t sink = 0;
    for (int i = 0; i < state.range(0); ++i)
        bus.subscribe("ift_attack", 0, [&sink](Event& e) { sink += e.payload.size(); }, "m");
    for (auto _ : state) {
        Event e = bus.raise("ift_attack", {{"fp", 8}, {"drm", 2}});
        benchmark::DoNotOptimize(e);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_raise_with_payload)->Arg(1)->Arg(5)->Arg(20);

// A handler that records its change through Event::set (JSON write + change record).
static void BM_dispatch_modifying(benchmark::State& state) {
    EventBus bus;
    for (int i = 0; i < state.range(0); ++i)
        bus.subscribe("ift_drm", 0, [](Event& e) { e.set("drm", e.payload["drm"].get<int>() + 1); },
                      "m");
    for (auto _ : state) {
        Event e = bus.raise("ift_drm", {{"drm", 0}});
        benchmark::DoNotOptimize(e);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_dispatch_modifying)->Arg(5);

// The IFT DRM of a typical attack: five modifiers with sources and citations, then the total
// and the rulebook rendering.
static void BM_pipeline_5(benchmark::State& state) {
    for (auto _ : state) {
        ModifierPipeline p("IFT DRM", "DRM");
        p.add(-1, "FFNAM", "A4.6")
            .add(-1, "FFMO", "A4.6")
            .add(3, "TEM", "B23.3")
            .add(1, "Hindrance", "A6.2")
            .add(-1, "leadership", "A10.7");
        benchmark::DoNotOptimize(p.total());
    }
}
BENCHMARK(BM_pipeline_5);

static void BM_pipeline_5_render(benchmark::State& state) {
    for (auto _ : state) {
        ModifierPipeline p("IFT DRM", "DRM");
        p.add(-1, "FFNAM", "A4.6")
            .add(-1, "FFMO", "A4.6")
            .add(3, "TEM", "B23.3")
            .add(1, "Hindrance", "A6.2")
            .add(-1, "leadership", "A10.7");
        std::string s = p.render();
        benchmark::DoNotOptimize(s);
    }
}
BENCHMARK(BM_pipeline_5_render);

static Journal build_journal(std::int64_t n) {
    Journal j;
    j.reserve(static_cast<std::size_t>(n));
    j.set_context({1, "German", "PFPh"});
    for (std::int64_t i = 0; i < n; ++i) {
        switch (i % 4) {
            case 0: j.roll("IFT DR", "2d6", {i % 6 + 1, (i / 6) % 6 + 1}, 7, "A7.1"); break;
            case 1: j.cite("A9.7", "Original DR 11 ≤ B# 11: the MMG malfunctions"); break;
            case 2: j.state_change("units.mmg.malfunctioned", false, true, "A9.7"); break;
            case 3: j.result("1MC", {{"result", "1MC"}, {"i", i}}); break;
        }
    }
    return j;
}

static void BM_journal_append_10k(benchmark::State& state) {
    for (auto _ : state) {
        Journal j = build_journal(10000);
        benchmark::DoNotOptimize(j.size());
    }
    state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(BM_journal_append_10k)->Unit(benchmark::kMillisecond);

static void BM_journal_serialize_10k(benchmark::State& state) {
    Journal j = build_journal(10000);
    std::size_t bytes = 0;
    for (auto _ : state) {
        std::string s = j.dump();
        bytes = s.size();
        benchmark::DoNotOptimize(s);
    }
    state.SetItemsProcessed(state.iterations() * 10000);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.counters["bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_journal_serialize_10k)->Unit(benchmark::kMillisecond);

static void BM_journal_load_10k(benchmark::State& state) {
    std::string text = build_journal(10000).dump();
    for (auto _ : state) {
        Journal j = Journal::load(text);
        benchmark::DoNotOptimize(j.size());
    }
    state.SetItemsProcessed(state.iterations() * 10000);
}
BENCHMARK(BM_journal_load_10k)->Unit(benchmark::kMillisecond);

static void BM_journal_hash_10k(benchmark::State& state) {
    Journal j = build_journal(10000);
    for (auto _ : state) benchmark::DoNotOptimize(j.hash());
}
BENCHMARK(BM_journal_hash_10k)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
