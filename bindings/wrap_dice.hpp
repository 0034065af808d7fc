// The C functions behind umpire.dice, one group per core type (wrap_Die.cpp, wrap_AslDr.cpp,
// wrap_DiceExpression.cpp, wrap_Distribution.cpp, wrap_DieSource.cpp). The names Lua sees are
// chosen in one table: kDiceFunctions in api_dice.cpp.
#pragma once
#include <lua.hpp>

#include "core/dice/AslDr.hpp"
#include "core/dice/DieSource.hpp"

namespace umpire {
class Game;

namespace wrap {
// Rolling and journaling in one place, for the FFI and the classic entries alike.
std::uint32_t roll_die(Game& game, std::uint32_t sides);
dice::AslDr roll_dr(Game& game);
// A whole-number argument from `min` to `max`, or an Error naming `what` (wrap_Die.cpp).
std::uint32_t whole_number_arg(lua_State* L, int index, const char* what, lua_Integer min, lua_Integer max);
std::uint32_t roll_count(Game& game, std::uint32_t n, std::uint32_t sides, std::int64_t lo,
                         std::int64_t hi);

int die_d(lua_State* L);            // wrap_Die.cpp
int die_pool(lua_State* L);
int die_count(lua_State* L);
int asl_dr(lua_State* L);           // wrap_AslDr.cpp
int expression_roll(lua_State* L);  // wrap_DiceExpression.cpp
int distribution_of(lua_State* L);  // wrap_Distribution.cpp
int spec_sum(lua_State* L);         // wrap_DieSpec.cpp
int spec_keep(lua_State* L);
int spec_count(lua_State* L);       // count with a die table or a test function
int source_fix(lua_State* L);       // wrap_DieSource.cpp
int source_unfix(lua_State* L);
void open_fast_dice(lua_State* L, int dice_table);  // wrap_DieSource.cpp: the FFI fast paths
}  // namespace wrap
}  // namespace umpire
