// std::regex for text that comes from a ruleset, a script or its errors (a schema's `pattern`,
// serve's look-ups in rules and messages, `new`'s reading of a parent's modules).
//
// libstdc++'s default executor is depth-first: it recurses once per character of the text, so a
// search over a few hundred thousand characters overflowed the stack (SIGSEGV: a schema's
// `"pattern": "^[a-z]+$"` over a 200 000-letter string in `umpire check`), and it backtracks, so
// `^(a|aa)*b$` over 40 letters ran for ever. Its polynomial mode (a libstdc++ extension flag) runs
// the breadth-first executor instead: time O(text x pattern), a stack bounded by the pattern, and
// back-references refused when the pattern is compiled (std::regex_error).
#pragma once
#include <regex>

namespace umpire {

inline constexpr auto kLinearRegex = std::regex::ECMAScript | std::regex_constants::__polynomial;

}  // namespace umpire
