#include "bindings/DataCaches.hpp"

namespace umpire::data_caches {
namespace {

// The registry's slot for the weak-keyed table listing the caches (cache -> true).
constexpr const char* kCachesKey = "umpire.data_caches";

}  // namespace

void push_new(lua_State* L) {
    lua_getfield(L, LUA_REGISTRYINDEX, kCachesKey);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_newtable(L);
        lua_pushliteral(L, "k");
        lua_setfield(L, -2, "__mode");
        lua_setmetatable(L, -2);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, kCachesKey);
    }
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_pushboolean(L, 1);
    lua_rawset(L, -4);
    lua_remove(L, -2);
}

void empty_all(lua_State* L) {
    lua_getfield(L, LUA_REGISTRYINDEX, kCachesKey);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    const int caches = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, caches) != 0) {
        lua_pop(L, 1);
        const int cache = lua_gettop(L);
        if (lua_istable(L, cache)) {
            // Clearing an existing field during a traversal is allowed by next().
            lua_pushnil(L);
            while (lua_next(L, cache) != 0) {
                lua_pop(L, 1);
                lua_pushvalue(L, -1);
                lua_pushnil(L);
                lua_rawset(L, cache);
            }
        }
    }
    lua_pop(L, 1);
}

}  // namespace umpire::data_caches
