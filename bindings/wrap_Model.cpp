// umpire.table.edge_distance / nearest_each / in_arc / rotation_into_arc: models on round bases
// (core/table/Model.hpp, Arc.hpp). Bolt Action measures base edge to base edge.
#include <string>

#include "bindings/LuaError.hpp"
#include "bindings/wrap_table.hpp"
#include "core/table/Arc.hpp"

namespace umpire::wrap {

table::Model check_model(lua_State* L, int arg) {
    table::Model m;
    m.centre = check_point(L, arg);
    lua_getfield(L, arg, "base_mm");
    if (!lua_isnil(L, -1)) m.base_mm = luaL_checknumber(L, -1);
    lua_getfield(L, arg, "facing");
    if (!lua_isnil(L, -1)) m.facing = luaL_checknumber(L, -1);
    lua_pop(L, 2);
    table::validate(m);
    return m;
}

std::vector<table::Model> check_models(lua_State* L, int arg) {
    if (lua_isnoneornil(L, arg)) return {};
    luaL_checktype(L, arg, LUA_TTABLE);
    std::vector<table::Model> models;
    const int n = static_cast<int>(lua_objlen(L, arg));
    for (int i = 1; i <= n; ++i) {
        lua_rawgeti(L, arg, i);
        models.push_back(check_model(L, lua_gettop(L)));
        lua_pop(L, 1);
    }
    return models;
}

/// @lua umpire.table.edge_distance(a, b)
/// ---Base edge to base edge distance between two models, in inches (0 if the bases touch).
/// ---@param a {x: number, y: number, base_mm?: number}
/// ---@param b {x: number, y: number, base_mm?: number}
/// ---@return number
int model_edge_distance(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushnumber(L, table::edge_distance(check_model(L, 1), check_model(L, 2)));
        return 1;
    });
}

/// @lua umpire.table.nearest_each(models, targets)
/// ---For every model of `models`, the nearest model of `targets`, base edge to base edge, in one
/// ---call: the distances are exactly edge_distance's, and a tie goes to the first such target
/// ---(as a loop keeping the strictly smaller distance). `targets` must not be empty.
/// ---@param models {x: number, y: number, base_mm?: number}[]
/// ---@param targets {x: number, y: number, base_mm?: number}[]
/// ---@return number[] distances per model, in inches
/// ---@return integer[] indices per model: the nearest target's 1-based index in `targets`
int model_nearest_each(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 2);
        luaL_checktype(L, 1, LUA_TTABLE);
        luaL_checktype(L, 2, LUA_TTABLE);
        const auto models = check_models(L, 1);
        const auto targets = check_models(L, 2);
        const auto nearest = table::nearest_each(models, targets);
        const int n = static_cast<int>(nearest.size());
        lua_createtable(L, n, 0);
        lua_createtable(L, n, 0);
        for (int i = 0; i < n; ++i) {
            lua_pushnumber(L, nearest[i].distance);
            lua_rawseti(L, -3, i + 1);
            lua_pushinteger(L, static_cast<lua_Integer>(nearest[i].index + 1));
            lua_rawseti(L, -2, i + 1);
        }
        return 2;
    });
}

/// @lua umpire.table.in_arc(origin, facing, half_angle, target)
/// ---Is target within `half_angle` degrees either side of `facing`, seen from origin? A target
/// ---with a base_mm is in when any part of its base is (a Fixed weapon's arc is 45 either side).
/// ---@param origin {x: number, y: number}
/// ---@param facing number degrees
/// ---@param half_angle number degrees
/// ---@param target {x: number, y: number, base_mm?: number}
/// ---@return boolean
int model_in_arc(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto origin = check_point(L, 1);
        const double facing = luaL_checknumber(L, 2), half = luaL_checknumber(L, 3);
        lua_getfield(L, 4, "base_mm");
        const bool has_base = !lua_isnil(L, -1);
        lua_pop(L, 1);
        const bool in = has_base ? table::in_arc(origin, facing, half, check_model(L, 4))
                                 : table::in_arc(origin, facing, half, check_point(L, 4));
        lua_pushboolean(L, in);
        return 1;
    });
}

/// @lua umpire.table.rotation_into_arc(origin, facing, half_angle, target)
/// ---The smallest signed turn (degrees, counter-clockwise positive) that brings target into the
/// ---arc; 0 if it is already in (Fixed weapons: Advance = rotate, then fire).
/// ---@return number
int model_rotation_into_arc(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushnumber(L, table::rotation_into_arc(check_point(L, 1), luaL_checknumber(L, 2),
                                                   luaL_checknumber(L, 3), check_model(L, 4)));
        return 1;
    });
}

}  // namespace umpire::wrap
