#include "bindings/YamlLoader.hpp"

#include <yaml-cpp/yaml.h>

#include <map>
#include <regex>

#include "bindings/LuaError.hpp"
#include "bindings/LuaHost.hpp"

namespace umpire::yaml {
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

std::string mark_text(const std::string& display, const YAML::Mark& m) {
    return display + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

[[noreturn]] void fail(const std::string& display, const YAML::Mark& m, const std::string& what) {
    std::string file = display;
    throw ScriptError(mark_text(display, m) + ": " + what, file, m.line + 1);
}

struct Converter {
    lua_State* L;
    std::string display;

    // Pushes the scalar, or nothing and returns false for null.
    bool push_scalar(const YAML::Node& node) {
        static const std::regex kInt(R"([-+]?[0-9]+)");
        static const std::regex kHex(R"(0x[0-9a-fA-F]+)");
        static const std::regex kOct(R"(0o[0-7]+)");
        static const std::regex kFloat(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
        const std::string& text = node.Scalar();
        const std::string& tag = node.Tag();
        if (tag == "!" || tag == "tag:yaml.org,2002:str") {  // quoted, or !!str
            lua_pushlstring(L, text.data(), text.size());
            return true;
        }
        if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")
            return false;
        if (text == "true" || text == "True" || text == "TRUE") { lua_pushboolean(L, 1); return true; }
        if (text == "false" || text == "False" || text == "FALSE") { lua_pushboolean(L, 0); return true; }
        if (std::regex_match(text, kInt) || std::regex_match(text, kFloat)) {
            lua_pushnumber(L, std::stod(text));
            return true;
        }
        if (std::regex_match(text, kHex)) { lua_pushnumber(L, double(std::stoull(text.substr(2), nullptr, 16))); return true; }
        if (std::regex_match(text, kOct)) { lua_pushnumber(L, double(std::stoull(text.substr(2), nullptr, 8))); return true; }
        if (text == ".inf" || text == ".Inf" || text == ".INF" || text == "+.inf") { lua_pushnumber(L, HUGE_VAL); return true; }
        if (text == "-.inf" || text == "-.Inf" || text == "-.INF") { lua_pushnumber(L, -HUGE_VAL); return true; }
        if (text == ".nan" || text == ".NaN" || text == ".NAN") { lua_pushnumber(L, NAN); return true; }
        if (tag != "?" && tag != "!")
            fail(display, node.Mark(), "unsupported YAML tag '" + tag + "'");
        lua_pushlstring(L, text.data(), text.size());
        return true;
    }

    void set_mark(int table, int key, const YAML::Mark& m) {
        push_weak(L, kKeyMarks);
        lua_pushvalue(L, table);
        lua_rawget(L, -2);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            lua_newtable(L);
            lua_pushvalue(L, table);
            lua_pushvalue(L, -2);
            lua_rawset(L, -4);
        }
        lua_pushvalue(L, key);
        lua_pushstring(L, mark_text(display, m).c_str());
        lua_rawset(L, -3);
        lua_pop(L, 2);
    }

    void mark_table(int table, const YAML::Mark& m, bool sequence) {
        push_weak(L, kSelfMarks);
        lua_pushvalue(L, table);
        lua_pushstring(L, mark_text(display, m).c_str());
        lua_rawset(L, -3);
        lua_pop(L, 1);
        if (sequence) {
            push_weak(L, kSequences);
            lua_pushvalue(L, table);
            lua_pushboolean(L, 1);
            lua_rawset(L, -3);
            lua_pop(L, 1);
        }
    }

    // Pushes the node's value; returns false (pushing nothing) for null.
    bool push(const YAML::Node& node) {
        switch (node.Type()) {
        case YAML::NodeType::Null: return false;
        case YAML::NodeType::Undefined: return false;
        case YAML::NodeType::Scalar: return push_scalar(node);
        case YAML::NodeType::Sequence: {
            lua_createtable(L, static_cast<int>(node.size()), 0);
            const int t = lua_gettop(L);
            mark_table(t, node.Mark(), true);
            int i = 0;
            for (const auto& item : node) {
                ++i;
                if (!push(item))
                    fail(display, item.Mark(), "empty item in a list (Lua lists cannot hold nil; "
                                                "remove it or quote it)");
                lua_rawseti(L, t, i);
                lua_pushnumber(L, i);
                set_mark(t, lua_gettop(L), item.Mark());
                lua_pop(L, 1);
            }
            return true;
        }
        case YAML::NodeType::Map: {
            lua_createtable(L, 0, static_cast<int>(node.size()));
            const int t = lua_gettop(L);
            mark_table(t, node.Mark(), false);
            std::map<std::string, int> seen;  // key text -> line, to report duplicates
            for (const auto& entry : node) {
                const YAML::Node& key = entry.first;
                if (!key.IsScalar()) fail(display, key.Mark(), "a map key must be a plain value");
                const auto [it, fresh] = seen.emplace(key.Scalar(), key.Mark().line + 1);
                if (!fresh)
                    fail(display, key.Mark(), "duplicate key '" + key.Scalar() +
                                                  "' (first defined at line " +
                                                  std::to_string(it->second) + ")");
                if (!push_scalar(key)) fail(display, key.Mark(), "a map key cannot be null");
                const int k = lua_gettop(L);
                if (push(entry.second)) {
                    lua_pushvalue(L, k);
                    lua_insert(L, -2);
                    lua_rawset(L, t);
                    set_mark(t, k, key.Mark());
                }
                lua_pop(L, 1);  // the key
            }
            return true;
        }
        }
        return false;
    }
};

void push_root(lua_State* L, const YAML::Node& root, const std::string& display) {
    Converter converter{L, display};
    if (!converter.push(root)) lua_newtable(L);  // an empty file is an empty table
}

}  // namespace

void push_string(lua_State* L, const std::string& text, const std::string& display) {
    const int top = lua_gettop(L);
    try {
        YAML::Node root = YAML::Load(text);
        push_root(L, root, display);
    } catch (const YAML::Exception& e) {
        lua_settop(L, top);
        throw ScriptError(mark_text(display, e.mark) + ": " + e.msg, display, e.mark.line + 1);
    } catch (...) {
        lua_settop(L, top);
        throw;
    }
}

void push_file(lua_State* L, const std::filesystem::path& file, const std::string& display) {
    push_string(L, LuaHost::read_file(file), display);
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

}  // namespace umpire::yaml
