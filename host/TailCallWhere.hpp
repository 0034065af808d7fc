#pragma once

// Where a pattern function reached through a tail call was called from (docs/sandbox.md, "A
// pattern bomb in a tail call"). Used by LuaHost::note_c_entry, whose position is the one the
// watchdog's message gives when a pattern bomb is stopped.

struct lua_State;

namespace umpire::tail_call {

/// Loads the locator into the registry. Call once per state, before the sandbox replaces the
/// standard libraries: the locator keeps the real debug library, jit.util and the string table.
void make_locator(lua_State* L);

/// Pushes "file:line: " (as luaL_where) for the running C function (level 0) when it was reached
/// through a tail call: the line of the tail call when it can be told, else the calling line
/// followed by the function that made the tail call ("in a tail call from probe (defined at line 1)
/// on line 3 or 5, ").
/// Returns false, pushing nothing, for a direct call. A field or method call by the running
/// function's own name (`s:find(p)`) is read too: `return s:find(p)` inside a function `M.find`
/// is a tail call by that name. A stop (time, memory) raised meanwhile goes on.
bool push_caller_where(lua_State* L);

/// As push_caller_where, for the C function at stack `level` (1 in a message handler), and only
/// when the function that made the tail call is rule code: of a file, or of its caller's chunk (a
/// Lua front of the host's that ends in `return c(...)` keeps its caller's line, as LuaJIT gives it).
/// For an error raised in a C function that a function Lua code called reached by a tail call
/// (`return math.floor(x)` in `g`, called as `g('x')`): LuaJIT names the line that called `g`.
bool push_rule_tail_caller_where(lua_State* L, int level);

/// Pushes "file:line: " of the tail call by which the Lua function at stack index `called`, whose
/// frame that call replaced, reached the function at index `running` (directly, or through a chain
/// of tail calls), when one line can be told; returns false, pushing nothing, otherwise. For an
/// error raised in a C function that the function the host called reached by a tail call
/// (`return math.floor(x)` in a chunk): no frame below it tells a place. Raises nothing (it is
/// called from the message handler).
bool push_called_where(lua_State* L, int running, int called);

}  // namespace umpire::tail_call
