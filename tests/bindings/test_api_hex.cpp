// umpire.hex through Lua: every API name, and every geometric fact DESIGN.md lists.
#include <catch2/catch.hpp>

#include "tests/support/helpers.hpp"

using test_helpers::TestHost;

namespace {
// The names of a list of hexes, joined by spaces.
std::string names(TestHost& t, const std::string& expr) {
    return t.eval("(function() local out = {} for i, h in ipairs(" + expr +
                  ") do out[i] = tostring(h) end return table.concat(out, ' ') end)()");
}
}  // namespace

TEST_CASE("umpire.hex.asl and tostring round-trip ASL names", "[api][hex]") {
    TestHost t;
    CHECK(t.eval("tostring(umpire.hex.asl('21K8'))") == "21K8");
    CHECK(t.eval("tostring(umpire.hex.asl('K8'))") == "21K8");
    CHECK(t.eval("'in ' .. umpire.hex.asl('GG10')") == "in 21GG10");
    CHECK(t.eval("umpire.hex.asl('AA5') == umpire.hex.asl('21AA5')") == "true");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.hex.asl('21KL8')"), Catch::Contains("column"));
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.hex.asl('3K8')"),
                        Catch::Contains("umpire.hex.map"));
}

TEST_CASE("the acceptance one-liner prints 4", "[api][hex]") {
    TestHost t;
    CHECK(t.eval("umpire.hex.distance(umpire.hex.asl('X3'), umpire.hex.asl('BB5'))") == "4");
}

TEST_CASE("DESIGN.md geometry facts hold through Lua", "[api][hex]") {
    TestHost t;
    // A9.222 EX: X3, Y4, Z4, AA5, BB5 lie on one hex grain.
    CHECK(t.eval("umpire.hex.grain(umpire.hex.asl('X3'), umpire.hex.asl('BB5'))") == "true");
    CHECK(names(t, "umpire.hex.line(umpire.hex.asl('X3'), umpire.hex.asl('BB5'))") ==
          "X3 Y4 Z4 AA5 BB5");
    // A9.221 EX: from L8 through K7, left takes K8 then J6, right L7 then K6; J5 next.
    CHECK(names(t, "umpire.hex.alt_grain(umpire.hex.asl('L8'), umpire.hex.asl('J5'), 'left')") ==
          "K8 K7 J6 J5");
    CHECK(names(t, "umpire.hex.alt_grain(umpire.hex.asl('L8'), umpire.hex.asl('J5'), 'right')") ==
          "L7 K7 K6 J5");
    // A9.222 EX: from Y6 the left alternate hex grain toward EE6.
    CHECK(names(t, "umpire.hex.alt_grain('Y6', 'EE6', 'left')") == "Z5 AA6 BB5 CC6 DD5 EE6");
    // A9.221 EX: K6, J6, K7 meet at one vertex.
    CHECK(t.eval("umpire.hex.vertex('K6', 'J6', 'K7')") == "J6-K6-K7");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.hex.vertex('K6', 'J6', 'K8')"),
                        Catch::Contains("do not meet"));
}

TEST_CASE("hexsides, neighbours, rings, ranges", "[api][hex]") {
    TestHost t;
    CHECK(t.eval("umpire.hex.hexside('K6', 'J6') == umpire.hex.hexside('J6', 'K6')") == "true");
    CHECK(t.eval("#umpire.hex.neighbours('K6')") == "6");
    CHECK(t.eval("tostring(umpire.hex.neighbour('K6', 'S'))") == "K7");
    CHECK(t.eval("#umpire.hex.ring('K6', 2)") == "12");
    CHECK(t.eval("#umpire.hex.range('K6', 2)") == "19");
    CHECK(t.eval("umpire.hex.on_alt_grain('Y6', 'EE6')") == "true");
    // Past the board edge: geometry goes on, on_map says no, tostring still names it.
    CHECK(t.eval("umpire.hex.on_map(umpire.hex.neighbour('J10', 'S'))") == "false");
    CHECK(t.eval("umpire.hex.on_map('J10')") == "true");
    CHECK(t.eval("tostring(umpire.hex.neighbour('J10', 'S'))") == "off-map J11");
}

TEST_CASE("covered arc and target facing", "[api][hex]") {
    TestHost t;
    CHECK(t.eval("umpire.hex.in_covered_arc('K6', 'E', 'M6')") == "true");
    CHECK(t.eval("umpire.hex.in_covered_arc('K6', 'E', 'I6')") == "false");
    CHECK(t.eval("umpire.hex.target_facing('K6', 'E', 'M6')") == "front");
    CHECK(t.eval("umpire.hex.target_facing('K6', 'E', 'I6')") == "rear");
    CHECK(t.eval("umpire.hex.facing_from_dr(2)") == "rear");
    CHECK(t.eval("umpire.hex.facing_from_dr(4)") == "side");
    CHECK(t.eval("umpire.hex.facing_from_dr(6)") == "front");
    CHECK(t.eval("#umpire.hex.rear_hexes('K6', 'E')") == "2");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.hex.in_covered_arc('K6', 'N', 'M6')"),
                        Catch::Contains("vertex direction"));
}

TEST_CASE("a declared map joins boards and refuses hexes off it", "[api][hex]") {
    TestHost t;
    t.host.run_string("umpire.hex.map{boards = {{board = 21}, {board = 22, column_offset = 32}}}");
    CHECK(t.eval("umpire.hex.distance('21GG5', '22A5')") == "0");
    REQUIRE_THROWS(t.host.run_string("umpire.hex.asl('23A5')"));
}
