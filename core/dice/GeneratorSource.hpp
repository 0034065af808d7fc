// The ordinary source of dice: a Generator rolled uniformly.
#pragma once
#include "core/dice/DieSource.hpp"
#include "core/dice/Generator.hpp"

namespace umpire::dice {

class GeneratorSource final : public DieSource {
public:
    explicit GeneratorSource(std::uint64_t seed = 0) : generator_(seed) {}
    explicit GeneratorSource(const Generator& generator) : generator_(generator) {}

    // A uniform face in 1..sides; RuleError if sides == 0.
    std::uint32_t die(std::uint32_t sides) override;

    // The wrapped generator, e.g. to save its state or derive worker streams.
    Generator& generator() { return generator_; }
    const Generator& generator() const { return generator_; }

private:
    Generator generator_;
};

}  // namespace umpire::dice
