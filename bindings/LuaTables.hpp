// Two table chores the host's bookkeeping repeats, written once: a weak-keyed table kept in the
// registry (DataMarks' marks, the data caches), and emptying a table in place (the data guard's
// restore, the data caches).
#pragma once
#include <lua.hpp>

namespace umpire::lua {

// Pushes the weak-keyed registry table `name` (its keys do not keep the tables they name alive),
// creating it on first use.
inline void push_weak_keyed(lua_State* L, const char* name) {
    lua_getfield(L, LUA_REGISTRYINDEX, name);
    if (!lua_isnil(L, -1)) return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, name);
}

// Removes every key of the table at `index` (raw; its metatable stays). Allocates nothing:
// clearing an existing field during a traversal is allowed by next().
inline void clear_table(lua_State* L, int index) {
    if (index < 0 && index > LUA_REGISTRYINDEX) index = lua_gettop(L) + index + 1;
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_pushnil(L);
        lua_rawset(L, index);
    }
}

}  // namespace umpire::lua
