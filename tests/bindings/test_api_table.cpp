// umpire.table through Lua.
#include <catch2/catch.hpp>

#include "tests/support/helpers.hpp"

using test_helpers::TestHost;

TEST_CASE("points, distances and bearings in inches", "[api][table]") {
    TestHost t;
    CHECK(t.eval("umpire.table.distance(umpire.table.point(0, 0), umpire.table.point(3, 4))") == "5");
    CHECK(t.eval("umpire.table.bearing({x=0, y=0}, {x=0, y=2})") == "90");
    // Two 25 mm bases 2" apart centre to centre: 2 - 25.4/25.4... edge distance = 2 - 25/25.4.
    CHECK(t.eval("string.format('%.4f', umpire.table.edge_distance({x=0,y=0}, {x=2,y=0}))") == "1.0157");
}

TEST_CASE("arcs count any part of a base", "[api][table]") {
    TestHost t;
    CHECK(t.eval("umpire.table.in_arc({x=0,y=0}, 0, 45, {x=10, y=9.9})") == "true");
    CHECK(t.eval("umpire.table.in_arc({x=0,y=0}, 0, 45, {x=10, y=10.5})") == "false");
    CHECK(t.eval("umpire.table.in_arc({x=0,y=0}, 0, 45, {x=10, y=10.5, base_mm=25})") == "true");
    CHECK(t.eval("umpire.table.rotation_into_arc({x=0,y=0}, 0, 45, {x=0, y=10}) > 0") == "true");
}

TEST_CASE("templates: under, placed for the most targets, never clipping a friend", "[api][table]") {
    TestHost t;
    CHECK(t.eval("table.concat(umpire.table.under_template({x=0,y=0}, 2, "
                 "{{x=0,y=0}, {x=5,y=0}, {x=1.3,y=0}}), ',')") == "1,3");
    CHECK(t.eval("#select(2, umpire.table.place_template(3, "
                 "{{x=0,y=0}, {x=1,y=0}, {x=2,y=0}, {x=10,y=0}}))") == "3");
    // A friend sitting right on the cluster forbids covering it.
    CHECK(t.eval("#select(2, umpire.table.place_template(1, {{x=0,y=0}, {x=1,y=0}}, {{x=0.5,y=0}}))") == "1");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.table.under_template({x=0,y=0}, 6, {})"),
                        Catch::Contains("diameter"));
}
