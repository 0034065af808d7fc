// The two shapes every wrap file repeats, written once: a table of functions set as a field of
// the table on top of the stack (umpire.hex = {...}), and the metatable of a userdata type
// (methods in __index, metamethods, and a __metatable string so rules cannot swap them).
#pragma once
#include <lua.hpp>

#include "bindings/LuaError.hpp"

namespace umpire::lua {

// Sets table_index[field] = a new table holding `functions` (the one table choosing the names
// Lua sees). Leaves the stack as it found it.
inline void set_library(lua_State* L, int table_index, const char* field, const luaL_Reg* functions) {
    StackCheck check(L, 0);
    if (table_index < 0) table_index = lua_gettop(L) + table_index + 1;
    lua_newtable(L);
    luaL_register(L, nullptr, functions);
    lua_setfield(L, table_index, field);
}

// Gives the value on top of the stack the metatable `name`, creating it on first use with
// `methods` as __index and `metamethods` ({"__tostring", f}, {"__gc", g}, ...) set directly.
inline void set_metatable(lua_State* L, const char* name, const luaL_Reg* methods,
                          const luaL_Reg* metamethods) {
    StackCheck check(L, 0);
    if (luaL_newmetatable(L, name)) {
        if (methods) {
            lua_newtable(L);
            luaL_register(L, nullptr, methods);
            lua_setfield(L, -2, "__index");
        }
        luaL_register(L, nullptr, metamethods);
        lua_pushstring(L, name);
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
}

}  // namespace umpire::lua
