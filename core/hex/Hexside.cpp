#include "core/hex/Hexside.hpp"

#include "core/Error.hpp"

namespace umpire::hex {

Hexside hexside(Hex h, HexsideDir d) {
    if (index(d) < 3) return {h, d};
    return {neighbour(h, d), opposite(d)};
}

std::array<Hexside, 6> hexsides(Hex h) {
    std::array<Hexside, 6> out;
    for (int d = 0; d < 6; ++d) out[d] = hexside(h, static_cast<HexsideDir>(d));
    return out;
}

std::array<Hex, 2> hexes(const Hexside& e) { return {e.hex, neighbour(e.hex, e.dir)}; }

Hexside hexside_between(Hex a, Hex b) {
    for (int d = 0; d < 6; ++d)
        if (neighbour(a, static_cast<HexsideDir>(d)) == b) return hexside(a, static_cast<HexsideDir>(d));
    throw RuleError("hexside: " + to_string(a) + " and " + to_string(b) + " are not adjacent");
}

std::string to_string(const Hexside& e) {
    std::string out = to_string(e.hex);
    out.append(name(e.dir));  // append, not operator+: GCC 12 -O3 gives a false -Wrestrict there
    return out;
}

}  // namespace umpire::hex
