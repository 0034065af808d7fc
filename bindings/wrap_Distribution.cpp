// umpire.dice.dist: exact distributions (core/dice/Distribution.hpp) as a Lua userdata.
// Probabilities cross into Lua twice: as a double for arithmetic and as the exact fraction in a
// string ("3/36" reduced to "1/12"), because a Lua number cannot hold 6^40.
#include <new>
#include <string>

#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/LuaLibrary.hpp"
#include "bindings/WholeNumber.hpp"
#include "bindings/wrap_dice.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/dice/Distribution.hpp"

namespace umpire::wrap {
namespace {

constexpr const char* kMeta = "umpire.Distribution";

dice::Distribution& check_distribution(lua_State* L, int arg) {
    return *static_cast<dice::Distribution*>(luaL_checkudata(L, arg, kMeta));
}

void push_distribution(lua_State* L, dice::Distribution d);
void check_room(lua_State* L, std::int64_t min, std::int64_t max);

void push_fraction(lua_State* L, const mpq_class& p) {
    lua_pushnumber(L, p.get_d());
    lua_pushstring(L, p.get_str().c_str());
}

/// @lua Distribution:p(op, value)
/// ---The exact probability that the outcome compares to `value` by `op`
/// ---("==", "<", "<=", ">", ">=").
/// ---@param op string
/// ---@param value integer
/// ---@return number probability
/// ---@return string fraction exact, reduced ("1/12")
int distribution_p(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 2);
        const auto& d = check_distribution(L, 1);
        const std::string op = lua::check_printable(L, 2, "Distribution:p: op");
        // A whole number: luaL_checkinteger read p(">=", 4.5) as p(">=", 4), NaN as -2^63.
        const std::int64_t v = lua::exact_integer(L, 3, "Distribution:p: value");
        mpq_class p;
        if (op == "==") p = d.probability_equal(v);
        else if (op == "<") p = d.probability_less(v);
        else if (op == "<=") p = d.probability_at_most(v);
        else if (op == ">") p = d.probability_greater(v);
        else if (op == ">=") p = d.probability_at_least(v);
        else throw Error("Distribution:p: op must be one of == < <= > >=, got \"" + op + "\"");
        push_fraction(L, p);
        return 2;
    });
}

/// @lua Distribution:outcomes()
/// ---Every possible outcome in ascending order with its weight over the common denominator,
/// ---its exact fraction and its probability.
/// ---@return {value: integer, weight: string, fraction: string, probability: number}[]
int distribution_outcomes(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto& d = check_distribution(L, 1);
        const auto values = d.outcomes();
        lua_createtable(L, static_cast<int>(values.size()), 0);
        int i = 0;
        for (const auto v : values) {
            lua_createtable(L, 0, 4);
            lua_pushinteger(L, static_cast<lua_Integer>(v));
            lua_setfield(L, -2, "value");
            lua_pushstring(L, d.weight(v).get_str().c_str());
            lua_setfield(L, -2, "weight");
            push_fraction(L, d.probability_equal(v));
            lua_setfield(L, -3, "fraction");
            lua_setfield(L, -2, "probability");
            lua_rawseti(L, -2, ++i);
        }
        return 1;
    });
}

/// @lua Distribution:mean()
/// ---The expected value.
/// ---@return number mean
/// ---@return string fraction exact
int distribution_mean(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 2);
        push_fraction(L, check_distribution(L, 1).mean());
        return 2;
    });
}

int distribution_tostring(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua_pushstring(L, check_distribution(L, 1).to_string().c_str());
        return 1;
    });
}

/// @lua Distribution + Distribution
/// ---The distribution of the sum of two independent outcomes (convolution); a number shifts it.
int distribution_add(lua_State* L) {
    return lua::lua_guard(L, [&] {
        // A shift is a whole number within 2^53 (the doubles rule code counts in are exact there);
        // the distribution's own check refuses a total past int64.
        if (lua_isnumber(L, 1)) {
            push_distribution(L, check_distribution(L, 2).shift(lua::exact_integer(L, 1, "a number added to a distribution")));
        } else if (lua_isnumber(L, 2)) {
            push_distribution(L, check_distribution(L, 1).shift(lua::exact_integer(L, 2, "a number added to a distribution")));
        } else {
            const auto& a = check_distribution(L, 1);
            const auto& b = check_distribution(L, 2);
            check_room(L, a.min() + b.min(), a.max() + b.max());
            Game::of(L).note_long_call(L, "a distribution's +");
            push_distribution(L, a.plus(b));
        }
        return 1;
    });
}

// The C++ bytes a distribution holds, as charged to the game's memory cap: its weights are GMP
// integers (a header plus limbs each); 32 bytes of limbs per weight is the estimate (a 40d6
// weight has 2-3 limbs), and the limbs of huge weights are the rare case it undercounts.
std::size_t heap_bytes_of(std::int64_t min, std::int64_t max) {
    const auto n = static_cast<std::size_t>(max - min + 1);
    return n * (sizeof(mpz_class) + 32);
}
std::size_t heap_bytes(const dice::Distribution& d) { return heap_bytes_of(d.min(), d.max()); }

[[noreturn]] void refuse_outcomes(std::int64_t min, std::int64_t max) {
    throw Error("memory limit: a distribution of " + std::to_string(max - min + 1) + " outcomes (~" +
                std::to_string(heap_bytes_of(min, max) >> 20) +
                " MiB) would pass the Lua memory cap (distributions count against it)");
}

// Before a distribution of totals min..max is computed: refused if its result could not be kept,
// so the computation's own memory (about the result's size again) is never spent on it.
void check_room(lua_State* L, std::int64_t min, std::int64_t max) {
    Game& game = Game::of(L);
    const std::size_t bytes = heap_bytes_of(min, max);
    if (!game.charge_memory(bytes)) refuse_outcomes(min, max);
    game.release_memory(bytes);
}

// The userdata holds the Distribution and, after it, the bytes charged for it.
std::size_t& charged(void* memory) {
    return *reinterpret_cast<std::size_t*>(static_cast<char*>(memory) + sizeof(dice::Distribution));
}

int distribution_gc(lua_State* L) {
    void* memory = lua_touserdata(L, 1);
    check_distribution(L, 1).~Distribution();
    Game::of(L).release_memory(charged(memory));
    return 0;
}

// The method names Lua sees.
const luaL_Reg kMethods[] = {
    {"p", distribution_p},
    {"outcomes", distribution_outcomes},
    {"mean", distribution_mean},
    {nullptr, nullptr},
};

void push_distribution(lua_State* L, dice::Distribution d) {
    static_assert(sizeof(dice::Distribution) % alignof(std::size_t) == 0);
    void* memory = lua_newuserdata(L, sizeof(dice::Distribution) + sizeof(std::size_t));
    const std::size_t bytes = heap_bytes(d);
    if (!Game::of(L).charge_memory(bytes)) refuse_outcomes(d.min(), d.max());
    new (memory) dice::Distribution(std::move(d));
    charged(memory) = bytes;
    static const luaL_Reg metamethods[] = {
        {"__tostring", distribution_tostring},
        {"__add", distribution_add},
        {"__gc", distribution_gc},
        {nullptr, nullptr},
    };
    lua::set_metatable(L, kMeta, kMethods, metamethods);
}

}  // namespace

/// @lua umpire.dice.dist(expr)
/// ---The exact distribution of a dice expression (arbitrary precision: 40d6 stays exact).
/// ---@param expr string
/// ---@return Distribution
int distribution_of(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        // (a pool of 20,000 terms, or 1000d1000000!>=2{100}, computes for minutes, its bounds
        // too: at the time limit the process is ended, and this is the place its message gives)
        Game::of(L).note_long_call(L, "umpire.dice.dist");
        const dice::DiceExpression expression(lua::check_printable(L, 1, "the dice expression"));
        check_room(L, expression.min(), expression.max());
        push_distribution(L, expression.distribution());
        return 1;
    });
}

}  // namespace umpire::wrap
