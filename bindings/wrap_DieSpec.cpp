// umpire.dice.sum / keep, and umpire.dice.count with a die description or a test function: pools
// of dice as dice libraries describe them (core/dice/DieSpec.hpp). In a game each rolls its real
// dice and journals every face; under `umpire odds` each is one folded roll: a branch per distinct
// result with its exact probability, never a branch per sequence of faces.
//
// A die is a number of sides, or a table:
//   {sides = 6}  {faces = {1, 1, 2, 3, 5, 8}}  {fudge = true}
//   plus reroll = {1} (until it shows another face), once = true (re-roll once only),
//   explode = {6} (roll again and add), depth = 10 (explosions at most; default 10).
#include <set>
#include <string>

#include "bindings/Game.hpp"
#include "bindings/GameLog.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/WholeNumber.hpp"
#include "bindings/wrap_dice.hpp"
#include "core/dice/DieSpec.hpp"

namespace umpire::wrap {

namespace {

constexpr std::uint32_t kDefaultDepth = 10;

// The largest face a die may show, either sign: a pool of 1000 dice each exploding 100 times sums
// to at most ~10^14, exact in a double and far inside int64 (a face of 2^62 overflowed the sum).
constexpr std::int64_t kMaxFace = 1000000000;

std::int64_t face_at(lua_State* L, int index, const std::string& what) {
    return lua::whole_number(L, index, what, -kMaxFace, kMaxFace);
}

std::set<std::int64_t> read_set(lua_State* L, int table, const char* field) {
    std::set<std::int64_t> values;
    lua_getfield(L, table, field);
    if (lua_isnumber(L, -1)) values.insert(face_at(L, -1, std::string("die.") + field));
    else if (lua_istable(L, -1)) {
        for (int i = 1;; ++i) {
            lua_rawgeti(L, -1, i);
            if (lua_isnil(L, -1)) { lua_pop(L, 1); break; }
            if (!lua_isnumber(L, -1)) throw Error(std::string("die.") + field + " must list whole numbers (faces)");
            values.insert(face_at(L, -1, std::string("die.") + field + "[" + std::to_string(i) + "]"));
            lua_pop(L, 1);
        }
    } else if (!lua_isnil(L, -1)) {
        throw Error(std::string("die.") + field + " must be a face or a list of faces");
    }
    lua_pop(L, 1);
    return values;
}

}  // namespace

dice::DieSpec check_die(lua_State* L, int index) {
    if (lua_isnumber(L, index)) return dice::DieSpec::sides(whole_number_arg(L, index, "sides", 1, 1000000));
    if (!lua_istable(L, index))
        throw Error("a die is a number of sides or a table ({sides = 6}, {faces = {...}}, {fudge = true}, with "
                    "reroll, once, explode, depth)");
    if (index < 0) index = lua_gettop(L) + index + 1;
    dice::DieSpec die = dice::DieSpec::sides(6);
    lua_getfield(L, index, "faces");
    lua_getfield(L, index, "sides");
    lua_getfield(L, index, "fudge");
    if (lua_toboolean(L, -1)) {
        die = dice::DieSpec::fudge();
    } else if (lua_istable(L, -3)) {
        std::vector<std::int64_t> faces;
        const int n = static_cast<int>(lua_objlen(L, -3));
        for (int i = 1; i <= n; ++i) {
            lua_rawgeti(L, -3, i);
            if (!lua_isnumber(L, -1)) throw Error("die.faces must list whole numbers");
            faces.push_back(face_at(L, -1, "die.faces[" + std::to_string(i) + "]"));
            lua_pop(L, 1);
        }
        if (faces.empty() || faces.size() > 1000) throw Error("die.faces must list 1 to 1000 faces");
        die = dice::DieSpec::faces(std::move(faces));
    } else if (!lua_isnil(L, -2)) {
        die = dice::DieSpec::sides(whole_number_arg(L, -2, "die.sides", 1, 1000000));
    }
    lua_pop(L, 3);
    const auto reroll = read_set(L, index, "reroll");
    lua_getfield(L, index, "once");
    const bool once = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (!reroll.empty()) die = die.reroll(reroll, once);
    const auto explode = read_set(L, index, "explode");
    lua_getfield(L, index, "depth");
    const std::uint32_t depth = lua_isnil(L, -1) ? kDefaultDepth : whole_number_arg(L, -1, "die.depth", 1, 100);
    lua_pop(L, 1);
    if (!explode.empty()) die = die.explode(explode, depth);
    return die;
}

namespace {

// One folded roll of n dice: `exact` under odds, else `play` rolls them, journaled with every face.
std::int64_t pool_roll(lua_State* L, const dice::Distribution& exact, const std::string& what,
                       const std::function<std::int64_t(const std::vector<std::int64_t>& results)>& read,
                       std::uint32_t n, const dice::DieSpec& die) {
    Game& game = Game::of(L);
    std::vector<std::int64_t> faces;
    const std::int64_t value = game.dice().folded(exact, [&](dice::DieSource& source) {
        std::vector<std::int64_t> results;
        for (std::uint32_t i = 0; i < n; ++i) results.push_back(die.roll(source, &faces));
        return read(results);
    });
    auto& log = GameLog::of(L);
    if (log.journaling) log.journal.roll(what, std::to_string(n) + die.to_string(), faces, value);
    return value;
}

}  // namespace

/// @lua umpire.dice.sum(n, die)
/// ---The sum of n dice (n >= 0; sum(0, ...) is 0). `die` is a number of sides or a die table:
/// ---`{sides = 6}`, `{faces = {1, 1, 2, 3, 5, 8}}`, `{fudge = true}`, with `reroll = {1}` (until it
/// ---shows another face; `once = true`: once only), `explode = {6}` (roll again and add) and
/// ---`depth` (explosions at most, default 10). Every face rolled is journaled; under `umpire odds`
/// ---it is one branch per total.
/// ---@param n integer
/// ---@param die integer|table
/// ---@return integer total
int spec_sum(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const std::uint32_t n = whole_number_arg(L, 1, "umpire.dice.sum: n", 0, 1000);
        const dice::DieSpec die = check_die(L, 2);
        const auto exact = dice::sum_distribution(n, die);
        lua_pushinteger(L, static_cast<lua_Integer>(pool_roll(L, exact, "sum of " + std::to_string(n) + die.to_string(), [](const auto& r) {
            std::int64_t s = 0;
            for (const auto v : r) s += v;
            return s;
        }, n, die)));
        return 1;
    });
}

/// @lua umpire.dice.keep(n, die, k, which)
/// ---The sum of the k highest (which = "highest", the default) or lowest ("lowest") of n dice:
/// ---4d6 keep 3 is keep(4, 6, 3). Drop the lowest one is keep(n, die, n - 1). Under `umpire odds`
/// ---one branch per total.
/// ---@param n integer
/// ---@param die integer|table
/// ---@param k integer
/// ---@param which? '"highest"'|'"lowest"'
/// ---@return integer total
int spec_keep(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const std::uint32_t n = whole_number_arg(L, 1, "umpire.dice.keep: n", 0, 1000);
        const dice::DieSpec die = check_die(L, 2);
        const std::uint32_t k = whole_number_arg(L, 3, "umpire.dice.keep: k", 0, n);
        const std::string which = lua::opt_printable(L, 4, "highest", "which");
        if (which != "highest" && which != "lowest")
            throw Error("umpire.dice.keep: which must be \"highest\" or \"lowest\", got \"" + which + "\"");
        const bool highest = which == "highest";
        const auto exact = dice::keep_distribution(n, die, k, highest);
        const std::string what = std::to_string(n) + die.to_string() + " keep " + which + " " + std::to_string(k);
        lua_pushinteger(L, static_cast<lua_Integer>(pool_roll(L, exact, what, [&](auto r) {
            std::sort(r.begin(), r.end());
            if (highest) std::reverse(r.begin(), r.end());
            std::int64_t s = 0;
            for (std::uint32_t i = 0; i < k; ++i) s += r[i];
            return s;
        }, n, die)));
        return 1;
    });
}

// umpire.dice.count(n, die, target, how) with a die table, or count(n, die, test): how many of
// n dice pass. The test function is asked once per distinct result, never per die.
int spec_count(lua_State* L) {
    return lua::lua_guard(L, [&] {
        const std::uint32_t n = whole_number_arg(L, 1, "umpire.dice.count: pool size", 0, 1000);
        const dice::DieSpec die = check_die(L, 2);
        std::map<std::int64_t, bool> passes;
        std::string what;
        if (lua_isfunction(L, 3)) {
            for (const std::int64_t v : die.distribution().outcomes()) {
                lua_pushvalue(L, 3);
                lua_pushinteger(L, static_cast<lua_Integer>(v));
                lua_call(L, 1, 1);  // an error here is the author's: it propagates with its location
                passes[v] = lua_toboolean(L, -1);
                lua_pop(L, 1);
            }
            what = "test";
        } else {
            // (luaL_checkinteger read 4.5 as 4)
            const std::int64_t target = lua::exact_integer(L, 3, "umpire.dice.count: target");
            const std::string how = lua::opt_printable(L, 4, ">=", "how");
            if (how != ">=" && how != "<=") throw Error("umpire.dice.count: how must be \">=\" or \"<=\", got \"" + how + "\"");
            for (const std::int64_t v : die.distribution().outcomes()) passes[v] = how == ">=" ? v >= target : v <= target;
            what = how + " " + std::to_string(target);
        }
        const auto test = [&](std::int64_t v) { const auto it = passes.find(v); return it != passes.end() && it->second; };
        const auto exact = dice::count_distribution(n, die, test);
        const std::string label = std::to_string(n) + die.to_string() + ", count " + what;
        lua_settop(L, 0);
        lua_pushinteger(L, static_cast<lua_Integer>(pool_roll(L, exact, label, [&](const auto& r) {
            return static_cast<std::int64_t>(std::count_if(r.begin(), r.end(), test));
        }, n, die)));
        return 1;
    });
}

}  // namespace umpire::wrap
