// A vertex as a value: the point where three hexes meet has exactly one Vertex, whichever hex it is
// named from. Canonically it is stored as the NE or E vertex of one of its hexes (each hex "owns"
// those two; its other four belong to neighbours):
//
//          _____ NE         SE of h = NE of neighbour(h, S)
//         /     \           SW of h = E  of neighbour(h, SW)
//        /   h   \ E        W  of h = NE of neighbour(h, SW)
//        \       /          NW of h = E  of neighbour(h, NW)
//         \_____/
//
// Vertex d of h touches h, neighbour(h, d) and neighbour(h, d + 1) (VertexDir d lies between
// HexsideDir d and d + 1). A Bypass vehicle's CAFP (D2.32) is a Vertex.
#pragma once
#include <array>
#include <cstddef>
#include <functional>
#include <string>

#include "core/hex/Hex.hpp"
#include "core/hex/Hexside.hpp"

namespace umpire::hex {

struct Vertex {
    Hex hex;                        // the owning hex
    VertexDir dir = VertexDir::NE;  // NE or E only

    constexpr bool operator==(const Vertex&) const = default;
    constexpr auto operator<=>(const Vertex&) const = default;
};

// Vertex d of h, in canonical form.
Vertex vertex(Hex h, VertexDir d);
// The six vertices of h, indexed by VertexDir.
std::array<Vertex, 6> vertices(Hex h);
// The three hexes meeting at v: for an NE-owned vertex {h, neighbour N, neighbour NE}; for an
// E-owned one {h, neighbour NE, neighbour SE}.
std::array<Hex, 3> hexes(const Vertex& v);
// The three hexsides meeting at v.
std::array<Hexside, 3> hexsides(const Vertex& v);
// The two end points of hexside e (its anticlockwise end first, seen from the owner).
std::array<Vertex, 2> vertices(const Hexside& e);
// The vertex where a, b and c (in any order) meet; RuleError if they do not share one.
Vertex vertex_between(Hex a, Hex b, Hex c);
// Which vertex of h is v; RuleError if v is not a vertex of h.
VertexDir vertex_dir(Hex h, const Vertex& v);

// "(q,r)NE", for messages.
std::string to_string(const Vertex& v);

}  // namespace umpire::hex

template <>
struct std::hash<umpire::hex::Vertex> {
    std::size_t operator()(const umpire::hex::Vertex& v) const noexcept {
        return std::hash<umpire::hex::Hex>{}(v.hex) * 2 + static_cast<std::size_t>(v.dir);
    }
};
