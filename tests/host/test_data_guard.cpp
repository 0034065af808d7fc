// The data guard's checker (host/DataGuard.hpp) against a brute-force comparison: random data
// trees, one random write each (or a write that changes nothing), and an independent deep
// serialization of the tree before and after, written here. The guard must report a change
// exactly when the serialization changed, name the written path, and restore the tree so that
// it serializes as before. End-to-end refusals are in test_attacks.cpp ("[attacks][data]").
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "host/DataGuard.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;

namespace {

// Deep serialization: each table by its address and metatable, then its entries sorted by key.
// Numbers by their bits (LuaJIT keeps one NaN), so -0 over 0 counts as a change.
std::string serialize(lua_State* L, int index) {
    index = index < 0 ? lua_gettop(L) + index + 1 : index;
    switch (lua_type(L, index)) {
        case LUA_TNIL: return "nil";
        case LUA_TBOOLEAN: return lua_toboolean(L, index) ? "true" : "false";
        case LUA_TNUMBER: {
            const double d = lua_tonumber(L, index);
            unsigned long long bits;
            std::memcpy(&bits, &d, sizeof bits);
            return "n" + std::to_string(bits);
        }
        case LUA_TSTRING: {
            std::size_t n = 0;
            const char* s = lua_tolstring(L, index, &n);
            return "s" + std::to_string(n) + ":" + std::string(s, n);
        }
        case LUA_TTABLE: {
            char head[64];
            std::snprintf(head, sizeof head, "T%p", lua_topointer(L, index));
            std::string out = head;
            if (lua_getmetatable(L, index)) {
                std::snprintf(head, sizeof head, "M%p", lua_topointer(L, -1));
                out += head;
                lua_pop(L, 1);
            }
            std::vector<std::string> entries;
            lua_pushnil(L);
            while (lua_next(L, index) != 0) {
                entries.push_back(serialize(L, -2) + "=" + serialize(L, -1));
                lua_pop(L, 1);
            }
            std::sort(entries.begin(), entries.end());
            out += "{";
            for (const auto& e : entries) out += e + ",";
            return out + "}";
        }
        default: {
            char text[64];
            std::snprintf(text, sizeof text, "%s%p", lua_typename(L, lua_type(L, index)), lua_topointer(L, index));
            return text;
        }
    }
}

struct Tree {
    std::vector<std::string> paths;  // path of each table, in the order made (a tree: no sharing)
    std::vector<int> refs;           // each table, in the registry
};

// A random key: an identifier, a small integer or a boolean; `suffix` is how the guard names it.
void push_random_key(lua_State* L, std::mt19937& rng, std::string& suffix) {
    const int kind = static_cast<int>(rng() % 6);
    if (kind < 3) {
        const std::string name = "k" + std::to_string(rng() % 6);
        lua_pushstring(L, name.c_str());
        suffix = "." + name;
    } else if (kind < 5) {
        const int n = 1 + static_cast<int>(rng() % 5);
        lua_pushinteger(L, n);
        suffix = "[" + std::to_string(n) + "]";
    } else {
        const bool b = rng() % 2;
        lua_pushboolean(L, b);
        suffix = b ? "[true]" : "[false]";
    }
}

void push_random_scalar(lua_State* L, std::mt19937& rng) {
    switch (rng() % 8) {
        case 0: lua_pushboolean(L, rng() % 2); break;
        case 1: lua_pushnumber(L, static_cast<double>(rng() % 4)); break;
        case 2: lua_pushnumber(L, -0.0); break;
        case 3: lua_pushnumber(L, std::numeric_limits<double>::quiet_NaN()); break;
        case 4: lua_pushnumber(L, 0.5 * static_cast<double>(rng() % 4)); break;
        case 5: lua_pushstring(L, rng() % 2 ? "a" : "b"); break;
        case 6: lua_pushlstring(L, "a\0b", rng() % 2 ? 3 : 2); break;
        default: lua_pushstring(L, ""); break;
    }
}

// Pushes a random tree of depth <= depth, recording its tables.
void push_random_tree(lua_State* L, std::mt19937& rng, int depth, const std::string& path, Tree& tree) {
    lua_newtable(L);
    lua_pushvalue(L, -1);
    tree.refs.push_back(luaL_ref(L, LUA_REGISTRYINDEX));
    tree.paths.push_back(path);
    const int n = static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) {
        std::string suffix;
        push_random_key(L, rng, suffix);
        lua_pushvalue(L, -1);
        lua_rawget(L, -3);
        const bool present = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (present) {
            lua_pop(L, 1);
            continue;
        }
        if (depth > 0 && rng() % 3 == 0) push_random_tree(L, rng, depth - 1, path + suffix, tree);
        else push_random_scalar(L, rng);
        lua_rawset(L, -3);
    }
}

}  // namespace

TEST_CASE("data guard: every single write is found, named and undone (brute force)", "[data][guard]") {
    TestHost t;
    lua_State* L = t.host.state();
    std::mt19937 rng(20261124);
    int changes = 0, unchanged = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        umpire::DataGuard guard(t.host);
        Tree tree;
        const int top = lua_gettop(L);
        push_random_tree(L, rng, 3, "umpire.data", tree);
        const int root = lua_gettop(L);
        guard.seal(L, root);
        const std::string before = serialize(L, root);
        REQUIRE(guard.verify(L, root).empty());

        // One write on a random table of the tree.
        const std::size_t which = rng() % tree.refs.size();
        lua_rawgeti(L, LUA_REGISTRYINDEX, static_cast<int>(tree.refs[which]));
        const int table = lua_gettop(L);
        std::string expected_path = tree.paths[which];
        const int op = static_cast<int>(rng() % 6);
        if (op == 0) {  // set a key (new, existing, or to the value it had)
            std::string suffix;
            push_random_key(L, rng, suffix);
            expected_path += suffix;
            push_random_scalar(L, rng);
            lua_rawset(L, table);
        } else if (op == 1) {  // remove a key (maybe absent)
            std::string suffix;
            push_random_key(L, rng, suffix);
            expected_path += suffix;
            lua_pushnil(L);
            lua_rawset(L, table);
        } else if (op == 2) {  // replace a key by an equal-looking new table
            std::string suffix;
            push_random_key(L, rng, suffix);
            expected_path += suffix;
            lua_newtable(L);
            lua_rawset(L, table);
        } else if (op == 3) {  // a metatable
            lua_newtable(L);
            lua_setmetatable(L, table);
            expected_path += " (its metatable)";
        } else if (op == 4) {  // table.insert at the end
            const int n = static_cast<int>(lua_objlen(L, table));
            push_random_scalar(L, rng);
            lua_rawseti(L, table, n + 1);
            expected_path += "[" + std::to_string(n + 1) + "]";
        } else {  // a Lua-side swap of two list items, as table.sort would
            lua_getglobal(L, "table");
            lua_getfield(L, -1, "sort");
            lua_remove(L, -2);
            lua_pushvalue(L, table);
            lua_pushcfunction(L, [](lua_State* S) -> int {
                lua_pushboolean(S, serialize(S, 1) > serialize(S, 2));
                return 1;
            });
            const bool sortable = lua_pcall(L, 2, 0, 0) == 0;
            if (!sortable) lua_pop(L, 1);  // mixed types in the list part: nothing was sorted
            expected_path.clear();         // which item moved first is not predicted here
        }
        lua_settop(L, root);
        const std::string after = serialize(L, root);
        const std::string found = guard.verify(L, root);
        INFO("trial " << trial << " op " << op << "\nbefore " << before << "\nafter  " << after);
        if (after == before) {
            ++unchanged;
            CHECK(found.empty());
        } else {
            ++changes;
            CHECK(!found.empty());
            if (!expected_path.empty()) CHECK(found == expected_path);
            else CHECK(found.rfind(tree.paths[which], 0) == 0);
            guard.restore(L, root);
            CHECK(serialize(L, root) == before);
            CHECK(guard.verify(L, root).empty());
        }
        for (const int ref : tree.refs) luaL_unref(L, LUA_REGISTRYINDEX, ref);
        lua_settop(L, top);
    }
    // Both kinds were drawn many times (the random writes are not all no-ops, nor all changes).
    CHECK(changes > 1000);
    CHECK(unchanged > 100);
}

TEST_CASE("data guard: a table never sealed is not checked, and a reseal replaces the copy", "[data][guard]") {
    TestHost t;
    lua_State* L = t.host.state();
    umpire::DataGuard guard(t.host);
    luaL_dostring(L, "return {a = {1, 2, 3}}");
    const int root = lua_gettop(L);
    luaL_dostring(L, "return {}");
    CHECK(guard.verify(L, -1).empty());
    lua_pop(L, 1);
    guard.seal(L, root);
    lua_getfield(L, root, "a");
    lua_pushnumber(L, 9);
    lua_rawseti(L, -2, 2);
    lua_pop(L, 1);
    CHECK(guard.verify(L, root) == "umpire.data.a[2]");
    guard.seal(L, root);  // the changed tree is the new reference
    CHECK(guard.verify(L, root).empty());
    lua_settop(L, 0);
}
