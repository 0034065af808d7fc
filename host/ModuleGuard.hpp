// ModuleGuard: no ruleset changes another's rules modules, checked after the load and each run.
//
// umpire.rules holds every loaded ruleset's module tables, and rule code of any ruleset can reach
// them: without a guard, `umpire.rules.ift.resolve_column = f` in a second ruleset loaded beside
// asl made asl's attacks call f (session 36). A read-only view of each module (as for the
// libraries, host/Sandbox.hpp) refused that at the write, but every `umpire.rules.x.f` then took
// two __index steps through LuaJIT's C metamethod path: +4,500 instructions (+20%) for an MG
// attack's Monte Carlo sample, whose rule code makes about 40 such look-ups. So, as for
// umpire.data (host/DataGuard.hpp), the tables stay plain and a change is found afterwards.
//
// The algorithm. After each ruleset's modules load, seal() keeps a record of each of its module
// tables (every key and value in next() order, and the metatable), in a Lua table kept in the
// hidden, locked metatable of that load's umpire.rules (so a dropped generation takes its records
// with it); the end of the load seals umpire.rules itself, as the loader left it, and checks them
// all. check() walks each live table with next() beside its record and compares pair for pair by
// identity: a table nothing wrote to gives the same pairs in the same order, so the walk passes
// it with no look-up (before, each field was looked up in the live table from a copy, and the
// live keys counted in a second walk). One that fails the walk (changed, or only its pairs in
// another order, as after keys added and removed again) gets the exact comparison: each recorded
// key looked up raw in the live table, the live keys counted (an added key shows as one too
// many), the metatable compared. A change is put back from the record and reported by its path;
// either way the table is recorded again as it now is. The end of a load skips the walk of the
// last ruleset's modules when no validate() ran after their seal (no rule code ran that could
// change them). Shallow: a module's own plain subtables (a table of constants, a memo) are its
// business; what another ruleset could replace -- a function in a module, a module in
// umpire.rules -- is on the top level. Cost: one lua_next and two identity comparisons per
// module field, per check (asl: about 450), never per look-up.
//
// Not in Lua: the walks written in Lua (measured in session 37) cost as much as the C API
// interpreted (an interpreted bytecode is ~12 instructions, rawequal a C function: ~400 a field
// against lua_next's ~100), and a third of it compiled, but the traces compiled in each new
// state, the first of its load, made a cold start 3-4% slower in CPU time (+0.6 M instructions,
// the rest the first trace's machine code), against a cold-start target met by a few percent.
//
// So a module's table is fixed once its ruleset has loaded, for its own code too: a module that
// kept counters in its own table's fields would be refused. Rule state goes in umpire.state, and
// answers worked out from data in umpire.data_cache() (docs/lua-api.md).
#pragma once
#include <lua.hpp>

#include <string>

namespace umpire::module_guard {

// What the error of a change says after its path.
constexpr const char* kWhy =
    "a ruleset's modules are fixed once it has loaded, so that no ruleset changes another's "
    "functions: a house rule replaces a module by a module of the same name that extends it";

// Keeps the record of the table at `table` ("umpire.rules.<name>" in messages as `path`) under
// the real umpire.rules at `rules`. `table` equal to `rules` seals umpire.rules itself. With
// `expected` (a stack index, 0 for none), the record is of the table there instead of `table` as
// it is now: the loader seals umpire.rules as holding exactly the modules it put there, so that
// the check finds what rule code did to it while the rules loaded.
void seal(lua_State* L, int rules, int table, const std::string& path, int expected = 0);

// How many tables are sealed under `rules` so far (umpire.rules itself included once sealed).
int sealed(lua_State* L, int rules);

// The first changed path ("umpire.rules.ift.resolve_column") of the tables sealed under `rules`,
// or "" when nothing changed or nothing was sealed. Each changed table is put back as it was
// sealed. With `untouched_from` (1-based, 0 for none), the module tables sealed at that position
// or later are taken as sealed without a walk: the caller knows that no rule code has run since
// their seal (the loader, when no validate() ran after the last ruleset's modules; umpire.rules
// itself is always checked). Allocates (raises Lua errors on memory): call it where the host
// protects its calls.
std::string check(lua_State* L, int rules, int untouched_from = 0);

}  // namespace umpire::module_guard
