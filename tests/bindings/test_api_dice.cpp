// umpire.dice through Lua: every API name, fixed dice, the FFI and classic paths agreeing, and
// errors that point at the offending character.
#include <catch2/catch.hpp>

#include "tests/support/helpers.hpp"

using test_helpers::TestHost;

TEST_CASE("umpire.dice.roll returns the total and the kept faces", "[api][dice]") {
    TestHost t;
    t.host.run_string("umpire.dice.fix{3, 4, 5}");
    CHECK(t.eval("(function() local total, faces = umpire.dice.roll('2d6+d3-1') "
                 "return total .. ' ' .. table.concat(faces, ',') end)()") == "9 3,4,3");
}

TEST_CASE("umpire.dice.roll errors point at the bad character", "[api][dice]") {
    TestHost t;
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.dice.roll('2x6')"),
                        Catch::Contains("column 2") && Catch::Contains("2x6"));
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.dice.roll('2d')"), Catch::Contains("column 3"));
}

TEST_CASE("umpire.dice.dr keeps the coloured and white dice apart", "[api][dice]") {
    TestHost t;
    t.host.run_string("umpire.dice.fix{2, 2, 6, 5}");
    CHECK(t.eval("(function() local dr = umpire.dice.dr() "
                 "return dr.colored .. dr.white .. dr.total .. tostring(dr.doubles) end)()") ==
          "224true");
    CHECK(t.eval("(function() local dr = umpire.dice.classic.dr() "
                 "return dr.colored .. dr.white .. dr.total .. tostring(dr.doubles) end)()") ==
          "6511false");
}

TEST_CASE("umpire.dice.d, d2, d3, d6, d100 read their dice", "[api][dice]") {
    TestHost t;
    t.host.run_string("umpire.dice.fix{7, 3, 4, 5, 6, 100, 9}");
    CHECK(t.eval("umpire.dice.d(8)") == "7");
    CHECK(t.eval("umpire.dice.d2()") == "1");  // d6 face 3 -> 1
    CHECK(t.eval("umpire.dice.d3()") == "2");  // d6 face 4 -> 2
    CHECK(t.eval("umpire.dice.d6()") == "5");
    CHECK(t.eval("umpire.dice.d3()") == "3");  // 6 -> 3
    CHECK(t.eval("umpire.dice.d100()") == "100");
    CHECK(t.eval("umpire.dice.classic.d(10)") == "9");
}

TEST_CASE("umpire.dice.count and pool", "[api][dice]") {
    TestHost t;
    t.host.run_string("umpire.dice.fix{1, 5, 6, 4, 3}");
    CHECK(t.eval("umpire.dice.count(5, 6, 4)") == "3");
    t.host.run_string("umpire.dice.fix{1, 5, 6, 4, 3}");
    CHECK(t.eval("umpire.dice.count(5, 6, 3, '<=')") == "2");
    t.host.run_string("umpire.dice.fix{6, 1, 4}");
    CHECK(t.eval("table.concat(umpire.dice.pool(3, 6), ',')") == "1,4,6");
    // No hits means no damage dice: an empty pool is a valid roll of nothing (issue: count(0) raised).
    t.host.run_string("umpire.dice.fix{}");
    CHECK(t.eval("umpire.dice.count(0, 6, 4)") == "0");
    CHECK(t.eval("umpire.dice.classic.count(0, 6, 4)") == "0");
    CHECK(t.eval("#umpire.dice.pool(0, 6)") == "0");
    t.host.run_string("umpire.dice.unfix()");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.dice.count(-1, 6, 4)"), Catch::Contains("pool size"));
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.dice.count(1.5, 6, 4)"), Catch::Contains("pool size"));
}

TEST_CASE("fixed dice that run out are an error, and unfix goes back to the generator", "[api][dice]") {
    TestHost t;
    t.host.run_string("umpire.dice.fix{6}");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.dice.d6() umpire.dice.d6()"),
                        Catch::Contains("exhausted"));
    t.host.run_string("umpire.dice.fix{7}");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.dice.d6()"), Catch::Contains("d6"));
    t.host.run_string("umpire.dice.unfix()");
    for (int i = 0; i < 50; ++i) {
        const int face = std::stoi(t.eval("umpire.dice.d6()"));
        CHECK((face >= 1 && face <= 6));
    }
}

TEST_CASE("umpire.dice.dist is exact", "[api][dice]") {
    TestHost t;
    CHECK(t.eval("select(2, umpire.dice.dist('2d6'):p('==', 7))") == "1/6");
    CHECK(t.eval("select(2, umpire.dice.dist('2d6'):p('>=', 11))") == "1/12");
    CHECK(t.eval("select(2, umpire.dice.dist('d20'):p('<=', 5))") == "1/4");
    CHECK(t.eval("select(2, umpire.dice.dist('D3+1'):p('==', 4))") == "1/3");
    CHECK(t.eval("#umpire.dice.dist('2d6'):outcomes()") == "11");
    CHECK(t.eval("umpire.dice.dist('40d6'):outcomes()[1].weight") == "1");
    CHECK(t.eval("select(2, umpire.dice.dist('3d6'):mean())") == "21/2");
    CHECK(t.eval("select(2, (umpire.dice.dist('d6') + umpire.dice.dist('d6')):p('==', 2))") == "1/36");
}

TEST_CASE("the same seed gives the same dice", "[api][dice]") {
    umpire::HostOptions options;
    options.seed = 42;
    TestHost a(options), b(options);
    const std::string roll = "umpire.dice.roll('10d6') .. ',' .. umpire.dice.d(1000)";
    CHECK(a.eval(roll) == b.eval(roll));
}
