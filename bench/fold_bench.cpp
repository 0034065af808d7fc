// Benchmarks of folded exact odds (issue targets in docs/performance.md): each times the exact
// distribution of a script in-process, with its rulesets loaded once (the host's start-up is
// BM_ColdStart in lua_bench). Every iteration is a fresh enumeration, so fold caches start empty.
//  - ROF chain: scripts/asl/odds_mmg_rof_kia.lua through the real asl rules, SHOTS = 1..10;
//  - re-roll 1s to hit, then wound (umpire.dice.count with a die table), 10 and 20 shots;
//  - an exploding d6 to depth 10 (umpire.odds.chain);
//  - a 12-man Bolt Action rifle squad firing at a unit in soft cover;
//  - the ASL MG fire-group attack (scripts/asl/odds_mmg_fire_group.lua);
//  - a light mortar ranging in over five turns (scripts/bolt-action/light_mortar_ranging.lua);
//  - a squad running along the A9.222 EX's Fire Lane, 1..4 Locations (scripts/asl/odds_fire_lane_run.lua).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "app/OddsRunner.hpp"
#include "host/LuaHost.hpp"
#include "core/odds/Exact.hpp"

namespace {

// A file of the source tree (a shipped script); LuaHost::read_file names the file if it is missing.
std::string read(const std::string& file) {
    return umpire::LuaHost::read_file(std::filesystem::path(UMPIRE_SOURCE_DIR) / file);
}

void exact(benchmark::State& state, const std::vector<std::string>& rulesets, const std::string& code) {
    umpire::odds_runner::Request request;
    request.host.time_limit = 0;
    request.host.print = [](const std::string&) {};
    request.rulesets = rulesets;
    request.code = code;
    umpire::odds_runner::ScriptWorker worker(request);
    std::uint64_t paths = 0;
    for (auto _ : state) {
        const auto r = umpire::odds::enumerate([&](umpire::dice::DieSource& d) { return worker.run(d); });
        if (!r) state.SkipWithError("over budget");
        else paths = r->paths;
    }
    state.counters["paths"] = static_cast<double>(paths);
}

void BM_RofChain(benchmark::State& state) {
    exact(state, {"asl"}, "SHOTS = " + std::to_string(state.range(0)) + "\n" + read("scripts/asl/odds_mmg_rof_kia.lua"));
}
BENCHMARK(BM_RofChain)->DenseRange(1, 10)->Unit(benchmark::kMillisecond);

void BM_RerollOnesToHitThenWound(benchmark::State& state) {
    exact(state, {}, "local hits = umpire.dice.count(" + std::to_string(state.range(0)) +
                         ", {sides = 6, reroll = {1}, once = true}, 4)\n"
                         "return umpire.dice.count(hits, 6, 4)");
}
BENCHMARK(BM_RerollOnesToHitThenWound)->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond);

void BM_ExplodingD6Depth10(benchmark::State& state) {
    exact(state, {}, R"(local s = umpire.odds.chain{state = {t = 0, last = 6}, max_steps = 10,
      step = function(s) s.last = umpire.dice.d(6); s.t = s.t + s.last end,
      stop = function(s) return s.last ~= 6 end}
    return s.t)");
}
BENCHMARK(BM_ExplodingD6Depth10)->Unit(benchmark::kMillisecond);

void BM_BoltActionSquad12(benchmark::State& state) {
    exact(state, {"bolt-action"}, R"(local SC, S = umpire.rules.scenario, umpire.rules.shooting
    local squad = SC.line("squad", "allies", 12, "rifle")
    local target = SC.line("grens", "axis", 10, "rifle", { y = 20, cover = "soft" })
    local r = S.fire{ shooter = squad, target = target }
    local u = r.units.grens
    return { casualties = u and u.casualties or 0, pins = target.pins })");
}
BENCHMARK(BM_BoltActionSquad12)->Unit(benchmark::kMillisecond);

void BM_AslMgFireGroup(benchmark::State& state) {
    exact(state, {"asl"}, read("scripts/asl/odds_mmg_fire_group.lua"));
}
BENCHMARK(BM_AslMgFireGroup)->Unit(benchmark::kMicrosecond);

void BM_MortarRangingFiveTurns(benchmark::State& state) {
    exact(state, {"bolt-action"}, read("scripts/bolt-action/light_mortar_ranging.lua"));
}
BENCHMARK(BM_MortarRangingFiveTurns)->Unit(benchmark::kMillisecond);

void BM_FireLaneRun(benchmark::State& state) {
    exact(state, {"asl"}, "HEXES = " + std::to_string(state.range(0)) + "\n" + read("scripts/asl/odds_fire_lane_run.lua"));
}
BENCHMARK(BM_FireLaneRun)->DenseRange(1, 4)->Unit(benchmark::kMillisecond);

}  // namespace
BENCHMARK_MAIN();
