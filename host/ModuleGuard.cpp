#include "host/ModuleGuard.hpp"

#include "bindings/LuaError.hpp"

namespace umpire::module_guard {
namespace {

// The entries sealed under a generation's umpire.rules are kept in its metatable, which no rule
// code can reach (`__metatable` hides and locks it), so that they live and die with that
// umpire.rules. (Not in a weak-keyed registry table: the entries hold module tables, whose
// functions' environments lead back to umpire.rules, and Lua 5.1's weak keys are no ephemerons,
// so no generation would ever be collected.)
constexpr const char* kSealsField = "module_guard";

// An entry is {table or false, path, copy, metatable or false}; umpire.rules itself is `false`.
enum Field { kTable = 1, kPath, kCopy, kMetatable };

// Pushes the list of entries sealed under the real umpire.rules at `rules`; creates it when
// `create`, else pushes nil when there is none.
void push_list(lua_State* L, int rules, bool create) {
    if (!lua_getmetatable(L, rules)) {
        if (!create) {
            lua_pushnil(L);
            return;
        }
        lua_createtable(L, 0, 2);
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
        lua_pushvalue(L, -1);
        lua_setmetatable(L, rules);
    }
    lua_getfield(L, -1, kSealsField);
    if (lua_isnil(L, -1) && create) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setfield(L, -3, kSealsField);
    }
    lua_remove(L, -2);
}

// The path of key `key` (absolute index) of a table at `path`: ".name" for a string, "[v]" else.
std::string path_of_key(lua_State* L, const std::string& path, int key) {
    if (lua_type(L, key) == LUA_TSTRING) return path + "." + lua_tostring(L, key);
    if (lua_type(L, key) == LUA_TNUMBER) {
        lua_pushvalue(L, key);  // (tostring on a copy: it would turn the key itself into a string)
        std::string where = path + "[" + lua_tostring(L, -1) + "]";
        lua_pop(L, 1);
        return where;
    }
    return path + "[a " + luaL_typename(L, key) + " key]";
}

// The first difference between the live table at `live` and the entry's copy at `copy` (and its
// metatable at `meta`), "" for none.
std::string difference(lua_State* L, int live, int copy, int meta, const std::string& path) {
    lua_Integer seen = 0;
    lua_pushnil(L);
    while (lua_next(L, copy) != 0) {
        lua_pushvalue(L, -2);
        lua_rawget(L, live);
        // (NaN is never equal to itself: a field that holds it is the same if it still does)
        const bool nan = lua_type(L, -1) == LUA_TNUMBER && lua_type(L, -2) == LUA_TNUMBER &&
                         lua_tonumber(L, -1) != lua_tonumber(L, -1) && lua_tonumber(L, -2) != lua_tonumber(L, -2);
        const bool same = nan || lua_rawequal(L, -1, -2);
        lua_pop(L, 2);
        if (!same) {
            const int key = lua_gettop(L);
            std::string where = path_of_key(L, path, key);
            lua_pop(L, 1);
            return where;
        }
        ++seen;
    }
    lua_Integer now = 0;
    lua_pushnil(L);
    while (lua_next(L, live) != 0) {
        lua_pop(L, 1);
        ++now;
        if (now > seen) {  // (one too many is enough to know)
            lua_pop(L, 1);
            break;
        }
    }
    if (now > seen) {
        // The added key: one the copy lacks.
        lua_pushnil(L);
        while (lua_next(L, live) != 0) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_rawget(L, copy);
            const bool added = lua_isnil(L, -1);
            lua_pop(L, 1);
            if (added) {
                std::string where = path_of_key(L, path, lua_gettop(L));
                lua_pop(L, 1);
                return where;
            }
        }
    }
    if (!lua_getmetatable(L, live)) lua_pushboolean(L, 0);
    const bool same_meta = lua_rawequal(L, -1, meta);
    lua_pop(L, 1);
    if (!same_meta) return path + " (its metatable)";
    return "";
}

// Puts the live table at `live` back as the copy at `copy` holds it, with metatable `meta`.
void put_back(lua_State* L, int live, int copy, int meta) {
    lua_newtable(L);  // the live keys, cleared after the walk (no write to a table being walked)
    const int keys = lua_gettop(L);
    int n = 0;
    lua_pushnil(L);
    while (lua_next(L, live) != 0) {
        lua_pop(L, 1);
        lua_pushvalue(L, -1);
        lua_rawseti(L, keys, ++n);
    }
    for (int i = 1; i <= n; ++i) {
        lua_rawgeti(L, keys, i);
        lua_pushnil(L);
        lua_rawset(L, live);
    }
    lua_pop(L, 1);
    lua_pushnil(L);
    while (lua_next(L, copy) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, live);
    }
    if (lua_toboolean(L, meta)) lua_pushvalue(L, meta);
    else lua_pushnil(L);
    lua_setmetatable(L, live);
}

// Pushes a shallow copy of the table at `table` (absolute index).
void push_copy(lua_State* L, int table) {
    // (sized first: a copy grown by rehashing as it fills cost about half of a seal)
    int fields = 0;
    lua_pushnil(L);
    while (lua_next(L, table) != 0) {
        lua_pop(L, 1);
        ++fields;
    }
    lua_createtable(L, 0, fields);
    lua_pushnil(L);
    while (lua_next(L, table) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
}

}  // namespace

void seal(lua_State* L, int rules, int table, const std::string& path, int expected) {
    lua::StackCheck check(L, 0);
    if (rules < 0) rules = lua_gettop(L) + rules + 1;
    if (table < 0) table = lua_gettop(L) + table + 1;
    if (expected < 0) expected = lua_gettop(L) + expected + 1;
    push_list(L, rules, true);
    lua_createtable(L, 5, 0);
    if (lua_rawequal(L, table, rules)) lua_pushboolean(L, 0);
    else lua_pushvalue(L, table);
    lua_rawseti(L, -2, kTable);
    lua_pushlstring(L, path.data(), path.size());
    lua_rawseti(L, -2, kPath);
    if (expected) lua_pushvalue(L, expected);
    else push_copy(L, table);
    lua_rawseti(L, -2, kCopy);
    if (!lua_getmetatable(L, table)) lua_pushboolean(L, 0);
    lua_rawseti(L, -2, kMetatable);
    lua_rawseti(L, -2, static_cast<int>(lua_objlen(L, -2)) + 1);
    lua_pop(L, 1);
}

std::string check(lua_State* L, int rules) {
    lua::StackCheck check(L, 0);
    if (rules < 0) rules = lua_gettop(L) + rules + 1;
    push_list(L, rules, false);
    std::string first;
    if (lua_istable(L, -1)) {
        const int list = lua_gettop(L);
        const int n = static_cast<int>(lua_objlen(L, list));
        for (int i = 1; i <= n; ++i) {
            lua_rawgeti(L, list, i);
            const int entry = lua_gettop(L);
            lua_rawgeti(L, entry, kTable);
            if (!lua_toboolean(L, -1)) {
                lua_pop(L, 1);
                lua_pushvalue(L, rules);
            }
            const int live = lua_gettop(L);
            lua_rawgeti(L, entry, kPath);
            const std::string path = lua_tostring(L, -1);
            lua_rawgeti(L, entry, kCopy);
            const int copy = lua_gettop(L);
            lua_rawgeti(L, entry, kMetatable);
            const int meta = lua_gettop(L);
            const std::string changed = difference(L, live, copy, meta, path);
            if (!changed.empty()) {
                if (first.empty()) first = changed;
                put_back(L, live, copy, meta);
            }
            lua_settop(L, entry - 1);
        }
    }
    lua_pop(L, 1);
    return first;
}

}  // namespace umpire::module_guard
