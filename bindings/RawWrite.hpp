// The tables rule code may read and never write, as a raw write (lua_rawset) would reach them:
// the read-only views of the libraries and of `umpire` (host/Sandbox.cpp makes them; their
// metatable carries kViewMarker) and the tables of umpire.data (bindings/ReadOnlyData.hpp).
//
// A view is an empty table whose metatable reads through to the real one and refuses writes in
// __newindex; a raw write skips __newindex and puts the key into the view's own table, where it
// shadows the real field for every ruleset of the Lua state and every later run (the views are
// made once per state). So every C function that writes raw into a table rule code hands it (the
// sandbox's rawset, umpire.odds.write_back) asks refusal() first. Until session 37,
// `umpire.odds.write_back(string, {format = f})` in one ruleset's module replaced string.format
// for asl loaded beside it, and `write_back(umpire, {cite = f})` emptied its citations.
#pragma once
#include <lua.hpp>

#include "bindings/ReadOnlyData.hpp"

namespace umpire::raw_write {

// The field of a view's (hidden) metatable that marks it as one.
constexpr const char* kViewMarker = "umpire.read_only";

// Is the table at index a read-only view?
inline bool is_view(lua_State* L, int index) {
    if (!lua_getmetatable(L, index)) return false;
    lua_getfield(L, -1, kViewMarker);
    const bool view = lua_toboolean(L, -1);
    lua_pop(L, 2);
    return view;
}

// Why the table at index must not be written raw, or nullptr when it may be.
inline const char* refusal(lua_State* L, int index) {
    if (!lua_getmetatable(L, index)) return nullptr;
    lua_getfield(L, -1, kViewMarker);
    const bool view = lua_toboolean(L, -1);
    lua_getfield(L, -2, read_only_data::kMarker);
    const bool data = lua_toboolean(L, -1);
    lua_pop(L, 3);
    if (view) return "this table is a read-only view";
    if (data) return "umpire.data is read-only (copy it first, and change the copy)";
    return nullptr;
}

}  // namespace umpire::raw_write
