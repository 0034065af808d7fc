// umpire.data, umpire.where, umpire.data_cache, umpire.copy and umpire.merge.
//
// umpire.copy is Lua (bindings/lua/data_copy.lua, run with the full library): rule code copies
// data tables on every attack (an MG counter, a weapon profile), and a copy of a read-only data
// table is fastest as a table constructor compiled once for its keys, which only the full
// library's `load` can make where the rules cannot see it; a C function would cost a classic API
// call and a hash insertion per key.
#include <string>

#include "bindings/DataCaches.hpp"
#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/DataMarks.hpp"
#include "bindings/ReadOnlyData.hpp"
#include "bindings/api_modules.hpp"
#include "bindings/embedded_lua.hpp"
#include "core/Error.hpp"

namespace umpire {
namespace {

/// @lua umpire.where(t, key)
/// ---Where a value loaded from YAML came from, for validation messages:
/// ---`error(umpire.where(weapon, "B") .. ": B must be a number", 0)`.
/// ---@param t table a table from umpire.data
/// ---@param key? any a key of t; nil for the table itself
/// ---@return string? where "file:line:col", or nil if t[key] did not come from YAML
int l_where(lua_State* L) {
    return lua::lua_guard(L, [&] {
        luaL_checktype(L, 1, LUA_TTABLE);
        lua_settop(L, 2);  // key may be absent: nil
        lua::StackCheck check(L, 1);
        marks::push_where(L, 1, 2);
        return check.result(1);
    });
}

/// @lua umpire.data_cache()
/// ---A new, empty table for answers worked out from `umpire.data` and kept for later calls (a
/// ---memo, a data table turned on its side, a compiled copier). The host empties it after each
/// ---run (a script, a spec test, an odds run, the load itself), so that nothing a run worked out
/// ---from data it changed outlives that run: keep such answers here, not in a table of your own,
/// ---and treat a missing entry as not worked out yet. The table is otherwise yours
/// ---(its metatable too); emptying keeps the metatable.
/// ---@return table cache
int l_data_cache(lua_State* L) {
    data_caches::push_new(L);
    return 1;
}

// The registry's slot for the pairs rule code sees (register_rule_pairs).
constexpr const char* kRulePairsKey = "umpire.rule_pairs";

}  // namespace

void register_rule_pairs(lua_State* L) { lua_setfield(L, LUA_REGISTRYINDEX, kRulePairsKey); }

void open_data(lua_State* L) {
    // Filled by the ruleset loader: umpire.data.<file basename> = the file's table.
    lua_newtable(L);
    lua_setfield(L, -2, "data");
    lua_pushcfunction(L, l_where);
    lua_setfield(L, -2, "where");
    lua_pushcfunction(L, l_data_cache);
    lua_setfield(L, -2, "data_cache");
    // umpire.copy (its copiers are kept in data caches) (documented in data_copy.lua)
    push_embedded_chunk(L, "data_copy.lua");
    lua_pushvalue(L, -2);
    lua_pushstring(L, read_only_data::kMarker);
    // The pairs rule code sees, for umpire.merge (register_rule_pairs).
    lua_getfield(L, LUA_REGISTRYINDEX, kRulePairsKey);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_getglobal(L, "pairs");
    }
    if (lua_pcall(L, 3, 0, 0) != 0) {
        std::string message = lua_tostring(L, -1);
        lua_pop(L, 1);
        throw Error("data_copy.lua: " + message);
    }
}

void open_state(lua_State* L) {
    Game::of(L).push_state();
    lua_setfield(L, -2, "state");
}

}  // namespace umpire
