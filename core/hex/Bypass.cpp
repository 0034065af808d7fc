#include "core/hex/Bypass.hpp"

#include <string>

#include "core/Error.hpp"

namespace umpire::hex {

namespace {

// Hexside d runs clockwise from vertex d-1 to vertex d. Facing the clockwise end (cafp == d) the
// vehicle heads along the hexside in spine direction d+1; facing the other end, in direction d+4
// (the opposite). E.g. the SE hexside (2) from E to SE heads SW (3).
bool faces_clockwise_end(const Bypass& b) { return index(b.cafp) == index(b.side); }

// A wedge of hex rows opening in spine direction h: apex plus the rows in the hexside directions
// either side of that spine (HexsideDir h and h+1).
bool in_row_wedge(Hex apex, VertexDir heading, Hex target) {
    const auto row = static_cast<HexsideDir>(index(heading));
    return in_wedge(apex, direction(row), direction(rotate(row, 1)), target);
}

}  // namespace

Bypass bypass(Hex hex, HexsideDir side, VertexDir cafp) {
    const int d = index(side), v = index(cafp);
    if (v != d && v != (d + 5) % 6)
        throw RuleError("bypass: the CAFP " + std::string(name(cafp)) + " is not an end of the " +
                        std::string(name(side)) + " hexside of " + to_string(hex) + " (D2.32)");
    return {hex, side, cafp};
}

Vertex cafp_vertex(const Bypass& b) { return vertex(b.hex, b.cafp); }

Vertex rear_vertex(const Bypass& b) {
    return vertex(b.hex, faces_clockwise_end(b) ? rotate(b.cafp, -1) : rotate(b.cafp, 1));
}

VertexDir bypass_heading(const Bypass& b) {
    return static_cast<VertexDir>((index(b.side) + (faces_clockwise_end(b) ? 1 : 4)) % 6);
}

// The apex is the hex at the vertex that is not one of the two straddled hexes: at vertex d of
// the hex (between hexsides d and d+1) the hexes are hex, across d, across d+1.
Hex front_apex(const Bypass& b) {
    return neighbour(b.hex, faces_clockwise_end(b) ? rotate(b.side, 1) : rotate(b.side, -1));
}

Hex rear_apex(const Bypass& b) {
    return neighbour(b.hex, faces_clockwise_end(b) ? rotate(b.side, -1) : rotate(b.side, 1));
}

bool in_bypass_vca(const Bypass& b, Hex target) {
    return in_row_wedge(front_apex(b), bypass_heading(b), target);
}

Facing bypass_target_facing(const Bypass& b, Hex firer) {
    if (in_bypass_vca(b, firer)) return Facing::Front;
    if (in_row_wedge(rear_apex(b), opposite(bypass_heading(b)), firer)) return Facing::Rear;
    return Facing::Side;
}

}  // namespace umpire::hex
