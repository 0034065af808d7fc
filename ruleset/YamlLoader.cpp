#include "ruleset/YamlLoader.hpp"

#include <yaml-cpp/yaml.h>

#include <map>
#include <regex>

#include "bindings/DataMarks.hpp"
#include "bindings/LuaError.hpp"
#include "host/LuaHost.hpp"

namespace umpire::yaml {
namespace {


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

    // Pushes the node's value; returns false (pushing nothing) for null.
    bool push(const YAML::Node& node) {
        switch (node.Type()) {
        case YAML::NodeType::Null: return false;
        case YAML::NodeType::Undefined: return false;
        case YAML::NodeType::Scalar: return push_scalar(node);
        case YAML::NodeType::Sequence: {
            lua_createtable(L, static_cast<int>(node.size()), 0);
            const int t = lua_gettop(L);
            marks::set_table(L, t, mark_text(display, node.Mark()), true);
            int i = 0;
            for (const auto& item : node) {
                ++i;
                if (!push(item))
                    fail(display, item.Mark(), "empty item in a list (Lua lists cannot hold nil; "
                                                "remove it or quote it)");
                lua_rawseti(L, t, i);
                lua_pushnumber(L, i);
                marks::set_key(L, t, lua_gettop(L), mark_text(display, item.Mark()));
                lua_pop(L, 1);
            }
            return true;
        }
        case YAML::NodeType::Map: {
            lua_createtable(L, 0, static_cast<int>(node.size()));
            const int t = lua_gettop(L);
            marks::set_table(L, t, mark_text(display, node.Mark()), false);
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
                    marks::set_key(L, t, k, mark_text(display, key.Mark()));
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


}  // namespace umpire::yaml
