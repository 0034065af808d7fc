// Benchmarks of the hex kernel: distance, hex line (~10 and ~30 hexes), alternate hex grain, and
// ASL name parsing. Build and run (figures go to docs/performance.md):
//   cmake -S . -B build-hex-rel -G Ninja -DCMAKE_BUILD_TYPE=Release -DUMPIRE_BENCH=ON -DUMPIRE_TESTS=OFF
//   cmake --build build-hex-rel --target hex_bench && build-hex-rel/bench/hex_bench
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/hex/AslName.hpp"
#include "core/hex/Hex.hpp"
#include "core/hex/Map.hpp"

using namespace umpire::hex;

namespace {

// A fixed spread of endpoints so the branch predictor does not learn one answer.
std::vector<Hex> endpoints(int radius) {
    std::vector<Hex> out;
    for (Hex h : ring({0, 0}, radius)) out.push_back(h);
    return out;
}

void BM_distance(benchmark::State& state) {
    const auto ends = endpoints(10);
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(distance(Hex{3, -2}, ends[i]));
        i = (i + 1) % ends.size();
    }
}
BENCHMARK(BM_distance);

void BM_line(benchmark::State& state) {
    const auto ends = endpoints(static_cast<int>(state.range(0)));
    std::size_t i = 0;
    for (auto _ : state) {
        auto l = line(Hex{0, 0}, ends[i]);
        benchmark::DoNotOptimize(l.data());
        i = (i + 1) % ends.size();
    }
}
BENCHMARK(BM_line)->Arg(10)->Arg(30);

void BM_alt_grain(benchmark::State& state) {
    // Y6 toward EE6 (A9.222 EX): 6 hexes.
    const Map map;
    const Hex from = map.hex("Y6"), to = map.hex("EE6");
    for (auto _ : state) {
        auto g = alt_grain(from, to, Side::Left);
        benchmark::DoNotOptimize(g.data());
    }
}
BENCHMARK(BM_alt_grain);

void BM_parse_asl_name(benchmark::State& state) {
    const std::vector<std::string> names{"21K8", "K8", "3X3", "23BB4", "GG10", "A0", "12Q7"};
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(parse_asl_name(names[i]));
        i = (i + 1) % names.size();
    }
}
BENCHMARK(BM_parse_asl_name);

void BM_map_hex(benchmark::State& state) {
    const Map map(21);
    const std::vector<std::string> names{"21K8", "K8", "21X3", "21BB4", "GG10", "A0", "21Q7"};
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(map.hex(names[i]));
        i = (i + 1) % names.size();
    }
}
BENCHMARK(BM_map_hex);

}  // namespace

BENCHMARK_MAIN();
