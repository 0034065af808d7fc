// Covered Arc and Target Facing of a unit in a hex facing a vertex (C3.2, D3.1, D3.2), and the
// rear hexes used by Reverse Movement (D2.22). For a vehicle in Bypass see Bypass.hpp.
//
// A unit in hex O facing vertex v (a VertexDir), drawn for v = E:
//
//                 side (N)
//               ___________       / CA boundary: the hexspine 60° anticlockwise of v (NE)
//     rear     /           \ front
//     (NW)    /             \(NE)/
//            <       O       > v = E          Covered Arc: the 120° wedge between the
//     rear    \             /(SE)\            two boundaries, from O's centre
//     (SW)     \___________/ front
//                 side (S)        \ CA boundary: the hexspine 60° clockwise of v (SE)
//
// Target Facing hexsides: front = the two either side of v (HexsideDir v and v+1), rear = the two
// opposite them (v+3, v+4), side = the other two (v+2, v+5).
//
// Covered Arc: the two hexes either side of v and everything between the hexspines 60° either
// side of v (so a 120° wedge from O's centre).
//
// THE BOUNDARY RULE, used everywhere in this module: a hex whose centre lies exactly on a
// bounding line (a CA hexspine, or a bounding hex row of a Bypass wedge) is INSIDE. It agrees
// with D3.2 "least favourable to the attacker": a shot along a hexspine between a front and a
// side hexside strikes the front, so the front Target Facing is exactly the (closed) CA.
#pragma once
#include <array>
#include <string_view>

#include "core/hex/Hex.hpp"

namespace umpire::hex {

enum class Facing : int { Front = 0, Side = 1, Rear = 2 };

constexpr std::string_view name(Facing f) {
    constexpr std::string_view names[] = {"front", "side", "rear"};
    return names[static_cast<int>(f)];
}

// C3.2/D3.1: is target in the Covered Arc of a unit in origin facing vertex `facing`? Centres on
// the bounding hexspines are inside; origin itself is inside (a unit needs no CA change to fire
// into its own hex).
bool in_covered_arc(Hex origin, VertexDir facing, Hex target);

// D3.2: the Target Facing struck by fire from `firer` at a vehicle in `target` facing `facing`
// (use the VCA for hull hits, the TCA for turret hits), by which hexside of the target hex the line
// between the centres crosses: the two hexsides either side of `facing` are front, the two
// opposite them rear, the other two side. A line exactly along a hexspine of the target hex takes
// the facing least favourable to the attacker (front over side over rear). RuleError if
// firer == target: use target_facing_from_dr.
Facing target_facing(Hex target, VertexDir facing, Hex firer);

// D3.2: fire from inside the target hex: the coloured dr of the To Hit DR gives 1-2 rear,
// 3-4 side, 5-6 front. RuleError for a dr outside 1..6. (Not for a vehicle in Bypass, where a
// hit from inside the Bypassed hex strikes the side, D2.32: see bypass_target_facing. FT/MOL/DC
// from the same hex always strike the rear: the caller knows the weapon.)
Facing target_facing_from_dr(int colored_dr);

// D2.22: the two hexes of the rear Target Facing of a vehicle in `vehicle` facing `facing` (the
// hexes across its two rear hexsides): the only hexes it may enter by Reverse Movement, in
// clockwise order. The hexside between them is the only one it may Bypass in reverse.
std::array<Hex, 2> rear_target_facing_hexes(Hex vehicle, VertexDir facing);

}  // namespace umpire::hex
