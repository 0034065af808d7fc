// Predetermined dice, for tests and for replaying a rulebook's worked example: die() hands out
// the queued faces in order, whatever is being rolled.
#pragma once
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "core/dice/DieSource.hpp"

namespace umpire::dice {

class FixedSource final : public DieSource {
public:
    FixedSource() = default;
    FixedSource(std::initializer_list<std::uint32_t> faces) : faces_(faces) {}
    explicit FixedSource(std::vector<std::uint32_t> faces) : faces_(std::move(faces)) {}

    // Appends faces to the end of the queue.
    void push(std::uint32_t face) { faces_.push_back(face); }

    // The next queued face. RuleError if the queue is exhausted, or if the face is 0 or larger than
    // `sides` (a test that queued a 6 for a d3 roll has a bug we want to hear about; remember that
    // D2/D3 and d% are rolled as a d6 and a d100).
    std::uint32_t die(std::uint32_t sides) override;

    // How many queued faces have not been used yet.
    std::size_t remaining() const { return faces_.size() - next_; }

private:
    std::vector<std::uint32_t> faces_;
    std::size_t next_ = 0;
};

}  // namespace umpire::dice
