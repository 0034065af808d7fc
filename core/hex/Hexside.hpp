// A hexside as a value: the side shared by two adjacent hexes has exactly one Hexside, whichever
// hex it is named from. Canonically it is stored as the N, NE or SE side of one of its hexes (each
// hex "owns" those three; its S, SW, NW sides belong to the neighbours there):
//
//        _____
//       /  N  \ NE        the S side of h is the N side of neighbour(h, S),
//      /   h   \          the SW side of h is the NE side of neighbour(h, SW),
//      \       / SE       the NW side of h is the SE side of neighbour(h, NW).
//       \_____/
//
// Vertices of a hexside are in Vertex.hpp (it needs both types).
#pragma once
#include <array>
#include <cstddef>
#include <functional>
#include <string>

#include "core/hex/Hex.hpp"

namespace umpire::hex {

struct Hexside {
    Hex hex;                          // the owning hex
    HexsideDir dir = HexsideDir::N;   // N, NE or SE only

    constexpr bool operator==(const Hexside&) const = default;
    constexpr auto operator<=>(const Hexside&) const = default;
};

// Hexside d of h, in canonical form.
Hexside hexside(Hex h, HexsideDir d);
// The six hexsides of h, indexed by HexsideDir.
std::array<Hexside, 6> hexsides(Hex h);
// The two hexes sharing hexside e: the owner first, then the one across it.
std::array<Hex, 2> hexes(const Hexside& e);
// The hexside between two adjacent hexes; RuleError if they are not adjacent.
Hexside hexside_between(Hex a, Hex b);

// "(q,r)N", for messages.
std::string to_string(const Hexside& e);

}  // namespace umpire::hex

template <>
struct std::hash<umpire::hex::Hexside> {
    std::size_t operator()(const umpire::hex::Hexside& e) const noexcept {
        return std::hash<umpire::hex::Hex>{}(e.hex) * 3 + static_cast<std::size_t>(e.dir);
    }
};
