// Issue 18: the cost of one rule attack through the real rules, per Monte Carlo sample.
//  - BM_MgAttackSample: scripts/asl/odds_mmg_fire_group.lua run once per iteration on a seeded
//    generator, journal off, in-process (no host start-up): sandboxed (arg 0), trusted, JIT on
//    (arg 1), and sandboxed with the JIT on (arg 2, --jit). The issue's target is <= 1 us a sample
//    sandboxed.
//  - BM_BoltActionSquadSample: a 12-man Bolt Action rifle squad firing at a unit in soft cover,
//    one sample per iteration, sandboxed / trusted.
//  - BM_MgAttackMonteCarlo: the whole Monte Carlo of the MG attack on 1 and 2 threads (first
//    argument), 2^16 or 2^18 samples (second), wall time: the 2-thread speed-up is the issue's
//    "per-sample cost across threads". Samples are dealt out in chunks of 4096 (one generator
//    stream each, so the chunk size is part of a seeded result): 2^16 samples are 16 chunks, and
//    the last chunk can leave one thread idle for a sixteenth of the run; 2^18 shows the
//    speed-up without that tail.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "app/OddsRunner.hpp"
#include "host/LuaHost.hpp"
#include "core/dice/Generator.hpp"
#include "core/dice/GeneratorSource.hpp"
#include "core/odds/MonteCarlo.hpp"

namespace {

// A file of the source tree (a shipped script); LuaHost::read_file names the file if it is missing.
std::string read(const std::string& file) {
    return umpire::LuaHost::read_file(std::filesystem::path(UMPIRE_SOURCE_DIR) / file);
}

// mode: 0 sandboxed (interpreted, the default), 1 trusted (JIT on, no sandbox hook), 2 sandboxed
// with the JIT on (--jit).
umpire::odds_runner::Request request(const std::vector<std::string>& rulesets, const std::string& code,
                                     std::int64_t mode) {
    umpire::odds_runner::Request r;
    r.host.time_limit = 0;
    r.host.trusted = mode == 1;
    r.host.sandbox_jit = mode == 2;
    r.host.print = [](const std::string&) {};
    r.rulesets = rulesets;
    r.code = code;
    return r;
}

void samples(benchmark::State& state, const std::vector<std::string>& rulesets, const std::string& code) {
    const auto r = request(rulesets, code, state.range(0));
    umpire::odds_runner::ScriptWorker worker(r);
    umpire::dice::GeneratorSource source(umpire::dice::Generator(7));
    for (auto _ : state) benchmark::DoNotOptimize(worker.run(source));
    state.SetLabel(state.range(0) == 1 ? "trusted (JIT on)" : state.range(0) == 2 ? "sandboxed, JIT on (--jit)" : "sandboxed");
}

const std::string kBoltActionSquad = R"(local SC, S = umpire.rules.scenario, umpire.rules.shooting
local squad = SC.line("squad", "allies", 12, "rifle")
local target = SC.line("grens", "axis", 10, "rifle", { y = 20, cover = "soft" })
local r = S.fire{ shooter = squad, target = target }
local u = r.units.grens
return { casualties = u and u.casualties or 0, pins = target.pins })";

void BM_MgAttackSample(benchmark::State& state) {
    samples(state, {"asl"}, read("scripts/asl/odds_mmg_fire_group.lua"));
}
BENCHMARK(BM_MgAttackSample)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->MinTime(0.5);

void BM_BoltActionSquadSample(benchmark::State& state) { samples(state, {"bolt-action"}, kBoltActionSquad); }
BENCHMARK(BM_BoltActionSquadSample)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->MinTime(0.5);

void BM_MgAttackMonteCarlo(benchmark::State& state) {
    const auto r = request({"asl"}, read("scripts/asl/odds_mmg_fire_group.lua"), 0);
    umpire::odds::MonteCarloOptions options;
    options.samples = std::uint64_t{1} << state.range(1);
    options.threads = static_cast<unsigned>(state.range(0));
    options.seed = 7;
    // The merge and the Result charged against a run's memory cap, as `umpire odds` charges them.
    umpire::odds::MemoryBudget memory(std::size_t{256} << 20);
    options.bounds.memory = &memory;
    // Workers (each a host with the rules loaded) are made once, outside the timing.
    std::vector<std::shared_ptr<umpire::odds_runner::ScriptWorker>> workers;
    for (unsigned i = 0; i < options.threads; ++i)
        workers.push_back(std::make_shared<umpire::odds_runner::ScriptWorker>(r));
    for (auto _ : state) {
        unsigned made = 0;
        const umpire::odds::ScriptFactory factory = [&]() -> umpire::odds::Script {
            auto w = workers[made++];
            return [w](umpire::dice::DieSource& d) { return w->run(d); };
        };
        benchmark::DoNotOptimize(umpire::odds::monte_carlo(factory, options));
    }
    state.counters["samples/s"] = benchmark::Counter(
        static_cast<double>(options.samples) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MgAttackMonteCarlo)->ArgsProduct({{1, 2}, {16, 18}})->Unit(benchmark::kMillisecond)->UseRealTime()->MeasureProcessCPUTime();

}  // namespace
BENCHMARK_MAIN();
