#include "core/hex/Facing.hpp"

#include <cstdint>
#include <string>

#include "core/Error.hpp"

namespace umpire::hex {

namespace {
std::int64_t cross(Hex u, Hex v) { return std::int64_t{u.q} * v.r - std::int64_t{u.r} * v.q; }
std::int64_t dot(Hex u, Hex v) { return std::int64_t{u.q} * v.q + std::int64_t{u.r} * v.r; }
}  // namespace

bool in_covered_arc(Hex origin, VertexDir facing, Hex target) {
    return in_wedge(origin, direction(rotate(facing, -1)), direction(rotate(facing, 1)), target);
}

// Where does the line from the target's centre toward the firer's leave the target hex? Hexside k
// spans the directions strictly between spine k-1 and spine k (clockwise), so the direction either
// lies exactly on one spine (a hexspine shot, a tie) or strictly inside one hexside's span. The
// cross product against the spine vectors decides this exactly. The facing then depends only on
// how many steps clockwise of `facing` that hexside or spine is:
//   hexside k - facing:  0 front, 1 front, 2 side, 3 rear, 4 rear, 5 side
//   spine   k - facing:  0 front (front|front), 1 front (front|side), 2 side (side|rear),
//                        3 rear (rear|rear), 4 side (rear|side), 5 front (side|front)
Facing target_facing(Hex target, VertexDir facing, Hex firer) {
    if (firer == target)
        throw RuleError("target facing: the firer is in the target hex " + to_string(target) +
                        "; use the coloured dr (D3.2)");
    const Hex d = firer - target;
    const int f = index(facing);
    for (int k = 0; k < 6; ++k) {
        const Hex spine = direction(static_cast<VertexDir>(k));
        if (cross(spine, d) == 0 && dot(spine, d) > 0) {
            constexpr Facing by_spine[] = {Facing::Front, Facing::Front, Facing::Side,
                                           Facing::Rear,  Facing::Side,  Facing::Front};
            return by_spine[((k - f) % 6 + 6) % 6];
        }
    }
    for (int k = 0; k < 6; ++k) {
        const Hex before = direction(static_cast<VertexDir>((k + 5) % 6));
        const Hex after = direction(static_cast<VertexDir>(k));
        if (cross(before, d) > 0 && cross(d, after) > 0) {
            constexpr Facing by_side[] = {Facing::Front, Facing::Front, Facing::Side,
                                          Facing::Rear,  Facing::Rear,  Facing::Side};
            return by_side[((k - f) % 6 + 6) % 6];
        }
    }
    throw RuleError("target facing: internal error");  // the spans cover every direction
}

Facing target_facing_from_dr(int colored_dr) {
    if (colored_dr < 1 || colored_dr > 6)
        throw RuleError("target facing: coloured dr " + std::to_string(colored_dr) +
                        " is not 1..6");
    return colored_dr <= 2 ? Facing::Rear : colored_dr <= 4 ? Facing::Side : Facing::Front;
}

std::array<Hex, 2> rear_target_facing_hexes(Hex vehicle, VertexDir facing) {
    // Front hexsides are facing and facing+1 (as HexsideDir); the rear ones are opposite them.
    const auto front = static_cast<HexsideDir>(index(facing));
    return {neighbour(vehicle, rotate(front, 3)), neighbour(vehicle, rotate(front, 4))};
}

}  // namespace umpire::hex
