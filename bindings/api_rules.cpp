// umpire.rules and umpire.base.
#include "bindings/LuaError.hpp"
#include "bindings/api_modules.hpp"

namespace umpire {
namespace {

/// @lua umpire.base(name)
/// ---The parent ruleset's module `name`, for a module that extends it. Call it at the top of
/// ---the module while it loads (same as `local _, base = ...`).
/// ---@param name string module name (file basename under rules/)
/// ---@return table? base the parent's module table, nil if no parent defines it
int l_base(lua_State* L) {
    lua::StackCheck check(L, 1);
    luaL_checkstring(L, 1);
    lua_pushvalue(L, 1);
    lua_rawget(L, lua_upvalueindex(1));
    return check.result(1);
}

}  // namespace

void open_rules(lua_State* L) {
    // Filled by the ruleset loader: umpire.rules.<module basename> = the module's table.
    lua_newtable(L);
    lua_setfield(L, -2, "rules");
    lua_newtable(L);  // name -> parent module, written by the loader (Ruleset.cpp)
    lua_pushcclosure(L, l_base, 1);
    lua_setfield(L, -2, "base");
}

}  // namespace umpire
