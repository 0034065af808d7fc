// umpire.dice.roll: dice expressions such as "2d6+d3-1" or "4d6kh3" (core/dice/DiceExpression.hpp).
#include "bindings/GameLog.hpp"
#include "bindings/wrap_dice.hpp"
#include "core/dice/DiceExpression.hpp"

namespace umpire::wrap {

/// @lua umpire.dice.roll(expr)
/// ---Rolls a dice expression ("2d6", "D6+1", "D3+1", "3D6", "d20", "d%", "2d6+d3-1", "4d6kh3")
/// ---through the game's generator. A bad expression raises an error that points at the
/// ---offending character.
/// ---@param expr string
/// ---@return integer total
/// ---The forms of docs/dice.md are all accepted: "d6!", "d6r1", "10d6>=5", "4dF", "d66", ...
/// ---@return integer[] faces the kept dice, in the order rolled
/// ---@return string shown every die rolled in order, re-rolled or dropped ones in parentheses
int expression_roll(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 3);
        const dice::DiceExpression expression(luaL_checkstring(L, 1));
        const dice::RollResult result = expression.roll(Game::of(L).dice());
        auto& log = GameLog::of(L);
        if (log.journaling) {
            std::vector<std::int64_t> faces;
            for (const auto& face : result.faces) faces.push_back(face.value);
            log.journal.roll(expression.to_string(), expression.to_string(), std::move(faces),
                             result.total);
        }
        lua_pushinteger(L, static_cast<lua_Integer>(result.total));
        lua_createtable(L, static_cast<int>(result.faces.size()), 0);
        int n = 0;
        for (const auto& face : result.faces) {
            if (!face.kept) continue;
            lua_pushinteger(L, face.value);
            lua_rawseti(L, -2, ++n);
        }
        std::string shown;
        for (const auto& face : result.faces) {
            if (!shown.empty()) shown += ' ';
            shown += face.kept ? std::to_string(face.value) : "(" + std::to_string(face.value) + ")";
        }
        lua_pushlstring(L, shown.data(), shown.size());
        return 3;
    });
}

}  // namespace umpire::wrap
