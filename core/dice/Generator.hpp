// The game's random number generator: xoshiro256** 1.0 (Blackman & Vigna), seeded through
// splitmix64 so that any 64-bit seed, even 0, gives a well-mixed non-zero state.
//
// Nothing in the engine rolls dice by calling a Generator directly: dice go through a DieSource
// (see DieSource.hpp) so the odds engine can replace chance by enumeration.
#pragma once
#include <array>
#include <cstdint>
#include <string>

namespace umpire::dice {

class Generator {
public:
    using State = std::array<std::uint64_t, 4>;

    // Seeds the four state words with four successive splitmix64 outputs of `seed`.
    explicit Generator(std::uint64_t seed = 0);

    // A generator continuing exactly from `state` (as returned by state()). An all-zero state is
    // a fixed point of xoshiro and is refused with RuleError.
    static Generator from_state(const State& state);

    // Restores from the text of to_text(); throws ParseError("generator state", ...) otherwise.
    static Generator from_text(const std::string& text);

    // The next raw 64-bit output.
    std::uint64_t next();

    // A uniform integer in 1..n, without modulo bias (Lemire's multiply-and-reject). n >= 1.
    std::uint32_t uniform(std::uint32_t n);

    // The current state: feeding it to from_state() reproduces the rest of the sequence.
    const State& state() const { return state_; }

    // The current state as compact text for save files: "xoshiro256**:" then 4 words of 16 hex
    // digits separated by ':' (lower case).
    std::string to_text() const;

    // Independent stream k for parallel worker k: the state this generator was seeded with (or
    // restored to) advanced by k jumps of 2^128 outputs each. stream(0) replays this generator
    // from its origin; streams k and k+1 cannot overlap before 2^128 outputs. Deterministic: the
    // same seed and k always give the same stream, whatever this generator has produced since.
    // Note a generator restored with from_state/from_text takes the restored state as its origin.
    // Cost: k jumps of 256 steps each, so derive worker streams with small k (0, 1, 2, ...).
    Generator stream(std::uint64_t k) const;

    // Advances the state by 2^128 outputs (the reference jump()).
    void jump();

    // One step of splitmix64, exposed for tests and for deriving seeds.
    static std::uint64_t splitmix64(std::uint64_t& x);

private:
    Generator(const State& state, int);
    State state_;
    State origin_;
};

}  // namespace umpire::dice
