// The allow-list environment rules and scripts run in. See docs/sandbox.md for the choices.
#pragma once
#include <lua.hpp>

#include <string>

namespace umpire::sandbox {

// Once per lua_State, before any rule code runs: strips what must not be reachable even through
// the string metatable (string.dump), hides that metatable, and builds the deterministic
// pairs/next from the prelude. `jit`: rule code runs with the JIT on (trusted, or sandboxed with
// --jit), and so do pairs/next, which run inside it; otherwise they are interpreted like it.
void init(lua_State* L, bool trusted, bool jit);

// Pushes a new globals table holding only allowed functions (fresh copies of the library
// tables, so one generation's monkey-patching cannot leak into the next). `_G` is the table
// itself. Does not add `umpire`; the host does.
void push_env(lua_State* L);

// Pushes the sandbox's `load` (also `loadstring`) bound to the env at absolute index `env`:
// chunks it compiles run in that env. A per-run globals table of the odds worker gets its own,
// so no chunk a run loads can write into the env the runs share (app/OddsRunner.cpp).
void push_load(lua_State* L, int env);

// Replaces table[field] (if it is a table) with a read-only view of it: reads go through, writes
// and rawset are errors naming `display` ("umpire.dice"). See Sandbox.cpp.
void make_read_only(lua_State* L, int table, const char* field, const char* display);

// After a run (and at the end of a load): empties every read-only view of the state and returns
// the first key found in one ("umpire[1]", "string.format"), or "" when all were empty, as they
// must be. A view's own table stays empty through assignments and the sandbox's rawset; a raw write
// that got past them (LuaJIT's table.insert, which is raw: `table.insert(umpire, x)`) would shadow
// the real table's field for every ruleset of the state and pass a value to every later run.
// Cost: a next() per view. Allocates nothing but the message.
std::string clear_views(lua_State* L);

// What a run that left a key in a view is told after its path.
constexpr const char* kViewsWhy =
    "the libraries and umpire are read-only views shared by every ruleset and run: a ruleset cannot change them for "
    "the others";

// Pushes the table behind a read-only view at index (or the table itself if it is not a view):
// how host code writes into what rule code may only read.
void push_writable(lua_State* L, int index);

}  // namespace umpire::sandbox
