#include "ruleset/YamlLoader.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <sstream>
#include <utility>

#include "bindings/DataMarks.hpp"
#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "host/LuaHost.hpp"

namespace umpire::yaml {
namespace {

// Limits on untrusted data (a ruleset's YAML comes from strangers). The file size bounds what
// yaml-cpp builds on the C++ heap, outside the Lua memory cap; the value count bounds alias
// expansion (`a: &a [*b, *b, ...]` nests exponentially many copies into Lua tables from a few
// lines); the depth bounds the converter's recursion.
constexpr std::size_t kMaxBytes = std::size_t{16} << 20;
constexpr std::size_t kMaxValues = 250'000;
constexpr int kMaxDepth = 64;
// yaml-cpp's tree takes about 470 bytes of C++ heap per node (measured with mallinfo2 over lists,
// maps and nested lists of 200 000 nodes), outside the Lua allocator: 16 MiB of "- 1" lines built
// a 1.9 GB tree before the value count above was ever looked at. The tree of a file is charged
// against the Lua memory cap at this rate while it exists (docs/sandbox.md, "Memory").
constexpr std::size_t kTreeBytesPerNode = 512;

// The first byte of text that is not well-formed UTF-8 (overlong forms, surrogates and code
// points past U+10FFFF included), or npos.
std::size_t bad_utf8(const std::string& text) {
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned c = p[i];
        if (c < 0x80) { ++i; continue; }
        std::size_t len;
        unsigned lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
        if (c >= 0xC2 && c <= 0xDF) len = 2;
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
        else return i;
        if (i + len > n || p[i + 1] < lo || p[i + 1] > hi) return i;
        for (std::size_t k = 2; k < len; ++k)
            if (p[i + k] < 0x80 || p[i + k] > 0xBF) return i;
        i += len;
    }
    return std::string::npos;
}

// 1-based line and column (in bytes) of offset in text.
std::pair<int, int> line_col(const std::string& text, std::size_t offset) {
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset; ++i)
        if (text[i] == '\n') { ++line; line_start = i + 1; }
    return {line, static_cast<int>(offset - line_start) + 1};
}


std::string mark_text(const std::string& display, const YAML::Mark& m) {
    return display + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

[[noreturn]] void fail(const std::string& display, const YAML::Mark& m, const std::string& what) {
    std::string file = display;
    throw ScriptError(mark_text(display, m) + ": " + what, file, m.line + 1);
}

[[noreturn]] void too_many_values(const std::string& display, const YAML::Mark& m) {
    fail(display, m, "more than " + std::to_string(kMaxValues) + " values in one file (aliases expanding without end?)");
}

// Counts the nodes of the first document from the parser's events, which build no tree, so that a
// file of too many nodes is refused before yaml-cpp builds its tree on the C++ heap. An alias
// counts one node here (its expansion is counted by the Converter).
struct NodeCounter : YAML::EventHandler {
    std::string display;
    std::size_t nodes = 0;
    explicit NodeCounter(std::string file) : display(std::move(file)) {}
    void count(const YAML::Mark& m) {
        if (++nodes > kMaxValues) too_many_values(display, m);
    }
    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& m, YAML::anchor_t) override { count(m); }
    void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { count(m); }
    void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { count(m); }
    void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        count(m);
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
        count(m);
    }
    void OnMapEnd() override {}
};

// The node count of text's first document; past kMaxValues a ScriptError at that node.
std::size_t count_nodes(const std::string& text, const std::string& display) {
    NodeCounter counter(display);
    std::istringstream stream(text);
    YAML::Parser parser(stream);
    parser.HandleNextDocument(counter);
    return counter.nodes;
}

// A file over kMaxBytes is refused before it is read.
void check_file_size(const std::filesystem::path& file, const std::string& display) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec && size > kMaxBytes)
        throw ScriptError(display + ":1:1: " + std::to_string((size + (std::size_t{1} << 20) - 1) >> 20) + " MiB; a data file may hold at most " +
                              std::to_string(kMaxBytes >> 20) + " MiB",
                          display, 1);
}

// The C++ memory of parsing one file (its tree and its text), charged against the Lua memory cap
// for as long as the tree lives, as distributions are (bindings/Game.hpp: charge_memory).
class ParseCharge {
public:
    ParseCharge(lua_State* L, std::size_t nodes, std::size_t text_bytes, const std::string& display)
        : game_(Game::of(L)), bytes_(nodes * kTreeBytesPerNode + text_bytes) {
        if (!game_.charge_memory(bytes_))
            throw ScriptError(display + ":1:1: memory limit: parsing this file takes ~" + std::to_string(bytes_ >> 20) +
                                  " MiB of C++ memory (" + std::to_string(nodes) +
                                  " YAML nodes), which would pass the Lua memory cap (parsed YAML counts against it)",
                              display, 1);
    }
    ~ParseCharge() { game_.release_memory(bytes_); }
    ParseCharge(const ParseCharge&) = delete;
    ParseCharge& operator=(const ParseCharge&) = delete;

private:
    Game& game_;
    std::size_t bytes_;
};

struct Converter {
    lua_State* L;
    std::string display;
    std::size_t values = 0;
    int depth = 0;

    // A number, or an error at the node when it does not fit a double (1e999, a 30-digit hex):
    // std::stod would throw std::out_of_range, which said only "stod".
    void push_number(const YAML::Node& node, const std::string& digits, int base) {
        errno = 0;
        char* end = nullptr;
        const double value = base == 10 ? std::strtod(digits.c_str(), &end)
                                        : double(std::strtoull(digits.c_str(), &end, base));
        if (errno == ERANGE || !std::isfinite(value))
            fail(display, node.Mark(), "number out of range: " +
                                           (node.Scalar().size() > 40 ? node.Scalar().substr(0, 40) + "..." : node.Scalar()) +
                                           " (quote it to keep it as text)");
        lua_pushnumber(L, value);
    }

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
            push_number(node, text, 10);
            return true;
        }
        if (std::regex_match(text, kHex)) { push_number(node, text.substr(2), 16); return true; }
        if (std::regex_match(text, kOct)) { push_number(node, text.substr(2), 8); return true; }
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
        if (++values > kMaxValues) too_many_values(display, node.Mark());
        if (node.IsSequence() || node.IsMap()) {
            if (depth >= kMaxDepth)
                fail(display, node.Mark(), "nested deeper than " + std::to_string(kMaxDepth) + " levels");
            ++depth;
            const bool pushed = push_value(node);
            --depth;
            return pushed;
        }
        return push_value(node);
    }

    bool push_value(const YAML::Node& node) {
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
                if (key.Scalar() == "<<" && key.Tag() == "?")
                    fail(display, key.Mark(), "YAML merge keys (<<) are not supported: write the keys "
                                              "out, or quote \"<<\" for a literal key");
                const auto [it, fresh] = seen.emplace(key.Scalar(), key.Mark().line + 1);
                if (!fresh)
                    fail(display, key.Mark(), "duplicate key '" + key.Scalar() +
                                                  "' (first defined at line " +
                                                  std::to_string(it->second) + ")");
                if (!push_scalar(key)) fail(display, key.Mark(), "a map key cannot be null");
                // A Lua table cannot hold a NaN key (lua_rawset raises): refuse it here, with the place.
                if (lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) != lua_tonumber(L, -1)) {
                    lua_pop(L, 1);
                    fail(display, key.Mark(), "a map key cannot be NaN (.nan)");
                }
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
    if (text.size() > kMaxBytes)
        throw ScriptError(display + ":1:1: " + std::to_string((text.size() + (std::size_t{1} << 20) - 1) >> 20) + " MiB; a data file may hold at most " +
                              std::to_string(kMaxBytes >> 20) + " MiB",
                          display, 1);
    if (const std::size_t bad = bad_utf8(text); bad != std::string::npos) {
        const auto [line, col] = line_col(text, bad);
        throw ScriptError(display + ":" + std::to_string(line) + ":" + std::to_string(col) +
                              ": malformed UTF-8 (byte 0x" + [&] {
                                  char hex[3];
                                  std::snprintf(hex, sizeof hex, "%02X", static_cast<unsigned char>(text[bad]));
                                  return std::string(hex);
                              }() + "); a data file must be UTF-8 text",
                          display, line);
    }
    try {
        const ParseCharge charge(L, count_nodes(text, display), text.size(), display);
        YAML::Node root = YAML::Load(text);
        push_root(L, root, display);
    } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own guard ("bad file" otherwise)
        lua_settop(L, top);
        throw ScriptError(mark_text(display, e.mark) + ": nested deeper than " + std::to_string(kMaxDepth) + " levels",
                          display, e.mark.line + 1);
    } catch (const YAML::Exception& e) {
        lua_settop(L, top);
        throw ScriptError(mark_text(display, e.mark) + ": " + e.msg, display, e.mark.line + 1);
    } catch (...) {
        lua_settop(L, top);
        throw;
    }
}

void push_file(lua_State* L, const std::filesystem::path& file, const std::string& display) {
    check_file_size(file, display);
    push_string(L, LuaHost::read_file(file), display);
}

YAML::Node read_tree(const std::filesystem::path& file, const std::string& display) {
    check_file_size(file, display);
    const std::string text = LuaHost::read_file(file);
    count_nodes(text, display);  // YAML::Exception passes through, as from YAML::Load
    return YAML::Load(text);
}


}  // namespace umpire::yaml
