// umpire.state <-> canonical JSON. The state is plain data: strings, numbers, booleans, and
// tables that are either sequences (1..n -> JSON arrays) or maps with string keys (-> JSON
// objects, keys sorted). Numbers that are whole and within +-2^53 are written as integers.
// Anything else (functions, userdata, coroutines, cycles, a table reached twice, number keys
// outside a sequence, NaN/inf) is refused with the path of the offending value, e.g.
// "state.units.a.on_hit: a function cannot be part of the game state".
#pragma once
#include <lua.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace umpire {
class Game;
}

namespace umpire::game_state {

// The state at `index` as canonical JSON (compact, object keys sorted bytewise). Written directly
// from the Lua tables: the odds engine encodes a state per path of every folded step, and building
// an nlohmann DOM first cost as much as the step. The bytes are those of
// to_canonical_json_via_dom (a test compares the two over random states); any value the direct
// writer does not handle itself (an error, a string needing escapes, a fractional number) is left
// to the DOM version, so errors and escapes are word for word the same.
//
// With a game, the text's C++ memory counts against the game's memory cap while it is written,
// once it passes kUnchargedText (docs/sandbox.md, "Memory"): past the cap the write stops with "memory limit: <what> written as
// JSON would take more than N MiB ...". The text returned is the caller's, no longer charged.
std::string to_canonical_json(lua_State* L, int index, Game* game = nullptr, const char* what = "umpire.state");

// The charge of to_canonical_json: what it holds against the game's cap, given back when it ends.
struct MemoryCharge {
    struct Refused {};
    Game* game;
    const char* what;
    std::size_t bytes = 0;   // charged now
    std::size_t wanted = 0;  // what a refused grow() asked for
    ~MemoryCharge();
    // Charges up to `to` bytes in all; Refused past the cap (then refuse() throws the error).
    void grow(std::size_t to);
    [[noreturn]] void refuse() const;
};
// A text is charged once it passes this many bytes (then all of it).
constexpr std::size_t kUnchargedText = std::size_t{1} << 20;
// The DOM fallback's bytes per byte of text, as charged (an estimate: a JSON node, a map node and
// a string for each few bytes of text).
constexpr std::size_t kDomBytesPerTextByte = 16;
std::string to_canonical_json_via_dom(lua_State* L, int index);
// The same text if the value is plain data and its text is at most max_bytes long; nullopt
// otherwise (not plain data, or longer), without building an error message: for keys that fall
// back to a table's identity.
std::optional<std::string> try_canonical_json(lua_State* L, int index, std::size_t max_bytes);
// Is the table at `index` a tree: no table met twice (a cycle, or one table in two places), nested
// at most bus::kMaxJsonDepth levels? A raw walk that writes no text (what to_canonical_json refuses
// of a table's shape; its other checks, of the values, are not made).
bool is_tree(lua_State* L, int index);
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
