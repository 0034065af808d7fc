// umpire.dice.d / pool / count: single dice and pools of the game's dice (core/dice/Die.hpp).
#include <algorithm>
#include <string>

#include "bindings/Game.hpp"
#include "bindings/GameLog.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/WholeNumber.hpp"
#include "bindings/wrap_dice.hpp"
#include "core/dice/Die.hpp"

namespace umpire::wrap {

// A whole number from `min` to `max` at `index`; the error names the argument and what it got
// (a pool may be empty: no hits means no damage dice, so callers choose min = 0 there).
std::uint32_t whole_number_arg(lua_State* L, int index, const char* what, lua_Integer min, lua_Integer max) {
    return static_cast<std::uint32_t>(lua::whole_number(L, index, what, min, max));
}

/// @lua umpire.dice.d(sides)
/// ---Rolls one die of `sides` faces through the game's generator (a d6 when omitted).
/// ---This is the classic C API entry; rules get the FFI fast path under the same name.
/// ---@param sides? integer
/// ---@return integer face
int die_d(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const std::uint32_t sides = lua_isnoneornil(L, 1) ? 6 : whole_number_arg(L, 1, "sides", 1, 1000000);
        lua_pushinteger(L, roll_die(Game::of(L), sides));
        return 1;
    });
}

/// @lua umpire.dice.pool(n, sides)
/// ---Rolls a pool of n dice (n >= 0) and returns the faces sorted ascending (the order of a pool
/// ---never matters, which lets the odds engine fold it by counts). pool(0) is {}.
/// ---@param n integer
/// ---@param sides? integer
/// ---@return integer[] faces
int die_pool(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const std::uint32_t n = whole_number_arg(L, 1, "pool size", 0, 1000);
        const std::uint32_t sides = lua_isnoneornil(L, 2) ? 6 : whole_number_arg(L, 2, "sides", 1, 1000000);
        Game& game = Game::of(L);
        auto faces = dice::Die::d(sides).roll_pool(game.dice(), n);
        std::sort(faces.begin(), faces.end());
        // Every die is journaled (docs/lua-api.md): one entry for the pool, its faces sorted as
        // returned and its total, so --explain and replay see it like any other roll.
        auto& log = game.extension<GameLog>();
        if (log.journaling) {
            std::vector<std::int64_t> logged(faces.begin(), faces.end());
            std::int64_t total = 0;
            for (const auto f : faces) total += f;
            const std::string expr = std::to_string(n) + "d" + std::to_string(sides);
            log.journal.roll(expr + " pool", expr, std::move(logged), total, "", {{"pool", true}});
        }
        lua_createtable(L, static_cast<int>(faces.size()), 0);
        for (std::size_t i = 0; i < faces.size(); ++i) {
            lua_pushinteger(L, faces[i]);
            lua_rawseti(L, -2, static_cast<int>(i + 1));
        }
        return 1;
    });
}

/// @lua umpire.dice.count(n, sides, target, how)
/// ---How many of n dice of `sides` faces meet the target: face >= target (how = ">=", the
/// ---default) or face <= target (how = "<="). Under `umpire odds` this is n+1 branches.
/// ---`sides` may be a die table (see umpire.dice.sum: re-rolls, explosions, custom faces), and
/// ---`target` a test function(result) -> boolean, asked once per distinct result:
/// ---`count(10, {sides = 6, reroll = {1}, once = true}, 4)` is "re-roll 1s, hit on 4+".
/// ---n may be 0 (no hits, so no damage dice): count(0, ...) is 0.
/// ---@param n integer
/// ---@param sides integer
/// ---@param target integer
/// ---@param how? '">="'|'"<="'
/// ---@return integer successes
int die_count(lua_State* L) {
    if (lua_istable(L, 2) || lua_isfunction(L, 3)) return spec_count(L);
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const std::uint32_t n = whole_number_arg(L, 1, "pool size", 0, 1000);
        const std::uint32_t sides = whole_number_arg(L, 2, "sides", 1, 1000000);
        // (luaL_checkinteger read 4.5 as 4)
        const std::int64_t target = lua::exact_integer(L, 3, "umpire.dice.count: target");
        const std::string how = lua::opt_printable(L, 4, ">=", "how");
        if (how != ">=" && how != "<=")
            throw Error("umpire.dice.count: how must be \">=\" or \"<=\", got \"" + how + "\"");
        const bool at_least = how == ">=";
        lua_pushinteger(L, roll_count(Game::of(L), n, sides, at_least ? target : 1,
                                      at_least ? sides : target));
        return 1;
    });
}

}  // namespace umpire::wrap
