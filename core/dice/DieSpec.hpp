// A die as wargamers and dice libraries describe it: plain faces 1..N or custom faces
// ({1,1,2,3,5,8}, Fudge -1/0/+1), re-rolled on some faces (once, or until it shows another face),
// exploding on some faces (roll again and add, to a stated depth); and what is done with a pool of
// them: the sum, how many meet a test, the sum of the highest or lowest k.
//
// Every operation has two faces. roll() rolls the real dice through a DieSource (one die(k) per
// physical die, k = the number of faces, so fixed dice in spec tests are the real rolls, re-rolls
// and explosions included) and reports each face. The *_distribution() functions give the exact
// distribution of the same result without enumerating sequences:
//  - one die: a re-roll "until" conditions the faces on not being re-rolled (each kept face's
//    weight over the count of kept faces); "once" is P(f) = [f kept]/k + r/k * 1/k, r = re-rolled
//    faces; an explosion to depth d is the sum over the chain of exploding faces, truncated after
//    d extra dice (the last die is kept as rolled);
//  - n dice: the sum is the n-fold convolution; a count is binomial with p = P(test(result)), the
//    test asked once per distinct result; keep highest/lowest k is the order-statistics DP below.
#pragma once
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "core/dice/DieSource.hpp"
#include "core/dice/Distribution.hpp"

namespace umpire::dice {

class DieSpec {
public:
    // A dN (n >= 1).
    static DieSpec sides(std::uint32_t n);
    // Custom faces, one per side, in order (at least one).
    static DieSpec faces(std::vector<std::int64_t> values);
    // A Fudge/Fate die: -1, -1, 0, 0, +1, +1 read off a d6 (dF).
    static DieSpec fudge();

    // Re-roll when the die shows one of `on`: once (the second roll stands), or until it shows a
    // face not in `on` (RuleError if every face is in `on`).
    DieSpec reroll(std::set<std::int64_t> on, bool once) const;
    // Roll again and add when the die shows one of `on`, at most `depth` extra dice (depth >= 1).
    // Applied after a re-roll: the re-rolled result is what may explode.
    DieSpec explode(std::set<std::int64_t> on, std::uint32_t depth) const;

    // One die: the result, with every face rolled appended to `rolled` (if given).
    std::int64_t roll(DieSource& source, std::vector<std::int64_t>* rolled = nullptr) const;
    // The exact distribution of one die's result.
    Distribution distribution() const;

    // "d6", "d[1,1,2,3,5,8]", "dF", then "r1" / "ro1" / "!6" (depth) as in the dice language.
    std::string to_string() const;

    std::uint32_t face_count() const { return static_cast<std::uint32_t>(faces_.size()); }

private:
    std::int64_t roll_plain(DieSource& source, std::vector<std::int64_t>* rolled) const;
    Distribution plain_distribution() const;  // after re-rolls, before explosions

    std::vector<std::int64_t> faces_;
    std::string name_;  // "d6", "dF", "d[...]"
    std::set<std::int64_t> reroll_on_;
    bool reroll_once_ = false;
    std::set<std::int64_t> explode_on_;
    std::uint32_t explode_depth_ = 0;
};

// The exact distributions of a pool of n such dice (n >= 0).
Distribution sum_distribution(std::uint32_t n, const DieSpec& die);
Distribution count_distribution(std::uint32_t n, const DieSpec& die,
                                const std::function<bool(std::int64_t result)>& test);
// The sum of the k highest (highest = true) or lowest of n dice; 0 <= k <= n.
Distribution keep_distribution(std::uint32_t n, const DieSpec& die, std::uint32_t k, bool highest);

}  // namespace umpire::dice
