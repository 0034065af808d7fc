// The seed examples of DESIGN.md ("ASL board notation") and the rulebook EX they come from. They
// fix the coordinate convention: if one fails, the layout (odd-q, B/D/F.. low) is wrong.
#include <algorithm>

#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/hex/Hex.hpp"
#include "core/hex/Vertex.hpp"
#include "hex_test_util.hpp"

using namespace umpire::hex;
using hex_test::H;
using hex_test::Hs;
using hex_test::names;

TEST_CASE("A9.222 EX: X3, Y4, Z4, AA5, BB5 lie on one hex grain", "[hex][seed]") {
    const auto hexes = Hs({"X3", "Y4", "Z4", "AA5", "BB5"});
    for (std::size_t i = 0; i < hexes.size(); ++i)
        for (std::size_t j = i + 1; j < hexes.size(); ++j) CHECK(grain(hexes[i], hexes[j]));
    // ... and the hex line between the ends is exactly that row.
    CHECK(names(line(H("X3"), H("BB5"))) == std::vector<std::string>{"X3", "Y4", "Z4", "AA5", "BB5"});
    CHECK(names(line(H("X3"), H("BB5"), Side::Right)) ==
          std::vector<std::string>{"X3", "Y4", "Z4", "AA5", "BB5"});
    CHECK(distance(H("X3"), H("BB5")) == 4);
    // With board numbers as in the EX (3X3).
    CHECK(grain(H("3X3", 3), H("3BB5", 3)));
}

TEST_CASE("A9.221 EX: alternate hex grain from L8 through K7 to J5", "[hex][seed]") {
    CHECK(on_alt_grain(H("L8"), H("K7")));
    CHECK_FALSE(grain(H("L8"), H("K7")));
    CHECK(names(alt_grain(H("L8"), H("K7"), Side::Left)) == std::vector<std::string>{"K8", "K7"});
    CHECK(names(alt_grain(H("L8"), H("K7"), Side::Right)) == std::vector<std::string>{"L7", "K7"});
    // J5 is the next hex centre on that line.
    CHECK(names(alt_grain(H("L8"), H("J5"), Side::Left)) ==
          std::vector<std::string>{"K8", "K7", "J6", "J5"});
    CHECK(names(alt_grain(H("L8"), H("J5"), Side::Right)) ==
          std::vector<std::string>{"L7", "K7", "K6", "J5"});
    CHECK(diagonal(diagonal(H("L8"), VertexDir::NW), VertexDir::NW) == H("J5"));
}

TEST_CASE("A9.222 EX: left alternate hex grain from Y6 toward EE6", "[hex][seed]") {
    // The EX text (extracted from a PDF) lists "AA6, BB5, CC6 and AA6"; the geometry gives
    // AA6, BB5, CC6 and EE6 (DD5 lies on the grain too but has no LOS in the EX, 9.22).
    CHECK(names(alt_grain(H("Y6"), H("EE6"), Side::Left)) ==
          std::vector<std::string>{"Z5", "AA6", "BB5", "CC6", "DD5", "EE6"});
    // "no other (Alternate) Hex Grain includes that firer's and target's hex": Y6 to BB5 is
    // neither a grain nor on one hexspine, only the Y6-EE6 left grain passes BB5.
    CHECK_FALSE(grain(H("Y6"), H("BB5")));
    CHECK_FALSE(on_alt_grain(H("Y6"), H("BB5")));
    CHECK(names(alt_grain(H("Y6"), H("EE6"), Side::Right)) ==
          std::vector<std::string>{"Z6", "AA6", "BB6", "CC6", "DD6", "EE6"});
}

TEST_CASE("A9.221 EX: K6, J6 and K7 meet at one vertex", "[hex][seed]") {
    const Vertex v = vertex_between(H("K6"), H("J6"), H("K7"));
    CHECK(v == vertex(H("K7"), VertexDir::NW));
    CHECK(v == vertex(H("K6"), VertexDir::SW));
    CHECK(v == vertex(H("J6"), VertexDir::E));
    auto hs = hexes(v);
    std::sort(hs.begin(), hs.end());
    auto want = std::array<Hex, 3>{H("K6"), H("J6"), H("K7")};
    std::sort(want.begin(), want.end());
    CHECK(hs == want);
    // The K6-J6 hexside ends at that vertex (the Snap Shot hexside of the EX).
    const auto ends = vertices(hexside_between(H("K6"), H("J6")));
    CHECK((ends[0] == v || ends[1] == v));
}
