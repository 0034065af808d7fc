// Benchmarks of the Lua host: cold start (load every shipped ruleset), reload latency, and the
// cost of one Lua -> kernel call through the LuaJIT FFI fast path against the classic C API.
// The FFI loops run in a trusted host (JIT on), which is where the fast path matters; with
// UMPIRE_JIT_LOG=FILE the FFI loop also writes LuaJIT's -jv trace log to FILE (docs/performance.md
// shows it has no trace aborts).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "bindings/GameLog.hpp"
#include "host/LuaHost.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/LoadCache.hpp"

namespace {

umpire::HostOptions quiet(bool trusted) {
    umpire::HostOptions o;
    o.trusted = trusted;
    o.time_limit = 0;
    o.print = [](const std::string&) {};
    return o;
}

void BM_ColdStart(benchmark::State& state) {
    for (auto _ : state) {
        umpire::LuaHost host(quiet(false));
        umpire::ruleset::load(host, {"asl", "bolt-action", "skirmish"});
        benchmark::DoNotOptimize(host.memory_used());
    }
}
BENCHMARK(BM_ColdStart)->Unit(benchmark::kMillisecond);

void BM_ColdStartAsl(benchmark::State& state) {
    for (auto _ : state) {
        umpire::LuaHost host(quiet(false));
        umpire::ruleset::load(host, {"asl"});
        benchmark::DoNotOptimize(host.memory_used());
    }
}
BENCHMARK(BM_ColdStartAsl)->Unit(benchmark::kMillisecond);

// Reload with nothing changed on disk: every file read again and compared, every module body and
// validate(data) run again in a fresh env (ruleset/LoadCache.hpp).
void BM_ReloadAsl(benchmark::State& state) {
    umpire::LuaHost host(quiet(false));
    umpire::ruleset::load(host, {"asl"});
    for (auto _ : state) umpire::ruleset::reload(host);
}
BENCHMARK(BM_ReloadAsl)->Unit(benchmark::kMicrosecond);

// Reload with nothing changed, after `state.range(0)` reloads of the same host (not timed): a
// long watch or serve session. Its time against /0's shows whether a reload slows down as a host
// ages. timed_reload is kept out of line for callgrind (--toggle-collect='*timed_reload*' counts
// the timed reloads only).
[[gnu::noinline]] void timed_reload(umpire::LuaHost& host) { umpire::ruleset::reload(host); }
void BM_ReloadAslAfter(benchmark::State& state) {
    umpire::LuaHost host(quiet(false));
    umpire::ruleset::load(host, {"asl"});
    for (long i = 0; i < state.range(0); ++i) umpire::ruleset::reload(host);
    for (auto _ : state) timed_reload(host);
}
BENCHMARK(BM_ReloadAslAfter)->Arg(0)->Arg(10000)->Iterations(300)->Unit(benchmark::kMicrosecond);

// Reloads of a scratch copy of asl in which each iteration first appends a comment line to each
// of `edited` (paths inside asl/; "#" for .yaml, "--" for .lua), so each is read, parsed or
// compiled, and checked again.
void reload_after_edits(benchmark::State& state, const std::vector<std::string>& edited) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("umpire-reload-bench-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy(fs::path(UMPIRE_SOURCE_DIR) / "rulesets/asl", dir / "asl", fs::copy_options::recursive);
    std::vector<std::pair<fs::path, std::string>> files;
    for (const auto& name : edited) files.emplace_back(dir / "asl" / name, umpire::LuaHost::read_file(dir / "asl" / name));
    {
        umpire::LuaHost host(quiet(false));
        // The copy was just written, so every file of it is too new for its stamp to be trusted
        // (ruleset/FileStamp.hpp) and would be read and compared at every reload; in an author's
        // session only the saved files are. A margin of 0 trusts the others' stamps at once.
        host.extension<umpire::ruleset::LoadCache>().settle_margin = std::chrono::nanoseconds(0);
        umpire::ruleset::load(host, {(dir / "asl").string()});
        long edit = 0;
        for (auto _ : state) {
            state.PauseTiming();
            ++edit;
            for (const auto& [file, text] : files)
                std::ofstream(file, std::ios::binary)
                    << text << (file.extension() == ".lua" ? "-- edit " : "# edit ") << edit << "\n";
            state.ResumeTiming();
            umpire::ruleset::reload(host);
        }
    }
    fs::remove_all(dir);
}

// Reload after an author saved a file: the largest data file (sw_mg.yaml) and one rules module
// (mg_attack.lua) changed.
void BM_ReloadAslEdited(benchmark::State& state) { reload_after_edits(state, {"data/sw_mg.yaml", "rules/mg_attack.lua"}); }
BENCHMARK(BM_ReloadAslEdited)->Unit(benchmark::kMicrosecond);

// Reload after one data file changed (sw_mg.yaml, the largest): only its table is pushed and walked
// for the seal again; the other data tables are the committed ones (ruleset/Ruleset.cpp).
void BM_ReloadAslDataEdited(benchmark::State& state) { reload_after_edits(state, {"data/sw_mg.yaml"}); }
BENCHMARK(BM_ReloadAslDataEdited)->Unit(benchmark::kMicrosecond);

// Reload after one rules module changed (mg_attack.lua, which other modules call through
// umpire.rules): it is compiled again; the data tables are the committed ones.
void BM_ReloadAslModuleEdited(benchmark::State& state) { reload_after_edits(state, {"rules/mg_attack.lua"}); }
BENCHMARK(BM_ReloadAslModuleEdited)->Unit(benchmark::kMicrosecond);

// One loop of `n` calls, timed per call.
void run_loop(benchmark::State& state, const std::string& call, bool trusted) {
    umpire::LuaHost host(quiet(trusted));
    // The call path is what is measured here; a journal entry per die (about 1 us) would hide it.
    host.extension<umpire::GameLog>().set_journaling(false);
    const int n = 100000;
    const std::string code = "local s = 0 for i = 1, " + std::to_string(n) + " do s = s + " + call +
                             " end umpire.state.sum = s";
    if (const char* log = std::getenv("UMPIRE_JIT_LOG"); log && trusted) {
        const std::string start = "require('jit.v').start('" + std::string(log) + "')";
        luaL_dostring(host.state(), start.c_str());
    }
    for (auto _ : state) host.run_string(code);
    state.SetItemsProcessed(state.iterations() * n);
}

// umpire.dice.d6() through the FFI (compiled into the trace) vs umpire.dice.classic.d(6), a
// lua_CFunction (ends the trace at every call). Journaling is off for both (see run_loop).
void BM_DieFfiTrusted(benchmark::State& state) { run_loop(state, "umpire.dice.d6()", true); }
void BM_DieClassicTrusted(benchmark::State& state) { run_loop(state, "umpire.dice.classic.d(6)", true); }
void BM_DieFfiSandboxed(benchmark::State& state) { run_loop(state, "umpire.dice.d6()", false); }
void BM_DieClassicSandboxed(benchmark::State& state) { run_loop(state, "umpire.dice.classic.d(6)", false); }
BENCHMARK(BM_DieFfiTrusted)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DieClassicTrusted)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DieFfiSandboxed)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_DieClassicSandboxed)->Unit(benchmark::kMillisecond);

// A rule's inner loop: an ASL DR, a DRM pipeline of two modifiers, and an IFT-style table look-up,
// all through the fast paths (trusted). The -jv log of this loop is the one docs/performance.md
// shows: no trace aborts.
void BM_RuleLoopTrusted(benchmark::State& state) {
    umpire::LuaHost host(quiet(true));
    host.extension<umpire::GameLog>().set_journaling(false);
    const int n = 20000;
    const std::string code =
        "local ift = {} for dr = 0, 15 do ift[dr] = dr <= 4 and 'K/1' or dr <= 7 and '1MC' or '-' end\n"
        "local hits = 0\n"
        "for i = 1, " + std::to_string(n) + " do\n"
        "  local dr = umpire.dice.dr()\n"
        "  local drm = umpire.bus.modifiers('IFT DRM'):add(-1, 'FFNAM', 'A4.6'):add(3, 'TEM', 'B13.3')\n"
        "  local final = dr.total + drm:total()\n"
        "  if final > 15 then final = 15 end\n"
        "  if ift[final] ~= '-' then hits = hits + 1 end\n"
        "end\n"
        "umpire.state.hits = hits";
    if (const char* log = std::getenv("UMPIRE_JIT_LOG")) {
        const std::string start = "require('jit.v').start('" + std::string(log) + "')";
        luaL_dostring(host.state(), start.c_str());
    }
    for (auto _ : state) host.run_string(code);
    state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_RuleLoopTrusted)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
