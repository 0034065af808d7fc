// umpire.table.point / distance / bearing: points in inches (core/table/Vec2.hpp).
#include <cmath>
#include <string>

#include "bindings/LuaError.hpp"
#include "bindings/wrap_table.hpp"

namespace umpire::wrap {

table::Point check_point(lua_State* L, int arg) {
    if (!lua_istable(L, arg)) luaL_argerror(L, arg, "point expected: a table {x=, y=} in inches");
    lua_getfield(L, arg, "x");
    lua_getfield(L, arg, "y");
    if (!lua_isnumber(L, -2) || !lua_isnumber(L, -1))
        luaL_argerror(L, arg, "point expected: numeric fields x and y (inches)");
    const table::Point p{lua_tonumber(L, -2), lua_tonumber(L, -1)};
    lua_pop(L, 2);
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) throw Error("a point must have finite x and y");
    return p;
}

void push_point(lua_State* L, table::Point p) {
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, p.x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, p.y);
    lua_setfield(L, -2, "y");
}

void push_indices(lua_State* L, const std::vector<std::size_t>& indices) {
    lua_createtable(L, static_cast<int>(indices.size()), 0);
    for (std::size_t i = 0; i < indices.size(); ++i) {
        lua_pushinteger(L, static_cast<lua_Integer>(indices[i] + 1));
        lua_rawseti(L, -2, static_cast<int>(i + 1));
    }
}

/// @lua umpire.table.point(x, y)
/// ---A point on the table, in inches (x to the right, y away from the player).
/// ---@param x number
/// ---@param y number
/// ---@return {x: number, y: number}
int vec_point(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        push_point(L, {luaL_checknumber(L, 1), luaL_checknumber(L, 2)});
        return 1;
    });
}

/// @lua umpire.table.distance(a, b)
/// ---Centre-to-centre distance between two points, in inches.
/// ---@param a {x: number, y: number}
/// ---@param b {x: number, y: number}
/// ---@return number
int vec_distance(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushnumber(L, table::distance(check_point(L, 1), check_point(L, 2)));
        return 1;
    });
}

/// @lua umpire.table.bearing(from, to)
/// ---The direction from one point to another, in degrees: 0 = +x, counter-clockwise, [0, 360).
/// ---@param from {x: number, y: number}
/// ---@param to {x: number, y: number}
/// ---@return number
int vec_bearing(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushnumber(L, table::bearing(check_point(L, 1), check_point(L, 2)));
        return 1;
    });
}

}  // namespace umpire::wrap
