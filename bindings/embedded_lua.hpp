// The Lua half of the API (bindings/lua/*.lua), compiled into the binary by cmake/embed_lua.cmake.
#pragma once
#include <lua.hpp>

#include <string_view>

namespace umpire {
// The text of bindings/lua/<name>; throws std::logic_error for an unknown name (a build bug).
std::string_view embedded_lua(std::string_view name);

// Pushes the compiled main chunk of bindings/lua/<name> (chunk name "=<name>"), compiled once per
// Lua state and kept in its registry. Each new env (every load generation) runs the same chunk
// again: a main chunk has no upvalues and its env is the state's globals, and what its body makes
// is made afresh on each call; compiling fast_dice.lua and fast_modifiers.lua again was a third
// of a reload (docs/performance.md). A syntax error is an Error "<name>: message".
void push_embedded_chunk(lua_State* L, std::string_view name);
}  // namespace umpire
