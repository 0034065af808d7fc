// Where every die in the engine comes from. Rules, expressions and pools roll through a DieSource,
// never through a Generator: the odds engine substitutes a source that enumerates every branch
// (and may answer pool() by folding counts instead of sequences), and tests substitute fixed dice.
#pragma once
#include <cstdint>
#include <vector>

namespace umpire::dice {

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
};

}  // namespace umpire::dice
