// umpire.data is read-only in the commands' own runs (host/DataGuard.hpp): a spec test that
// changes it fails with the path and the next test sees the data as loaded; an odds run whose
// script changes it is refused, once per run (exact and Monte Carlo), not per path.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "app/OddsRunner.hpp"
#include "app/SpecRunner.hpp"
#include "ruleset/Load.hpp"
#include "tests/support/helpers.hpp"

namespace fs = std::filesystem;

namespace {

fs::path data_ruleset(const std::string& tag) {
    const fs::path dir = test_helpers::scratch_root() / ("read-only-" + tag);
    fs::create_directories(dir / "data");
    fs::create_directories(dir / "tests");
    test_helpers::write(dir / "ruleset.yaml", "name: ro\ndata: [ift]\n");
    test_helpers::write(dir / "data/ift.yaml", "columns: [1, 2, 4, 6]\n");
    return dir;
}

}  // namespace

TEST_CASE("a spec test that changes umpire.data fails, and the next test sees it as loaded", "[data][spec]") {
    const fs::path dir = data_ruleset("spec");
    test_helpers::write(dir / "tests/write_spec.lua",
                        "test('writes', function() umpire.data.ift.columns[2] = 0 end)\n"
                        "test('reads', function() eq(umpire.data.ift.columns[2], 2) end)\n"
                        "test('sorts', function() table.sort(umpire.data.ift.columns, function(a, b) return a > b end) end)\n"
                        "test('reads again', function() eq(table.concat(umpire.data.ift.columns, ' '), '1 2 4 6') end)\n");
    test_helpers::TestHost t;
    umpire::ruleset::load(t.host, {dir.string()});
    std::ostringstream out;
    const auto result = umpire::run_spec_file(t.host, dir / "tests/write_spec.lua", {}, out);
    INFO(out.str());
    CHECK(result.passed == 2);
    CHECK(result.failed == 2);
    CHECK(out.str().find("FAIL " + umpire::LuaHost::display_path(dir / "tests/write_spec.lua") +
                         ": writes\n     the test changed umpire.data.ift.columns[2]") != std::string::npos);
    CHECK(out.str().find("the test changed umpire.data.ift.columns[1]") != std::string::npos);
    CHECK(t.eval("umpire.data.ift.columns[2]") == "2");
}

TEST_CASE("an odds run whose script changes umpire.data is refused", "[data][odds]") {
    const fs::path dir = data_ruleset("odds");
    for (const bool monte_carlo : {false, true}) {
        INFO((monte_carlo ? "Monte Carlo" : "exact"));
        umpire::odds_runner::Request request;
        request.rulesets = {dir.string()};
        // Each path bumps a data value: the later paths would see what the earlier ones left.
        request.code = "local c = umpire.data.ift.columns c[1] = c[1] + 1 return umpire.dice.d6() + c[1]";
        request.odds.monte_carlo_only = monte_carlo;
        request.odds.monte_carlo.samples = 1000;
        request.odds.monte_carlo.threads = 2;
        CHECK_THROWS_WITH(umpire::odds_runner::run_script(request),
                          Catch::Contains("(odds script) changed umpire.data.ift.columns[1] (umpire.data is read-only"));
        // The same script reading only is fine.
        request.code = "return umpire.dice.d6() + umpire.data.ift.columns[1]";
        CHECK(umpire::odds_runner::run_script(request).outcomes.size() == 6);
    }
}

// What rule code works out from umpire.data and keeps (asl's attack memo and its memo of
// effective numbers, the IFT turned on its side, the copiers of umpire.copy, of an MG counter and
// of a DRM entry)
// is kept in data caches, which the host empties after every run (bindings/DataCaches.hpp).
// Before, a run that changed the data and used those rules left its answers behind, whether it
// was refused (the guard put the data back) or put the data back itself: every later run of the
// host answered from the changed data (an attack of FP 5 on the 3 column of a table that has
// none) until the next reload.
TEST_CASE("nothing worked out from changed umpire.data outlives the run that changed it", "[data][memo]") {
    const std::string asl = (fs::path(UMPIRE_SOURCE_DIR) / "rulesets" / "asl").string();
    // The answers of the rules that keep what they work out from the data: an MG attack from the
    // memo (its IFT column), the effective B# under Sustained Fire from its memo, a printed IFT
    // result, and a copy of a counter (by the rules' copier and by umpire.copy).
    const std::string answers = R"lua(
      local rules = umpire.rules
      local mg = rules.mg_usage.counter("ger_mmg")
      local spec = {label = "attack", phase = "PFPh", side = "DEFENDER", range = 2, mgs = {mg},
        crew = {{name = "squad", kind = "squad", fp = 4, range = 6}}, units = {}, drm = {},
        target = {location = "target", mf = 1, units = {}}}
      umpire.dice.fix({3, 4})
      local a = rules.mg_attack.fire_memoized(spec)
      umpire.dice.unfix()
      local numbers = rules.sw_malfunction.numbers_memoized(rules.mg_usage.counter("ger_mmg"), {sustained = true})
      print(string.format("column %s, B# %s under Sustained Fire, IFT 6/7 %s, counter B# %s and %s, FFNAM %s", tostring(a.column),
        tostring(numbers.B), rules.ift.lookup(6, 7), tostring(mg.B), tostring(umpire.copy(umpire.data.sw_mg.counters.ger_mmg).B),
        tostring(rules.ift.drm_entry("ffnam").value)))
    )lua";
    // Each write changes what one of them answers; none is refused before the run ends.
    const std::string writes = R"lua(
      local d = umpire.data
      d.ift.columns[3] = 3  -- (FP 5 is on the 4 column: on the 3 column now)
      local results = d.ift.results
      ;(results[7] or results["7"])[4] = "5KIA"  -- (the 6 column)
      d.breakdown_modifiers.rows.sustained_fire.modifier = -5
      d.sw_mg.counters.ger_mmg.B = nil
      d.drm.ffnam.value = -2
    )lua";
    test_helpers::TestHost fresh;
    umpire::ruleset::load(fresh.host, {asl});
    fresh.host.run_string(answers);
    REQUIRE(fresh.lines.size() == 1);
    const std::string clean = fresh.lines.back();
    CHECK(clean == "column 4, B# 9 under Sustained Fire, IFT 6/7 NMC, counter B# 11 and 11, FFNAM -1");

    test_helpers::TestHost t;
    umpire::ruleset::load(t.host, {asl});
    // (the caches are filled by the run that changed the data)
    CHECK_THROWS_WITH(t.host.run_string(writes + answers), Catch::Contains("changed umpire.data."));
    REQUIRE(t.lines.size() == 1);
    CHECK(t.lines.back() == "column 3, B# 7 under Sustained Fire, IFT 6/7 5KIA, counter B# nil and nil, FFNAM -2");  // the changed data's
    t.lines.clear();
    t.host.run_string(answers);
    REQUIRE(t.lines.size() == 1);
    CHECK(t.lines.back() == clean);

    // A run that puts the data back itself is not refused (nothing differs at the check), and
    // what it worked out in between goes all the same. (A key it removed cannot be put back: a
    // new key is refused at once. So the counter keeps its B# here.)
    const auto changes = [](const char* column, const char* result, const char* modifier, const char* ffnam) {
        return std::string("local d = umpire.data\n") + "d.ift.columns[3] = " + column + "\n" +
               "local results = d.ift.results\n;(results[7] or results['7'])[4] = '" + result + "'\n" +
               "d.breakdown_modifiers.rows.sustained_fire.modifier = " + modifier + "\n" +
               "d.drm.ffnam.value = " + ffnam + "\n";
    };
    test_helpers::TestHost u;
    umpire::ruleset::load(u.host, {asl});
    u.host.run_string(changes("3", "5KIA", "-5", "-2") + answers + changes("4", "NMC", "-2", "-1"));
    REQUIRE(u.lines.size() == 1);
    CHECK(u.lines.back() == "column 3, B# 6 under Sustained Fire, IFT 6/7 5KIA, counter B# 11 and 11, FFNAM -2");
    u.lines.clear();
    u.host.run_string(answers);
    REQUIRE(u.lines.size() == 1);
    CHECK(u.lines.back() == clean);
}
