#include "app/OddsRunner.hpp"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string_view>

#include "app/ScriptOutcome.hpp"
#include "bindings/GameLog.hpp"
#include "bindings/GameState.hpp"
#include "core/Error.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/dice/Distribution.hpp"
#include "core/odds/EnumeratingSource.hpp"
#include "core/odds/Joint.hpp"
#include "core/odds/Report.hpp"
#include "host/DataGuard.hpp"
#include "host/FileSnapshot.hpp"
#include "host/Isolation.hpp"
#include "host/Sandbox.hpp"
#include "ruleset/Load.hpp"

namespace umpire::odds_runner {
namespace {

// A DieSource owned elsewhere, handed to the host for the length of one run.
std::shared_ptr<dice::DieSource> borrowed(dice::DieSource& source) {
    return std::shared_ptr<dice::DieSource>(&source, [](dice::DieSource*) {});
}

}  // namespace

ScriptWorker::ScriptWorker(const Request& request) : host_(request.host) {
    if (!request.rulesets.empty()) ruleset::load(host_, request.rulesets);
    host_.extension<GameLog>().set_journaling(false);
    // Kept for the worker's life, to put the state back after a path that changed it.
    initial_state_.emplace(host_, "kept by each odds worker to put it back after every path");
    lua_State* L = host_.state();
    initial_state_empty_ = state_is_empty();
    host_.push_script_env();
    const int base_env = lua_gettop(L);
    // The metatable of every run's globals ({__index = the script env}), made once instead of
    // per run. Shared by the runs, so it is locked (__metatable) as the library views' are: no
    // run can change what the next one reads through it. The script env is this worker's own
    // (push_script_env makes a new one), and no run can reach it but by reading through its
    // globals (push_globals), so it holds the runs' `_G`, `load` and `loadstring`.
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, base_env);
    lua_setfield(L, -2, "__index");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    globals_meta_ = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pushvalue(L, base_env);
    script_env_ = luaL_ref(L, LUA_REGISTRYINDEX);
    const bool from_file = request.code.empty();
    label_ = script_label(request);
    const auto script_text = [&] {
        const file_snapshot::Recording recording(&host_);  // the next worker's host reads it from memory
        return LuaHost::read_file(request.script, LuaHost::kMaxCodeBytes, "a script");
    };
    load_script(from_file ? script_text() : request.code, (from_file ? "@" : "=") + label_);
    function_ = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_pop(L, 1);
    // Everything this worker reads is read: under `odds` in a worker, no file opens from here on
    // (docs/sandbox.md). The other workers of the run are made on this thread too (the exact
    // enumeration's, the Monte Carlo sampler's before it starts its threads, --compare's), from
    // the files kept in memory; the sampling threads inherit the restriction.
    isolation::close_files();
}

// Pushes the script as a function of no parameters. A chunk is a vararg function, and LuaJIT
// starts no trace at a vararg function's entry: under the JIT (--trusted, --jit) the script's own
// lines (its table constructors, its calls into the rules) ran interpreted on every sample, a
// fifth of the MG attack sample's time with --jit (docs/performance.md, "Issue 18, session 33").
// So once the text compiles as a chunk, it is compiled again as the body of `function() ... end`
// in a chunk that only makes that function. A valid chunk is a valid function body of the same
// meaning: the same statements up to the text's end, then the wrapper's `end` (on a line of its
// own, after any comment on the last line); the same lines (the wrapper's start is on line 1);
// the same chunk name, locals and env. The plain chunk is compiled first because a text that is
// no chunk may still compile wrapped (`return 1 end, function() return 2` closes the wrapper
// early), and its error is the chunk's. A chunk the wrapper cannot take (one that reads `...`,
// outside a vararg function a syntax error; a first line `#!...`, which only a chunk's start
// skips) runs as it is: an odds script is called with no arguments, so its `...` is empty.
void ScriptWorker::load_script(const std::string& code, const std::string& chunkname) {
    lua_State* L = host_.state();
    const int env = lua_gettop(L);
    host_.load_chunk(code, chunkname, env);
    try {
        host_.load_chunk("return function() " + code + "\nend", chunkname, env);
        host_.call(0, 1);
        if (lua_type(L, -1) == LUA_TFUNCTION) {
            lua_remove(L, -2);  // the plain chunk
            return;
        }
    } catch (const ScriptError&) {
    }
    lua_settop(L, env + 1);  // the plain chunk
}

bool ScriptWorker::state_is_empty() {
    lua_State* L = host_.state();
    host_.push_state();
    lua_pushnil(L);
    const bool empty = lua_next(L, -2) == 0;
    lua_settop(L, lua_gettop(L) - (empty ? 1 : 3));
    return empty;
}

// This run's globals. Reads fall through to the env the runs share; writes stay here. So that
// none reaches the shared env, `_G` is this table and `load` compiles into it: otherwise
// `_G.n = (_G.n or 0) + 1` or `load("n = 1")()` would carry from one path or sample to the next and
// change the odds. The table itself is empty: `_G`, `load` and `loadstring` are read through it
// from the script env, where this function sets them to this table and its `load` (no run can
// write there: the env's own `_G` and `load`, which reached it, are replaced before the first
// run). So a run that wrote no global leaves the table empty (globals_clean), and the next run
// takes the same one: a fresh table and `load` closure per run were ~2,500 machine instructions
// of a ~65,000-instruction MG attack sample. And a run that sets `_G` or `load` to nil reads this
// table's again. (When the three were entries of the run's table, `_G = nil` bared the env's own
// `_G`, the env itself, and `load = nil` its `load`, which compiled into it: a run could write
// through either into what every later run read.)
void ScriptWorker::push_globals() {
    lua_State* L = host_.state();
    if (globals_ != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, globals_);
        return;
    }
    lua_createtable(L, 0, 0);
    const int globals = lua_gettop(L);
    lua_rawgeti(L, LUA_REGISTRYINDEX, globals_meta_);
    lua_setmetatable(L, globals);
    lua_rawgeti(L, LUA_REGISTRYINDEX, script_env_);
    const int env = lua_gettop(L);
    lua_pushvalue(L, globals);
    lua_setfield(L, env, "_G");
    sandbox::push_load(L, globals);
    lua_pushvalue(L, -1);
    lua_setfield(L, env, "load");
    lua_setfield(L, env, "loadstring");
    lua_pop(L, 1);
    lua_pushvalue(L, globals);
    globals_ = luaL_ref(L, LUA_REGISTRYINDEX);
    function_env_is_globals_ = false;
}

void ScriptWorker::drop_globals() {
    luaL_unref(host_.state(), LUA_REGISTRYINDEX, globals_);
    globals_ = LUA_NOREF;
}

// Whether the globals table at `index` is still empty, as push_globals made it: then no run wrote
// a global that is there now, by any way (a plain global, rawset, table.insert, a chunk of `load`,
// C code writing raw), since every write lands in this table. A global written and set back to nil
// leaves no entry (lua_next skips it), so the table is clean again. Its metatable is locked, so it
// cannot have changed. One lua_next on an empty table: it walked the table's three entries
// before, comparing each by address (~740 machine instructions a sample, four lua_next).
bool ScriptWorker::globals_clean(int index) {
    lua_State* L = host_.state();
    lua_pushnil(L);
    if (lua_next(L, index) == 0) return true;
    lua_pop(L, 2);
    return false;
}

// One path of the enumeration: the script from its first line. What is dice-independent runs once
// per worker, not per path: loading the rulesets, compiling the script, the starting game state.
// What the script itself does before its first die (counters, geometry, look-ups) runs again on
// every path: a path is a fresh run because a LuaJIT continuation cannot be copied, so there is no
// resuming at the first die with another face (recording the prefix and replaying only its effects
// would need every table it built, which is the run itself). The engine keeps that cost in
// proportion to the distinct states instead: a rule written as umpire.odds.chain runs each distinct
// state's step once per path of that step's own dice (wrap_Fold.cpp), and the script around it runs
// once per distinct end state of the chain, not per path of its dice (docs/lua-api.md, "What the
// fold costs"). The per-path overhead here is the globals check above, reading the outcome (a
// result seen before is found by its key, ScriptOutcome.hpp), and, once a run has changed
// umpire.state, writing the starting state back.
odds::Outcome ScriptWorker::run(dice::DieSource& source) {
    lua_State* L = host_.state();
    const int top = lua_gettop(L);
    if (&source != borrowed_source_.get()) {
        borrowed_source_ = borrowed(source);
        // A chain's steps are checked as the fold would write their states under the exact engine
        // and in a game, not per Monte Carlo sample (docs/sandbox.md, "The attack suite", session
        // 37): asked once per source, which Monte Carlo changes once per chunk of samples.
        host_.set_checks_chain_steps(dynamic_cast<odds::EnumeratingSource*>(&source) != nullptr);
    }
    host_.set_die_source(borrowed_source_);
    if (state_touched_) host_.set_state_json(initial_state_->text());
    try {
        push_globals();
        const int globals = lua_gettop(L);
        lua_rawgeti(L, LUA_REGISTRYINDEX, function_);
        // (The script's env is set once per globals table: no run can change it, as the sandbox
        // has no setfenv.)
        if (!function_env_is_globals_) {
            lua_pushvalue(L, globals);
            lua_setfenv(L, -2);
            function_env_is_globals_ = true;
        }
        host_.call(0, 1);
        odds::Outcome outcome = read_outcome();
        if (!globals_clean(globals)) drop_globals();
        lua_settop(L, top);
        host_.set_die_source(nullptr);
        // Restoring the state costs a JSON round trip; only pay it once a run changed it. A state
        // empty at the start and still empty is unchanged without writing it out.
        if (!state_touched_ && !(initial_state_empty_ && state_is_empty()) && host_.state_json() != initial_state_->text())
            state_touched_ = true;
        return outcome;
    } catch (...) {
        // A run that failed may have written globals before it stopped.
        if (globals_ != LUA_NOREF) drop_globals();
        lua_settop(L, top);
        host_.set_die_source(nullptr);
        throw;
    }
}

// The outcome of the result on top of the stack. A result refused (NaN, an infinity, a function, a
// table with other keys) is a ScriptError at the script's line that returned it, when one line
// does (returning_line), else its file; `umpire sweep` adds the cell's parameters to it, as to
// the script's other errors. It named neither.
odds::Outcome ScriptWorker::read_outcome() {
    lua_State* L = host_.state();
    try {
        return outcomes_.read(L, lua_gettop(L));
    } catch (const ScriptError&) {
        throw;
    } catch (const Error& e) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, function_);
        const int line = returning_line(L, -1);
        lua_pop(L, 1);
        throw ScriptError(label_ + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + e.what(), label_, line);
    }
}

void ScriptWorker::check_data() { DataGuard::check(host_, label_); }

ScriptWorker::~ScriptWorker() { host_.release_memory(tally_charged_); }

// The tally is one entry per distinct outcome, so a script whose outcome never repeats (a
// counter, a fraction, a string that grows) made it grow with every path or sample, outside the
// Lua cap (docs/sandbox.md, "Memory").
void ScriptWorker::charge_tally(std::size_t bytes) {
    ++tally_outcomes_;
    if (bytes <= tally_charged_) return;
    // The Lua heap keeps its room to breathe (its garbage between two collections is about its
    // own size again, and at least a MiB): the tally may not take it, or the script's next
    // allocation, not the tally, would meet the cap and be the one blamed.
    const std::size_t lua_heap = host_.memory_used() - host_.charged_memory();
    const std::size_t breathing = std::max(lua_heap, std::size_t{1} << 20);
    const bool room = host_.charge_memory(bytes - tally_charged_ + breathing);
    if (room) host_.release_memory(breathing);
    if (!room)
        throw ScriptError(label_ + ": memory limit: the odds engine's tally of this script's distinct outcomes (" +
                              std::to_string(tally_outcomes_) + " outcomes, ~" + std::to_string((bytes >> 20) + 1) +
                              " MiB of C++ memory) would pass the Lua memory cap of " +
                              std::to_string(host_.options().memory_limit >> 20) +
                              " MiB (" + odds::kOutcomesNeverRepeat + ")",
                          label_);
    tally_charged_ = bytes;
}

odds::Result run_script(const Request& request) {
    // Each worker's data is checked when the engine drops it (the end of the exact enumeration,
    // the end of a Monte Carlo thread's batch), so the check runs once per worker, not per path.
    struct Changed {
        std::mutex mutex;
        std::string message;
    };
    const auto changed = std::make_shared<Changed>();
    const odds::ScriptFactory factory = [&request, changed]() -> odds::Script {
        std::shared_ptr<ScriptWorker> worker(new ScriptWorker(request), [changed](ScriptWorker* w) {
            try {
                w->check_data();
            } catch (const std::exception& e) {
                std::lock_guard<std::mutex> lock(changed->mutex);
                if (changed->message.empty()) changed->message = e.what();
            }
            delete w;
        });
        odds::Script script = [worker](dice::DieSource& source) { return worker->run(source); };
        script.on_memory = [worker](std::size_t bytes) { worker->charge_tally(bytes); };
        return script;
    };
    odds::Result result;
    try {
        result = odds::odds(factory, request.odds);
    } catch (const odds::MemoryLimitError& e) {
        // The engine knows no file; the line that returned the outcomes is not known by then.
        throw ScriptError(script_label(request) + ": " + e.what(), script_label(request));
    }
    if (!changed->message.empty()) throw ScriptError(changed->message);
    return result;
}

std::string script_label(const Request& request) {
    return request.code.empty() ? LuaHost::display_path(request.script) : "(odds script)";
}

void charge_report(odds::MemoryHold& hold, const std::vector<const odds::Result*>& sides, bool json,
                   double fold_below, const std::string& place) {
    std::size_t bytes = odds::report_bytes(sides, json, fold_below), outcomes = 0;
    for (const odds::Result* side : sides) {
        bytes += odds::result_bytes(*side);
        outcomes += side->outcomes.size();
    }
    try {
        hold.grow(bytes, [&] {
            return "the report of " + std::to_string(outcomes) + " distinct outcomes" + (json ? " as JSON" : "") +
                   ", with the results it is built from,";
        }, odds::kOutcomesNeverRepeat);
    } catch (const odds::MemoryLimitError& e) {
        throw ScriptError(place + ": " + e.what(), place);
    }
}

odds::Result of_expression(const std::string& expression, std::size_t bytes_per_total, std::size_t memory_limit) {
    const dice::DiceExpression parsed(expression);
    // Refused before the distribution is computed (its totals' range is known from the text).
    const auto totals = static_cast<std::uint64_t>(parsed.max() - parsed.min() + 1);
    if (totals > memory_limit / bytes_per_total)
        throw Error("memory limit: " + parsed.to_string() + " has " + std::to_string(totals) +
                    " possible totals; its distribution and the report of every total would take ~" +
                    std::to_string(totals * bytes_per_total >> 20) + " MiB, past the memory cap of " +
                    std::to_string(memory_limit >> 20) + " MiB (at most " +
                    std::to_string(memory_limit / bytes_per_total) + " totals" +
                    (bytes_per_total == kJsonBytesPerTotal ? " as JSON" : "") + "; ask a script about it instead, e.g. umpire.dice.dist(...):p(...))");
    const dice::Distribution d = parsed.distribution();
    // The result is built in its final order (totals ascending, which is Outcome order) without
    // the map of keys from_exact takes: one copy of a row fewer.
    odds::Result result;
    result.method = odds::Method::exact;
    result.outcomes.reserve(static_cast<std::size_t>(totals));
    for (const auto v : d.outcomes()) {
        odds::OutcomeStats s;
        s.outcome = odds::Outcome(static_cast<double>(v));
        s.key = s.outcome.key();
        s.exact = d.probability_equal(v);
        s.probability = s.low = s.high = s.exact.get_d();
        result.outcomes.push_back(std::move(s));
    }
    // The canonical form states what the input left implicit, such as an explosion's depth.
    result.note = "computed from the exact distribution of " + parsed.to_string() + " (convolution), no script run";
    return result;
}

odds::Result given(const odds::Result& result, const std::vector<std::string>& conditions, odds::MemoryBudget* memory,
                   const std::string& place) {
    if (conditions.empty()) return result;
    if (!result.outcomes.empty() && !result.outcomes.front().outcome.is_table())
        throw RuleError("a condition names fields of the outcome, so the script must return a table "
                        "(return {ift = ..., malfunction = ...})");
    std::vector<odds::Predicate> all;
    std::string text;
    for (const auto& c : conditions) {
        all.push_back(odds::parse_field_predicate(c));
        text += (text.empty() ? "" : " and ") + c;
    }
    const odds::Predicate every = [all](const odds::Outcome& o) {
        for (const auto& p : all)
            if (!p(o)) return false;
        return true;
    };
    const odds::Probability p = odds::probability(result, every);
    odds::Result r;
    try {
        r = odds::given(result, every, memory);
    } catch (const odds::MemoryLimitError& e) {
        throw ScriptError(place + ": " + e.what(), place);
    } catch (const RuleError&) {
        throw RuleError("the condition " + text + " never happens" +
                        (result.is_exact() ? "" : " in " + std::to_string(result.samples) + " samples") +
                        ", so there is nothing to condition on (check the field names the script returns)");
    }
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.4f%%", 100 * p.value);
    r.condition = text + " (P = " +
                  (p.is_exact ? p.exact.get_str() + ", " + percent
                              : std::string(percent) + ", " + std::to_string(p.count) + " of " +
                                    std::to_string(p.trials) + " samples") +
                  ")";
    return r;
}

}  // namespace umpire::odds_runner
