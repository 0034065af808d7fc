#include "core/dice/GeneratorSource.hpp"

namespace umpire::dice {

std::uint32_t GeneratorSource::die(std::uint32_t sides) { return generator_.uniform(sides); }

}  // namespace umpire::dice
