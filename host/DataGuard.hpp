// DataGuard: umpire.data is read-only to rule code, checked once per run.
//
// Why not a read-only view, as for the libraries: LuaJIT (Lua 5.1, built without 5.2
// compatibility) calls __newindex only for absent keys and never calls __len on a table, so a
// proxy table would make `#umpire.data.x.list` 0 without an error (a silent change of results),
// and a userdata proxy would break type(), unpack, table.concat and the state writer. So the data
// tables stay the real, plain tables. At the seal each one without a metatable gets a shared,
// locked one (bindings/ReadOnlyData.hpp) whose __newindex refuses a new key at once; every other
// write is found by comparing the tables with a copy after each run.
//
// The algorithm. seal() takes a reference copy of the whole data tree once per load, right after
// the data files are loaded and before any rule code runs: every table reachable from umpire.data
// gets an index (breadth first, keys in pairs() order: booleans, numbers, strings, so the first
// changed path reported is always the same), and its entries are kept in C++ (booleans, numbers
// bit for bit, strings by their bytes, tables by index; any other value -- the host's
// umpire.data.scenario -- by identity through a registry anchor that also keeps every data table
// alive). verify() walks the copy: each recorded key is looked up raw in its live table and
// compared; then the live table's keys are counted, so an added key shows as one key too many,
// and its metatable is compared. A write anywhere (an existing key changed or removed, a key
// added, table.insert/remove/sort, rawset, setmetatable, a subtable replaced) changes one of
// these. Cost: one raw look-up per data value and one next() per live key, per run.
//
// On a change, restore() puts every table back in place from the copy (same tables, so a module
// that captured a subtable sees the clean one too), and the run is refused with the changed path.
// After every run, changed or not, the caches rule code keeps of answers worked out from the data
// are emptied (umpire.data_cache, bindings/DataCaches.hpp): they key on the tables' identity,
// which a restore keeps, so they could not tell that a run changed the data, whether the guard put
// it back or the run did.
#pragma once
#include <lua.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace umpire {

class Game;
class LuaHost;

class DataGuard {
public:
    explicit DataGuard(Game& game);
    ~DataGuard();
    DataGuard(const DataGuard&) = delete;
    DataGuard& operator=(const DataGuard&) = delete;

    // Takes the reference copy of the data table at `index` ("umpire.data" in messages). The copy's
    // C++ memory is charged against the Lua memory cap while it is kept.
    //
    // With `reuse` (the stack index of another sealed root, 0 for none), a table that root's copy
    // holds already is not walked again: its entries are copied from that copy (they are in
    // pairs() order there), in the same breadth-first order as a walk, so the result is the copy a
    // walk would take of tables equal to what was sealed. It is the copy of what was sealed, not of
    // what the tables hold now: the caller must verify the new root before it trusts the tables
    // (a reload does, after its rule code; ruleset/Ruleset.cpp).
    void seal(lua_State* L, int index, int reuse = 0);

    // The first changed path ("umpire.data.ift.columns[3]") of the sealed tree whose root is the
    // table at `index`, or "" when nothing changed or that table was never sealed.
    std::string verify(lua_State* L, int index);
    // Puts the sealed tree rooted at `index` back as it was sealed (no-op if never sealed).
    void restore(lua_State* L, int index);
    // Is the table at `index` the root of a kept seal (so that verify and restore cover it)?
    bool sealed(lua_State* L, int index);
    // Sets root[key] of the sealed root at `index` to the value at `value` and makes the copy
    // expect it, without sealing again: for a function of the root (the host's
    // umpire.data.scenario) that a reload replaces while it keeps the data tables. Only a value
    // kept by identity (a function, userdata) replaces one kept by identity; otherwise, or if
    // `index` is no sealed root, or root[key] was not sealed, nothing changes and it returns false.
    // Allocates nothing Lua could refuse (the key and its anchor slot exist), so a failed load
    // can put the old value back while it handles a memory error.
    bool replace_value(lua_State* L, int index, const char* key, int value);

    // After a run: verifies the committed generation's umpire.data; on a change restores it and
    // throws ScriptError "<who> changed umpire.data.x[3] (data is read-only; copy it first)".
    // Either way it empties the data caches (umpire.data_cache).
    // Runs inside LuaHost::protect (the walk may allocate).
    static void check(LuaHost& host, const std::string& who);
    // After a run that failed anyway (call it while handling that run's error): restores the
    // data if it changed, never throws a change. If the data cannot be put back even with the cap
    // raised, the host is made unusable and a ScriptError says so after the run's own error.
    static void restore_quietly(LuaHost& host);

    // The path of a sealed data table ("umpire.data.ift.columns"), "" if it is not one.
    static std::string path_of(lua_State* L, int index);

private:
    struct Snapshot;
    // Verifies and restores the committed data (see DataGuard.cpp); the first changed path.
    static std::string put_back(LuaHost& host);
    Snapshot* find(lua_State* L, int index);

    Game& game_;
    // Two seals at most: a load generation that fails after its seal must not leave the
    // committed generation's data unguarded, so a new seal drops the oldest one that is not the
    // committed generation's (failed loads in a row dropped it before).
    std::vector<std::unique_ptr<Snapshot>> snapshots_;
};

}  // namespace umpire
