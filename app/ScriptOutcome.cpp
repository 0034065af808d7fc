#include "app/ScriptOutcome.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

#include "core/Error.hpp"
#include "core/Utf8.hpp"
#include "host/BytecodeOpcodes.hpp"

namespace umpire::odds_runner {
namespace {

std::string where(const std::string* field) {
    return field ? "field '" + *field + "' of the script's result" : std::string("the script's result");
}

// The string at `index` whole, as text an outcome may hold. The report prints outcomes and field
// names, and --json writes them as JSON strings: a NUL cut them there (two outcomes "x\0y" and
// "x\0z" were counted as one outcome "x", and two field names as one field), and a byte that is not
// UTF-8 ended `odds --json` in a bare JSON library error naming nothing (session 38). `what` names
// the value for the error: the result, a field's value, or a field's name.
std::string outcome_text(lua_State* L, int index, const std::string& what) {
    std::size_t length = 0;
    const char* data = lua_tolstring(L, index, &length);
    std::string text(data, length);
    const auto quoted = [&] {
        std::string shown;
        for (const unsigned char c : text.substr(0, 40)) {
            if (c < 0x20 || c >= 0x7F) {
                shown += "\\x" + hex_byte(static_cast<char>(c)).substr(2);
            } else {
                shown += static_cast<char>(c);
            }
        }
        return "\"" + shown + (text.size() > 40 ? "...\"" : "\"");
    };
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        throw Error(what + " " + quoted() + " holds a NUL byte at offset " + std::to_string(nul) +
                    ": an odds script's outcomes and field names are text (the report shows them, and a NUL "
                    "would end them there)");
    if (const auto bad = first_bad_utf8(text); bad != std::string::npos) {
        throw Error(what + " " + quoted() + " is not UTF-8 text (byte " + hex_byte(text[bad]) + " at offset " +
                    std::to_string(bad) + "): an odds script's outcomes and field names are UTF-8 text");
    }
    return text;
}

odds::Scalar to_scalar(lua_State* L, int index, const std::string* field) {
    switch (lua_type(L, index)) {
        case LUA_TNIL: return odds::Scalar{};
        case LUA_TBOOLEAN: return odds::Scalar{static_cast<bool>(lua_toboolean(L, index))};
        case LUA_TNUMBER: {
            // NaN and the infinities are refused here, where every outcome the engine keeps is
            // made (the fast paths of OutcomeReader only find outcomes made here before): an exact
            // report's mean is a rational (mpq_class of NaN or of an infinity raised SIGFPE inside
            // GMP and killed the process), and NaN has no place in the table's order.
            const double x = static_cast<double>(lua_tonumber(L, index));
            if (!std::isfinite(x))
                throw Error(where(field) + " is " + (std::isnan(x) ? "NaN" : x > 0 ? "inf" : "-inf") +
                            ": an odds script's numbers must be finite (the report's mean and order "
                            "need them); return a string such as \"never\" for an outcome that is not a number");
            return odds::Scalar{x};
        }
        case LUA_TSTRING: return odds::Scalar{outcome_text(L, index, where(field))};
        default:
            throw Error(where(field) + " is a " + luaL_typename(L, index) +
                        ": an odds script returns a string, a number, a boolean or a table of "
                        "those (one field per question, e.g. {ift = \"1KIA\", malfunction = true})");
    }
}

// The key text of a scalar Lua value, as odds::scalar_key writes it; false for a table, a function...
bool append_scalar(std::string& out, lua_State* L, int index) {
    switch (lua_type(L, index)) {
        case LUA_TNIL: out += "nil"; return true;
        case LUA_TBOOLEAN: out += lua_toboolean(L, index) ? "true" : "false"; return true;
        case LUA_TNUMBER: odds::append_number_key(out, static_cast<double>(lua_tonumber(L, index))); return true;
        // Whole: a string with a NUL has a key of its own, found nowhere, and to_scalar refuses it.
        case LUA_TSTRING: {
            std::size_t length = 0;
            const char* text = lua_tolstring(L, index, &length);
            odds::append_string_key(out, std::string_view(text, length));
            return true;
        }
        default: return false;
    }
}

}  // namespace

// The return instructions (RET1, RET, RETM, and the tail calls CALLT, CALLMT) are read off small
// functions by the opcode readers host/TailCallWhere.cpp's locator uses too
// (host/BytecodeOpcodes.hpp). RET0 (no result) is left out: a chunk ends in one whether or not it
// returns.
constexpr const char* kReturningLineHeader = R"lua(
local util, fn = ...
local funcbc, funcinfo = util.funcbc, util.funcinfo
)lua";
constexpr const char* kReturningLineBody = R"lua(
local g
local returns = {[last_op(function() return g end)] = true, [last_op(function(a, b) return a, b end)] = true,
  [last_op(function(...) return ... end)] = true, [last_op(function(f) return f() end)] = true,
  [last_op(function(f, ...) return f(...) end)] = true}
local line, pc = nil, 1
while funcbc(fn, pc) do
  if returns[op_at(fn, pc)] then
    local at = funcinfo(fn, pc).currentline
    if line and line ~= at then return 0 end
    line = at
  end
  pc = pc + 1
end
return line or 0
)lua";

int returning_line(lua_State* L, int index) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    const int top = lua_gettop(L);
    if (!lua_checkstack(L, 6) || lua_type(L, index) != LUA_TFUNCTION || lua_iscfunction(L, index)) return 0;
    const std::string chunk = bytecode::with_opcode_readers(kReturningLineHeader, kReturningLineBody);
    lua_getglobal(L, "package");
    if (lua_istable(L, -1)) lua_getfield(L, -1, "loaded");
    if (lua_istable(L, -1)) lua_getfield(L, -1, "jit.util");
    int line = 0;
    if (lua_istable(L, -1) &&
        luaL_loadbuffer(L, chunk.data(), chunk.size(), "=(returning line)") == 0) {
        lua_insert(L, -2);  // the chunk, then jit.util
        lua_pushvalue(L, index);
        if (lua_pcall(L, 2, 1, 0) == 0 && lua_type(L, -1) == LUA_TNUMBER) line = static_cast<int>(lua_tointeger(L, -1));
    }
    lua_settop(L, top);
    return line;
}

odds::Outcome to_outcome(lua_State* L, int index) {
    if (!lua_istable(L, index)) return odds::Outcome(to_scalar(L, index, nullptr));
    odds::Fields fields;
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        if (lua_type(L, -2) != LUA_TSTRING)
            throw Error("the script's result table must have string keys (field names)");
        const std::string name = outcome_text(L, -2, "a field name of the script's result");
        fields[name] = to_scalar(L, lua_gettop(L), &name);
        lua_pop(L, 1);
    }
    return odds::Outcome(std::move(fields));
}

bool OutcomeReader::write_key(lua_State* L, int index) {
    key_.clear();
    if (!lua_istable(L, index)) return append_scalar(key_, L, index);
    // The fields in name order, as odds::Fields (a std::map) keeps them.
    std::vector<Field>& fields = fields_;
    fields.clear();
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        const int type = lua_type(L, -1);
        if (lua_type(L, -2) != LUA_TSTRING ||
            (type != LUA_TBOOLEAN && type != LUA_TNUMBER && type != LUA_TSTRING)) {
            lua_pop(L, 2);
            return false;
        }
        // Names and texts whole (a NUL in either makes a key found nowhere: to_outcome refuses it).
        std::size_t length = 0;
        const char* name = lua_tolstring(L, -2, &length);
        Field f{std::string_view(name, length), type, 0, {}};
        if (type == LUA_TBOOLEAN) f.number = lua_toboolean(L, -1);
        else if (type == LUA_TNUMBER) f.number = static_cast<double>(lua_tonumber(L, -1));
        else {
            const char* text = lua_tolstring(L, -1, &length);
            f.text = std::string_view(text, length);
        }
        fields.push_back(f);
        lua_pop(L, 1);
    }
    std::sort(fields.begin(), fields.end(), [](const Field& a, const Field& b) { return a.name < b.name; });
    key_ += '{';
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const Field& f = fields[i];
        // (Names are whole and distinct: a table's keys are.)
        if (i > 0) key_ += ',';
        key_ += f.name;
        key_ += '=';
        if (f.type == LUA_TBOOLEAN) key_ += f.number != 0 ? "true" : "false";
        else if (f.type == LUA_TNUMBER) odds::append_number_key(key_, f.number);
        else odds::append_string_key(key_, f.text);
    }
    key_ += '}';
    return true;
}

namespace {

// The print atom of the scalar at `index`, or false for a value that is not a plain scalar.
bool scalar_atom(lua_State* L, int index, int type, std::uint64_t& bits) {
    switch (type) {
        case LUA_TNIL: bits = 0; return true;
        case LUA_TBOOLEAN: bits = lua_toboolean(L, index) ? 1 : 0; return true;
        case LUA_TNUMBER: {
            const double x = static_cast<double>(lua_tonumber(L, index));
            std::memcpy(&bits, &x, sizeof bits);
            return true;
        }
        case LUA_TSTRING: bits = reinterpret_cast<std::uintptr_t>(lua_topointer(L, index)); return bits != 0;
        default: return false;
    }
}

}  // namespace

std::size_t OutcomeReader::PrintHash::operator()(const std::vector<Atom>& print) const {
    std::uint64_t h = print.size();
    for (const Atom& a : print) h = (h ^ (a.bits + static_cast<std::uint64_t>(a.type))) * 0x9E3779B97F4A7C15ULL;
    return static_cast<std::size_t>(h ^ (h >> 29));
}

bool OutcomeReader::write_print(lua_State* L, int index) {
    print_.clear();
    const int type = lua_type(L, index);
    std::uint64_t bits = 0;
    if (type != LUA_TTABLE) {
        if (!scalar_atom(L, index, type, bits)) return false;
        print_.push_back({type, bits});
        return true;
    }
    print_.push_back({LUA_TTABLE, 0});
    lua_pushnil(L);
    while (lua_next(L, index) != 0) {
        const int value_type = lua_type(L, -1);
        // A field name's atom is its object's address, without asking its type (~30 machine
        // instructions a field): a key that is no string has none (a number, a boolean) or one
        // that no string a kept print names can have (a table, a function, while those strings
        // live, and the reader keeps them alive; a light userdata the host makes is the address
        // of a C++ object), so its print is never found among the kept ones, and read() takes
        // the slow way, which refuses it.
        const auto name = reinterpret_cast<std::uintptr_t>(lua_topointer(L, -2));
        if (name == 0 || value_type == LUA_TNIL || !scalar_atom(L, -1, value_type, bits)) {
            lua_pop(L, 2);
            return false;
        }
        print_.push_back({LUA_TSTRING, name});
        print_.push_back({value_type, bits});
        lua_pop(L, 1);
    }
    return true;
}

void OutcomeReader::anchor_strings(lua_State* L, int index) {
    if (anchored_in_ != L) {
        lua_newtable(L);
        anchor_ = luaL_ref(L, LUA_REGISTRYINDEX);
        anchored_in_ = L;
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, anchor_);
    const int anchor = lua_gettop(L);
    const auto keep = [&](int at) {
        if (lua_type(L, at) != LUA_TSTRING) return;
        lua_pushvalue(L, at);
        lua_pushboolean(L, 1);
        lua_rawset(L, anchor);
    };
    if (lua_istable(L, index)) {
        lua_pushnil(L);
        while (lua_next(L, index) != 0) {
            keep(lua_gettop(L) - 1);
            keep(lua_gettop(L));
            lua_pop(L, 1);
        }
    } else {
        keep(index);
    }
    lua_pop(L, 1);
}

odds::Outcome OutcomeReader::read(lua_State* L, int index) {
    // A reader moved to another state (tests) starts its prints afresh: addresses are per state.
    if (anchored_in_ != nullptr && anchored_in_ != L) by_print_.clear();
    const bool printed = write_print(L, index);
    if (printed)
        if (const auto it = by_print_.find(print_); it != by_print_.end()) return it->second;
    if (!write_key(L, index)) return to_outcome(L, index);
    odds::Outcome outcome;
    if (const auto it = kept_.find(key_); it != kept_.end()) {
        outcome = it->second;
    } else {
        outcome = to_outcome(L, index);
        // The two ways write one key by construction (Outcome.hpp); an outcome whose key came out
        // otherwise is still right, only never kept.
        if (kept_.size() >= kMaxKept || outcome.key() != key_) return outcome;
        kept_.emplace(key_, outcome);
    }
    if (printed && by_print_.size() < kMaxKept) {
        anchor_strings(L, index);
        by_print_.emplace(print_, outcome);
    }
    return outcome;
}

}  // namespace umpire::odds_runner
