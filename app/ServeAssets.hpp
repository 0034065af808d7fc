// The page of `umpire serve` (app/serve/*: HTML, CSS, JS), compiled into the binary by
// cmake/embed_lua.cmake so it is served without a network or a source tree.
#pragma once
#include <string_view>

namespace umpire {
// The text of app/serve/<name>; throws std::logic_error for an unknown name.
std::string_view embedded_serve_asset(std::string_view name);
}  // namespace umpire
