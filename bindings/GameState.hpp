// umpire.state <-> canonical JSON. The state is plain data: strings, numbers, booleans, and
// tables that are either sequences (1..n -> JSON arrays) or maps with string keys (-> JSON
// objects, keys sorted). Numbers that are whole and within +-2^53 are written as integers.
// Anything else (functions, userdata, coroutines, cycles, a table reached twice, number keys
// outside a sequence, NaN/inf) is refused with the path of the offending value, e.g.
// "state.units.a.on_hit: a function cannot be part of the game state".
#pragma once
#include <lua.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace umpire::game_state {

// The state at `index` as canonical JSON (compact, object keys sorted bytewise). Written directly
// from the Lua tables: the odds engine encodes a state per path of every folded step, and building
// an nlohmann DOM first cost as much as the step. The bytes are those of
// to_canonical_json_via_dom (a test compares the two over random states); any value the direct
// writer does not handle itself (an error, a string needing escapes, a fractional number) is left
// to the DOM version, so errors and escapes are word for word the same.
std::string to_canonical_json(lua_State* L, int index);
std::string to_canonical_json_via_dom(lua_State* L, int index);
// The same text if the value is plain data and its text is at most max_bytes long; nullopt
// otherwise (not plain data, or longer), without building an error message: for keys that fall
// back to a table's identity.
std::optional<std::string> try_canonical_json(lua_State* L, int index, std::size_t max_bytes);
// Empties the table at `index` and fills it from json (the table keeps its identity, so every
// env that holds it sees the new contents).
void replace_from_json(lua_State* L, int index, const std::string& json);
// Pushes a new value decoded from JSON written by to_canonical_json (a table for an object).
// Both decode canonical JSON directly into Lua tables; input the direct reader does not take
// (escapes, bytes outside printable ASCII in a string, malformed text) goes through nlohmann,
// which gives the same values and the parse errors.
void push_from_json(lua_State* L, const std::string& json);
void push_from_json_via_dom(lua_State* L, const std::string& json);

}  // namespace umpire::game_state
