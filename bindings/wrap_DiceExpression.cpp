// umpire.dice.roll: dice expressions such as "2d6+d3-1" or "4d6kh3" (core/dice/DiceExpression.hpp).
#include <cstdio>
#include <optional>

#include "bindings/Game.hpp"
#include "bindings/GameLog.hpp"
#include "bindings/wrap_dice.hpp"
#include "core/Error.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/dice/Distribution.hpp"
#include "core/odds/EnumeratingSource.hpp"

namespace umpire::wrap {

namespace {

// Under `umpire odds` a roll is folded: one branch per total (with its exact probability), not
// one per sequence of faces, so "10d6>=5" is 11 branches instead of 6^10 paths. The faces of such
// a roll do not exist, so roll() returns, in place of its faces and its shown string, a value
// that raises an error naming the expression on any use (index, length, concatenation,
// tostring), rather than an empty table that a loop would silently read as "no dice".
constexpr const char* kFoldedFaces = "umpire.dice.roll: folded faces";
constexpr std::size_t kExpressionChars = 96;

int folded_faces_used(lua_State* L) {
    // The folded value is the first argument, or the second of a binary event ('x' .. shown).
    const int at = lua_type(L, 1) == LUA_TUSERDATA ? 1 : 2;
    const char* expression = static_cast<const char*>(lua_touserdata(L, at));
    if (!expression) expression = "?";
    return luaL_error(L,
                      "umpire.dice.roll(\"%s\"): under umpire odds only its total is enumerated (one "
                      "branch per total), so its faces are not known; roll the dice with "
                      "umpire.dice.pool to branch on faces",
                      expression);
}

void push_folded_faces(lua_State* L, const std::string& expression) {
    auto* text = static_cast<char*>(lua_newuserdata(L, kExpressionChars));
    std::snprintf(text, kExpressionChars, "%s", expression.c_str());
    if (luaL_newmetatable(L, kFoldedFaces)) {
        for (const char* event : {"__index", "__newindex", "__len", "__concat", "__tostring", "__call", "__lt", "__le"}) {
            lua_pushcfunction(L, folded_faces_used);
            lua_setfield(L, -2, event);
        }
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
    }
    lua_setmetatable(L, -2);
}

// The expression's exact distribution when the game's dice are the odds engine's, else none (a
// game rolls the dice themselves; and an expression too large to compute exactly is enumerated
// die by die, as before).
std::optional<dice::Distribution> folding_distribution(Game& game, const dice::DiceExpression& expression) {
    if (!dynamic_cast<odds::EnumeratingSource*>(&game.dice())) return std::nullopt;
    try {
        return expression.distribution();
    } catch (const RuleError&) {
        return std::nullopt;
    }
}

}  // namespace

/// @lua umpire.dice.roll(expr)
/// ---Rolls a dice expression ("2d6", "D6+1", "D3+1", "3D6", "d20", "d%", "2d6+d3-1", "4d6kh3")
/// ---through the game's generator. A bad expression raises an error that points at the
/// ---offending character.
/// ---@param expr string
/// ---@return integer total
/// ---The forms of docs/dice.md are all accepted: "d6!", "d6r1", "10d6>=5", "4dF", "d66", ...
/// ---@return integer[] faces the kept dice, in the order rolled
/// ---@return string shown every die rolled in order, re-rolled or dropped ones in parentheses
/// ---Under `umpire odds` a roll is one branch per total: its faces and shown string are then not
/// ---known, and using them is an error that says so (use umpire.dice.pool to branch on faces).
int expression_roll(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 3);
        const dice::DiceExpression expression(lua::check_printable(L, 1, "the dice expression"));
        Game& game = Game::of(L);
        dice::RollResult result;
        bool rolled = true;
        if (const auto exact = folding_distribution(game, expression)) {
            rolled = false;
            result.total = game.dice().folded(*exact, [&](dice::DieSource& source) {
                result = expression.roll(source);
                rolled = true;
                return result.total;
            });
        } else {
            result = expression.roll(game.dice());
        }
        if (!rolled) {
            lua_pushinteger(L, static_cast<lua_Integer>(result.total));
            push_folded_faces(L, expression.to_string());
            push_folded_faces(L, expression.to_string());
            return 3;
        }
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
