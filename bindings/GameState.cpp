#include "bindings/GameState.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "core/Utf8.hpp"
#include "core/bus/JsonDepth.hpp"

#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/ReadOnlyData.hpp"

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

// What a table holds, for both writers: a sequence is exactly the keys 1..n (a JSON array);
// anything else must have string keys only (a JSON object).
struct TableShape {
    std::size_t length = 0;  // lua_objlen
    std::size_t count = 0;   // keys
    bool string_keys = true;
    bool is_sequence() const { return length > 0 && count == length; }
};

TableShape shape_of(lua_State* L, int index) {
    TableShape shape;
    shape.length = lua_objlen(L, index);
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        ++shape.count;
        if (lua_type(L, -2) != LUA_TSTRING) shape.string_keys = false;
        lua_pop(L, 1);
    }
    return shape;
}

struct Encoder {
    lua_State* L;
    std::set<const void*> seen;  // every table met so far: state must be a tree
    int depth = 0;

    // JSON holds UTF-8 only: a text that is not is named with its place here (the direct writer
    // hands such a state to this one), where the dump threw "[json.exception.type_error.316]
    // invalid UTF-8 byte" with no place. The offending text itself is not shown (it is not UTF-8).
    static void refuse_bad_utf8(std::string_view text, const std::string& path, const char* what) {
        const std::size_t bad = first_bad_utf8(text);
        if (bad == std::string::npos) return;
        throw Error((path.size() > 60 ? path.substr(0, 60) + "..." : path) + ": " + what + " that is not UTF-8 (byte " + hex_byte(text[bad]) +
                    " at offset " + std::to_string(bad) + "): JSON holds UTF-8 text only");
    }

    Json value(int index, const std::string& path) {
        switch (lua_type(L, index)) {
        case LUA_TBOOLEAN: return Json(lua_toboolean(L, index) != 0);
        case LUA_TSTRING: {
            size_t len = 0;
            const char* s = lua_tolstring(L, index, &len);
            refuse_bad_utf8(std::string_view(s, len), path, "a text");
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
        if (depth >= bus::kMaxJsonDepth)
            throw Error((path.size() > 60 ? path.substr(0, 60) + "..." : path) + ": tables nested deeper than " +
                        std::to_string(bus::kMaxJsonDepth) + " levels cannot be part of the game state");
        ++depth;
        Json j = table_body(index, path);
        --depth;
        return j;
    }

    Json table_body(int index, const std::string& path) {
        const void* id = lua_topointer(L, index);
        if (!seen.insert(id).second)
            throw Error(path + ": this table appears twice in the game state (a cycle, or the same "
                               "table stored in two places); state must be a tree");
        if (read_only_data::has_other_metatable(L, index))
            throw Error(path + ": a table with a metatable cannot be part of the game state");
        const TableShape shape = shape_of(L, index);
        const size_t n = shape.length;
        if (shape.is_sequence()) {
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
                // A number shows its value, a boolean its word; any other key its type alone (a
                // boolean key was shown as nothing: "the boolean key  cannot be saved").
                const std::string key = lua_type(L, -1) == LUA_TBOOLEAN ? (lua_toboolean(L, -1) ? "true " : "false ")
                                        : lua_isnumber(L, -1)            ? std::string(lua_tostring(L, -1)) + " "
                                                                         : std::string();
                const std::string type = luaL_typename(L, -3);
                throw Error(path + ": the " + type + " key " + key +
                            "cannot be saved (state tables are sequences 1..n or have string "
                            "keys only)");
            }
            size_t len = 0;
            const char* k = lua_tolstring(L, -2, &len);
            const std::string key(k, len);
            refuse_bad_utf8(key, path, "a key");
            object[key] = value(lua_gettop(L), child_path(path, key));
            lua_pop(L, 1);
        }
        return object;
    }
};

// Empties the table at `index` in place (it keeps its identity).
void empty_table(lua_State* L, int index) {
    for (;;) {
        lua_pushnil(L);
        if (lua_next(L, index) == 0) break;
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_rawset(L, index);
    }
}

// Makes the table at `index` hold exactly the fields of the table on top of the stack, which is
// popped: the table at `index` keeps its identity (scripts hold references to umpire.state).
void replace_contents(lua_State* L, int index) {
    empty_table(L, index);
    lua_pushnil(L);
    while (lua_next(L, -2) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, index);
    }
    lua_pop(L, 1);
}

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

// ---- the direct writer and reader -------------------------------------------------------------
//
// Same bytes as the DOM: nlohmann's dump() is compact, writes an object's keys in the order of its
// std::map (std::string's <, bytewise as unsigned char, which is what sorting string_views
// does), whole numbers as integers and strings with escapes. The writer handles the common case
// itself (printable ASCII without a quote or backslash, whole numbers) and asks nlohmann for one value
// where it is not (a fractional number, a string to escape). Anything that would be an error
// throws NeedsDom, and the caller runs the DOM version from the start: its message, for the same
// first offending value, is the user's.
struct NeedsDom {};

constexpr double kLargestExactWhole = 9007199254740992.0;  // 2^53

bool plain_ascii(const char* s, std::size_t length) {
    for (std::size_t i = 0; i < length; ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
    }
    return true;
}

// The tables met so far in one write: state must be a tree, so meeting one twice is an error.
// A state has few tables (tens), so a flat list searched from the end beats a hash set, whose
// every insert allocates a node; past kFlatLimit tables the set takes over.
struct SeenTables {
    static constexpr std::size_t kFlatLimit = 64;
    std::vector<const void*> flat;
    std::unordered_set<const void*> many;

    void clear() {
        flat.clear();
        many.clear();
    }
    // False if `table` was met before.
    bool insert(const void* table) {
        if (many.empty()) {
            if (std::find(flat.begin(), flat.end(), table) != flat.end()) return false;
            if (flat.size() < kFlatLimit) {
                flat.push_back(table);
                return true;
            }
            many.insert(flat.begin(), flat.end());
        }
        return many.insert(table).second;
    }
};

struct Writer {
    // One field of an object being written: its key, and the stack slot holding its value.
    struct Field {
        std::string_view key;
        int slot;
    };

    lua_State* L;
    std::string& out;
    SeenTables& seen;
    std::vector<Field>& fields;  // shared by every table of the walk: each uses a range at the end
    std::size_t max_bytes = std::string::npos;  // try_canonical_json: give up past this
    MemoryCharge* charge = nullptr;  // to_canonical_json with a game: `out` counts against its cap
    // The buffer's capacity past which it is charged again (never, without a charge). Texts up
    // to kUnchargedText are not charged: a state's text that small cannot fill the cap, and the
    // fold writes two per step.
    std::size_t charge_above = charge ? kUnchargedText : SIZE_MAX;

    // One comparison per value (the buffer grows by doubling, so it is charged a few dozen times
    // at most). A string is checked at the next value; the last one by the caller.
    void charge_growth() {
        if (out.capacity() > charge_above) {
            charge->grow(out.capacity());
            charge_above = out.capacity();
        }
    }

    void string(const char* s, std::size_t length) {
        if (plain_ascii(s, length)) {
            out += '"';
            out.append(s, length);
            out += '"';
        } else {
            out += Json(std::string(s, length)).dump();  // escapes; throws on bad UTF-8
        }
    }

    void value(int index) {
        charge_growth();
        switch (lua_type(L, index)) {
            case LUA_TBOOLEAN: out += lua_toboolean(L, index) ? "true" : "false"; return;
            case LUA_TSTRING: {
                std::size_t length = 0;
                const char* s = lua_tolstring(L, index, &length);
                string(s, length);
                return;
            }
            case LUA_TNUMBER: {
                const double d = lua_tonumber(L, index);
                if (!std::isfinite(d)) throw NeedsDom{};
                if (d == std::floor(d) && std::fabs(d) <= kLargestExactWhole) {
                    char buffer[24];
                    const auto end = std::to_chars(buffer, buffer + sizeof buffer, static_cast<std::int64_t>(d)).ptr;
                    out.append(buffer, end);
                } else {
                    out += Json(d).dump();
                }
                return;
            }
            case LUA_TTABLE: table(index); return;
            default: throw NeedsDom{};
        }
    }

    int depth = 0;

    void table(int index) {
        // (Past the depth the DOM version says where, and refuses it.)
        if (depth >= bus::kMaxJsonDepth) throw NeedsDom{};
        ++depth;
        table_body(index);
        --depth;
    }

    void table_body(int index) {
        if (out.size() > max_bytes) throw NeedsDom{};
        if (!seen.insert(lua_topointer(L, index))) throw NeedsDom{};
        if (read_only_data::has_other_metatable(L, index)) throw NeedsDom{};
        if (!lua_checkstack(L, 4)) throw NeedsDom{};
        // A table with a length may be a sequence (then an array); one without is an object
        // (or {}, which the DOM also writes as an object).
        if (lua_objlen(L, index) > 0) {
            const TableShape shape = shape_of(L, index);
            if (!shape.is_sequence()) {
                if (!shape.string_keys) throw NeedsDom{};
                object(index);
                return;
            }
            out += '[';
            for (std::size_t i = 1; i <= shape.length; ++i) {
                if (i > 1) out += ',';
                lua_rawgeti(L, index, static_cast<int>(i));
                value(lua_gettop(L));
                lua_pop(L, 1);
            }
            out += ']';
            return;
        }
        object(index);
    }

    // An object in one walk of next(): each value is left on the stack and its key noted (the
    // keys are strings held by the table itself, so the views stay valid), the keys are sorted,
    // and each value is written from its slot. Looking every value up again by its key would
    // intern the key string a second time.
    void object(int index) {
        const int top = lua_gettop(L);
        const std::size_t base = fields.size();
        lua_pushnil(L);
        while (lua_next(L, index) != 0) {
            if (lua_type(L, -2) != LUA_TSTRING) throw NeedsDom{};  // the caller restores the stack
            std::size_t length = 0;
            const char* k = lua_tolstring(L, -2, &length);
            lua_insert(L, -2);  // value below the key next() walks on with
            fields.push_back({{k, length}, lua_gettop(L) - 1});
            if (!lua_checkstack(L, 4)) throw NeedsDom{};
        }
        std::sort(fields.begin() + static_cast<std::ptrdiff_t>(base), fields.end(),
                  [](const Field& a, const Field& b) { return a.key < b.key; });
        out += '{';
        // By index: a nested object appends to `fields` while this one is written.
        for (std::size_t i = base; i < fields.size(); ++i) {
            if (i > base) out += ',';
            const Field field = fields[i];
            string(field.key.data(), field.key.size());
            out += ':';
            value(field.slot);
        }
        out += '}';
        fields.resize(base);
        lua_settop(L, top);
    }
};

// Reads JSON as nlohmann reads it and pushes what push_json would push for it, or throws
// NeedsDom for what it leaves to nlohmann: a string with an escape or a byte outside printable
// ASCII (UTF-8 checks, \u escapes), and anything malformed (nlohmann names the error).
// Nesting past bus::kMaxJsonDepth, at byte `at`: refused, not converted (the conversions
// recurse, and a state 100,000 levels deep overflowed the C stack).
struct TooDeep {
    std::size_t at;
};

struct Reader {
    lua_State* L;
    const char* p;
    const char* end;
    const char* begin = p;
    int depth = 0;

    void skip_space() {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
    }
    bool literal(std::string_view word) {
        if (static_cast<std::size_t>(end - p) < word.size() || std::string_view(p, word.size()) != word) return false;
        p += word.size();
        return true;
    }
    std::string_view string() {  // at the opening quote
        const char* start = ++p;
        while (p < end && *p != '"') {
            const unsigned char c = static_cast<unsigned char>(*p);
            if (c < 0x20 || c > 0x7e || c == '\\') throw NeedsDom{};
            ++p;
        }
        if (p == end) throw NeedsDom{};
        return {start, static_cast<std::size_t>(p++ - start)};
    }
    void number() {
        // JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        const char* start = p;
        bool whole = true;
        if (p < end && *p == '-') ++p;
        if (p < end && *p == '0') ++p;
        else if (p < end && *p >= '1' && *p <= '9') while (p < end && std::isdigit(static_cast<unsigned char>(*p))) ++p;
        else throw NeedsDom{};
        if (p < end && *p == '.') {
            whole = false;
            if (++p == end || !std::isdigit(static_cast<unsigned char>(*p))) throw NeedsDom{};
            while (p < end && std::isdigit(static_cast<unsigned char>(*p))) ++p;
        }
        if (p < end && (*p == 'e' || *p == 'E')) {
            whole = false;
            ++p;
            if (p < end && (*p == '+' || *p == '-')) ++p;
            if (p == end || !std::isdigit(static_cast<unsigned char>(*p))) throw NeedsDom{};
            while (p < end && std::isdigit(static_cast<unsigned char>(*p))) ++p;
        }
        // nlohmann reads a whole number as an integer (so "-0" is 0) and converts it; past 64
        // bits, and for fractions, it reads a double.
        if (whole) {
            std::int64_t i = 0;
            if (const auto r = std::from_chars(start, p, i); r.ec == std::errc() && r.ptr == p)
                return lua_pushnumber(L, static_cast<double>(i));
            std::uint64_t u = 0;
            if (const auto r = std::from_chars(start, p, u); r.ec == std::errc() && r.ptr == p)
                return lua_pushnumber(L, static_cast<double>(u));
        }
        double d = 0;
        const auto [at, error] = std::from_chars(start, p, d);
        if (error != std::errc() || at != p || !std::isfinite(d)) throw NeedsDom{};
        lua_pushnumber(L, d);
    }
    void value() {
        skip_space();
        if (p == end) throw NeedsDom{};
        if (!lua_checkstack(L, 4)) throw NeedsDom{};
        switch (*p) {
            case '{': {
                if (++depth > bus::kMaxJsonDepth) throw TooDeep{static_cast<std::size_t>(p - begin)};
                ++p;
                lua_createtable(L, 0, 0);
                skip_space();
                if (p < end && *p == '}') { ++p; --depth; return; }
                for (;;) {
                    skip_space();
                    if (p == end || *p != '"') throw NeedsDom{};
                    const std::string_view key = string();
                    skip_space();
                    if (p == end || *p++ != ':') throw NeedsDom{};
                    lua_pushlstring(L, key.data(), key.size());
                    value();
                    lua_rawset(L, -3);
                    skip_space();
                    if (p < end && *p == ',') { ++p; continue; }
                    if (p < end && *p == '}') { ++p; --depth; return; }
                    throw NeedsDom{};
                }
            }
            case '[': {
                if (++depth > bus::kMaxJsonDepth) throw TooDeep{static_cast<std::size_t>(p - begin)};
                ++p;
                lua_createtable(L, 0, 0);
                skip_space();
                if (p < end && *p == ']') { ++p; --depth; return; }
                for (int i = 1;; ++i) {
                    value();
                    lua_rawseti(L, -2, i);
                    skip_space();
                    if (p < end && *p == ',') { ++p; continue; }
                    if (p < end && *p == ']') { ++p; --depth; return; }
                    throw NeedsDom{};
                }
            }
            case '"': {
                const std::string_view s = string();
                lua_pushlstring(L, s.data(), s.size());
                return;
            }
            case 't': if (literal("true")) return lua_pushboolean(L, 1); throw NeedsDom{};
            case 'f': if (literal("false")) return lua_pushboolean(L, 0); throw NeedsDom{};
            case 'n': if (literal("null")) return lua_pushnil(L); throw NeedsDom{};
            default: number();
        }
    }
    // The whole text as one value, pushed; NeedsDom (stack as it was) otherwise.
    void document() {
        const int top = lua_gettop(L);
        try {
            value();
            skip_space();
            if (p != end) throw NeedsDom{};
        } catch (...) {
            lua_settop(L, top);
            throw;
        }
    }
};

[[noreturn]] void refuse_depth(const char* what, std::size_t at) {
    throw Error(std::string(what) + ": nested deeper than " + std::to_string(bus::kMaxJsonDepth) + " levels (byte " +
                std::to_string(at) + ")");
}

// Parses JSON for the DOM path, its nesting checked first (nlohmann's tree and push_json recurse).
Json parse_bounded(const std::string& json, const char* what) {
    if (const auto at = bus::too_deep_at(json)) refuse_depth(what, *at);
    try {
        return Json::parse(json);
    } catch (const Json::parse_error& e) {
        throw Error(std::string(what) + ": " + e.what());
    }
}

// is_tree's walk: depth is the table's level (1 for the top).
bool is_tree(lua_State* L, int index, SeenTables& seen, int depth) {
    if (depth > bus::kMaxJsonDepth || !lua_checkstack(L, 3) || !seen.insert(lua_topointer(L, index))) return false;
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        if (lua_istable(L, -1) && !is_tree(L, lua_gettop(L), seen, depth + 1)) {
            lua_pop(L, 2);
            return false;
        }
        lua_pop(L, 1);
    }
    return true;
}

}  // namespace

bool is_tree(lua_State* L, int index) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    SeenTables seen;
    return is_tree(L, index, seen, 1);
}

std::string to_canonical_json(lua_State* L, int index, Game* game, const char* what) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    const int top = lua_gettop(L);
    thread_local SeenTables seen;
    thread_local std::vector<Writer::Field> fields;
    seen.clear();
    fields.clear();
    std::string out;
    out.reserve(256);
    MemoryCharge charge{game, what};
    try {
        Writer writer{L, out, seen, fields, std::string::npos, game ? &charge : nullptr};
        writer.value(index);
        writer.charge_growth();  // the last value's growth
        return out;
    } catch (const MemoryCharge::Refused&) {
        lua_settop(L, top);
        charge.refuse();
    } catch (...) {
        // NeedsDom, or nlohmann refusing a string: the DOM version says why, in its words.
        lua_settop(L, top);
    }
    // The DOM takes several times the text the direct writer had written when it gave up (a
    // node, a map node and a string per value): charged before it is built. It runs for a state
    // the direct writer refused, which is a state with an error in it, so this is rare.
    if (game && kDomBytesPerTextByte * out.capacity() > kUnchargedText) {
        try {
            charge.grow(charge.bytes + kDomBytesPerTextByte * out.capacity());
        } catch (const MemoryCharge::Refused&) {
            charge.refuse();
        }
    }
    out = std::string();
    return to_canonical_json_via_dom(L, index);
}

MemoryCharge::~MemoryCharge() {
    if (bytes) game->release_memory(bytes);
}

void MemoryCharge::grow(std::size_t to) {
    if (to <= bytes) return;
    if (!game->charge_memory(to - bytes)) {
        wanted = to;
        throw Refused{};
    }
    bytes = to;
}

void MemoryCharge::refuse() const {
    throw Error("memory limit: " + std::string(what) + " written as JSON would take more than " +
                std::to_string((wanted >> 20) + 1) +
                " MiB of C++ memory, which would pass the Lua memory cap (a state that grows without end?)");
}

std::optional<std::string> try_canonical_json(lua_State* L, int index, std::size_t max_bytes) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    const int top = lua_gettop(L);
    thread_local SeenTables seen;
    thread_local std::vector<Writer::Field> fields;
    seen.clear();
    fields.clear();
    std::string out;
    try {
        Writer{L, out, seen, fields, max_bytes}.value(index);
        if (out.size() <= max_bytes) return out;
    } catch (...) {
        lua_settop(L, top);
    }
    return std::nullopt;
}

std::string to_canonical_json_via_dom(lua_State* L, int index) {
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
    // The direct reader first; the top level must be an object (or the empty array nlohmann
    // also takes, an empty Lua table written back).
    const std::size_t start = json.find_first_not_of(" \t\n\r");
    if (start != std::string::npos && (json[start] == '{' || json.compare(start, 2, "[]") == 0)) {
        try {
            Reader{L, json.data(), json.data() + json.size()}.document();
            replace_contents(L, index);
            return;
        } catch (const NeedsDom&) {
            // nlohmann reads it, or names what is wrong with it
        } catch (const TooDeep& deep) {
            refuse_depth("game state file", deep.at);
        }
    }
    const Json j = parse_bounded(json, "game state file");
    if (!j.is_object() && !(j.is_array() && j.empty()))
        throw Error("game state file: the top level must be a JSON object");
    push_json(L, j);
    replace_contents(L, index);
}

void push_from_json(lua_State* L, const std::string& json) {
    try {
        Reader{L, json.data(), json.data() + json.size()}.document();
        return;
    } catch (const NeedsDom&) {
        // nlohmann reads it, or names what is wrong with it
    } catch (const TooDeep& deep) {
        refuse_depth("state", deep.at);
    }
    push_from_json_via_dom(L, json);
}

void push_from_json_via_dom(lua_State* L, const std::string& json) {
    push_json(L, parse_bounded(json, "state"));
}

}  // namespace umpire::game_state
