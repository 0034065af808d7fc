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

// An entry is {table or false, path, record, metatable or false}; umpire.rules itself is
// `false`. A record is the table's pairs in next() order, {k1, v1, k2, v2, ...}.
enum Field { kTable = 1, kPath, kRecord, kMetatable };

// Pushes the record of the table at `table` (absolute index): its pairs in next() order.
void push_record(lua_State* L, int table) {
    // (sized first: a record grown by rehashing as it fills costs more than the count)
    int fields = 0;
    lua_pushnil(L);
    while (lua_next(L, table) != 0) {
        lua_pop(L, 1);
        ++fields;
    }
    lua_createtable(L, 2 * fields, 0);
    const int record = lua_gettop(L);
    int i = 0;
    lua_pushnil(L);
    while (lua_next(L, table) != 0) {
        lua_pushvalue(L, -2);
        lua_rawseti(L, record, ++i);
        lua_rawseti(L, record, ++i);
    }
}

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

// Are the values at `a` and `b` the same (raw identity; a NaN is the same as a NaN)?
bool same_value(lua_State* L, int a, int b) {
    // (NaN is never equal to itself: a field that holds it is the same if it still does)
    const bool nan = lua_type(L, a) == LUA_TNUMBER && lua_type(L, b) == LUA_TNUMBER &&
                     lua_tonumber(L, a) != lua_tonumber(L, a) && lua_tonumber(L, b) != lua_tonumber(L, b);
    return nan || lua_rawequal(L, a, b);
}

// Does the live table at `live` give the pairs of the record at `record`, in its order? A table
// nothing wrote to does: one walk, no look-up.
bool same_in_next_order(lua_State* L, int live, int record) {
    int i = 0;
    lua_pushnil(L);
    while (lua_next(L, live) != 0) {
        lua_rawgeti(L, record, ++i);
        lua_rawgeti(L, record, ++i);
        const bool same = lua_rawequal(L, -4, -2) && same_value(L, -3, -1);
        lua_pop(L, 3);
        if (!same) {
            lua_pop(L, 1);
            return false;
        }
    }
    return i == static_cast<int>(lua_objlen(L, record));
}

// Has the live table at `live` the metatable the record kept at `meta` (false for none)?
bool same_metatable(lua_State* L, int live, int meta) {
    if (!lua_getmetatable(L, live)) lua_pushboolean(L, 0);
    const bool same = lua_rawequal(L, -1, meta) != 0;
    lua_pop(L, 1);
    return same;
}

// The first difference between the live table at `live` and the entry's record at `record` (and
// its metatable at `meta`), "" for none: the exact comparison, for a table that failed the walk
// of same_in_next_order (changed, or only its pairs in another order).
std::string difference(lua_State* L, int live, int record, int meta, const std::string& path) {
    const int pairs = static_cast<int>(lua_objlen(L, record)) / 2;
    for (int i = 0; i < pairs; ++i) {
        lua_rawgeti(L, record, 2 * i + 1);
        const int key = lua_gettop(L);
        lua_rawgeti(L, record, 2 * i + 2);
        lua_pushvalue(L, key);
        lua_rawget(L, live);
        const bool same = same_value(L, -1, -2);
        lua_pop(L, 2);
        if (!same) {
            std::string where = path_of_key(L, path, key);
            lua_pop(L, 1);
            return where;
        }
        lua_pop(L, 1);
    }
    int now = 0;
    lua_pushnil(L);
    while (lua_next(L, live) != 0) {
        lua_pop(L, 1);
        if (++now > pairs) {  // (one too many is enough to know)
            lua_pop(L, 1);
            break;
        }
    }
    if (now > pairs) {
        // The added key: one the record lacks (its keys in a set first).
        lua_createtable(L, 0, pairs);
        const int known = lua_gettop(L);
        for (int i = 0; i < pairs; ++i) {
            lua_rawgeti(L, record, 2 * i + 1);
            lua_pushboolean(L, 1);
            lua_rawset(L, known);
        }
        lua_pushnil(L);
        while (lua_next(L, live) != 0) {
            lua_pop(L, 1);
            lua_pushvalue(L, -1);
            lua_rawget(L, known);
            const bool added = lua_isnil(L, -1);
            lua_pop(L, 1);
            if (added) {
                std::string where = path_of_key(L, path, lua_gettop(L));
                lua_pop(L, 2);
                return where;
            }
        }
        lua_pop(L, 1);
    }
    if (!same_metatable(L, live, meta)) return path + " (its metatable)";
    return "";
}

// Puts the live table at `live` back as the record at `record` holds it, with metatable `meta`.
void put_back(lua_State* L, int live, int record, int meta) {
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
    const int fields = static_cast<int>(lua_objlen(L, record));
    for (int i = 1; i < fields; i += 2) {
        lua_rawgeti(L, record, i);
        lua_rawgeti(L, record, i + 1);
        lua_rawset(L, live);
    }
    if (lua_toboolean(L, meta)) lua_pushvalue(L, meta);
    else lua_pushnil(L);
    lua_setmetatable(L, live);
}

}  // namespace

void seal(lua_State* L, int rules, int table, const std::string& path, int expected) {
    lua::StackCheck check(L, 0);
    if (rules < 0) rules = lua_gettop(L) + rules + 1;
    if (table < 0) table = lua_gettop(L) + table + 1;
    if (expected < 0) expected = lua_gettop(L) + expected + 1;
    push_list(L, rules, true);
    lua_createtable(L, 4, 0);
    if (lua_rawequal(L, table, rules)) lua_pushboolean(L, 0);
    else lua_pushvalue(L, table);
    lua_rawseti(L, -2, kTable);
    lua_pushlstring(L, path.data(), path.size());
    lua_rawseti(L, -2, kPath);
    push_record(L, expected ? expected : table);
    lua_rawseti(L, -2, kRecord);
    if (!lua_getmetatable(L, table)) lua_pushboolean(L, 0);
    lua_rawseti(L, -2, kMetatable);
    lua_rawseti(L, -2, static_cast<int>(lua_objlen(L, -2)) + 1);
    lua_pop(L, 1);
}

int sealed(lua_State* L, int rules) {
    push_list(L, rules, false);
    const int n = lua_istable(L, -1) ? static_cast<int>(lua_objlen(L, -1)) : 0;
    lua_pop(L, 1);
    return n;
}

std::string check(lua_State* L, int rules, int untouched_from) {
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
            } else if (untouched_from > 0 && i >= untouched_from) {
                lua_settop(L, entry - 1);  // no rule code ran since its seal
                continue;
            }
            const int live = lua_gettop(L);
            lua_rawgeti(L, entry, kRecord);
            const int record = lua_gettop(L);
            lua_rawgeti(L, entry, kMetatable);
            const int meta = lua_gettop(L);
            if (same_in_next_order(L, live, record) && same_metatable(L, live, meta)) {
                lua_settop(L, entry - 1);
                continue;
            }
            // Changed, or only its pairs in another order: the exact comparison decides.
            lua_rawgeti(L, entry, kPath);
            const std::string path = lua_tostring(L, -1);
            lua_pop(L, 1);
            const std::string changed = difference(L, live, record, meta, path);
            if (!changed.empty()) {
                if (first.empty()) first = changed;
                put_back(L, live, record, meta);
            }
            // Recorded again as it now is (the same pairs, perhaps in another order), so that
            // the next check's walk passes it.
            push_record(L, live);
            lua_rawseti(L, entry, kRecord);
            lua_settop(L, entry - 1);
        }
    }
    lua_pop(L, 1);
    return first;
}

}  // namespace umpire::module_guard
