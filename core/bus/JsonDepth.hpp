#pragma once
// How deep JSON text from a stranger nests, found before anything parses or converts it: the game
// state is converted to Lua recursively, and a tree 100,000 levels deep overflowed the C stack
// (a worker's SIGSEGV, for `run --state` and a journal's recorded state).
#include <cstddef>
#include <optional>
#include <string_view>

namespace umpire::bus {

// The nesting every reader of untrusted JSON accepts: far past what a game state or a journal
// holds, far below what the recursive conversions can take.
constexpr int kMaxJsonDepth = 256;

// The byte offset of the first '[' or '{' that opens level kMaxJsonDepth + 1, or nothing. One pass
// that skips strings (their escapes included); it does not check the text is JSON.
std::optional<std::size_t> too_deep_at(std::string_view text);

}  // namespace umpire::bus
