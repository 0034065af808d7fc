#include "ruleset/YamlLoader.hpp"

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <algorithm>
#include <memory>
#include <vector>
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

// One file's bounds, refused at the place they are passed: its size (before it is read or parsed)
// and its count of values (nodes while parsing, values with aliases expanded while converting).
void refuse_if_too_big(std::size_t bytes, const std::string& display) {
    if (bytes > kMaxBytes)
        throw ScriptError(display + ":1:1: " + std::to_string(bytes >> 20) + " MiB; a data file may hold at most " +
                              std::to_string(kMaxBytes >> 20) + " MiB",
                          display, 1);
}
void count_value(std::size_t& values, const std::string& display, const YAML::Mark& m) {
    if (++values > kMaxValues)
        fail(display, m, "more than " + std::to_string(kMaxValues) +
                             " values in one file (aliases expanding without end?)");
}

// A value of a parsed document: a scalar, or a table with its entries in document order. A
// table keeps the size yaml-cpp reported (null entries included), so the Lua table is created with
// the same size hint as before the cache existed, and so has the same layout.
enum class Kind : unsigned char { Boolean, Number, String, Sequence, Map };

struct Entry;

struct Value {
    Kind kind = Kind::String;
    bool boolean = false;
    double number = 0;
    std::string text;   // a string's bytes; a table's own mark ("file:line:col")
    int size_hint = 0;  // tables: yaml-cpp's node.size()
    std::vector<Entry> entries;
};

// One key of a table that holds a value (a null map value is skipped, as Lua cannot hold it).
struct Entry {
    Value key;
    Value value;
    std::string key_mark;  // "file:line:col" of the key (of the item, in a sequence)
};

// YAML 1.2 core-schema scalars, by hand: std::regex took a tenth of a cold start.
bool digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool is_decimal(const std::string& text) {
    const std::size_t n = text.size();
    std::size_t i = 0;
    if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t whole = i;
    while (i < n && digit(text[i])) ++i;
    if (i > whole) {
        if (i < n && text[i] == '.')
            for (++i; i < n && digit(text[i]); ++i) {}
    } else {
        if (i >= n || text[i] != '.') return false;
        const std::size_t fraction = ++i;
        while (i < n && digit(text[i])) ++i;
        if (i == fraction) return false;
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < n && (text[i] == '+' || text[i] == '-')) ++i;
        const std::size_t exponent = i;
        while (i < n && digit(text[i])) ++i;
        if (i == exponent) return false;
    }
    return i == n;
}

bool is_hex(const std::string& text) {
    if (text.size() < 3 || text[0] != '0' || text[1] != 'x') return false;
    return std::all_of(text.begin() + 2, text.end(), [](char c) {
        return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    });
}

bool is_octal(const std::string& text) {
    if (text.size() < 3 || text[0] != '0' || text[1] != 'o') return false;
    return std::all_of(text.begin() + 2, text.end(), [](char c) { return c >= '0' && c <= '7'; });
}

struct Document {
    Value root;
};

namespace {

// YAML nodes -> Values, with every check of the format (see the header).
struct Converter {
    std::string display;
    std::size_t values = 0;
    int depth = 0;

    // A number, or an error at the node when it does not fit a double (1e999, a 30-digit hex):
    // std::stod would throw std::out_of_range, which said only "stod".
    Value number(const YAML::Node& node, const std::string& digits, int base) {
        errno = 0;
        char* end = nullptr;
        const double value = base == 10 ? std::strtod(digits.c_str(), &end)
                                        : double(std::strtoull(digits.c_str(), &end, base));
        if (errno == ERANGE || !std::isfinite(value))
            fail(display, node.Mark(), "number out of range: " +
                                           (node.Scalar().size() > 40 ? node.Scalar().substr(0, 40) + "..." : node.Scalar()) +
                                           " (quote it to keep it as text)");
        return numeric(value);
    }
    static Value numeric(double value) {
        Value v;
        v.kind = Kind::Number;
        v.number = value;
        return v;
    }
    static Value boolean(bool value) {
        Value v;
        v.kind = Kind::Boolean;
        v.boolean = value;
        return v;
    }
    static Value string(const std::string& text) {
        Value v;
        v.text = text;
        return v;
    }

    // The scalar's value, or false for null.
    bool scalar(const YAML::Node& node, Value& out) {
        const std::string& text = node.Scalar();
        const std::string& tag = node.Tag();
        if (tag == "!" || tag == "tag:yaml.org,2002:str") {  // quoted, or !!str
            out = string(text);
            return true;
        }
        if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")
            return false;
        if (text == "true" || text == "True" || text == "TRUE") { out = boolean(true); return true; }
        if (text == "false" || text == "False" || text == "FALSE") { out = boolean(false); return true; }
        if (is_decimal(text)) { out = number(node, text, 10); return true; }
        if (is_hex(text)) { out = number(node, text.substr(2), 16); return true; }
        if (is_octal(text)) { out = number(node, text.substr(2), 8); return true; }
        if (text == ".inf" || text == ".Inf" || text == ".INF" || text == "+.inf") { out = numeric(HUGE_VAL); return true; }
        if (text == "-.inf" || text == "-.Inf" || text == "-.INF") { out = numeric(-HUGE_VAL); return true; }
        if (text == ".nan" || text == ".NaN" || text == ".NAN") { out = numeric(NAN); return true; }
        if (tag != "?" && tag != "!")
            fail(display, node.Mark(), "unsupported YAML tag '" + tag + "'");
        out = string(text);
        return true;
    }

    // The node's value; false for null.
    bool convert(const YAML::Node& node, Value& out) {
        count_value(values, display, node.Mark());
        if (node.IsSequence() || node.IsMap()) {
            if (depth >= kMaxDepth)
                fail(display, node.Mark(), "nested deeper than " + std::to_string(kMaxDepth) + " levels");
            ++depth;
            const bool converted = convert_value(node, out);
            --depth;
            return converted;
        }
        return convert_value(node, out);
    }

    bool convert_value(const YAML::Node& node, Value& out) {
        switch (node.Type()) {
        case YAML::NodeType::Null: return false;
        case YAML::NodeType::Undefined: return false;
        case YAML::NodeType::Scalar: return scalar(node, out);
        case YAML::NodeType::Sequence: {
            out.kind = Kind::Sequence;
            out.size_hint = static_cast<int>(node.size());
            out.text = mark_text(display, node.Mark());
            out.entries.reserve(node.size());
            int i = 0;
            for (const auto& item : node) {
                ++i;
                Entry entry;
                if (!convert(item, entry.value))
                    fail(display, item.Mark(), "empty item in a list (Lua lists cannot hold nil; "
                                                "remove it or quote it)");
                entry.key = numeric(i);
                entry.key_mark = mark_text(display, item.Mark());
                out.entries.push_back(std::move(entry));
            }
            return true;
        }
        case YAML::NodeType::Map: {
            out.kind = Kind::Map;
            out.size_hint = static_cast<int>(node.size());
            out.text = mark_text(display, node.Mark());
            out.entries.reserve(node.size());
            std::map<std::string, int> seen;  // key text -> line, to report duplicates
            for (const auto& item : node) {
                const YAML::Node& key = item.first;
                if (!key.IsScalar()) fail(display, key.Mark(), "a map key must be a plain value");
                if (key.Scalar() == "<<" && key.Tag() == "?")
                    fail(display, key.Mark(), "YAML merge keys (<<) are not supported: write the keys "
                                              "out, or quote \"<<\" for a literal key");
                const auto [it, fresh] = seen.emplace(key.Scalar(), key.Mark().line + 1);
                if (!fresh)
                    fail(display, key.Mark(), "duplicate key '" + key.Scalar() +
                                                  "' (first defined at line " +
                                                  std::to_string(it->second) + ")");
                Entry entry;
                if (!scalar(key, entry.key)) fail(display, key.Mark(), "a map key cannot be null");
                // A Lua table cannot hold a NaN key (lua_rawset raises): refuse it here, with the place.
                if (entry.key.kind == Kind::Number && std::isnan(entry.key.number))
                    fail(display, key.Mark(), "a map key cannot be NaN (.nan)");
                if (convert(item.second, entry.value)) {
                    entry.key_mark = mark_text(display, key.Mark());
                    out.entries.push_back(std::move(entry));
                }
            }
            return true;
        }
        }
        return false;
    }
};

// Values -> Lua tables, recording the marks through one marks::Writer.
struct Pusher {
    lua_State* L;
    marks::Writer& marks;

    void push_scalar(const Value& v) {
        switch (v.kind) {
        case Kind::Boolean: lua_pushboolean(L, v.boolean); break;
        case Kind::Number: lua_pushnumber(L, v.number); break;
        default: lua_pushlstring(L, v.text.data(), v.text.size()); break;
        }
    }

    void push(const Value& v) {
        if (v.kind != Kind::Sequence && v.kind != Kind::Map) return push_scalar(v);
        const bool sequence = v.kind == Kind::Sequence;
        lua_createtable(L, sequence ? v.size_hint : 0, sequence ? 0 : v.size_hint);
        const int t = lua_gettop(L);
        if (!v.text.empty()) marks.set_table(t, v.text, sequence);  // an empty file's table has no mark
        for (const Entry& entry : v.entries) {
            push_scalar(entry.key);
            const int k = lua_gettop(L);
            push(entry.value);
            lua_pushvalue(L, k);
            lua_insert(L, -2);
            lua_rawset(L, t);
            marks.set_key(t, k, entry.key_mark);
            lua_pop(L, 1);  // the key
        }
    }
};

}  // namespace

namespace {
// ---- bounds before yaml-cpp builds its tree -----------------------------------------------------
// Counts the nodes of the first document from the parser's events, which build no tree, so that a
// file of too many nodes is refused before yaml-cpp builds its tree on the C++ heap. An alias
// counts one node here (its expansion is counted by the Converter).
struct NodeCounter : YAML::EventHandler {
    std::string display;
    std::size_t nodes = 0;
    explicit NodeCounter(std::string file) : display(std::move(file)) {}
    void count(const YAML::Mark& m) { count_value(nodes, display, m); }
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

// The C++ memory of parsing one file (its tree and its text), charged against the Lua memory cap
// for as long as the tree lives, as distributions are (bindings/Game.hpp: charge_memory).
class ParseCharge {
public:
    ParseCharge(lua_State* L, std::size_t nodes, std::size_t text_bytes, const std::string& display)
        : game_(L ? &Game::of(L) : nullptr), bytes_(nodes * kTreeBytesPerNode + text_bytes) {
        if (game_ && !game_->charge_memory(bytes_))
            throw ScriptError(display + ":1:1: memory limit: parsing this file takes ~" + std::to_string(bytes_ >> 20) +
                                  " MiB of C++ memory (" + std::to_string(nodes) +
                                  " YAML nodes), which would pass the Lua memory cap (parsed YAML counts against it)",
                              display, 1);
    }
    ~ParseCharge() {
        if (game_) game_->release_memory(bytes_);
    }
    ParseCharge(const ParseCharge&) = delete;
    ParseCharge& operator=(const ParseCharge&) = delete;

private:
    Game* game_;
    std::size_t bytes_;
};

}  // namespace

std::shared_ptr<const Document> parse(const std::string& text, const std::string& display,
                                      lua_State* charge_to) {
    refuse_if_too_big(text.size(), display);
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
    auto document = std::make_shared<Document>();
    try {
        const ParseCharge charge(charge_to, count_nodes(text, display), text.size(), display);
        const YAML::Node root = YAML::Load(text);
        Converter converter{display};
        // An empty file is an empty table.
        if (!converter.convert(root, document->root)) document->root.kind = Kind::Map;
    } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own guard ("bad file" otherwise)
        throw ScriptError(mark_text(display, e.mark) + ": nested deeper than " + std::to_string(kMaxDepth) + " levels",
                          display, e.mark.line + 1);
    } catch (const YAML::Exception& e) {
        throw ScriptError(mark_text(display, e.mark) + ": " + e.msg, display, e.mark.line + 1);
    }
    return document;
}

void push(lua_State* L, const Document& document) {
    const int top = lua_gettop(L);
    marks::Writer writer(L);
    Pusher{L, writer}.push(document.root);
    lua_replace(L, top + 1);  // over the writer's side tables
    lua_settop(L, top + 1);
}

void push_string(lua_State* L, const std::string& text, const std::string& display) {
    push(L, *parse(text, display, L));
}

std::string read_data_file(const std::filesystem::path& file, const std::string& display) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec) refuse_if_too_big(size, display);  // refused before it is read
    return LuaHost::read_file(file);
}

void push_file(lua_State* L, const std::filesystem::path& file, const std::string& display) {
    push_string(L, read_data_file(file, display), display);
}

YAML::Node parse_tree(const std::string& text, const std::string& display) {
    refuse_if_too_big(text.size(), display);
    count_nodes(text, display);  // YAML::Exception passes through, as from YAML::Load
    return YAML::Load(text);
}

YAML::Node read_tree(const std::filesystem::path& file, const std::string& display) {
    return parse_tree(read_data_file(file, display), display);
}

}  // namespace umpire::yaml
