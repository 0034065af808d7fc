// A dice expression as written in rules: "2d6", "D6+1", "D3+1", "3D6", "d20", "d%", "2d6+d3-1",
// "4d6kh3" (keep highest 3), "4d6kl1" (keep lowest), constants, + and -.
//
// Grammar (case-insensitive letters; spaces and tabs allowed around terms and operators):
//   expression := term (('+' | '-') term)*
//   term       := number | [count] 'd' (sides | '%') [('kh' | 'kl') keep]
// d2 and d3 are read off a d6 (ASL / Bolt Action convention, see Die.hpp); d% is 1..100.
// Limits, so a typo cannot ask for a billion dice: count 1..1000 per term, sides 1..1000000,
// 1 <= keep <= count, constants <= 10^15, and the whole expression's range within +-10^15.
// A bad expression throws ParseError("dice expression", input, offset, problem) whose offset is the
// offending character (input.size() when something is missing at the end).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dice/Die.hpp"
#include "core/dice/DieSource.hpp"
#include "core/dice/RollResult.hpp"

namespace umpire::dice {

class Distribution;

class DiceExpression {
public:
    static constexpr std::uint32_t max_dice = 1000;
    static constexpr std::uint32_t max_sides = 1000000;
    static constexpr std::int64_t max_constant = 1000000000000000;  // 10^15

    struct Term {
        enum class Keep { all, highest, lowest };
        int sign = 1;                 // +1 or -1
        bool is_constant = false;
        std::int64_t constant = 0;    // magnitude, when is_constant
        std::uint32_t count = 0;      // dice, when not is_constant
        Die die = Die::d(6);
        Keep keep = Keep::all;
        std::uint32_t keep_count = 0;  // when keep != all
        std::size_t position = 0;      // offset of the term in the source text
    };

    // Parses `text`; throws ParseError as described above.
    explicit DiceExpression(const std::string& text);
    static DiceExpression parse(const std::string& text) { return DiceExpression(text); }

    // Rolls every die through `source` (terms left to right, dice in order) and sums.
    RollResult roll(DieSource& source) const;

    // The exact distribution of the total. RuleError if too large to compute exactly.
    Distribution distribution() const;

    // Canonical form: lower-case, no spaces, count 1 omitted: " 1D6 + 2 " -> "d6+2".
    std::string to_string() const;

    const std::vector<Term>& terms() const { return terms_; }
    std::int64_t min() const { return min_; }  // smallest possible total
    std::int64_t max() const { return max_; }  // largest possible total

private:
    std::vector<Term> terms_;
    std::int64_t min_ = 0, max_ = 0;
};

}  // namespace umpire::dice
