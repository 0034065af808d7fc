#include "bindings/DataCaches.hpp"

#include "bindings/LuaTables.hpp"

namespace umpire::data_caches {
namespace {

// The registry's slot for the weak-keyed table listing the caches (cache -> true).
constexpr const char* kCachesKey = "umpire.data_caches";

}  // namespace

void push_new(lua_State* L) {
    lua::push_weak_keyed(L, kCachesKey);
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
        if (lua_istable(L, cache)) lua::clear_table(L, cache);
    }
    lua_pop(L, 1);
}

}  // namespace umpire::data_caches
