// The cost of umpire.data being read-only (host/DataGuard.hpp): the check after each run, and
// the seal at each load, on the data of the shipped rulesets. Reported with the number of data
// tables and values walked (docs/sandbox.md, "umpire.data is read-only").
#include <benchmark/benchmark.h>

#include <string>

#include "host/DataGuard.hpp"
#include "host/LuaHost.hpp"
#include "ruleset/Load.hpp"

namespace {

umpire::HostOptions quiet() {
    umpire::HostOptions o;
    o.time_limit = 0;
    o.print = [](const std::string&) {};
    return o;
}

// Counts the tables and entries reachable from umpire.data (each table once).
void count(lua_State* L, int index, int& tables, int& values) {
    lua_getfield(L, LUA_REGISTRYINDEX, "data_guard_bench_seen");
    lua_pushvalue(L, index);
    lua_rawget(L, -2);
    const bool seen = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (seen) {
        lua_pop(L, 1);
        return;
    }
    lua_pushvalue(L, index);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    ++tables;
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        ++values;
        if (lua_istable(L, -1)) count(L, lua_gettop(L), tables, values);
        lua_pop(L, 1);
    }
}

void load_all(umpire::LuaHost& host, benchmark::State& state) {
    umpire::ruleset::load(host, {"asl", "bolt-action", "skirmish"});
    lua_State* L = host.state();
    lua_newtable(L);
    lua_setfield(L, LUA_REGISTRYINDEX, "data_guard_bench_seen");
    host.push_env();
    lua_getfield(L, -1, "umpire");
    lua_getfield(L, -1, "data");
    int tables = 0, values = 0;
    count(L, lua_gettop(L), tables, values);
    lua_pop(L, 3);
    state.counters["tables"] = tables;
    state.counters["values"] = values;
}

// After each run: one walk of the data against its copy.
void BM_DataCheckAfterRun(benchmark::State& state) {
    umpire::LuaHost host(quiet());
    load_all(host, state);
    for (auto _ : state) umpire::DataGuard::check(host, "the run");
}
BENCHMARK(BM_DataCheckAfterRun)->Unit(benchmark::kMicrosecond);

// A whole `run -e` of an empty chunk, for scale: what the check adds to.
void BM_EmptyRun(benchmark::State& state) {
    umpire::LuaHost host(quiet());
    load_all(host, state);
    for (auto _ : state) host.run_string("return nil");
}
BENCHMARK(BM_EmptyRun)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
