// The Lua half of the API (bindings/lua/*.lua), compiled into the binary by cmake/embed_lua.cmake.
#pragma once
#include <string_view>

namespace umpire {
// The text of bindings/lua/<name>; throws std::logic_error for an unknown name (a build bug).
std::string_view embedded_lua(std::string_view name);
}  // namespace umpire
