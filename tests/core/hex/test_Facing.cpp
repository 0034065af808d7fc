#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/hex/Facing.hpp"
#include "core/hex/Vertex.hpp"
#include "hex_test_util.hpp"

using namespace umpire::hex;
using hex_test::H;

TEST_CASE("Covered arc: the two hexes at the vertex, and the 120 degree wedge", "[hex][facing]") {
    const Hex o{0, 0};
    // Facing E: NE and SE neighbours are in, the other four out.
    CHECK(in_covered_arc(o, VertexDir::E, neighbour(o, HexsideDir::NE)));
    CHECK(in_covered_arc(o, VertexDir::E, neighbour(o, HexsideDir::SE)));
    for (auto d : {HexsideDir::N, HexsideDir::S, HexsideDir::SW, HexsideDir::NW})
        CHECK_FALSE(in_covered_arc(o, VertexDir::E, neighbour(o, d)));
    // Hexes whose centre is on a bounding hexspine are inside (the stated rule).
    CHECK(in_covered_arc(o, VertexDir::E, diagonal(o, VertexDir::NE)));
    CHECK(in_covered_arc(o, VertexDir::E, 3 * direction(VertexDir::SE)));
    CHECK(in_covered_arc(o, VertexDir::E, o));
    // Width at range k: the k+1 hexes of the two "front" hex rows and between, plus at even k the
    // two hexes centred on the bounding hexspines.
    for (int k = 1; k <= 7; ++k) {
        int n = 0;
        for (Hex h : ring(o, k)) n += in_covered_arc(o, VertexDir::E, h);
        CHECK(n == k + 1 + 2 * (k / 2));
    }
    // The six arcs overlap (each direction is in at least two) and opposite arcs are disjoint.
    for (Hex h : ring(o, 5)) {
        int n = 0;
        for (int v = 0; v < 6; ++v) n += in_covered_arc(o, static_cast<VertexDir>(v), h);
        CHECK(n >= 2);
        CHECK_FALSE((in_covered_arc(o, VertexDir::E, h) && in_covered_arc(o, VertexDir::W, h)));
    }
}

TEST_CASE("Target facing by hexside crossed", "[hex][facing]") {
    const Hex t{0, 0};
    // Vehicle faces E: front hexsides NE, SE; rear SW, NW; side N, S.
    CHECK(target_facing(t, VertexDir::E, neighbour(t, HexsideDir::NE)) == Facing::Front);
    CHECK(target_facing(t, VertexDir::E, neighbour(t, HexsideDir::SE)) == Facing::Front);
    CHECK(target_facing(t, VertexDir::E, neighbour(t, HexsideDir::N)) == Facing::Side);
    CHECK(target_facing(t, VertexDir::E, neighbour(t, HexsideDir::S)) == Facing::Side);
    CHECK(target_facing(t, VertexDir::E, neighbour(t, HexsideDir::SW)) == Facing::Rear);
    CHECK(target_facing(t, VertexDir::E, neighbour(t, HexsideDir::NW)) == Facing::Rear);
    // Not just adjacent: a shot from far off crossing the N hexside.
    CHECK(target_facing(t, VertexDir::E, {1, -6}) == Facing::Side);
    CHECK(target_facing(t, VertexDir::E, {-5, 1}) == Facing::Rear);
}

TEST_CASE("Target facing: a shot exactly along a hexspine is least favourable to the attacker",
          "[hex][facing]") {
    const Hex t{0, 0};
    const VertexDir f = VertexDir::E;
    // Spine E (front|front), NE (front|side) and SE (front|side): front.
    CHECK(target_facing(t, f, 3 * direction(VertexDir::E)) == Facing::Front);
    CHECK(target_facing(t, f, 2 * direction(VertexDir::NE)) == Facing::Front);
    CHECK(target_facing(t, f, direction(VertexDir::SE)) == Facing::Front);
    // Spines NW and SW lie between a side and a rear hexside: side, not rear.
    CHECK(target_facing(t, f, direction(VertexDir::NW)) == Facing::Side);
    CHECK(target_facing(t, f, 4 * direction(VertexDir::SW)) == Facing::Side);
    // Spine W (rear|rear): rear.
    CHECK(target_facing(t, f, direction(VertexDir::W)) == Facing::Rear);
    // The front Target Facing is exactly the (closed) covered arc, for every facing.
    for (int v = 0; v < 6; ++v)
        for (Hex h : range(t, 6))
            if (!(h == t))
                CHECK((target_facing(t, static_cast<VertexDir>(v), h) == Facing::Front) ==
                      in_covered_arc(t, static_cast<VertexDir>(v), h));
    CHECK_THROWS_AS(target_facing(t, f, t), umpire::RuleError);
}

TEST_CASE("Target facing from inside the hex: coloured dr", "[hex][facing]") {
    CHECK(target_facing_from_dr(1) == Facing::Rear);
    CHECK(target_facing_from_dr(2) == Facing::Rear);
    CHECK(target_facing_from_dr(3) == Facing::Side);
    CHECK(target_facing_from_dr(4) == Facing::Side);
    CHECK(target_facing_from_dr(5) == Facing::Front);
    CHECK(target_facing_from_dr(6) == Facing::Front);
    CHECK_THROWS_AS(target_facing_from_dr(0), umpire::RuleError);
    CHECK_THROWS_AS(target_facing_from_dr(7), umpire::RuleError);
    CHECK(name(Facing::Side) == "side");
}

TEST_CASE("D2.22 EX: the rear Target Facing hexes of the BT-7 in FF5, VCA FF4-GG5", "[hex][facing]") {
    // VCA FF4-GG5: the two front hexes FF4 (N) and GG5 (NE) share the NE vertex of FF5.
    const Hex ff5 = H("FF5");
    CHECK(vertex_between(ff5, H("FF4"), H("GG5")) == vertex(ff5, VertexDir::NE));
    const auto rear = rear_target_facing_hexes(ff5, VertexDir::NE);
    CHECK(hex_test::names({rear[0], rear[1]}) == std::vector<std::string>{"FF6", "EE6"});
    // "it could Bypass only along hexside FF6-EE6" (and the EE6 reverse move of 2.24 EX).
    CHECK(target_facing(ff5, VertexDir::NE, H("FF4")) == Facing::Front);
    CHECK(target_facing(ff5, VertexDir::NE, H("GG5")) == Facing::Front);
    CHECK(target_facing(ff5, VertexDir::NE, H("EE6")) == Facing::Rear);
    CHECK(target_facing(ff5, VertexDir::NE, H("FF6")) == Facing::Rear);
    CHECK(target_facing(ff5, VertexDir::NE, H("GG6")) == Facing::Side);  // not a reverse hex
}
