// The metatable that marks the tables of umpire.data as read-only (host/DataGuard.hpp puts it
// on them at each load): __newindex refuses a new key at once, __metatable locks it. To the
// rest of the host these tables are still plain data: the game-state writer stores them and the
// fold fingerprints them by content, as before they carried it.
#pragma once
#include <lua.hpp>

namespace umpire::read_only_data {

// The registry name of the metatable (luaL_newmetatable), and the field the sandbox's rawset
// looks for.
constexpr const char* kMetatable = "umpire.data.read_only";
constexpr const char* kMarker = "umpire.read_only_data";

// Does the table at index have a metatable other than the read-only data one?
inline bool has_other_metatable(lua_State* L, int index) {
    if (!lua_getmetatable(L, index)) return false;
    luaL_getmetatable(L, kMetatable);
    const bool other = !lua_rawequal(L, -1, -2);
    lua_pop(L, 2);
    return other;
}

}  // namespace umpire::read_only_data
