#include "core/dice/Die.hpp"

#include "core/Error.hpp"
#include "core/dice/Distribution.hpp"

namespace umpire::dice {

Die Die::d(std::uint32_t sides) {
    if (sides == 0) throw RuleError("a die needs at least 1 side");
    return Die(Kind::plain, sides);
}
Die Die::percent() { return Die(Kind::percent, 100); }
Die Die::d2() { return Die(Kind::d2, 2); }
Die Die::d3() { return Die(Kind::d3, 3); }

std::uint32_t Die::rolled_sides() const {
    return (kind_ == Kind::d2 || kind_ == Kind::d3) ? 6 : sides_;
}

std::uint32_t Die::read(std::uint32_t raw) const {
    switch (kind_) {
    case Kind::d2: return raw <= 3 ? 1 : 2;
    case Kind::d3: return (raw + 1) / 2;
    default: return raw;
    }
}

std::uint32_t Die::roll(DieSource& source) const { return read(source.die(rolled_sides())); }

std::vector<std::uint32_t> Die::roll_pool(DieSource& source, std::uint32_t n) const {
    std::vector<std::uint32_t> faces = source.pool(n, rolled_sides());
    for (auto& f : faces) f = read(f);
    return faces;
}

Distribution Die::distribution() const { return Distribution::uniform(sides_); }

std::string Die::to_string() const {
    return kind_ == Kind::percent ? std::string("d%") : "d" + std::to_string(sides_);
}

}  // namespace umpire::dice
