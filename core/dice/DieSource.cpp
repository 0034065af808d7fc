#include "core/dice/DieSource.hpp"

namespace umpire::dice {

std::vector<std::uint32_t> DieSource::pool(std::uint32_t n, std::uint32_t sides) {
    std::vector<std::uint32_t> faces;
    faces.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) faces.push_back(die(sides));
    return faces;
}

std::uint32_t DieSource::count(std::uint32_t n, std::uint32_t sides, std::int64_t lo,
                               std::int64_t hi) {
    std::uint32_t hits = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::int64_t face = die(sides);
        if (face >= lo && face <= hi) ++hits;
    }
    return hits;
}

std::int64_t DieSource::folded(const Distribution&, const std::function<std::int64_t(DieSource&)>& roll) {
    return roll(*this);
}

}  // namespace umpire::dice
