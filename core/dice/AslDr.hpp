// An ASL Dice Roll: two d6 kept apart because rules read them separately (the coloured die for
// sniper/cowering/RoF checks, doubles for cowering and breakdown, the total for the IFT).
#pragma once
#include <cstdint>
#include <string>

#include "core/dice/DieSource.hpp"

namespace umpire::dice {

struct AslDr {
    std::uint32_t colored = 1;  // the coloured die
    std::uint32_t white = 1;    // the white die

    std::uint32_t total() const { return colored + white; }
    bool doubles() const { return colored == white; }

    // Rolls a DR: the COLOURED die is rolled first, then the white one. The order is fixed so that
    // fixed dice in tests ({colored, white}) and replays from a seed mean the same thing everywhere.
    static AslDr roll(DieSource& source);

    // e.g. "DR 7 (colored 3, white 4)"
    std::string to_string() const;

    bool operator==(const AslDr&) const = default;
};

}  // namespace umpire::dice
