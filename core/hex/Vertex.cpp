#include "core/hex/Vertex.hpp"

#include <algorithm>

#include "core/Error.hpp"

namespace umpire::hex {

Vertex vertex(Hex h, VertexDir d) {
    switch (d) {
        case VertexDir::NE: return {h, VertexDir::NE};
        case VertexDir::E: return {h, VertexDir::E};
        case VertexDir::SE: return {neighbour(h, HexsideDir::S), VertexDir::NE};
        case VertexDir::SW: return {neighbour(h, HexsideDir::SW), VertexDir::E};
        case VertexDir::W: return {neighbour(h, HexsideDir::SW), VertexDir::NE};
        case VertexDir::NW: return {neighbour(h, HexsideDir::NW), VertexDir::E};
    }
    return {h, VertexDir::NE};  // unreachable
}

std::array<Vertex, 6> vertices(Hex h) {
    std::array<Vertex, 6> out;
    for (int d = 0; d < 6; ++d) out[d] = vertex(h, static_cast<VertexDir>(d));
    return out;
}

std::array<Hex, 3> hexes(const Vertex& v) {
    const auto d = static_cast<HexsideDir>(index(v.dir));
    return {v.hex, neighbour(v.hex, d), neighbour(v.hex, rotate(d, 1))};
}

std::array<Hexside, 3> hexsides(const Vertex& v) {
    const auto d = static_cast<HexsideDir>(index(v.dir));
    // The third hexside at the vertex separates the two neighbours: from neighbour(h, d) the
    // other one lies two hexsides clockwise of d.
    return {hexside(v.hex, d), hexside(v.hex, rotate(d, 1)),
            hexside(neighbour(v.hex, d), rotate(d, 2))};
}

std::array<Vertex, 2> vertices(const Hexside& e) {
    const auto d = static_cast<VertexDir>(index(e.dir));
    return {vertex(e.hex, rotate(d, -1)), vertex(e.hex, d)};
}

Vertex vertex_between(Hex a, Hex b, Hex c) {
    for (const Vertex& v : vertices(a)) {
        const auto hs = hexes(v);
        if (std::find(hs.begin(), hs.end(), b) != hs.end() &&
            std::find(hs.begin(), hs.end(), c) != hs.end() && !(b == c) && !(a == b) && !(a == c))
            return v;
    }
    throw RuleError("vertex: " + to_string(a) + ", " + to_string(b) + " and " + to_string(c) +
                    " do not meet at one vertex");
}

VertexDir vertex_dir(Hex h, const Vertex& v) {
    for (int d = 0; d < 6; ++d)
        if (vertex(h, static_cast<VertexDir>(d)) == v) return static_cast<VertexDir>(d);
    throw RuleError("vertex: " + to_string(v) + " is not a vertex of " + to_string(h));
}

std::string to_string(const Vertex& v) {
    std::string out = to_string(v.hex);
    out.append(name(v.dir));  // append, not operator+: GCC 12 -O3 gives a false -Wrestrict there
    return out;
}

}  // namespace umpire::hex
