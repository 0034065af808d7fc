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

// umpire.table.nearest_each against a loop of umpire.table.edge_distance calls over random models
// on a half-inch grid (ties and touching bases common): the same distances, bit for bit, and the
// first of equally near targets. Models with and without base_mm; a string base_mm is read as
// edge_distance reads it.
TEST_CASE("nearest_each gives every model's nearest target as edge_distance pair by pair",
          "[api][table]") {
    TestHost t;
    CHECK(t.eval(R"((function()
        local T, seed = umpire.table, 18
        -- (Park and Miller's generator: its products stay below 2^53, exact in a double)
        local function rand(n) seed = seed * 48271 % 2147483647; return seed % n end
        local function models(n)
          local out = {}
          for i = 1, n do
            local m = {x = rand(13) * 0.5, y = rand(13) * 0.5}
            local b = rand(3)
            if b == 1 then m.base_mm = 50 elseif b == 2 then m.base_mm = "25" end
            out[i] = m
          end
          return out
        end
        local ties = 0
        for trial = 1, 300 do
          local shooters, targets = models(1 + rand(9)), models(1 + rand(9))
          local d, k = T.nearest_each(shooters, targets)
          if #d ~= #shooters or #k ~= #shooters then return "wrong length" end
          for s, m in ipairs(shooters) do
            local best, bi, at_best = math.huge, nil, 0
            for i, x in ipairs(targets) do
              local e = T.edge_distance(m, x)
              if e < best then best, bi, at_best = e, i, 1 elseif e == best then at_best = at_best + 1 end
            end
            if at_best > 1 then ties = ties + 1 end
            if d[s] ~= best or k[s] ~= bi then
              return ("trial %d model %d: %.17g at %d, loop %.17g at %d"):format(trial, s, d[s], k[s], best, bi)
            end
          end
        end
        return ties > 100 and "same" or ("too few ties: " .. ties)
    end)())") == "same");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.table.nearest_each({{x=0,y=0}}, {})"),
                        Catch::Contains("no target"));
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.table.nearest_each({{x=0,y=0}}, {{x=1}})"),
                        Catch::Contains("point expected"));
}
