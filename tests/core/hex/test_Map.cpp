#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/hex/Map.hpp"

using namespace umpire::hex;

TEST_CASE("Map: a single board", "[hex][map]") {
    const Map m(21);
    CHECK(m.hex("21K8") == m.hex("K8"));  // the board is the default
    CHECK(m.hex("K8") == local_hex(10, 8));
    CHECK(m.tostring(m.hex("K8")) == "21K8");
    CHECK(m.name(m.hex("GG10")) == AslName{21, 32, 10});
    CHECK(m.contains(m.hex("A0")));
    CHECK_FALSE(m.contains(local_hex(33, 5)));
    CHECK_FALSE(m.contains(local_hex(-1, 5)));
    CHECK_FALSE(m.contains(local_hex(4, 11)));
    CHECK_THROWS_AS(m.name(local_hex(33, 5)), umpire::RuleError);  // off the map, no wrap-around
    CHECK_THROWS_AS(m.tostring(local_hex(0, -1)), umpire::RuleError);
    CHECK_THROWS_AS(m.hex("3K8"), umpire::RuleError);              // not on this map
    CHECK_THROWS_AS(m.hex("21K99"), umpire::ParseError);           // unreadable
    CHECK_THROWS_AS(m.hex(AslName{21, 40, 2}), umpire::RuleError);
    // An unnumbered board names hexes without a number.
    CHECK(Map().tostring(Map().hex("BB5")) == "BB5");
}

TEST_CASE("Map: every hex of a board round-trips", "[hex][map]") {
    const Map m(7);
    for (int c = 0; c < 33; ++c)
        for (int row = 0; row <= 10; ++row) {
            const AslName n{7, c, row};
            CHECK(m.name(m.hex(n)) == n);
            CHECK(m.hex(m.tostring(m.hex(n))) == m.hex(n));
        }
}

TEST_CASE("Map: two boards side by side", "[hex][map]") {
    // Board 21 on the left, board 22 to its right sharing the GG/A half-hex column, and board 3
    // below board 21 (rows 0..10, sharing row 10/0).
    const Map m({{21, 0, 0, {}}, {22, 32, 0, {}}, {3, 0, 10, {}}}, 21);
    CHECK(m.hex("22A5") == m.hex("21GG5"));
    CHECK(m.tostring(m.hex("22A5")) == "21GG5");  // overlap: the first board named wins
    CHECK(m.tostring(m.hex("22B5")) == "22B5");
    CHECK(m.hex("22B5") == neighbour(m.hex("21GG5"), HexsideDir::SE));
    CHECK(distance(m.hex("21K5"), m.hex("22K5")) == 32);
    CHECK(m.tostring(m.hex("3K4")) == "3K4");
    CHECK(neighbour(m.hex("21K9"), HexsideDir::S) == m.hex("21K10"));
    CHECK(m.hex("21K10") == m.hex("3K0"));
    CHECK(m.tostring(neighbour(m.hex("21K10"), HexsideDir::S)) == "3K1");
    CHECK(m.hex("K5") == m.hex("21K5"));  // default board
    // Off every board: east of 22, and under board 22 (no board there).
    CHECK_FALSE(m.contains(neighbour(m.hex("22GG5"), HexsideDir::SE)));
    CHECK_FALSE(m.contains(m.hex("22K10") + Hex{0, 1}));
    CHECK_THROWS_AS(m.name(m.hex("22K10") + Hex{0, 1}), umpire::RuleError);
}

TEST_CASE("Map: bad placements", "[hex][map]") {
    CHECK_THROWS_AS(Map({}, 0), umpire::RuleError);
    CHECK_THROWS_AS(Map({{21, 33, 0, {}}}, 21), umpire::RuleError);  // odd column offset
    CHECK_THROWS_AS(Map({{21, 0, 0, {}}, {21, 32, 0, {}}}, 21), umpire::RuleError);
    CHECK_THROWS_AS(Map({{21, 0, 0, {}}}, 5), umpire::RuleError);
    CHECK_THROWS_AS(Map({{21, 0, 0, {60, 0, 10}}}, 21), umpire::RuleError);
}
