#include "bindings/DataMarks.hpp"

#include "bindings/LuaError.hpp"

namespace umpire::marks {
namespace {

constexpr const char* kKeyMarks = "umpire.yaml.key_marks";    // weak: table -> {key -> mark}
constexpr const char* kSelfMarks = "umpire.yaml.self_marks";  // weak: table -> mark
constexpr const char* kSequences = "umpire.yaml.sequences";   // weak: table -> true

// Pushes the weak-keyed registry table `name`, creating it on first use.
void push_weak(lua_State* L, const char* name) {
    lua_getfield(L, LUA_REGISTRYINDEX, name);
    if (!lua_isnil(L, -1)) return;
    lua_pop(L, 1);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, name);
}

}  // namespace

Writer::Writer(lua_State* L) : L_(L) {
    push_weak(L, kKeyMarks);
    key_marks_ = lua_gettop(L);
    push_weak(L, kSelfMarks);
    self_marks_ = lua_gettop(L);
    push_weak(L, kSequences);
    sequences_ = lua_gettop(L);
}

int Writer::begin_table(int table, const std::string& where, bool sequence, int keys) {
    if (!where.empty()) {  // an empty file's table has no mark
        lua_pushvalue(L_, table);
        lua_pushlstring(L_, where.data(), where.size());
        lua_rawset(L_, self_marks_);
    }
    if (sequence) {
        lua_pushvalue(L_, table);
        lua_pushboolean(L_, 1);
        lua_rawset(L_, sequences_);
    }
    if (keys <= 0) return 0;
    // Sized for the keys to come: a sequence's keys 1..n go to the array part.
    lua_createtable(L_, sequence ? keys : 0, sequence ? 0 : keys);
    lua_pushvalue(L_, table);
    lua_pushvalue(L_, -2);
    lua_rawset(L_, key_marks_);
    return lua_gettop(L_);
}

void Writer::set_key(int marks, int key, const std::string& where) {
    lua_pushvalue(L_, key);
    lua_pushlstring(L_, where.data(), where.size());
    lua_rawset(L_, marks);
}

void push_where(lua_State* L, int table_index, int key_index) {
    if (table_index < 0) table_index = lua_gettop(L) + table_index + 1;
    if (key_index < 0) key_index = lua_gettop(L) + key_index + 1;
    if (key_index == 0 || lua_isnil(L, key_index)) {
        push_weak(L, kSelfMarks);
        lua_pushvalue(L, table_index);
        lua_rawget(L, -2);
        lua_remove(L, -2);
        return;
    }
    push_weak(L, kKeyMarks);
    lua_pushvalue(L, table_index);
    lua_rawget(L, -2);
    lua_remove(L, -2);
    if (lua_isnil(L, -1)) return;
    lua_pushvalue(L, key_index);
    lua_rawget(L, -2);
    lua_remove(L, -2);
}

bool is_sequence(lua_State* L, int table_index) {
    if (table_index < 0) table_index = lua_gettop(L) + table_index + 1;
    push_weak(L, kSequences);
    lua_pushvalue(L, table_index);
    lua_rawget(L, -2);
    const bool result = lua_toboolean(L, -1);
    lua_pop(L, 2);
    return result;
}

void deep_merge(lua_State* L, int dst, int src) {
    if (dst < 0) dst = lua_gettop(L) + dst + 1;
    if (src < 0) src = lua_gettop(L) + src + 1;
    lua::StackCheck check(L, 0);
    lua_pushnil(L);
    while (lua_next(L, src) != 0) {
        const int key = lua_gettop(L) - 1, value = lua_gettop(L);
        lua_pushvalue(L, key);
        lua_rawget(L, dst);
        const bool both_maps = lua_istable(L, -1) && lua_istable(L, value) &&
                               !is_sequence(L, -1) && !is_sequence(L, value);
        if (both_maps) {
            deep_merge(L, lua_gettop(L), value);
            lua_pop(L, 1);
        } else {
            lua_pop(L, 1);
            lua_pushvalue(L, key);
            lua_pushvalue(L, value);
            lua_rawset(L, dst);
            // The key's mark now points into the file that provided the new value.
            push_where(L, src, key);
            if (!lua_isnil(L, -1)) {
                push_weak(L, kKeyMarks);
                lua_pushvalue(L, dst);
                lua_rawget(L, -2);
                if (lua_istable(L, -1)) {
                    lua_pushvalue(L, key);
                    lua_pushvalue(L, -4);
                    lua_rawset(L, -3);
                }
                lua_pop(L, 2);
            }
            lua_pop(L, 1);
        }
        lua_pop(L, 1);  // value
    }
}

}  // namespace umpire::marks
