// A dice expression as written in rules and dice tools: "2d6+d3-1", "4d6kh3", "d6!", "d6r1",
// "10d6>=5", "d[1,1,2,3,5,8]", "4dF", "d6*2", "d66". The full grammar, with an example of each form,
// is docs/dice.md; in short (case-insensitive letters; spaces and tabs around terms and operators):
//   expression := product (('+' | '-') product)*
//   product    := factor ('*' factor)*            at most one dice factor per product
//   factor     := number | [count] die [reroll] [explode] [select]
//   die        := 'd' (sides | '%' | 'F' | '[' faces ']')     faces := item (',' item)*,
//                 item := int | int '..' int
//   reroll     := 'r' [cmp] number | 'ro' [cmp] number        until / once; cmp defaults to '='
//   explode    := '!' [('>' | '>=') number] ['{' depth '}']   on the highest face by default;
//                 depth 10 by default, always written in the canonical form: "d6!{10}"
//   select     := ('kh' | 'kl' | 'dh' | 'dl') number | ('>=' | '<=' | '>' | '<') number
//   cmp        := '<' | '<=' | '>' | '>=' | '='
// d2 and d3 are read off a d6 (ASL / Bolt Action convention, see Die.hpp); d% is 1..100; dF is a
// Fudge die (-1, 0, +1); d66 is the wargamers' D66, two d6 read as tens and units (11..66; a plain
// 1..66 die is d[1..66]). A select counts or keeps whole dice: an exploded die is one result.
// Limits, so a typo cannot ask for a billion dice: count 1..1000 per term, sides 1..1000000,
// custom faces 1..1000 of |value| <= 10^6, depth 1..100, 1 <= keep <= count, constants <= 10^15,
// and the whole expression's range within +-10^15.
// A bad expression throws ParseError("dice expression", input, offset, problem) whose offset is the
// offending character (input.size() when something is missing at the end).
#pragma once
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "core/dice/Die.hpp"
#include "core/dice/DieSource.hpp"
#include "core/dice/DieSpec.hpp"
#include "core/dice/RollResult.hpp"

namespace umpire::dice {

class Distribution;

class DiceExpression {
public:
    static constexpr std::uint32_t max_dice = 1000;
    static constexpr std::uint32_t max_sides = 1000000;
    static constexpr std::int64_t max_constant = 1000000000000000;  // 10^15
    static constexpr std::uint32_t max_faces = 1000;
    static constexpr std::int64_t max_face = 1000000;
    static constexpr std::uint32_t max_depth = 100;
    static constexpr std::uint32_t default_depth = 10;

    struct Term {
        enum class Keep { all, highest, lowest };
        int sign = 1;                 // +1 or -1
        bool is_constant = false;
        std::int64_t constant = 0;    // magnitude, when is_constant
        std::uint32_t count = 0;      // dice, when not is_constant
        Die die = Die::d(6);
        Keep keep = Keep::all;
        std::uint32_t keep_count = 0;  // when keep != all
        bool drop = false;             // written as dh/dl (drop_count = count - keep_count)
        // The forms beyond plain dN/d%/D2/D3 roll one die at a time through `spec`; `plain` terms
        // keep rolling through source.pool() so the odds engine can fold the pool.
        bool plain = true;
        bool d66 = false;              // two d6 as tens and units
        DieSpec spec;                  // the die, re-rolls and explosions included
        std::set<std::int64_t> reroll_on;
        bool reroll_once = false;
        std::set<std::int64_t> explode_on;
        std::uint32_t explode_depth = 0;
        std::string die_text;          // canonical text of the die and its re-roll/explosion
        enum class Test { none, at_least, at_most, above, below };
        Test test = Test::none;        // a success count: how many dice pass
        std::int64_t target = 0;
        std::int64_t multiplier = 1;   // '*' by constants
        std::int64_t die_min = 0, die_max = 0;  // the least and most one die gives
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
