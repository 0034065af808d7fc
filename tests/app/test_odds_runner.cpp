// umpire odds on real Lua scripts: exact fractions computed by hand, pools folded by counts,
// Monte Carlo inside its interval of the exact answer, and the same seed giving the same sample.
#include <catch2/catch.hpp>

#include "app/OddsRunner.hpp"
#include "core/Error.hpp"
#include "core/odds/Joint.hpp"
#include "tests/support/helpers.hpp"

namespace {

namespace fs = std::filesystem;

umpire::odds::Result run(const std::string& code, bool monte_carlo = false, std::uint64_t seed = 1) {
    const fs::path dir = test_helpers::scratch_root() / "odds";
    fs::create_directories(dir);
    const fs::path script = dir / "script.lua";
    test_helpers::write(script, code);
    umpire::odds_runner::Request request;
    request.script = script;
    request.odds.monte_carlo_only = monte_carlo;
    request.odds.monte_carlo.samples = 200000;
    request.odds.monte_carlo.seed = seed;
    request.odds.monte_carlo.threads = 2;
    return umpire::odds_runner::run_script(request);
}

// A fraction in lowest terms, as the engine prints it.
std::string frac(long a, long b) {
    mpq_class q(a, b);
    q.canonicalize();
    return q.get_str();
}

std::string exact(const umpire::odds::Result& r, const umpire::odds::Outcome& o) {
    return r.exact_probability(o).get_str();
}

}  // namespace

TEST_CASE("exact odds of 2d6, d20 and D3+1 from scripts", "[odds]") {
    const auto two_d6 = run("return umpire.dice.roll('2d6')");
    CHECK(two_d6.is_exact());
    // umpire.dice.roll rolls 2d6 as a pool, which the engine enumerates as the 21 multisets of
    // two faces (weighted 1 or 2), not the 36 ordered sequences.
    CHECK(two_d6.paths == 21);
    CHECK(exact(two_d6, 7) == "1/6");
    CHECK(exact(two_d6, 2) == "1/36");
    CHECK(exact(two_d6, 11) == "1/18");
    const auto d20 = run("return umpire.dice.d(20)");
    CHECK(d20.outcomes.size() == 20);
    CHECK(exact(d20, 13) == "1/20");
    const auto d3 = run("return umpire.dice.d3() + 1");
    CHECK(exact(d3, 2) == "1/3");
    CHECK(exact(d3, 4) == "1/3");
}

TEST_CASE("an ASL DR against a B#: P(Original DR >= 11) = 3/36", "[odds]") {
    const auto r = run("local dr = umpire.dice.dr() return dr.total >= 11 and 'malfunction' or 'ok'");
    CHECK(exact(r, std::string("malfunction")) == "1/12");  // 3/36
    CHECK(exact(r, std::string("ok")) == "11/12");
}

TEST_CASE("a 10-dice pool counted against a target costs 11 paths", "[odds]") {
    const auto r = run("return umpire.dice.count(10, 6, 5)");
    CHECK(r.paths == 11);
    // P(k hits of 10d6 at 5+) = C(10,k) 2^k 4^(10-k) / 6^10.
    CHECK(exact(r, 0) == frac(1048576, 60466176));
    CHECK(exact(r, 3) == frac(120 * 8 * 16384, 60466176));
    CHECK(exact(r, 10) == frac(1024, 60466176));
}

TEST_CASE("joint outcomes keep their fields", "[odds]") {
    const auto r = run("local dr = umpire.dice.dr() "
                       "return {kia = dr.total <= 3, malfunction = dr.total >= 11}");
    CHECK(r.outcomes.size() == 3);
    CHECK(r.exact_probability(umpire::odds::Outcome(umpire::odds::Fields{
              {"kia", true}, {"malfunction", false}})).get_str() == frac(3, 36));
}

TEST_CASE("Monte Carlo lands inside its interval and repeats for the same seed", "[odds]") {
    const std::string script = "return umpire.dice.roll('2d6')";
    const auto mc = run(script, true, 7);
    CHECK_FALSE(mc.is_exact());
    CHECK(mc.samples == 200000);
    const auto* seven = mc.find(umpire::odds::Outcome(7).key());
    REQUIRE(seven);
    CHECK(seven->low <= 1.0 / 6);
    CHECK(seven->high >= 1.0 / 6);
    const auto again = run(script, true, 7);
    CHECK(again.find(umpire::odds::Outcome(7).key())->count == seven->count);
}

TEST_CASE("a script that fails says where", "[odds]") {
    REQUIRE_THROWS_WITH(run("local x = umpire.dice.d6()\nif x == 6 then error('boom') end\nreturn x"),
                        Catch::Contains("script.lua:2") && Catch::Contains("boom"));
}

TEST_CASE("the distribution given a condition: malfunction given a KIA", "[odds][given]") {
    // scripts/asl/odds_mmg_rof_kia.lua: an MMG + squad Fire Group (8 column, -1 leader) Prep
    // Fires, then the MMG alone (4 column, -1) while it keeps ROF, at most three shots.
    // By hand: a KIA needs Final DR <= 1 on the 8 column (Original DR <= 3: 3/36) on the first
    // shot, Final DR <= 1 on the 4 column (Original DR 2: 1/36) after; ROF is kept on a coloured
    // dr <= 2 (12/36); B11 breaks the MG on an Original DR >= 11 (3/36).
    //   P(KIA) = 3/36 + 9/36 (1/36 + 11/36 * 1/36) = 479/5184
    //   P(KIA, malfunction) = 3/36 (3/36 + 12/36 * 3/36) + 9/36 * 1/36 * 3/36 = 459/46656
    //   P(malfunction | KIA) = 459/46656 / (479/5184) = 51/479
    umpire::odds_runner::Request request;
    request.rulesets = {(fs::path(UMPIRE_SOURCE_DIR) / "rulesets" / "asl").string()};
    request.script = fs::path(UMPIRE_SOURCE_DIR) / "scripts" / "asl" / "odds_mmg_rof_kia.lua";
    const auto all = umpire::odds_runner::run_script(request);
    REQUIRE(all.is_exact());
    const auto kia = umpire::odds_runner::given(all, {"kia=true"});
    CHECK(kia.condition == "kia=true (P = 479/5184, 9.2400%)");
    const auto malfunction = umpire::odds::marginal(kia, "malfunction");
    CHECK(exact(malfunction, umpire::odds::Outcome(true)) == frac(51, 479));
    // Two conditions must both hold; a KIA on the first shot keeps ROF, so never one shot.
    const auto both = umpire::odds_runner::given(all, {"kia=true", "malfunction=true"});
    CHECK(exact(umpire::odds::marginal(both, "shots"), umpire::odds::Outcome(2)) == frac(3 * 3 * 36, 459));
    CHECK_THROWS_WITH(umpire::odds_runner::given(all, {"kia=true", "shots=1"}), Catch::Contains("never happens"));
    CHECK_THROWS_AS(umpire::odds_runner::given(all, {"kia"}), umpire::ParseError);
    // The report of a conditioned result says what it is conditioned on, in text and JSON.
    const auto report = umpire::odds_runner::report(kia, "kia");
    CHECK_THAT(report.text, Catch::Contains("given: kia=true (P = 479/5184"));
    CHECK(report.json["given"] == kia.condition);
    CHECK(report.json["marginals"]["malfunction"]["outcomes"][1]["exact"] == "51/479");
}

TEST_CASE("a comparison shows each field's marginal too", "[odds][compare]") {
    const auto first = run("local dr = umpire.dice.dr() return {kia = dr.total <= 3, malfunction = dr.total >= 11}");
    const auto second = run("local dr = umpire.dice.dr() return {kia = dr.total <= 3, malfunction = dr.total >= 12}");
    const auto report = umpire::odds_runner::report(first, second, "B11", "B12", "house");
    CHECK_THAT(report.text, Catch::Contains("Marginal distribution of malfunction:"));
    const auto& rows = report.json["marginals"]["malfunction"]["rows"];
    REQUIRE(rows.size() == 2);
    CHECK(rows[1]["exact"]["first"] == frac(3, 36));
    CHECK(rows[1]["exact"]["second"] == frac(1, 36));
    CHECK(rows[1]["exact"]["difference"] == frac(-2, 36));
    CHECK(report.json["marginals"]["kia"]["rows"][1]["exact"]["difference"] == "0");
}
