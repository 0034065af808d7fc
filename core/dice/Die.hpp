// One kind of die: a plain dN, a percentile d% (1-100), or a D2/D3 read off a d6.
//
// D2 and D3 follow the ASL / Bolt Action convention of rolling a d6 and reading it: D2 is 1-3 -> 1,
// 4-6 -> 2; D3 is 1-2 -> 1, 3-4 -> 2, 5-6 -> 3. The distribution is exactly that of a true two- or
// three-sided die; the difference matters only for what the DieSource is asked for (a d6), so fixed
// dice in tests and the journal show the d6 actually rolled. d% is rolled as one d100.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/dice/DieSource.hpp"

namespace umpire::dice {

class Distribution;

class Die {
public:
    enum class Kind { plain, percent, d2, d3 };

    // A plain die of `sides` faces, rolled as die(sides); RuleError if sides == 0.
    static Die d(std::uint32_t sides);
    static Die percent();  // d%: 1..100
    static Die d2();       // 1..2, read off a d6
    static Die d3();       // 1..3, read off a d6

    Kind kind() const { return kind_; }
    // Number of faces of the result: N, 100, 2 or 3.
    std::uint32_t sides() const { return sides_; }
    // Sides of the die actually asked of the DieSource: N, 100, 6 or 6.
    std::uint32_t rolled_sides() const;
    // The result read off a raw face of the rolled die (identity except for D2/D3).
    std::uint32_t read(std::uint32_t raw) const;

    // One die through `source`.
    std::uint32_t roll(DieSource& source) const;
    // n of these dice through source.pool(), read as above, in the order rolled.
    std::vector<std::uint32_t> roll_pool(DieSource& source, std::uint32_t n) const;

    // The exact distribution of one die: uniform over 1..sides().
    Distribution distribution() const;

    // "d6", "d%", "d2", "d3" (D2/D3 always mean the d6 reading in expressions).
    std::string to_string() const;

    bool operator==(const Die&) const = default;

private:
    Die(Kind kind, std::uint32_t sides) : kind_(kind), sides_(sides) {}
    Kind kind_;
    std::uint32_t sides_;
};

}  // namespace umpire::dice
