#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/bus/ModifierPipeline.hpp"

using namespace umpire;
using namespace umpire::bus;
using Op = ModifierPipeline::Op;
using Rounding = ModifierPipeline::Rounding;

TEST_CASE("a DRM sum renders like the rulebook", "[bus][pipeline]") {
    ModifierPipeline p("IFT DRM", "DRM");
    p.add(Modifier{-1, "DRM", "FFNAM", "A4.6", ""});
    p.add(3, "TEM", "B23.3");
    CHECK(p.total() == 2);
    CHECK(p.render() == "+2 DRM (-1 [FFNAM] +3 [TEM])");
    REQUIRE(p.steps().size() == 2);
    CHECK(p.steps()[0].before == 0);
    CHECK(p.steps()[0].after == -1);
    CHECK(p.steps()[1].before == -1);
    CHECK(p.steps()[1].after == 2);
    CHECK(p.steps()[1].citation == "B23.3");
    CHECK(p.is_sum());
}

TEST_CASE("a zero total has no sign, an empty pipeline renders bare", "[bus][pipeline]") {
    // A9.222 EX: "a 0 DRM (+1 [grain Hindrance] -1 [leadership])"
    ModifierPipeline p("IFT DRM", "DRM");
    p.add(1, "grain Hindrance").add(-1, "leadership");
    CHECK(p.render() == "0 DRM (+1 [grain Hindrance] -1 [leadership])");
    CHECK(ModifierPipeline("x", "DRM").render() == "0 DRM");
    CHECK(ModifierPipeline("x", "DRM").total() == 0);
}

TEST_CASE("a modifier of another kind is refused", "[bus][pipeline]") {
    ModifierPipeline p("pen", "pen");
    CHECK_THROWS_AS(p.add(Modifier{1, "to_hit", "range", "", ""}), RuleError);
    CHECK_NOTHROW(p.add(Modifier{1, "", "range", "", ""}));
    CHECK_NOTHROW(p.add(Modifier{1, "pen", "AP", "", ""}));
    CHECK(p.total() == 2);
}

TEST_CASE("set, caps, halving and multiplying are recorded with citations", "[bus][pipeline]") {
    ModifierPipeline fp("IFT FP", "FP");
    fp.start_from(4, "4-6-7", "A1.2")
        .multiply(2, "PBF", "A7.21")
        .add(3, "MMG", "A9.1")
        .halve(Rounding::down, "Area Fire", "A7.5");
    CHECK(fp.total() == 5);  // (4*2+3)/2 = 5.5 → 5
    CHECK(fp.render() == "5 FP (4 [4-6-7] ×2 [PBF] +3 [MMG] ×½↓ [Area Fire])");
    REQUIRE(fp.steps().size() == 4);
    CHECK(fp.steps()[0].op == Op::base);
    CHECK(fp.steps()[1].after == 8);
    CHECK(fp.steps()[2].after == 11);
    CHECK(fp.steps()[3].op == Op::halve);
    CHECK(fp.steps()[3].rounding == Rounding::down);
    CHECK(fp.steps()[3].before == 11);
    CHECK(fp.steps()[3].citation == "A7.5");
    CHECK_FALSE(fp.is_sum());

    ModifierPipeline up("IFT FP", "FP");
    up.start_from(11, "FG").halve(Rounding::up, "Area Fire");
    CHECK(up.total() == 6);

    ModifierPipeline x("X#", "X#");
    x.start_from(12, "counter").add(-1, "HE").set_to(10, "X# precedence", "C7.9");
    CHECK(x.total() == 10);
    CHECK(x.steps()[2].before == 11);

    ModifierPipeline capped("TH DRM", "DRM");
    capped.add(-2, "acquired").add(-3, "leader").at_least(-4, "floor", "Z1").add(7, "smoke")
        .at_most(5, "cap", "Z2");
    CHECK(capped.steps()[2].after == -4);
    CHECK(capped.steps()[4].before == 3);
    CHECK(capped.steps()[4].after == 3);
    capped.add(4, "more").at_most(5, "cap", "Z2");
    CHECK(capped.total() == 5);
    CHECK(capped.render() ==
          "+5 DRM (-2 [acquired] -3 [leader] min -4 [floor] +7 [smoke] max 5 [cap] +4 [more] "
          "max 5 [cap])");
}

TEST_CASE("halving negative totals floors or ceils", "[bus][pipeline]") {
    CHECK(ModifierPipeline("a", "").set_to(-3, "s").halve(Rounding::down, "h").total() == -2);
    CHECK(ModifierPipeline("a", "").set_to(-3, "s").halve(Rounding::up, "h").total() == -1);
    CHECK(ModifierPipeline("a", "").set_to(7, "s").halve(Rounding::down, "h").total() == 3);
    CHECK(ModifierPipeline("a", "").set_to(7, "s").halve(Rounding::up, "h").total() == 4);
    CHECK(ModifierPipeline("a", "").set_to(8, "s").halve(Rounding::up, "h").total() == 4);
    CHECK_THROWS_AS(ModifierPipeline("a", "").halve(Rounding::none, "h"), RuleError);
}

TEST_CASE("start_from only first, overflow is an error", "[bus][pipeline]") {
    ModifierPipeline p("a", "");
    p.add(1, "x");
    CHECK_THROWS_AS(p.start_from(3, "late"), RuleError);
    ModifierPipeline big("b", "");
    big.set_to(INT64_MAX, "max");
    CHECK_THROWS_AS(big.add(1, "one"), RuleError);
    CHECK_THROWS_AS(big.multiply(2, "two"), RuleError);
    CHECK(big.total() == INT64_MAX);  // a failed step leaves the pipeline unchanged
    CHECK(big.steps().size() == 1);
}

TEST_CASE("pipeline JSON round trip checks every step", "[bus][pipeline]") {
    ModifierPipeline p("IFT FP", "FP");
    p.start_from(8, "FG", "A7.5").halve(Rounding::up, "Area Fire", "A7.5", "moving target")
        .add(-1, "CX").at_most(6, "cap");
    nlohmann::json j = p;
    ModifierPipeline q = pipeline_from_json(j);
    CHECK(q == p);
    CHECK(nlohmann::json(q).dump() == j.dump());

    j["steps"][1]["after"] = 5;  // tampered: 8 halved up is 4
    CHECK_THROWS_AS(pipeline_from_json(j), ParseError);
    nlohmann::json bad_op = nlohmann::json(p);
    bad_op["steps"][0]["op"] = "divide";
    CHECK_THROWS_AS(pipeline_from_json(bad_op), ParseError);
}

TEST_CASE("explain lines cite each step and end with the total", "[bus][pipeline]") {
    ModifierPipeline p("IFT DRM", "DRM");
    p.add(-1, "FFNAM", "A4.6").add(3, "TEM", "B23.3", "stone building");
    auto lines = p.explain_lines();
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "-1 [FFNAM] (A4.6) → -1");
    CHECK(lines[1] == "+3 [TEM] (B23.3) stone building → 2");
    CHECK(lines[2] == "= +2 DRM");
}

TEST_CASE("Modifier JSON round trip and rendering", "[bus][modifier]") {
    Modifier m{-1, "DRM", "FFNAM", "A4.6", "non-assault"};
    CHECK(render(m) == "-1 [FFNAM]");
    nlohmann::json j = m;
    CHECK(j.dump() ==
          R"({"citation":"A4.6","kind":"DRM","note":"non-assault","source":"FFNAM","value":-1})");
    CHECK(j.get<Modifier>() == m);
    CHECK_THROWS_AS(nlohmann::json({{"value", 1.5}}).get<Modifier>(), ParseError);
    CHECK(signed_string(0) == "0");
    CHECK(signed_string(3) == "+3");
}
