// Whole numbers handed from rule code to C++. Every argument a binding keeps as an integer comes
// through here, never through lua_tointeger: that truncates 2.5 to 2 and turns NaN, an infinity or
// 1e300 into -2^63 (on x86-64), so a hex {q = 0.5} was the hex {q = 0}, a die face of 1e300 a face
// of -2^63, and `dist + 0.5` the same distribution, each a silent change of the rule's answer
// (session 35's attacks, docs/sandbox.md). The bounds keep the C++ arithmetic on the value exact.
#pragma once
#include <lua.hpp>

#include <cstdint>
#include <string>

#include "core/Error.hpp"

namespace umpire::lua {

// The number at `index` if it is a whole number from `min` to `max`, else an Error naming `what`
// and the value it got: "die face must be a whole number from -1000000000 to 1000000000, got 2.5".
inline std::int64_t whole_number(lua_State* L, int index, const std::string& what, std::int64_t min,
                                 std::int64_t max) {
    const bool is_number = lua_isnumber(L, index);  // a number, or a string that reads as one
    const lua_Number v = is_number ? lua_tonumber(L, index) : 0;
    // The comparisons come first and are false for NaN, so the cast below only ever sees a value
    // inside [min, max] (casting one outside is undefined behaviour).
    if (!is_number || !(v >= static_cast<lua_Number>(min) && v <= static_cast<lua_Number>(max)) ||
        v != static_cast<lua_Number>(static_cast<std::int64_t>(v)))
        throw Error(what + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max) +
                    ", got " + (is_number ? std::string(lua_tostring(L, index)) : std::string("a ") + luaL_typename(L, index)));
    return static_cast<std::int64_t>(v);
}

// The largest whole number, either sign, below which every whole number is a double: the values
// rule code counts in (a target, a shift, a modifier) are exact up to it, and C++ sums of them
// stay far inside int64.
inline constexpr std::int64_t kExactInteger = std::int64_t{1} << 53;

// whole_number from -2^53 to 2^53: any whole number rule code can hold exactly.
inline std::int64_t exact_integer(lua_State* L, int index, const std::string& what) {
    return whole_number(L, index, what, -kExactInteger, kExactInteger);
}

}  // namespace umpire::lua
