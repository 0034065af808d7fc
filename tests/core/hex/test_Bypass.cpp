#include <set>

#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/hex/Bypass.hpp"
#include "hex_test_util.hpp"

using namespace umpire::hex;
using hex_test::H;

namespace {
// D2.321 EX: the PSW 234/2 in Bypass at 23BB3. The text (no diagram) gives the first six hexes of
// the front (BB4, AA5, BB5, Z5, AA6, BB6) and rear (CC3, CC2, DD2, CC1, DD1, EE2) Target Facings.
// The front apex BB4 is the S neighbour of BB3, and the rows S and SW of it converge there, so the
// vehicle heads SW: the CAFP is BB3-BB4-CC4 (the SE vertex of BB3) and it straddles BB3|CC4 (the
// SE hexside of BB3); the rear apex CC3 is at the other end of that hexside (BB3-CC3-CC4).
Bypass psw() { return bypass(H("23BB3", 23), HexsideDir::SE, VertexDir::SE); }
}  // namespace

TEST_CASE("D2.321 EX: Bypass front and rear Target Facing hexes", "[hex][bypass]") {
    const Bypass b = psw();
    CHECK(cafp_vertex(b) == vertex_between(H("BB3"), H("BB4"), H("CC4")));
    CHECK(rear_vertex(b) == vertex_between(H("BB3"), H("CC3"), H("CC4")));
    CHECK(bypass_heading(b) == VertexDir::SW);
    CHECK(front_apex(b) == H("BB4"));
    CHECK(rear_apex(b) == H("CC3"));

    const std::set<Hex> front{H("BB4"), H("AA5"), H("BB5"), H("Z5"), H("AA6"), H("BB6")};
    const std::set<Hex> rear{H("CC3"), H("CC2"), H("DD2"), H("CC1"), H("DD1"), H("EE2")};
    // "the first six": exactly these within two hexes of the apex.
    std::set<Hex> near_front, near_rear;
    for (Hex h : range(front_apex(b), 2))
        if (bypass_target_facing(b, h) == Facing::Front) near_front.insert(h);
    for (Hex h : range(rear_apex(b), 2))
        if (bypass_target_facing(b, h) == Facing::Rear) near_rear.insert(h);
    CHECK(hex_test::names({near_front.begin(), near_front.end()}) ==
          hex_test::names({front.begin(), front.end()}));
    CHECK(hex_test::names({near_rear.begin(), near_rear.end()}) ==
          hex_test::names({rear.begin(), rear.end()}));
    for (Hex h : front) CHECK(in_bypass_vca(b, h));
    for (Hex h : rear) CHECK_FALSE(in_bypass_vca(b, h));

    // The 4-4-7 in AA4 and the 6-2-8 in BB2 are in side Target Facings; DD1 is rear.
    CHECK(bypass_target_facing(b, H("AA4")) == Facing::Side);
    CHECK(bypass_target_facing(b, H("BB2")) == Facing::Side);
    CHECK(bypass_target_facing(b, H("DD1")) == Facing::Rear);
    // A hull hit from the Bypassed hex (or the other straddled hex) strikes the side.
    CHECK(bypass_target_facing(b, H("BB3")) == Facing::Side);
    CHECK(bypass_target_facing(b, H("CC4")) == Facing::Side);
    // Farther out the wedges keep going, rows included.
    CHECK(bypass_target_facing(b, H("BB10")) == Facing::Front);
    CHECK(bypass_target_facing(b, H("V7")) == Facing::Front);  // on the SW row from BB4
    CHECK(bypass_target_facing(b, H("V6")) == Facing::Side);   // just outside it
    CHECK(bypass_target_facing(b, H("CC0")) == Facing::Rear);
}

TEST_CASE("D2.33 EX: CAFP of a VBM move into K2 along K2-J1", "[hex][bypass]") {
    // Entering K2 from K1 along the K2|J1 hexside (the NW hexside of K2) toward its W vertex:
    // "Its CAFP is K2-J1-J2", and the hex forming the base of its VCA is J2.
    const Bypass b = bypass(H("K2"), HexsideDir::NW, VertexDir::W);
    CHECK(cafp_vertex(b) == vertex_between(H("K2"), H("J1"), H("J2")));
    CHECK(rear_vertex(b) == vertex_between(H("K2"), H("J1"), H("K1")));
    CHECK(front_apex(b) == H("J2"));
    // Continuing along K2|J2 (the SW hexside of K2) reaches "its new CAFP K2-K3-J2".
    const Bypass next = bypass(H("K2"), HexsideDir::SW, VertexDir::SW);
    CHECK(cafp_vertex(next) == vertex_between(H("K2"), H("K3"), H("J2")));
    CHECK(front_apex(next) == H("K3"));
}

TEST_CASE("Bypass: validation and symmetry", "[hex][bypass]") {
    CHECK_THROWS_AS(bypass(H("K2"), HexsideDir::NW, VertexDir::E), umpire::RuleError);
    CHECK_NOTHROW(bypass(H("K2"), HexsideDir::NW, VertexDir::NW));
    // Facing the other end of the same hexside swaps front and rear.
    const Hex h{5, 5};
    for (int d = 0; d < 6; ++d) {
        const auto side = static_cast<HexsideDir>(d);
        const Bypass cw = bypass(h, side, static_cast<VertexDir>(d));
        const Bypass ccw = bypass(h, side, static_cast<VertexDir>((d + 5) % 6));
        CHECK(cafp_vertex(cw) == rear_vertex(ccw));
        CHECK(front_apex(cw) == rear_apex(ccw));
        for (Hex t : range(h, 5)) {
            const Facing a = bypass_target_facing(cw, t), b = bypass_target_facing(ccw, t);
            CHECK(((a == Facing::Front && b == Facing::Rear) || (a == Facing::Rear && b == Facing::Front) ||
                   (a == Facing::Side && b == Facing::Side)));
        }
        // The same Bypass named from the hex across the hexside gives the same geometry.
        const Hex other = neighbour(h, side);
        const Vertex cafp = cafp_vertex(cw);
        const Bypass mirror = bypass(other, opposite(side), vertex_dir(other, cafp));
        CHECK(front_apex(mirror) == front_apex(cw));
        CHECK(rear_apex(mirror) == rear_apex(cw));
        CHECK(bypass_heading(mirror) == bypass_heading(cw));
    }
}
