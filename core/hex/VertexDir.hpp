// Directions of the six vertices (hexspines) of a flat-topped hex, numbered clockwise so that
// vertex d lies between hexside d and hexside d+1 (HexsideDir.hpp):
//
//         NW (5) _______ NE (0)
//               /   N   \ .
//              /NW     NE\ .
//      W (4)  <           >  E (1)
//              \SW     SE/
//               \___S___/
//         SW (3)         SE (2)
//
// As angles (mathematical, anticlockwise from east): NE 60°, E 0°, SE 300°, SW 240°, W 180°,
// NW 120°. A hexspine is the line from the hex centre through that vertex; extended, it runs
// alternately along a hexside and through a hex centre (the Alternate Hex Grain, A9.221). A
// vehicle or Gun "faces a vertex": its facing is a VertexDir.
#pragma once
#include <string_view>

namespace umpire::hex {

enum class VertexDir : int { NE = 0, E = 1, SE = 2, SW = 3, W = 4, NW = 5 };

// d turned `steps` vertices clockwise (negative: anticlockwise).
constexpr VertexDir rotate(VertexDir d, int steps) {
    return static_cast<VertexDir>((((static_cast<int>(d) + steps) % 6) + 6) % 6);
}
constexpr VertexDir opposite(VertexDir d) { return rotate(d, 3); }
constexpr int index(VertexDir d) { return static_cast<int>(d); }

constexpr std::string_view name(VertexDir d) {
    constexpr std::string_view names[] = {"NE", "E", "SE", "SW", "W", "NW"};
    return names[index(d)];
}

}  // namespace umpire::hex
