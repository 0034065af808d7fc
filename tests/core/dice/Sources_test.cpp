#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/dice/AslDr.hpp"
#include "core/dice/Die.hpp"
#include "core/dice/Distribution.hpp"
#include "core/dice/FixedSource.hpp"
#include "core/dice/GeneratorSource.hpp"

using namespace umpire::dice;

namespace {
// Counts calls so we can see that pool() defaults to die() and what sides were asked for.
struct CountingSource : DieSource {
    std::vector<uint32_t> asked;
    uint32_t die(uint32_t sides) override {
        asked.push_back(sides);
        return sides;
    }
};
}  // namespace

TEST_CASE("DieSource::pool defaults to n calls of die()", "[dice][source]") {
    CountingSource s;
    const auto faces = s.pool(4, 8);
    CHECK(faces == std::vector<uint32_t>{8, 8, 8, 8});
    CHECK(s.asked == std::vector<uint32_t>{8, 8, 8, 8});
}

TEST_CASE("GeneratorSource rolls the generator's uniform()", "[dice][source]") {
    GeneratorSource s(7);
    Generator g(7);
    for (int i = 0; i < 100; ++i) REQUIRE(s.die(6) == g.uniform(6));
    CHECK(s.generator().state() == g.state());
}

TEST_CASE("FixedSource hands out its faces and complains clearly", "[dice][source]") {
    FixedSource s{3, 6, 1};
    CHECK(s.die(6) == 3);
    CHECK(s.remaining() == 2);
    CHECK_THROWS_WITH(s.die(4), Catch::Contains("fixed die #2 is 6") && Catch::Contains("d4"));
    CHECK(s.die(6) == 6);  // a refused face is not consumed
    CHECK(s.die(6) == 1);
    CHECK_THROWS_WITH(s.die(6), Catch::Contains("exhausted"));
    FixedSource zero{0};
    CHECK_THROWS_AS(zero.die(6), umpire::RuleError);
}

TEST_CASE("D2 and D3 are read off a d6", "[dice][die]") {
    const uint32_t d2[] = {0, 1, 1, 1, 2, 2, 2};
    const uint32_t d3[] = {0, 1, 1, 2, 2, 3, 3};
    for (uint32_t raw = 1; raw <= 6; ++raw) {
        FixedSource a{raw}, b{raw};
        CHECK(Die::d2().roll(a) == d2[raw]);
        CHECK(Die::d3().roll(b) == d3[raw]);
    }
    CHECK(Die::d2().rolled_sides() == 6);
    CHECK(Die::d3().rolled_sides() == 6);
    CountingSource c;
    Die::d3().roll(c);
    CHECK(c.asked == std::vector<uint32_t>{6});  // the source is asked for a d6
    CHECK(Die::d3().distribution() == Distribution::uniform(3));
}

TEST_CASE("dN, d% and pools", "[dice][die]") {
    CHECK(Die::d(20).sides() == 20);
    CHECK(Die::percent().sides() == 100);
    CHECK(Die::percent().to_string() == "d%");
    CHECK(Die::d(6).to_string() == "d6");
    CHECK_THROWS_AS(Die::d(0), umpire::RuleError);
    FixedSource s{100, 1};
    CHECK(Die::percent().roll(s) == 100);
    FixedSource p{1, 2, 3, 4, 5, 6};
    CHECK(Die::d3().roll_pool(p, 6) == std::vector<uint32_t>{1, 1, 2, 2, 3, 3});
    GeneratorSource g(1);
    for (int i = 0; i < 1000; ++i) {
        const uint32_t v = Die::percent().roll(g);
        REQUIRE((v >= 1 && v <= 100));
    }
}

TEST_CASE("ASL DR: coloured die first, total and doubles", "[dice][asl]") {
    FixedSource s{2, 5, 3, 3};
    const AslDr a = AslDr::roll(s);
    CHECK(a.colored == 2);
    CHECK(a.white == 5);
    CHECK(a.total() == 7);
    CHECK_FALSE(a.doubles());
    const AslDr b = AslDr::roll(s);
    CHECK(b.total() == 6);
    CHECK(b.doubles());
    CHECK(b.to_string() == "DR 6 (colored 3, white 3)");
    // From a generator: same as two d6 in order.
    GeneratorSource g(11);
    Generator ref(11);
    for (int i = 0; i < 50; ++i) {
        const AslDr dr = AslDr::roll(g);
        REQUIRE(dr.colored == ref.uniform(6));
        REQUIRE(dr.white == ref.uniform(6));
    }
}

TEST_CASE("DieSource::count defaults to rolling n dice and counting faces in lo..hi", "[dice][source]") {
    FixedSource s{1, 5, 6, 4, 5};
    CHECK(s.count(5, 6, 5, 6) == 3);
    CHECK(s.remaining() == 0);
    GeneratorSource g(3);
    Generator ref(3);
    uint32_t expected = 0;
    for (int i = 0; i < 40; ++i) expected += ref.uniform(6) >= 5;
    CHECK(g.count(40, 6, 5, 6) == expected);
}
