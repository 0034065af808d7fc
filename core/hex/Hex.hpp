// A hex of a flat-topped hex grid, in axial coordinates (q, r) with the implied cube coordinate
// s = -q - r, and the grid geometry built on it: distance, neighbours, rings, ranges, the hex
// line, and the ASL hex grains.
//
//            _____
//           /     \ .
//     _____/ 0,-1  \_____          q counts columns, left to right; r grows down a
//    /     \   N   /     \         column (S is r+1) and is constant along the
//   /-1, 0  \_____/ 1,-1  \        SE-NW hex rows. The six neighbours:
//   \  NW   /     \  NE   /
//    \_____/  0,0  \_____/         N  = ( 0,-1)   NE = (+1,-1)   SE = (+1, 0)
//    /     \       /     \         S  = ( 0,+1)   SW = (-1,+1)   NW = (-1, 0)
//   /-1,+1  \_____/ 1, 0  \ .
//   \  SW   /     \  SE   /        The hex whose centre lies on hexspine d at distance 2
//    \_____/ 0,+1  \_____/         (diagonal(h, d)) is h + spine vector:
//          \   S   /               NE = (+1,-2)  E = (+2,-1)  SE = (+1,+1)
//           \_____/                SW = (-1,+2)  W = (-2,+1)  NW = (-1,-1)
//
// ASL boards (AslName.hpp, Map.hpp) use this grid with "odd-q" offsets: column c, row n is
// axial q = c, r = n - (c - (c & 1)) / 2. Coordinates are plain ints; the geometry is exact
// (integer arithmetic only) for |q|, |r| below about 10^8.
#pragma once
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/hex/HexsideDir.hpp"
#include "core/hex/Side.hpp"
#include "core/hex/VertexDir.hpp"

namespace umpire::hex {

struct Hex {
    int q = 0;
    int r = 0;

    constexpr int s() const { return -q - r; }

    // Ordering is lexicographic on (q, r): arbitrary but fixed, so sets and maps of hexes
    // iterate deterministically.
    constexpr bool operator==(const Hex&) const = default;
    constexpr auto operator<=>(const Hex&) const = default;

    // Hexes double as displacement vectors.
    friend constexpr Hex operator+(Hex a, Hex b) { return {a.q + b.q, a.r + b.r}; }
    friend constexpr Hex operator-(Hex a, Hex b) { return {a.q - b.q, a.r - b.r}; }
    friend constexpr Hex operator*(int k, Hex a) { return {k * a.q, k * a.r}; }
};

// The unit step across hexside d.
constexpr Hex direction(HexsideDir d) {
    constexpr Hex steps[] = {{0, -1}, {1, -1}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}};
    return steps[index(d)];
}
// The step along hexspine d to the next hex centre on it (distance 2).
constexpr Hex direction(VertexDir d) {
    constexpr Hex steps[] = {{1, -2}, {2, -1}, {1, 1}, {-1, 2}, {-2, 1}, {-1, -1}};
    return steps[index(d)];
}

// Number of hexes stepped from a to b (0 for a == b).
int distance(Hex a, Hex b);

// The hex across hexside d of h.
constexpr Hex neighbour(Hex h, HexsideDir d) { return h + direction(d); }
// The six neighbours of h, indexed by HexsideDir (N first, clockwise).
std::array<Hex, 6> neighbours(Hex h);
// The hex two steps away whose centre lies on hexspine d of h.
constexpr Hex diagonal(Hex h, VertexDir d) { return h + direction(d); }

// The hexes at exactly `radius` from center, clockwise starting with the one `radius` steps N
// of center; {center} for radius 0. RuleError if radius < 0.
std::vector<Hex> ring(Hex center, int radius);
// Every hex within `radius` of center, in spiral order: center, then ring 1, ring 2, ...
// (each ring in ring() order). RuleError if radius < 0.
std::vector<Hex> range(Hex center, int radius);

// The hex line from a to b: distance(a, b) + 1 hexes, a first and b last, each adjacent to the
// next. `tie` settles exact ties (see Hex.cpp): where the straight line runs exactly along a
// hexside or through a vertex, the hex on that side of it (looking from a toward b) is taken.
// So line(a, b, Side::Left) is the line shifted infinitesimally to its left.
std::vector<Hex> line(Hex a, Hex b, Side tie = Side::Left);

// A9.22 Hex Grain: true if the straight line between the centres of a and b is a row of
// adjacent hexes, i.e. b - a is a non-zero multiple of one hexside direction. false for a == b.
bool grain(Hex a, Hex b);

// A9.221 Alternate Hex Grain: true if the straight line between the centres runs along a hexspine
// of a (b - a is a non-zero multiple of a spine vector).
bool on_alt_grain(Hex a, Hex b);

// The hexes of the Alternate Hex Grain from `from` toward `toward` on the declared side, in order,
// excluding `from` and including `toward`. The line passes alternately along a hexside (taking
// the hex on `side` of it, looking from `from` toward `toward`) and through a hex centre, so the
// result has 2k hexes for k spine steps. RuleError if the two are not on an alternate hex grain.
std::vector<Hex> alt_grain(Hex from, Hex toward, Side side);

// Whether target lies in the closed wedge with its apex at the centre of `apex`, spanned by the
// displacement vectors u and v (less than 180° apart): target - apex = a*u + b*v with a, b >= 0
// (real). Centres exactly on a bounding ray are inside; apex itself is inside. The covered arcs
// and Bypass Target Facings (Facing.hpp, Bypass.hpp) are all such wedges.
bool in_wedge(Hex apex, Hex u, Hex v, Hex target);

// "(q,r)", for messages. (ASL names come from Map::tostring.)
std::string to_string(Hex h);

}  // namespace umpire::hex

template <>
struct std::hash<umpire::hex::Hex> {
    std::size_t operator()(const umpire::hex::Hex& h) const noexcept {
        // Mix q into the high half so nearby hexes spread over buckets.
        const auto q = static_cast<std::uint64_t>(static_cast<std::uint32_t>(h.q));
        const auto r = static_cast<std::uint64_t>(static_cast<std::uint32_t>(h.r));
        std::uint64_t x = (q << 32) | r;
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        return static_cast<std::size_t>(x);
    }
};
