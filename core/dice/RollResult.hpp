// What rolling a DiceExpression produced: the total and every die, so a journal or `--explain`
// can show which faces came up, which term each belongs to and which were dropped by kh/kl.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace umpire::dice {

struct RollResult {
    struct Face {
        std::int64_t value;   // the face read (1..3 for a D3, -1..1 for dF)
        std::uint32_t raw;    // the face the DieSource gave (the d6 behind a D2/D3; else == value)
        std::size_t term;     // index into DiceExpression::terms()
        bool kept;            // false if dropped by keep/drop, or replaced by a re-roll
    };

    std::int64_t total = 0;
    std::vector<Face> faces;               // in the order rolled
    std::vector<std::int64_t> term_totals;  // signed contribution of each term to total
};

}  // namespace umpire::dice
