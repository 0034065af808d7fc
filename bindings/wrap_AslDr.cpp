// umpire.dice.dr: an ASL Dice Roll with the coloured and white dice kept apart (core/dice/AslDr.hpp).
#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/wrap_dice.hpp"
#include "core/dice/AslDr.hpp"

namespace umpire::wrap {

/// @lua umpire.dice.dr()
/// ---Rolls an ASL DR: the coloured die first, then the white die. `total` is the Original DR
/// ---(before any DRM); `doubles` is true when both dice show the same face.
/// ---@return {colored: integer, white: integer, total: integer, doubles: boolean}
int asl_dr(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const dice::AslDr dr = roll_dr(Game::of(L));
        lua_createtable(L, 0, 4);
        lua_pushinteger(L, dr.colored);
        lua_setfield(L, -2, "colored");
        lua_pushinteger(L, dr.white);
        lua_setfield(L, -2, "white");
        lua_pushinteger(L, dr.total());
        lua_setfield(L, -2, "total");
        lua_pushboolean(L, dr.doubles());
        lua_setfield(L, -2, "doubles");
        return 1;
    });
}

}  // namespace umpire::wrap
