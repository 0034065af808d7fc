#include "core/dice/FixedSource.hpp"

#include <string>

#include "core/Error.hpp"

namespace umpire::dice {

std::uint32_t FixedSource::die(std::uint32_t sides) {
    if (next_ >= faces_.size())
        throw RuleError("fixed dice exhausted: a d" + std::to_string(sides) + " was rolled after all " +
                        std::to_string(faces_.size()) + " queued faces were used");
    const std::uint32_t face = faces_[next_];
    if (face < 1 || face > sides)
        throw RuleError("fixed die #" + std::to_string(next_ + 1) + " is " + std::to_string(face) +
                        " but the die rolled is a d" + std::to_string(sides));
    ++next_;
    return face;
}

}  // namespace umpire::dice
