#include <lua.hpp>

#include <string>

#include "bindings/embedded_lua.hpp"
#include "core/Error.hpp"

namespace umpire {

// The registry table name -> compiled chunk, made when first needed.
void push_embedded_chunk(lua_State* L, std::string_view name) {
    static const char kChunks = 0;  // its address is the registry key
    lua_pushlightuserdata(L, const_cast<char*>(&kChunks));
    lua_rawget(L, LUA_REGISTRYINDEX);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushlightuserdata(L, const_cast<char*>(&kChunks));
        lua_pushvalue(L, -2);
        lua_rawset(L, LUA_REGISTRYINDEX);
    }
    lua_pushlstring(L, name.data(), name.size());
    lua_rawget(L, -2);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        const std::string_view code = embedded_lua(name);
        const std::string chunkname = "=" + std::string(name);
        if (luaL_loadbuffer(L, code.data(), code.size(), chunkname.c_str()) != 0) {
            std::string message = lua_tostring(L, -1);
            lua_pop(L, 2);
            throw Error(std::string(name) + ": " + message);
        }
        lua_pushlstring(L, name.data(), name.size());
        lua_pushvalue(L, -2);
        lua_rawset(L, -4);
    }
    lua_remove(L, -2);  // the chunks table
}

}  // namespace umpire
