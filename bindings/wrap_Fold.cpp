// umpire.odds.chain: rule code that advances in steps (a ROF shot, a re-roll, an explosion, a
// turn), played step by step in a game and folded over its distinct states under `umpire odds`
// (core/odds/Fold.hpp).
//
// In play (the game's generator, fixed dice, Monte Carlo) chain is a plain loop: step until stop
// or max_steps. Under the exact odds engine (the game's die source is an EnumeratingSource) it
// folds instead: the state goes to canonical JSON (bindings/GameState.hpp), each distinct state's
// step is enumerated alone, equal states merge, and the distinct end states come back to the
// script as one weighted choice of the enumeration, so the rest of the script runs once per end
// state rather than once per path of dice. A chain's `first` step (a first shot unlike the later
// ones) is folded with it (odds::fold_after_first) rather than run by the script before the chain,
// which would re-run the script once per path of that step times the chain's end states.
//
// The script around the chain is still re-run once per path of the outer enumeration, so the fold
// is cached for the length of one odds run, keyed by what the chain can depend on: the call site,
// the initial state, max_steps and epsilon, and a fingerprint of the step and stop functions (their
// code (bytecode, constants and lines), and their upvalues: plain values and small plain-data tables by
// content, tables that are not plain data by their entries (hexes by coordinates; tables with
// another metatable, such as the read-only views of the rules' data, by identity), functions
// recursively), and the globals of the odds run they read. So a per-run map or Fire Lane captured by
// the step hits the cache on every path of the outer enumeration; what is too large or deep is keyed
// by identity (see Print for when that is not sound).
#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>
#include <memory>
#include <string>
#include <string_view>

#include "bindings/Game.hpp"
#include "bindings/GameState.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/LuaLibrary.hpp"
#include "bindings/RawWrite.hpp"
#include "bindings/ReadOnlyData.hpp"
#include "bindings/api_modules.hpp"
#include "core/odds/EnumeratingSource.hpp"
#include "core/odds/Fold.hpp"

namespace umpire {
namespace {

// Names a chain's state in the memory error of its JSON text (bindings/GameState.hpp).
constexpr const char* kChainState = "the state of umpire.odds.chain";

// Plain-data tables larger than this are fingerprinted by identity, not content (umpire.data).
constexpr std::size_t kContentKeyLimit = 16 * 1024;

// A fold's key as it is written: the text, and whether finding the key again is sound. The cache
// keeps a fold for the rest of the odds run, and a later path of the outer enumeration finds it by
// this key; so the key must hold what the chain's steps read that may differ between paths: a
// value, a table's entries, a function's code and upvalues, and the globals of an odds run a
// function reads (fingerprint_env). Where such globals are too many to write, the key is unsound:
// still written (the fold within one path is exact), but the fold is not kept, and every path
// folds the chain again.
//
// Identity is still what a table too large or too deep, a table with another metatable, a
// function past the depth limit, a userdata or a coroutine count by. That is sound for what is
// made afresh on every path (another identity: a miss) and for what cannot change (a C function,
// the read-only views, umpire.data), but not for a table or closure made once, in a module, that
// the script changes before the chain: the first path's end states are then given to every path
// (left open, session 38: docs/sandbox.md says why; marking those keys unsound made the shipped
// `odds_mmg_rof_kia.lua` take 3-4 s where it takes 0.1 s, since its steps reach weak tables,
// userdata and module functions past the limits).
struct Print {
    std::string& key;
    bool sound = true;
    // The globals tables written in this key, so each is written once (every function of a
    // script shares one, and a global function is written within it).
    std::vector<const void*> envs{};
};

void fingerprint(lua_State* L, int index, int depth, Print& print);

// The entries of the table at `index`, raw (each key and value fingerprinted, sorted, so the
// order of next() does not matter), as "T{...}"; false if they pass kContentKeyLimit.
bool raw_entries(lua_State* L, int index, int depth, Print& print) {
    std::vector<std::string> entries;
    std::size_t size = 0;
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        std::string entry;
        Print inner{entry, true, std::move(print.envs)};
        fingerprint(L, -2, depth + 1, inner);
        entry += "=";
        fingerprint(L, -1, depth + 1, inner);
        print.envs = std::move(inner.envs);
        print.sound = print.sound && inner.sound;
        lua_pop(L, 1);
        size += entry.size();
        if (size > kContentKeyLimit) {
            lua_pop(L, 1);  // the key next() was walking
            return false;
        }
        entries.push_back(std::move(entry));
    }
    std::sort(entries.begin(), entries.end());
    print.key += "T{";
    for (const auto& entry : entries) print.key += entry + ";";
    print.key += "}";
    return true;
}

// A table that is not plain data (it holds hexes, functions, tables of the rules), by content:
// a hex by its coordinates, any other table with a metatable by identity, a table without one by
// its entries. Rule code builds such tables afresh on every path of the outer enumeration (a map,
// a Fire Lane with its hexes), and a step that captures them must still find its fold in the
// cache. False if the table is too deep or too large (the caller falls back to identity).
bool table_content(lua_State* L, int index, int depth, Print& print) {
    if (depth > 6 || !lua_checkstack(L, 6)) return false;
    if (read_only_data::has_other_metatable(L, index)) {
        lua_getmetatable(L, index);
        luaL_getmetatable(L, "umpire.Hex");
        const bool hex = lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (!hex) return false;
        lua_getfield(L, index, "q");
        lua_getfield(L, index, "r");
        print.key += "h" + std::to_string(lua_tointeger(L, -2)) + "," + std::to_string(lua_tointeger(L, -1));
        lua_pop(L, 2);
        return true;
    }
    return raw_entries(L, index, depth, print);
}

// The globals a Lua function reads (its environment), when they are an odds run's: a step that
// reads a global the script set before the chain (`bonus = umpire.dice.d(2)`) was given the first
// path's end states on every path (session 38). A run's globals table starts empty and reads
// through a locked metatable to the libraries (app/OddsRunner.cpp, push_globals), so its own
// entries are what the run wrote: usually none, one lua_next. A module's globals (ruleset/
// Ruleset.cpp: a table without a metatable, the allow-list and what its module bodies set) are
// not written: walking them on every path cost the shipped rules' chains their cache (left open:
// docs/sandbox.md, session 38). Written once per key.
void fingerprint_env(lua_State* L, int index, int depth, Print& print) {
    lua_getfenv(L, index);
    if (!lua_istable(L, -1) || lua_rawequal(L, -1, LUA_GLOBALSINDEX) || !lua_getmetatable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_pop(L, 1);  // the metatable
    const void* env = lua_topointer(L, -1);
    const auto seen = std::find(print.envs.begin(), print.envs.end(), env);
    if (seen != print.envs.end()) {
        print.key += "E" + std::to_string(seen - print.envs.begin());
    } else {
        print.envs.push_back(env);
        print.key += "G";
        if (!raw_entries(L, lua_gettop(L), depth, print)) print.sound = false;
    }
    lua_pop(L, 1);
}

// lua_dump's writer: appends each piece of a function's bytecode to the key.
int append_dump(lua_State*, const void* piece, std::size_t size, void* key) {
    static_cast<std::string*>(key)->append(static_cast<const char*>(piece), size);
    return 0;
}

// Appends the code of the Lua function at `index` as a number: each distinct bytecode (lua_dump,
// with its constants, inner functions, chunk name and lines) gets the next number of its Lua
// state, in a registry table of dumps; each closure's number is kept in a table with weak keys (it
// goes with the closure, whose code never changes), so a step made once is dumped once, and the
// cache's keys stay short.
void append_code(lua_State* L, int index, std::string& key) {
    static const char kTables = 0;  // the registry key: this address
    lua_pushlightuserdata(L, const_cast<char*>(&kTables));
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_createtable(L, 2, 0);
        lua_newtable(L);  // [1]: closure -> number, weak keys
        lua_createtable(L, 0, 1);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_rawseti(L, -2, 1);
        lua_newtable(L);  // [2]: dump -> number
        lua_rawseti(L, -2, 2);
        lua_pushlightuserdata(L, const_cast<char*>(&kTables));
        lua_pushvalue(L, -2);
        lua_rawset(L, LUA_REGISTRYINDEX);
    }
    const int tables = lua_gettop(L);
    lua_rawgeti(L, tables, 1);
    lua_pushvalue(L, index);
    lua_rawget(L, -2);
    if (!lua_isnumber(L, -1)) {
        lua_pop(L, 1);
        std::string code;
        lua_pushvalue(L, index);
        lua_dump(L, append_dump, &code);
        lua_pop(L, 1);
        lua_rawgeti(L, tables, 2);
        lua_pushlstring(L, code.data(), code.size());
        lua_pushvalue(L, -1);
        lua_rawget(L, -3);
        if (!lua_isnumber(L, -1)) {
            lua_pop(L, 1);
            lua_pushnumber(L, static_cast<lua_Number>(lua_objlen(L, -2) + 1));  // count kept at [n]
            lua_pushvalue(L, -2);
            lua_pushvalue(L, -2);
            lua_rawset(L, -5);  // dump -> number
            lua_pushvalue(L, -1);
            lua_rawseti(L, -4, static_cast<int>(lua_tonumber(L, -1)));  // [number] = number: the count
        }
        lua_pushvalue(L, index);
        lua_pushvalue(L, -2);
        lua_rawset(L, tables + 1);  // closure -> number
    }
    key += std::to_string(static_cast<long long>(lua_tonumber(L, -1)));
    lua_settop(L, tables - 1);
}

// Appends a fingerprint of the value at `index` to the key (see Print and the paragraph at the top).
void fingerprint(lua_State* L, int index, int depth, Print& print) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    std::string& key = print.key;
    char buffer[64];
    switch (lua_type(L, index)) {
        case LUA_TNIL: key += "nil"; return;
        case LUA_TBOOLEAN: key += lua_toboolean(L, index) ? "true" : "false"; return;
        case LUA_TNUMBER:
            std::snprintf(buffer, sizeof buffer, "%.17g", lua_tonumber(L, index));
            key += buffer;
            return;
        case LUA_TSTRING: {
            std::size_t length = 0;
            const char* text = lua_tolstring(L, index, &length);
            key += std::to_string(length) + ":" + std::string(text, length);
            return;
        }
        case LUA_TTABLE: {
            if (const auto json = game_state::try_canonical_json(L, index, kContentKeyLimit)) {
                key += "t" + *json;
                return;
            }
            if (table_content(L, index, depth, print)) return;
            break;  // too large or too deep, or another metatable: identity below (Print: left open)
        }
        case LUA_TFUNCTION: {
            if (lua_iscfunction(L, index)) break;  // C code, by identity
            if (depth > 3 || !lua_checkstack(L, 6)) break;  // by identity (the depth limit: above)
            // The code itself: its bytecode, constants and inner functions, with its chunk name
            // and lines (lua_dump keeps the debug information). Its source and first line alone
            // made two functions defined on one line (a list of steps, `{function(s) ... end,
            // function(s) ... end}`, chunks loaded under one name) one step to the cache: a chain
            // called with the second at the same call site answered with the first's end states.
            // Each closure's dump is kept in a weak-keyed registry table, so a step made once (in
            // a rules module) is dumped once, not on every path of the outer enumeration.
            key += "f";
            append_code(L, index, key);
            key += "(";
            for (int i = 1; lua_getupvalue(L, index, i) != nullptr; ++i) {
                fingerprint(L, -1, depth + 1, print);
                key += ",";
                lua_pop(L, 1);
            }
            key += ")";
            fingerprint_env(L, index, depth, print);
            return;
        }
        default: break;
    }
    std::snprintf(buffer, sizeof buffer, "%s@%p", luaL_typename(L, index), lua_topointer(L, index));
    key += buffer;
}

// The folds of the odds runs of this game, by enumeration (its source id) and fingerprint. A fold
// nested in a step belongs to the fresh enumeration of that step and does not disturb the outer one.
// Each end state's chain table is decoded from its JSON once, on the first path that chooses it,
// and kept in a Lua table of this cache (registry reference `decoded`, slot per end state); every
// later path gets a copy of it, which costs a fraction of decoding the JSON again. Only the
// current enumeration's end states are kept: a new enumeration (another source id) starts a new
// table, so the tables of past runs go to the collector instead of growing the live heap that every
// collection walks (kept for every run, they made a run of many short enumerations twice as slow).
//
// The cache lives on the C++ heap (each fold's key, which holds the chain's initial state and the
// fingerprint of its functions, and its end-state texts with their fractions), and a script that
// calls a chain from ever new states grows it by one fold per call: so each fold's bytes are
// charged against the game's memory cap when it is kept, and given back when the cache is
// emptied or dropped (docs/sandbox.md, "Memory").
struct FoldCache {
    explicit FoldCache(Game& game) : game(game) {}
    ~FoldCache() { game.release_memory(charged); }
    FoldCache(const FoldCache&) = delete;
    FoldCache& operator=(const FoldCache&) = delete;
    static constexpr std::size_t kMaxEntries = 100000;  // then start again (memory, not correctness)
    struct Entry {
        std::vector<std::string> states;
        std::shared_ptr<const odds::EnumeratingSource::Choice> choice;
        std::vector<int> slots;  // per end state: its slot in `decoded`, 0 until decoded
        std::uint64_t generation = 0;  // the `decoded` table the slots refer to
        std::size_t bytes = 0;         // charged for this fold
    };
    Game& game;
    std::size_t charged = 0;  // bytes of `folds` charged to the game's memory cap
    std::map<std::string, Entry> folds;
    int decoded = LUA_NOREF;  // a Lua table (sequence) of decoded end states
    std::uint64_t decoded_for = 0;  // the enumeration (source id) whose end states `decoded` holds
    std::uint64_t generation = 1;   // counts the `decoded` tables made
    std::uint64_t unsound = 0;      // counts the folds whose key was unsound (Print), to make each unique
    int next_slot = 0;

    // Drops the decoded end states (the Lua table that held them goes to the collector).
    void forget_decoded(lua_State* L) {
        luaL_unref(L, LUA_REGISTRYINDEX, decoded);
        decoded = LUA_NOREF;
        ++generation;
        next_slot = 0;
    }
    // Empties the cache.
    void clear(lua_State* L) {
        folds.clear();
        game.release_memory(charged);
        charged = 0;
        forget_decoded(L);
    }
    // Charges the fold just kept at `it`, or drops it and refuses the call past the cap. The folds
    // of other enumerations (keys not starting with `current`) are dropped first if that makes room.
    void charge(std::map<std::string, Entry>::iterator it, const std::string& current);
    // Empties the cache and refuses the call: `kept` folds held the cap, `more` bytes were asked.
    [[noreturn]] void refuse(std::size_t kept, std::size_t more);
    // Pushes a fresh copy of end state `index` of `entry`'s chain table.
    void push_end_state(lua_State* L, Entry& entry, std::size_t index);
};

struct ChainSpec {
    int state = 0, step = 0, stop = 0, first = 0;  // stack indices (stop and first may be 0: none)
    std::uint32_t max_steps = 100;
    double epsilon = 0;
};

ChainSpec read_spec(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    ChainSpec spec;
    lua_getfield(L, 1, "state");
    spec.state = lua_gettop(L);
    if (!lua_istable(L, spec.state))
        throw Error("umpire.odds.chain: 'state' must be a table of plain data (the chain's whole state)");
    lua_getfield(L, 1, "step");
    spec.step = lua_gettop(L);
    if (!lua_isfunction(L, spec.step)) throw Error("umpire.odds.chain: 'step' must be a function(state) -> next state");
    lua_getfield(L, 1, "stop");
    if (lua_isfunction(L, -1)) spec.stop = lua_gettop(L);
    else if (!lua_isnil(L, -1)) throw Error("umpire.odds.chain: 'stop' must be a function(state) -> boolean, or absent");
    lua_getfield(L, 1, "first");
    if (lua_isfunction(L, -1)) spec.first = lua_gettop(L);
    else if (!lua_isnil(L, -1)) throw Error("umpire.odds.chain: 'first' must be a function(state) -> next state, or absent");
    // A number, not text that reads as one: `max_steps = "3"` was taken as 3 (lua_tonumber
    // converts strings), which a typo'd spec should not be.
    lua_getfield(L, 1, "max_steps");
    if (!lua_isnil(L, -1)) {
        const lua_Number n = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
        if (!(n >= 0 && n <= 1e6 && n == static_cast<lua_Integer>(n)))
            throw Error("umpire.odds.chain: 'max_steps' must be a whole number from 0 to 1000000");
        spec.max_steps = static_cast<std::uint32_t>(n);
    }
    lua_getfield(L, 1, "epsilon");
    if (!lua_isnil(L, -1)) {
        spec.epsilon = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : -1;
        if (!(spec.epsilon >= 0 && spec.epsilon < 1)) throw Error("umpire.odds.chain: 'epsilon' must be a number in [0, 1)");
    }
    return spec;
}

// stop(state) for the table on top of the stack (left there).
bool stopped(Game& game, const ChainSpec& spec) {
    if (!spec.stop) return false;
    lua_State* L = game.state();
    lua_pushvalue(L, spec.stop);
    lua_pushvalue(L, -2);
    game.call(1, 1);
    const bool result = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return result;
}

// Replaces the state table on top of the stack by step(state), `step` being the function at that
// stack index (the chain's step or its first step): the value it returns, or the same table
// (changed in place) if it returns nothing.
void run_step(Game& game, int step) {
    lua_State* L = game.state();
    lua_pushvalue(L, step);
    lua_pushvalue(L, -2);
    game.call(1, 1);
    if (lua_isnil(L, -1)) lua_pop(L, 1);
    else lua_remove(L, -2);
    if (!lua_istable(L, -1)) throw Error("umpire.odds.chain: step must return the next state (a table) or nothing");
}

// The JSON text of the state on top of the stack, which the step function at stack index `step`
// returned or left: the fold's key for it, and in play its check. A state the writer refuses (a
// cycle, a function, NaN, ...) is refused naming the step by the place it was defined at, the
// same words in a game and under `odds`.
std::string step_state_json(Game& game, int step) {
    lua_State* L = game.state();
    try {
        return game_state::to_canonical_json(L, -1, &game, kChainState);
    } catch (const Error& e) {
        if (std::string_view(e.what()).starts_with("memory limit:")) throw;  // the cap's own words
        lua_Debug defined;
        lua_pushvalue(L, step);
        std::string place = "?";
        if (lua_getinfo(L, ">S", &defined)) place = std::string(defined.short_src) + ":" + std::to_string(defined.linedefined);
        throw Error("umpire.odds.chain: the state left by the step defined at " + place + ": " + e.what());
    }
}

// In play: the loop itself. Leaves the end state and the truncated flag as the two results.
//
// Each state is checked as the fold writes it: a state with a cycle (or a function, NaN, ...) ran
// as a plain loop in a game and was refused under `umpire odds`, so a script worked in one and not
// the other. The initial state is checked to be a tree (a state that is no tree is given to the
// fold's writer, whose error is the one `odds` gives, word for word); each step's state is written
// by the fold's writer (step_state_json), except while Monte Carlo samples are drawn
// (Game::checks_chain_steps): there the writing would cost as much as the step (the MG attack's
// state holds the whole fire spec), and the exact engine checks them.
int play(Game& game, const ChainSpec& spec) {
    lua_State* L = game.state();
    if (!game_state::is_tree(L, spec.state)) game_state::to_canonical_json(L, spec.state, &game, kChainState);
    const bool check = game.checks_chain_steps();
    lua_pushvalue(L, spec.state);
    if (spec.first) {
        run_step(game, spec.first);
        if (check) step_state_json(game, spec.first);
    }
    std::uint32_t steps = 0;
    bool done = stopped(game, spec);
    while (!done && steps < spec.max_steps) {
        run_step(game, spec.step);
        if (check) step_state_json(game, spec.step);
        ++steps;
        done = stopped(game, spec);
    }
    lua_pushboolean(L, !done);
    return 2;
}

std::string game_state_json(Game& game) {
    lua_State* L = game.state();
    game.push_state();
    std::string json = game_state::to_canonical_json(L, -1, &game);
    lua_pop(L, 1);
    return json;
}

// Pushes a deep copy of the plain-data table at `index` (no cycles or shared tables: it came from
// canonical JSON). Copying a table is several times cheaper than parsing its JSON again, and each
// live state is copied once per path of its step.
void push_copy(lua_State* L, int index) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    lua_checkstack(L, 8);
    // Sized up front: a table grown one field at a time is rehashed at every power of two.
    const int length = static_cast<int>(lua_objlen(L, index));
    int fields = 0;
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        ++fields;
        lua_pop(L, 1);
    }
    lua_createtable(L, length, fields - length > 0 ? fields - length : 0);
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        lua_pushvalue(L, -2);  // key
        if (lua_istable(L, -2)) push_copy(L, -2);
        else lua_pushvalue(L, -2);
        lua_rawset(L, -5);
        lua_pop(L, 1);  // value
    }
}

// Replaces the contents of umpire.state with `json` (the table keeps its identity).
void set_game_state(Game& game, const std::string& json) {
    lua_State* L = game.state();
    game.push_state();
    try {
        game_state::replace_from_json(L, -1, json);
    } catch (...) {
        lua_pop(L, 1);
        throw;
    }
    lua_pop(L, 1);
}

// A fold state is the chain's state and the game state (umpire.state) together, as canonical
// JSON joined by a newline (canonical JSON never holds a raw newline): rules keep their game state
// in umpire.state, so a step that moves a vehicle or marks a counter there folds like one that
// only changes its chain state.
std::pair<std::string, std::string> split(const std::string& both) {
    const auto cut = both.find('\n');
    return {both.substr(0, cut), both.substr(cut + 1)};
}

// Under the exact odds engine: fold, then hand the end states to the enumeration as one choice.
int fold(Game& game, const ChainSpec& spec, odds::EnumeratingSource& outer) {
    lua_State* L = game.state();
    const std::string initial = game_state::to_canonical_json(L, spec.state, &game, kChainState) + "\n" + game_state_json(game);
    std::string key = std::to_string(outer.id()) + "#";
    luaL_where(L, 1);
    key += lua_tostring(L, -1);
    lua_pop(L, 1);
    key += "|" + initial + "|" + std::to_string(spec.max_steps) + "|" + std::to_string(spec.epsilon) + "|";
    Print print{key};
    fingerprint(L, spec.step, 0, print);
    key += "|";
    if (spec.stop) fingerprint(L, spec.stop, 0, print);
    key += "|";
    if (spec.first) fingerprint(L, spec.first, 0, print);
    // An unsound key is made unique: the fold runs afresh, and is dropped once used (below).
    auto& cache = game.extension<FoldCache>();
    if (!print.sound) key += "|unsound " + std::to_string(++cache.unsound);

    if (cache.folds.size() >= FoldCache::kMaxEntries) cache.clear(L);
    if (cache.decoded_for != outer.id()) {
        cache.forget_decoded(L);
        cache.decoded_for = outer.id();
    }
    auto it = cache.folds.find(key);
    const bool fresh = it == cache.folds.end();
    if (fresh) {
        const auto source = game.die_source();  // the outer enumeration, put back after each step
        // luaL_where's "file:line: " ends in a separator, and the fold's messages add their own
        // (it read "at (odds script):1: : more than ..."): the place alone, or none if unknown.
        std::string where = key.substr(key.find('#') + 1, key.find('|') - key.find('#') - 1);
        while (!where.empty() && (where.back() == ' ' || where.back() == ':')) where.pop_back();
        if (!where.empty()) where = " at " + where;
        odds::FoldOptions options;
        options.max_steps = spec.max_steps;
        options.epsilon = mpq_class(spec.epsilon);
        options.name = "the step of umpire.odds.chain" + where;
        options.first_name = "the first step of umpire.odds.chain" + where;
        // A fold state is two JSON texts on two lines (split, below): an error shows the chain's
        // state, and umpire.state only when the rules keep something there.
        options.describe = [](const std::string& state) {
            const auto [chain, game_json] = split(state);
            return game_json == "{}" ? chain : chain + " with umpire.state " + game_json;
        };
        // Each live state's chain table, decoded once (a registry reference) and copied per path;
        // and what umpire.state holds now, so an unchanged game state is not written again.
        std::map<std::string, int> templates;
        std::string current_game = game_state_json(game);
        struct Unref {
            lua_State* L;
            std::map<std::string, int>& refs;
            ~Unref() { for (const auto& [state, ref] : refs) luaL_unref(L, LUA_REGISTRYINDEX, ref); }
        } unref{L, templates};
        // The fold's state maps (core/odds/Fold.hpp: on_memory) and the texts of `templates` live on
        // the C++ heap: charged against the Lua memory cap while the fold runs (docs/sandbox.md,
        // "Memory"), so a chain whose states never repeat ends in a clear error, not in swap.
        std::size_t charged = 0, templates_bytes = 0;
        struct Release {
            Game& game;
            std::size_t& charged;
            ~Release() { game.release_memory(charged); }
        } release{game, charged};
        options.on_memory = [&](std::size_t bytes) {
            bytes += templates_bytes;
            if (bytes > charged && !game.charge_memory(bytes - charged)) {
                // The cache of earlier folds filled the cap: that is the growth to name.
                if (cache.charged > bytes) cache.refuse(cache.folds.size(), bytes);
                throw RuleError("memory limit: umpire.odds.chain: its distinct states take ~" +
                                std::to_string((bytes >> 20) + 1) +
                                " MiB of C++ memory, which would pass the Lua memory cap (a state that never "
                                "repeats, such as a counter without end?)");
            }
            if (bytes < charged) game.release_memory(charged - bytes);
            charged = bytes;
        };
        // Puts the game in a fold state: umpire.state as it stood there (written only if it
        // differs), and a fresh copy of its chain table pushed.
        const auto enter = [&](const std::string& state) {
            const auto [chain, game_json] = split(state);
            if (game_json != current_game) {
                set_game_state(game, game_json);
                current_game = game_json;
            }
            auto found = templates.find(chain);
            if (found == templates.end()) {
                game_state::push_from_json(L, chain);
                found = templates.emplace(chain, luaL_ref(L, LUA_REGISTRYINDEX)).first;
                templates_bytes += chain.capacity() + 64;
            }
            lua_rawgeti(L, LUA_REGISTRYINDEX, found->second);
            push_copy(L, -1);
            lua_remove(L, -2);
        };
        // One run of the step function at stack index `function` from `state`, with `dice`.
        const auto run = [&](int function, const std::string& state, dice::DieSource& dice) {
            const int top = lua_gettop(L);
            game.set_die_source(std::shared_ptr<dice::DieSource>(&dice, [](dice::DieSource*) {}));
            try {
                enter(state);
                run_step(game, function);
                std::string next_chain = step_state_json(game, function);
                current_game = game_state_json(game);
                std::string next = next_chain + "\n" + current_game;
                lua_settop(L, top);
                game.set_die_source(source);
                return next;
            } catch (...) {
                lua_settop(L, top);
                game.set_die_source(source);
                throw;
            }
        };
        const odds::FoldStep step = [&](const std::string& state, dice::DieSource& dice) {
            return run(spec.step, state, dice);
        };
        const odds::FoldStop stop = [&](const std::string& state) {
            const int top = lua_gettop(L);
            enter(state);
            const bool result = stopped(game, spec);
            lua_settop(L, top);
            return result;
        };
        odds::FoldResult result;
        if (spec.first) {
            const odds::FoldStep first = [&](const std::string& state, dice::DieSource& dice) {
                return run(spec.first, state, dice);
            };
            result = odds::fold_after_first(initial, first, step, stop, options);
        } else {
            result = odds::fold(initial, step, stop, options);
        }
        auto choice = std::make_shared<odds::EnumeratingSource::Choice>();
        choice->what = "the end states of umpire.odds.chain at " + where;
        std::vector<std::string> states;
        for (const auto& s : result.states) {
            states.push_back(s.state);
            choice->probabilities.push_back(s.probability);
            choice->truncated.push_back(s.truncated);
        }
        std::vector<int> slots(states.size(), 0);
        it = cache.folds.emplace(key, FoldCache::Entry{std::move(states), std::move(choice), std::move(slots)}).first;
    }
    // Charged once the fold's own charge is given back (its Release above), so the two do not add.
    if (fresh) cache.charge(it, std::to_string(outer.id()) + "#");
    FoldCache::Entry& entry = it->second;
    const std::size_t index = outer.choose(entry.choice);
    const auto [chain_json, game_json] = split(entry.states[index]);
    set_game_state(game, game_json);
    const bool truncated = entry.choice->truncated[index];
    if (print.sound) {
        cache.push_end_state(L, entry, index);
    } else {
        // Never found again (its key is unique): decoded here, and dropped.
        game_state::push_from_json(L, chain_json);
        game.release_memory(entry.bytes);
        cache.charged -= entry.bytes;
        cache.folds.erase(it);
    }
    lua_pushboolean(L, truncated);
    return 2;
}

// An estimate, as for the fold's own maps (core/odds/Fold.cpp): the texts, and per end state its
// fraction (an mpq_class and its limbs), slot and flag; per fold its map node and Entry.
void FoldCache::refuse(std::size_t kept, std::size_t more) {
    const std::size_t held = charged;
    // The run ends here; what the cache held is given back, so the host has its room again.
    clear(game.state());
    throw RuleError("memory limit: umpire.odds.chain: the end states kept for the rest of the odds run (" +
                    std::to_string(kept) + " folds, ~" + std::to_string((held >> 20) + 1) +
                    " MiB of C++ memory) and this fold (~" + std::to_string((more >> 20) + 1) +
                    " MiB) would pass the Lua memory cap (a chain started from ever new states, such as a "
                    "counter in its state?)");
}

void FoldCache::charge(std::map<std::string, Entry>::iterator it, const std::string& current) {
    Entry& entry = it->second;
    std::size_t bytes = it->first.capacity() + sizeof(Entry) + 256;
    for (std::size_t i = 0; i < entry.states.size(); ++i)
        bytes += entry.states[i].capacity() + sizeof(std::string) + sizeof(mpq_class) + 48 + sizeof(int) + 1;
    bool refused = !game.charge_memory(bytes);
    if (refused) {
        // Folds of past enumerations (a host that ran odds before) are never hit again.
        for (auto other = folds.begin(); other != folds.end();)
            if (other->first.compare(0, current.size(), current) != 0) {
                game.release_memory(other->second.bytes);
                charged -= other->second.bytes;
                other = folds.erase(other);
            } else {
                ++other;
            }
        refused = !game.charge_memory(bytes);
    }
    if (refused) refuse(folds.size() - 1, bytes);
    charged += bytes;
    entry.bytes = bytes;
}

void FoldCache::push_end_state(lua_State* L, Entry& entry, std::size_t index) {
    if (entry.generation != generation) {
        std::fill(entry.slots.begin(), entry.slots.end(), 0);
        entry.generation = generation;
    }
    if (decoded == LUA_NOREF) {
        lua_newtable(L);
        decoded = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, decoded);
    if (entry.slots[index] == 0) {
        game_state::push_from_json(L, split(entry.states[index]).first);
        entry.slots[index] = ++next_slot;
        lua_rawseti(L, -2, entry.slots[index]);
    }
    lua_rawgeti(L, -1, entry.slots[index]);
    push_copy(L, -1);
    lua_replace(L, -3);
    lua_pop(L, 1);
}

/// @lua umpire.odds.chain(spec)
/// ---Runs rule code that advances in steps (a ROF shot, a re-roll, an explosion, a turn) from
/// ---`spec.state` until `spec.stop(state)` is true or `spec.max_steps` steps have run. A
/// ---`spec.first` step, if given, runs once before the chain and is not counted in max_steps or
/// ---epsilon (a first shot that differs from the later ones): the same as calling it and then the
/// ---chain with its result, but folded, so the script runs once per end state. In a game
/// ---it is a plain loop. Under `umpire odds` it folds: each distinct state's step is enumerated
/// ---once and equal states merge, so a chain of n steps costs n times its distinct states, not
/// ---the product of every step's dice. The state must be plain data (like umpire.state); the
/// ---fold tracks umpire.state with it, and a step may read only those, its dice and the rules:
/// ---see docs/lua-api.md.
/// ---@param spec {state: table, step: fun(state: table): table?, stop?: fun(state: table): boolean, first?: fun(state: table): table?, max_steps?: integer, epsilon?: number}
/// ---@return table state the end state
/// ---@return boolean truncated true if max_steps (or, under odds, epsilon) cut the chain short
int l_chain(lua_State* L) {
    return lua::lua_guard(L, [&] {
        Game::require_main_thread(L, "umpire.odds.chain");
        const ChainSpec spec = read_spec(L);
        Game& game = Game::of(L);
        if (auto* outer = dynamic_cast<odds::EnumeratingSource*>(&game.dice()); outer && game.folding())
            return fold(game, spec, *outer);
        return play(game, spec);
    });
}

/// @lua umpire.odds.write_back(into, from, keep)
/// ---Makes the table `into` (one the caller holds, such as a unit or an MG) equal to `from` (the
/// ---chain's end state for it): fields `from` lacks are removed, the others copied. The field
/// ---named `keep`, when given, is left as it is (e.g. an MG's Fire Lane, which holds hexes and so
/// ---is not part of the state). Raw access: metamethods are not called. `into` may not be a
/// ---library, a table of `umpire` or of `umpire.data` (each is read-only).
/// ---@param into table
/// ---@param from table
/// ---@param keep? string
int l_write_back(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checktype(L, 2, LUA_TTABLE);
    // Raw writes get past a read-only view's __newindex (bindings/RawWrite.hpp).
    if (const char* why = raw_write::refusal(L, 1)) return luaL_error(L, "umpire.odds.write_back: %s", why);
    const bool has_keep = !lua_isnoneornil(L, 3);
    lua_settop(L, 3);
    const auto is_kept = [&](int key_index) { return has_keep && lua_rawequal(L, key_index, 3); };
    // Clearing a field during lua_next is allowed (assigning new ones is not), so the removal
    // walks `into` while the copy walks `from`.
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawget(L, 2);
        const bool absent = lua_isnil(L, -1);
        lua_pop(L, 1);
        if (absent && !is_kept(-1)) {
            lua_pushvalue(L, -1);
            lua_pushnil(L);
            lua_rawset(L, 1);
        }
    }
    lua_pushnil(L);
    while (lua_next(L, 2)) {
        if (is_kept(-2)) {
            lua_pop(L, 1);
            continue;
        }
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, 1);
    }
    return 0;
}

const luaL_Reg kOddsFunctions[] = {
    {"chain", l_chain},
    {"write_back", l_write_back},
    {nullptr, nullptr},
};

}  // namespace

void open_odds(lua_State* L) { lua::set_library(L, -1, "odds", kOddsFunctions); }

}  // namespace umpire
