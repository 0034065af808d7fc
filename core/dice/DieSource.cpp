#include "core/dice/DieSource.hpp"

namespace umpire::dice {

std::vector<std::uint32_t> DieSource::pool(std::uint32_t n, std::uint32_t sides) {
    std::vector<std::uint32_t> faces;
    faces.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) faces.push_back(die(sides));
    return faces;
}

}  // namespace umpire::dice
