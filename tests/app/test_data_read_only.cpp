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
    const auto result = umpire::run_spec_file(t.host, dir / "tests/write_spec.lua", out);
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
