// The allow-list environment rules and scripts run in. See docs/sandbox.md for the choices.
#pragma once
#include <lua.hpp>

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

// Pushes the table behind a read-only view at index (or the table itself if it is not a view):
// how host code writes into what rule code may only read.
void push_writable(lua_State* L, int index);

}  // namespace umpire::sandbox
