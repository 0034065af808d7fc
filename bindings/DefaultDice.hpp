// Stand-in for the game's die source until core/dice's umpire::dice::DieSource is plugged in:
// xoshiro256** seeded through splitmix64 (the generator DESIGN.md names), unbiased dN by
// rejection so a d6 is a fair d6 for every seed.
#pragma once
#include <cstdint>

namespace umpire {

class DefaultDice {
public:
    explicit DefaultDice(std::uint64_t seed) {
        for (auto& word : s_) word = splitmix64(seed);
    }

    // 1..sides (sides >= 1).
    std::uint32_t die(std::uint32_t sides) {
        if (sides <= 1) return 1;
        // Largest multiple of `sides` that fits in 2^32; draws at or above it are redrawn.
        const std::uint64_t range = std::uint64_t{1} << 32;
        const std::uint64_t limit = range - range % sides;
        for (;;) {
            const std::uint64_t draw = next() >> 32;
            if (draw < limit) return static_cast<std::uint32_t>(draw % sides) + 1;
        }
    }

private:
    static std::uint64_t splitmix64(std::uint64_t& x) {
        std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t next() {
        const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
        const std::uint64_t t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return result;
    }
    std::uint64_t s_[4];
};

}  // namespace umpire
