// Rule scripts shared by the odds tests, as C++ lambdas standing in for Lua scripts.
#pragma once
#include <algorithm>
#include <cstdint>

#include "core/dice/AslDr.hpp"
#include "core/dice/DieSource.hpp"
#include "core/odds/Script.hpp"

namespace odds_test {

using umpire::dice::DieSource;
using umpire::odds::Fields;
using umpire::odds::Outcome;

inline Outcome two_d6(DieSource& d) { return Outcome(d.die(6) + d.die(6)); }

// ASL: a MG with B11 breaks down on an original DR >= 11.
inline Outcome asl_b11(DieSource& d) {
    const auto dr = umpire::dice::AslDr::roll(d);
    return Outcome(dr.total() >= 11 ? "malfunction" : "fires");
}

// Ten dice hitting on 5+, counted.
inline Outcome ten_dice_hits(DieSource& d) { return Outcome(d.count(10, 6, 5, 6)); }

// 4d6 keep the highest 3, through pool(). The enumerating source hands back a multiset, sorted;
// other sources give the order rolled, so a script sorts before reading ranks.
inline Outcome four_d6_keep3(DieSource& d) {
    auto faces = d.pool(4, 6);
    std::sort(faces.begin(), faces.end());
    return Outcome(faces[1] + faces[2] + faces[3]);
}

// Roll a d6; on a 6 roll another and add it.
inline Outcome reroll_six(DieSource& d) {
    const std::uint32_t first = d.die(6);
    return Outcome(first == 6 ? 6 + d.die(6) : first);
}

// An IFT-like attack with a table outcome: DR against a 4-FP column, KIA on DR <= 3, and the
// weapon malfunctions on an original 12.
inline Outcome attack_table(DieSource& d) {
    const auto dr = umpire::dice::AslDr::roll(d);
    Fields f;
    f["kia"] = dr.total() <= 3;
    f["malfunction"] = dr.total() == 12;
    f["mc"] = dr.total() > 3 && dr.total() <= 6;
    return Outcome(f);
}

}  // namespace odds_test
