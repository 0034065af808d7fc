// Errors the kernel raises. Every error a user can cause says what is wrong and where:
// a ParseError carries the input and the 0-based offset of the offending character, and its
// message draws a caret under it, so the bindings can pass it on to a rules author unchanged.
#pragma once
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

private:
    static std::string format(const std::string& what_kind, const std::string& input,
                              std::size_t position, const std::string& problem) {
        return "bad " + what_kind + " '" + input + "' at column " + std::to_string(position + 1) +
               ": " + problem + "\n  " + input + "\n  " + std::string(position, ' ') + "^";
    }
};

// A request the rules forbid or the geometry cannot satisfy (hex off the map, bad arc...).
struct RuleError : Error {
    using Error::Error;
};

}  // namespace umpire
