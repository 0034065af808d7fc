// umpire.dice: the names Lua sees for the dice bindings, chosen in this one table.
#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/LuaLibrary.hpp"
#include "bindings/api_modules.hpp"
#include "bindings/wrap_dice.hpp"

namespace umpire {
namespace {

const luaL_Reg kDiceFunctions[] = {
    {"roll", wrap::expression_roll},
    {"dist", wrap::distribution_of},
    {"d", wrap::die_d},
    {"pool", wrap::die_pool},
    {"count", wrap::die_count},
    {"sum", wrap::spec_sum},
    {"keep", wrap::spec_keep},
    {"dr", wrap::asl_dr},
    {"fix", wrap::source_fix},
    {"unfix", wrap::source_unfix},
    {nullptr, nullptr},
};

// The classic lua_CFunction entries that the FFI fast paths replace; kept under
// umpire.dice.classic for benchmarks (bench/lua_call_bench) and as the reference behaviour.
const luaL_Reg kClassicFunctions[] = {
    {"d", wrap::die_d},
    {"dr", wrap::asl_dr},
    {"count", wrap::die_count},
    {nullptr, nullptr},
};

}  // namespace

void open_dice(lua_State* L) {
    lua::StackCheck check(L, 0);
    lua_newtable(L);
    luaL_register(L, nullptr, kDiceFunctions);
    lua::set_library(L, -1, "classic", kClassicFunctions);
    wrap::open_fast_dice(L, lua_gettop(L));
    lua_setfield(L, -2, "dice");
}

}  // namespace umpire
