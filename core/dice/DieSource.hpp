// Where every die in the engine comes from. Rules, expressions and pools roll through a DieSource,
// never through a Generator: the odds engine substitutes a source that enumerates every branch
// (and may answer pool() by folding counts instead of sequences), and tests substitute fixed dice.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

namespace umpire::dice {

class Distribution;

class DieSource {
public:
    virtual ~DieSource() = default;

    // One die of `sides` faces (sides >= 1): a face in 1..sides.
    virtual std::uint32_t die(std::uint32_t sides) = 0;

    // n dice of `sides` faces, in the order rolled. The default calls die() n times; a source may
    // override it to treat the pool as one event (the odds engine enumerates its multisets).
    virtual std::vector<std::uint32_t> pool(std::uint32_t n, std::uint32_t sides);
    // How many of n dice of `sides` faces show a face in lo..hi. The default rolls the n dice
    // through die(); the odds engine overrides it with n+1 branches weighted binomially, which is
    // why a rule that only needs "how many hit" should ask this rather than pool().
    virtual std::uint32_t count(std::uint32_t n, std::uint32_t sides, std::int64_t lo,
                                std::int64_t hi);

    // A roll of which only the result matters (a sum, a count, a kept total, an exploded die),
    // with its exact distribution known. Every real source rolls the dice through `roll`, so
    // fixed dice are consumed face by face and the journal shows the faces rolled; the odds
    // engine overrides it with one branch per distinct result of `exact`, weighted by its
    // probability, so a pool folds to its results instead of multiplying out its sequences.
    virtual std::int64_t folded(const Distribution& exact,
                                const std::function<std::int64_t(DieSource&)>& roll);
};

}  // namespace umpire::dice
