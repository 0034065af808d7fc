// umpire.state: canonical JSON, round trip, stable hash, refusals naming the path.
#include <catch2/catch.hpp>

#include "bindings/GameState.hpp"
#include "tests/support/helpers.hpp"
#include "core/bus/Hash.hpp"
#include "ruleset/Load.hpp"

using test_helpers::TestHost;

TEST_CASE("state saves as canonical JSON and loads back without loss", "[state]") {
    TestHost t;
    t.host.run_string(R"(
        local s = umpire.state
        s.turn = 3
        s.phase = "PFPh"
        s.units = { ["21K8"] = { hp = 2, broken = false, morale = 7.5 }, b = { hp = 1 } }
        s.order = { "b", "21K8" }
        s.big = 2^40
    )");
    const std::string json = t.host.state_json();
    CHECK(json == R"({"big":1099511627776,"order":["b","21K8"],"phase":"PFPh","turn":3,)"
                  R"("units":{"21K8":{"broken":false,"hp":2,"morale":7.5},"b":{"hp":1}}})");
    // Pinned: the hash of this history must never change between builds or runs.
    CHECK(t.host.state_hash() == umpire::bus::fnv1a_64(json));
    CHECK(t.host.state_hash() == 0xf061ad44ba3b39e7ULL);

    const auto file = test_helpers::scratch_root() / "state.json";
    t.host.save_state(file);
    TestHost u;
    u.host.load_state(file);
    CHECK(u.host.state_json() == json);
    CHECK(u.eval("umpire.state.units['21K8'].morale") == "7.5");
    CHECK(u.eval("math.type and 1 or umpire.state.turn") == "3");
}

TEST_CASE("state refuses what it cannot save, naming the path", "[state]") {
    TestHost t;
    t.host.run_string("umpire.state.units = { a = { on_hit = function() end } }");
    CHECK_THROWS_WITH(t.host.state_json(),
                      Catch::StartsWith("state.units.a.on_hit: a function cannot be part of the game state"));
    t.host.run_string("umpire.state.units = { a = {} } umpire.state.units.a.self = umpire.state.units.a");
    CHECK_THROWS_WITH(t.host.state_json(), Catch::StartsWith("state.units.a.self: this table appears twice"));
    t.host.run_string("umpire.state.units = { [5] = 'x' }");
    CHECK_THROWS_WITH(t.host.state_json(), Catch::Contains("state.units: the number key 5"));
    t.host.run_string("umpire.state.units = nil");
    CHECK(t.host.state_json() == "{}");
}

TEST_CASE("state survives a reload", "[state][reload]") {
    TestHost t;
    umpire::ruleset::load(t.host, {(test_helpers::fixtures() / "base").string()});
    t.host.run_string("umpire.state.turn = 4");
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("umpire.state.turn") == "4");
}
