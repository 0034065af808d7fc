// Errors the kernel raises. Every error a user can cause says what is wrong and where:
// a ParseError carries the input and the 0-based offset of the offending character, and its
// message draws a caret under it, so the bindings can pass it on to a rules author unchanged.
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

namespace umpire {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An input the kernel cannot read (dice expression, hex name, ...).
struct ParseError : Error {
    ParseError(const std::string& what_kind, const std::string& input, std::size_t position,
               const std::string& problem)
        : Error(format(what_kind, input, position, problem)), input(input), position(position),
          problem(problem) {}

    std::string input;
    std::size_t position;  // 0-based offset of the offending character (== input.size() at end)
    std::string problem;

    // An input longer than this is shown by a window around the offending character: a rule
    // could pass a 100 000-character string, and the message printed it twice.
    static constexpr std::size_t kShownWidth = 72;

private:
    // The input as quoted and drawn: whole when it is short; else kShownWidth bytes around the
    // position (shifted left at the input's end), with "..." where it was cut, moved off the
    // middle of a UTF-8 sequence so the message stays valid text. The caret is drawn under the
    // same character as in the whole.
    static std::string format(const std::string& what_kind, const std::string& input,
                              std::size_t position, const std::string& problem) {
        std::string shown = input;
        std::size_t caret = position;
        std::string length;
        if (input.size() > kShownWidth) {
            const auto continuation = [&](std::size_t i) {
                return i < input.size() && (static_cast<unsigned char>(input[i]) & 0xC0) == 0x80;
            };
            // Centred on the position, but never running past the input's end: an error at the
            // last character shows the whole width before it rather than half a window of nothing.
            std::size_t from = position > kShownWidth / 2 ? position - kShownWidth / 2 : 0;
            from = std::min(from, input.size() - kShownWidth);
            while (from > 0 && continuation(from)) --from;
            std::size_t to = std::min(input.size(), from + kShownWidth);
            while (to < input.size() && continuation(to)) ++to;
            shown = (from > 0 ? "..." : "") + input.substr(from, to - from) + (to < input.size() ? "..." : "");
            caret = position - from + (from > 0 ? 3 : 0);
            length = " (" + std::to_string(input.size()) + " characters)";
        }
        return "bad " + what_kind + " '" + shown + "'" + length + " at column " + std::to_string(position + 1) +
               ": " + problem + "\n  " + shown + "\n  " + std::string(caret, ' ') + "^";
    }
};

// A request the rules forbid or the geometry cannot satisfy (hex off the map, bad arc...).
struct RuleError : Error {
    using Error::Error;
};

}  // namespace umpire
