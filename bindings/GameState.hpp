// umpire.state <-> canonical JSON. The state is plain data: strings, numbers, booleans, and
// tables that are either sequences (1..n -> JSON arrays) or maps with string keys (-> JSON
// objects, keys sorted). Numbers that are whole and within +-2^53 are written as integers.
// Anything else (functions, userdata, coroutines, cycles, a table reached twice, number keys
// outside a sequence, NaN/inf) is refused with the path of the offending value, e.g.
// "state.units.a.on_hit: a function cannot be part of the game state".
#pragma once
#include <lua.hpp>

#include <cstdint>
#include <string>

namespace umpire::game_state {

std::string to_canonical_json(lua_State* L, int index);
// Empties the table at `index` and fills it from json (the table keeps its identity, so every
// env that holds it sees the new contents).
void replace_from_json(lua_State* L, int index, const std::string& json);
// Pushes a new value decoded from JSON written by to_canonical_json (a table for an object).
void push_from_json(lua_State* L, const std::string& json);

}  // namespace umpire::game_state
