#include <catch2/catch.hpp>

#include <map>

#include "core/Error.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/dice/Distribution.hpp"
#include "core/dice/FixedSource.hpp"
#include "core/dice/GeneratorSource.hpp"

using namespace umpire::dice;

namespace {
mpq_class q(long num, long den) {
    mpq_class r(num, den);
    r.canonicalize();
    return r;
}
// The parse error for `text`, or fail.
umpire::ParseError error_of(const std::string& text) {
    try {
        DiceExpression e(text);
    } catch (const umpire::ParseError& e) {
        return e;
    }
    FAIL("'" << text << "' parsed but should not");
    throw;
}
}  // namespace

TEST_CASE("every expression form parses to its canonical form", "[dice][expression]") {
    const std::pair<const char*, const char*> cases[] = {
        {"2d6", "2d6"},         {"D6+1", "d6+1"},       {"D3+1", "d3+1"},     {"3D6", "3d6"},
        {"d20", "d20"},         {"d%", "d%"},           {"D%", "d%"},         {"2d6+d3-1", "2d6+d3-1"},
        {"4d6kh3", "4d6kh3"},   {"4D6KL1", "4d6kl1"},   {"7", "7"},           {"1d6", "d6"},
        {" 2d6 + D3 - 1 ", "2d6+d3-1"}, {"\t10 - d4", "10-d4"}, {"d2", "d2"}, {"2d%kh1", "2d%kh1"},
    };
    for (const auto& [text, canonical] : cases) {
        INFO(text);
        const DiceExpression e(text);
        CHECK(e.to_string() == canonical);
        CHECK(DiceExpression(e.to_string()).to_string() == canonical);
    }
}

TEST_CASE("expression distributions are exact", "[dice][expression]") {
    const Distribution two = DiceExpression("2d6").distribution();
    CHECK(two.probability_equal(7) == q(1, 6));
    CHECK(two.probability_equal(2) == q(1, 36));
    CHECK(two.denominator() == 36);

    const Distribution d20 = DiceExpression("d20").distribution();
    CHECK(d20.outcomes().size() == 20);
    for (int v = 1; v <= 20; ++v) REQUIRE(d20.probability_equal(v) == q(1, 20));

    const Distribution d3p1 = DiceExpression("D3+1").distribution();
    CHECK(d3p1.outcomes() == std::vector<int64_t>{2, 3, 4});
    for (int v = 2; v <= 4; ++v) CHECK(d3p1.probability_equal(v) == q(1, 3));

    const Distribution pct = DiceExpression("d%").distribution();
    CHECK(pct.min() == 1);
    CHECK(pct.max() == 100);
    CHECK(pct.probability_at_most(37) == q(37, 100));

    // 2d6+d3-1 by hand: every (a, b, c) of 6*6*3 equally likely.
    std::map<int64_t, long> count;
    for (int a = 1; a <= 6; ++a)
        for (int b = 1; b <= 6; ++b)
            for (int c = 1; c <= 3; ++c) ++count[a + b + c - 1];
    const Distribution mixed = DiceExpression("2d6+d3-1").distribution();
    CHECK(mixed.min() == 2);
    CHECK(mixed.max() == 14);
    for (const auto& [v, n] : count) REQUIRE(mixed.probability_equal(v) == q(n, 108));

    const Distribution kh = DiceExpression("4d6kh3").distribution();
    CHECK(kh.probability_equal(18) == q(21, 1296));
    CHECK(kh.probability_equal(3) == q(1, 1296));
    const Distribution kl = DiceExpression("2d20kl1").distribution();
    CHECK(kl.probability_equal(20) == q(1, 400));
    CHECK(kl.probability_equal(1) == q(39, 400));

    CHECK(DiceExpression("10-d4").distribution().outcomes() == std::vector<int64_t>{6, 7, 8, 9});
    CHECK(DiceExpression("3").distribution() == Distribution::constant(3));
}

TEST_CASE("rolling reports faces, terms and kept dice", "[dice][expression]") {
    FixedSource s{3, 4, 5};
    const RollResult r = DiceExpression("2d6+d3-1").roll(s);
    CHECK(r.total == 3 + 4 + 3 - 1);
    REQUIRE(r.faces.size() == 3);
    CHECK(r.faces[0].term == 0);
    CHECK(r.faces[1].term == 0);
    CHECK(r.faces[2].term == 1);
    CHECK(r.faces[2].raw == 5);    // the d6 behind the D3
    CHECK(r.faces[2].value == 3);
    CHECK(r.term_totals == std::vector<int64_t>{7, 3, -1});

    FixedSource k{2, 6, 2, 5};
    const RollResult h = DiceExpression("4d6kh3").roll(k);
    CHECK(h.total == 13);
    CHECK(h.faces[0].kept);         // equal faces: the earlier die is kept
    CHECK(h.faces[1].kept);
    CHECK_FALSE(h.faces[2].kept);
    CHECK(h.faces[3].kept);

    FixedSource l{2, 6, 2, 5};
    CHECK(DiceExpression("4d6kl2").roll(l).total == 4);

    FixedSource m{4};
    CHECK(DiceExpression("10 - d4").roll(m).total == 6);

    const DiceExpression e("3d6+d%-2");
    CHECK(e.min() == 2);
    CHECK(e.max() == 116);
    GeneratorSource g(5);
    for (int i = 0; i < 1000; ++i) {
        const int64_t t = e.roll(g).total;
        REQUIRE((t >= e.min() && t <= e.max()));
    }
}

TEST_CASE("bad expressions point at the offending character", "[dice][expression]") {
    const std::pair<const char*, size_t> cases[] = {
        {"2d", 2},          {"2x6", 1},       {"d0", 1},       {"4d6kh5", 5},   {"", 0},
        {"+", 0},           {"2d6+", 4},      {"2d6 + ", 6},   {"0d6", 0},      {"1001d6", 0},
        {"d1000001", 1},    {"4d6k3", 4},     {"4d6kh", 5},    {"4d6kh0", 5},   {"2d6 3", 4},
        {"2 d6", 2},        {"99999999999999999999", 0}, {"1+99999999999999999999999d6", 2},
        {"d6++1", 3},       {"   ", 3},       {"2d6x", 3},     {"-1", 0},       {"dd6", 1},
        {"2d6+2000000000000000", 4},
    };
    for (const auto& [text, position] : cases) {
        INFO("'" << text << "'");
        const umpire::ParseError e = error_of(text);
        CHECK(e.position == position);
        CHECK(e.input == text);
    }
    const umpire::ParseError e = error_of("2d");
    CHECK(e.problem == "expected the number of sides after 'd'");
    CHECK(std::string(e.what()).find("column 3") != std::string::npos);
    CHECK(error_of("4d6kh5").problem == "cannot keep 5 of 4 dice");
    CHECK(error_of("1001d6").problem.find("at most 1000") != std::string::npos);
    CHECK(error_of("d1000001").problem.find("at most 1000000") != std::string::npos);
    CHECK(error_of("").problem == "empty dice expression");
}

TEST_CASE("an expression too large for exact odds says so", "[dice][expression]") {
    const DiceExpression e("1000d1000000");  // legal to roll...
    GeneratorSource g(1);
    CHECK(e.roll(g).faces.size() == 1000);
    CHECK_THROWS_AS(e.distribution(), umpire::RuleError);  // ...too large to enumerate exactly
}
