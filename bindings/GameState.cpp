#include "bindings/GameState.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "bindings/LuaError.hpp"

namespace umpire::game_state {
namespace {

using Json = nlohmann::json;  // std::map objects: keys come out sorted, which makes it canonical

bool is_identifier(const std::string& s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

std::string child_path(const std::string& path, const std::string& key) {
    return is_identifier(key) ? path + "." + key : path + "[\"" + key + "\"]";
}

struct Encoder {
    lua_State* L;
    std::set<const void*> seen;  // every table met so far: state must be a tree

    Json value(int index, const std::string& path) {
        switch (lua_type(L, index)) {
        case LUA_TBOOLEAN: return Json(lua_toboolean(L, index) != 0);
        case LUA_TSTRING: {
            size_t len = 0;
            const char* s = lua_tolstring(L, index, &len);
            return Json(std::string(s, len));
        }
        case LUA_TNUMBER: {
            const double d = lua_tonumber(L, index);
            if (!std::isfinite(d)) throw Error(path + ": " + (std::isnan(d) ? "NaN" : "infinity") +
                                               " cannot be part of the game state");
            if (d == std::floor(d) && std::fabs(d) <= 9007199254740992.0)
                return Json(static_cast<std::int64_t>(d));
            return Json(d);
        }
        case LUA_TTABLE: return table(index, path);
        default:
            throw Error(path + ": a " + std::string(luaL_typename(L, index)) +
                        " cannot be part of the game state (state holds plain data: strings, "
                        "numbers, booleans and tables of them)");
        }
    }

    Json table(int index, const std::string& path) {
        const void* id = lua_topointer(L, index);
        if (!seen.insert(id).second)
            throw Error(path + ": this table appears twice in the game state (a cycle, or the same "
                               "table stored in two places); state must be a tree");
        if (lua_getmetatable(L, index)) {
            lua_pop(L, 1);
            throw Error(path + ": a table with a metatable cannot be part of the game state");
        }
        // A sequence is exactly the keys 1..n.
        const size_t n = lua_objlen(L, index);
        size_t count = 0;
        bool all_strings = true;
        lua_pushnil(L);
        while (lua_next(L, index) != 0) {
            ++count;
            if (lua_type(L, -2) != LUA_TSTRING) all_strings = false;
            lua_pop(L, 1);
        }
        if (n > 0 && count == n) {
            Json array = Json::array();
            for (size_t i = 1; i <= n; ++i) {
                lua_rawgeti(L, index, static_cast<int>(i));
                array.push_back(value(lua_gettop(L), path + "[" + std::to_string(i) + "]"));
                lua_pop(L, 1);
            }
            return array;
        }
        Json object = Json::object();
        lua_pushnil(L);
        while (lua_next(L, index) != 0) {
            if (lua_type(L, -2) != LUA_TSTRING) {
                lua_pushvalue(L, -2);  // tostring on a copy: never convert the key next() uses
                const std::string key = lua_tostring(L, -1) ? lua_tostring(L, -1) : "";
                const std::string type = luaL_typename(L, -3);
                throw Error(path + ": the " + type + " key " + key +
                            " cannot be saved (state tables are sequences 1..n or have string "
                            "keys only)");
            }
            size_t len = 0;
            const char* k = lua_tolstring(L, -2, &len);
            const std::string key(k, len);
            object[key] = value(lua_gettop(L), child_path(path, key));
            lua_pop(L, 1);
        }
        (void)all_strings;
        return object;
    }
};

void push_json(lua_State* L, const Json& j) {
    switch (j.type()) {
    case Json::value_t::null: lua_pushnil(L); break;
    case Json::value_t::boolean: lua_pushboolean(L, j.get<bool>()); break;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: lua_pushnumber(L, j.get<double>()); break;
    case Json::value_t::string: {
        const auto& s = j.get_ref<const std::string&>();
        lua_pushlstring(L, s.data(), s.size());
        break;
    }
    case Json::value_t::array: {
        lua_createtable(L, static_cast<int>(j.size()), 0);
        int i = 0;
        for (const auto& item : j) {
            push_json(L, item);
            lua_rawseti(L, -2, ++i);
        }
        break;
    }
    case Json::value_t::object: {
        lua_createtable(L, 0, static_cast<int>(j.size()));
        for (const auto& [key, item] : j.items()) {
            lua_pushlstring(L, key.data(), key.size());
            push_json(L, item);
            lua_rawset(L, -3);
        }
        break;
    }
    default: throw Error("game state: unsupported JSON value");
    }
}

}  // namespace

std::string to_canonical_json(lua_State* L, int index) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    const int top = lua_gettop(L);
    Encoder encoder{L, {}};
    Json j;
    try {
        j = encoder.value(index, "state");
    } catch (...) {
        lua_settop(L, top);  // the walk may have been deep in the table
        throw;
    }
    try {
        return j.dump();
    } catch (const Json::exception& e) {
        throw Error(std::string("game state: ") + e.what());  // e.g. a string that is not UTF-8
    }
}

void replace_from_json(lua_State* L, int index, const std::string& json) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    lua::StackCheck check(L, 0);
    Json j;
    try {
        j = Json::parse(json);
    } catch (const Json::parse_error& e) {
        throw Error(std::string("game state file: ") + e.what());
    }
    if (!j.is_object() && !(j.is_array() && j.empty()))
        throw Error("game state file: the top level must be a JSON object");
    // Empty the table in place, then copy the decoded fields in.
    for (;;) {
        lua_pushnil(L);
        if (lua_next(L, index) == 0) break;
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawset(L, index);
    }
    push_json(L, j);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, index);
    }
    lua_pop(L, 1);
}

void push_from_json(lua_State* L, const std::string& json) {
    Json j;
    try {
        j = Json::parse(json);
    } catch (const Json::parse_error& e) {
        throw Error(std::string("state: ") + e.what());
    }
    push_json(L, j);
}

}  // namespace umpire::game_state
