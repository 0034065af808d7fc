// Rulesets: extends, transactional reload, staged handlers, spec runner.
#include <catch2/catch.hpp>

#include <sstream>

#include "app/SpecRunner.hpp"
#include "tests/support/helpers.hpp"
#include "ruleset/Load.hpp"

using test_helpers::TestHost;
namespace fs = std::filesystem;

TEST_CASE("a ruleset loads data and modules", "[rulesets]") {
    TestHost t;
    umpire::ruleset::load(t.host, {(test_helpers::fixtures() / "base").string()});
    CHECK(t.eval("umpire.data.weapons.mmg.fp") == "4");
    CHECK(t.eval("umpire.rules.machine_guns.breaks('hmg', 11)") == "true");
    CHECK(t.eval("umpire.ruleset.name .. ' ' .. table.concat(umpire.ruleset.turn_sequence, ',')") ==
          "base rally,fire,move");
}

TEST_CASE("extends overrides data (deep merge) and a rule function, without copying", "[rulesets]") {
    TestHost t;
    umpire::ruleset::load(t.host, {(test_helpers::fixtures() / "house").string()});
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");        // overridden scalar
    CHECK(t.eval("umpire.data.weapons.mmg.fp") == "4");        // kept from base (map merge)
    CHECK(t.eval("#umpire.data.weapons.hmg.rof") == "1");      // sequence replaced, not merged
    CHECK(t.eval("umpire.rules.machine_guns.breaks('hmg', 11)") == "false");  // child function
    CHECK(t.eval("umpire.rules.machine_guns.breaks('mmg', 10)") == "true");   // via base + data
    CHECK(t.eval("umpire.rules.machine_guns.firepower('hmg')") == "6");       // inherited
    CHECK(t.eval("rawget(umpire.rules.machine_guns, 'firepower')") == "nil"); // not copied
    // Marks follow the file that gave the value.
    CHECK_THAT(t.eval("umpire.where(umpire.data.weapons.mmg, 'B')"),
               Catch::EndsWith("house/data/weapons.yaml:3:3"));
    CHECK_THAT(t.eval("umpire.where(umpire.data.weapons.mmg, 'fp')"),
               Catch::EndsWith("base/data/weapons.yaml:3:3"));
}

namespace {

// Loads the scratch house ruleset, puts something in the state, and returns its hash.
std::uint64_t prepare(TestHost& t, const fs::path& dir) {
    umpire::ruleset::load(t.host, {(dir / "house").string()});
    t.host.run_string("umpire.state.turn = 3 umpire.state.units = { a = { hp = 2 } }");
    return t.host.state_hash();
}

void expect_unchanged(TestHost& t, std::uint64_t hash) {
    CHECK(t.host.state_hash() == hash);
    CHECK(t.eval("umpire.rules.machine_guns.breaks('hmg', 11)") == "false");
    CHECK(t.eval("umpire.data.weapons.mmg.B") == "10");
}

}  // namespace

TEST_CASE("reload with a Lua syntax error keeps rules and state", "[reload]") {
    const fs::path dir = test_helpers::scratch_copy("syntax");
    TestHost t;
    const auto hash = prepare(t, dir);
    test_helpers::write(dir / "house/rules/machine_guns.lua", "local M = {}\nfunction M.breaks(\nreturn M\n");
    try {
        umpire::ruleset::reload(t.host);
        FAIL("reload succeeded");
    } catch (const umpire::ScriptError& e) {
        CHECK_THAT(e.what(), Catch::Contains("house/rules/machine_guns.lua:3:"));
    }
    expect_unchanged(t, hash);
}

TEST_CASE("reload with a YAML error keeps rules and state and names file:line:col", "[reload][yaml]") {
    const fs::path dir = test_helpers::scratch_copy("yaml");
    TestHost t;
    const auto hash = prepare(t, dir);
    test_helpers::write(dir / "house/data/weapons.yaml", "mmg:\n  B: 10\n  fp: [1, 2\nhmg: {}\n");
    try {
        umpire::ruleset::reload(t.host);
        FAIL("reload succeeded");
    } catch (const umpire::ScriptError& e) {
        CHECK_THAT(e.what(), Catch::Contains("house/data/weapons.yaml:4:"));
        CHECK(e.line == 4);
    }
    expect_unchanged(t, hash);
}

TEST_CASE("reload with an error raised at load time keeps rules and state", "[reload]") {
    const fs::path dir = test_helpers::scratch_copy("raise");
    TestHost t;
    const auto hash = prepare(t, dir);
    // The module even scribbles on the state before failing: that must be undone too.
    test_helpers::write(dir / "house/rules/machine_guns.lua",
                        "umpire.state.turn = 99\numpire.state.extra = {}\nerror('table missing')\n");
    try {
        umpire::ruleset::reload(t.host);
        FAIL("reload succeeded");
    } catch (const umpire::ScriptError& e) {
        CHECK_THAT(e.what(), Catch::Contains("house/rules/machine_guns.lua:3: table missing"));
    }
    expect_unchanged(t, hash);
    CHECK(t.eval("umpire.state.turn") == "3");
}

TEST_CASE("validate() errors point into the YAML", "[reload][yaml]") {
    const fs::path dir = test_helpers::scratch_copy("validate");
    TestHost t;
    prepare(t, dir);
    test_helpers::write(dir / "house/data/weapons.yaml", "mmg:\n  B: ten\n");
    CHECK_THROWS_WITH(umpire::ruleset::reload(t.host),
                      Catch::Contains("house/data/weapons.yaml:2:3: weapon mmg: B must be a number"));
}

TEST_CASE("a reloaded module's handlers replace the old ones", "[reload]") {
    const fs::path dir = test_helpers::scratch_copy("hooks");
    TestHost t;
    prepare(t, dir);
    const std::string fire = "(function() local log = {} umpire.hooks.fire('fire', log) return #log end)()";
    CHECK(t.eval(fire) == "1");
    umpire::ruleset::reload(t.host);
    umpire::ruleset::reload(t.host);
    CHECK(t.eval(fire) == "1");  // not doubled
    // A failed reload keeps exactly the committed handlers.
    test_helpers::write(dir / "base/rules/machine_guns.lua",
                        "umpire.hooks.on('fire', function(log) log[#log + 1] = 'x' end)\nerror('oops')\n");
    CHECK_THROWS(umpire::ruleset::reload(t.host));
    CHECK(t.eval(fire) == "1");
}

TEST_CASE("the spec runner counts passes and failures", "[rulesets][spec]") {
    TestHost t;
    umpire::ruleset::load(t.host, {(test_helpers::fixtures() / "house").string()});
    std::ostringstream out;
    const auto r = umpire::run_spec_file(t.host, test_helpers::fixtures() / "house/tests/house_spec.lua", {}, out);
    CHECK(r.passed == 2);
    CHECK(r.failed == 1);
    CHECK_THAT(out.str(), Catch::Contains("house_spec.lua:8: expected 5, got 4"));

    TestHost b;
    umpire::ruleset::load(b.host, {(test_helpers::fixtures() / "base").string()});
    const auto rb = umpire::run_spec_file(b.host, test_helpers::fixtures() / "base/tests/machine_guns_spec.lua", {}, out);
    CHECK(rb.passed == 2);
    CHECK(rb.failed == 0);
}

TEST_CASE("a missing ruleset or a bad manifest says where", "[rulesets]") {
    TestHost t;
    CHECK_THROWS_WITH(umpire::ruleset::load(t.host, {"no_such_ruleset"}), Catch::Contains("not found"));
    const fs::path dir = test_helpers::scratch_copy("manifest");
    test_helpers::write(dir / "base/ruleset.yaml", "name: base\nmodles: [x]\n");
    CHECK_THROWS_WITH(umpire::ruleset::load(t.host, {(dir / "base").string()}),
                      Catch::Contains("base/ruleset.yaml:2:1: unknown key 'modles'"));
}

// A manifest's fields are read from its tree once per parse and kept with the cached tree
// (ruleset/Ruleset.cpp, ManifestFields): each reload still reports the first problem a cold read
// reports (a data file not found before a malformed modules list, as the files are resolved in
// order), and an edit of the manifest is seen at the next reload.
TEST_CASE("a manifest's problems are reported in order at every reload, and its edits are seen", "[rulesets][reload]") {
    const fs::path dir = test_helpers::scratch_copy("manifest-fields");
    const fs::path base = dir / "base";
    TestHost t;
    umpire::ruleset::load(t.host, {base.string()});
    CHECK(t.eval("type(umpire.rules.extra)") == "nil");
    const auto refused = [&](const std::string& manifest, const std::string& error) {
        test_helpers::write(base / "ruleset.yaml", manifest);
        for (int load = 0; load < 2; ++load)  // the second from the kept fields
            CHECK_THROWS_WITH(umpire::ruleset::reload(t.host), Catch::Contains(error));
        CHECK(t.eval("umpire.ruleset.name") == "base");  // the last good rules stay
    };
    refused("name: base\ndata: [weapons, nope]\nmodules: {a: 1}\n", "file not found: nope");
    refused("name: base\ndata: [weapons]\nmodules: {a: 1}\n", "base/ruleset.yaml:3:10: 'modules' must be a list");
    refused("name: base\ndata: [weapons]\nmodules:\n  - machine_guns\n  - [x]\n", "base/ruleset.yaml:5:5: 'modules' must be a single value");
    refused("name: base\ndata: weapons\ntests: [{a: 1}]\nmodules: [nope]\n", "file not found: nope");
    refused("name: base\ndata: weapons\ntests: [{a: 1}]\nmodules: machine_guns\n", "base/ruleset.yaml:3:9: 'tests' must be a single value");
    test_helpers::write(base / "rules/extra.lua", "return {answer = 42}\n");
    test_helpers::write(base / "ruleset.yaml", "name: base\ndata: weapons\nmodules: [machine_guns, extra]\n");
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("umpire.rules.extra.answer") == "42");
    test_helpers::write(base / "ruleset.yaml", "name: base\nversion: 2.5\ndata: weapons\nmodules: [machine_guns]\n");
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("type(umpire.rules.extra)") == "nil");
    CHECK(t.eval("umpire.ruleset.version") == "2.5");
    fs::remove_all(dir);
}

// Issue 17 item 18: the skirmish EXAMPLE mark belongs to each to-hit row. A house rule that replaces
// one row with example: false un-marks that row; the invented rows it did not touch stay marked.
TEST_CASE("a skirmish house rule that replaces one to-hit row un-marks only that row", "[rulesets][skirmish]") {
    const fs::path dir = fs::temp_directory_path() / ("umpire-test-sk-house-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "sk-house/data");
    test_helpers::write(dir / "sk-house/ruleset.yaml", "name: sk-house\nextends: skirmish\ndata: [to_hit]\n");
    test_helpers::write(dir / "sk-house/data/to_hit.yaml",
                        "weapons:\n  rifle:\n    example: false\n"
                        "    bands:\n      - {max_m: 100, stationary: 60, moving: 40}\n");
    {
        TestHost t;
        umpire::ruleset::load(t.host, {(dir / "sk-house").string()});
        CHECK(t.eval("umpire.data.to_hit.weapons.rifle.example") == "false");
        CHECK(t.eval("umpire.data.to_hit.weapons.pistol.example") == "true");
        CHECK(t.eval("umpire.data.to_hit.weapons.lmg.example") == "true");
        // the journal marks the pistol's band as EXAMPLE, not the replaced rifle's
        t.host.run_string("umpire.rules.resolution.to_hit({id = 'a', side = 'blue'}, 'rifle', 50)");
        CHECK(t.eval("umpire.journal.lines(1)[#umpire.journal.lines(1)]:find('EXAMPLE') == nil") == "true");
        t.host.run_string("umpire.rules.resolution.to_hit({id = 'a', side = 'blue'}, 'pistol', 5)");
        CHECK(t.eval("umpire.journal.lines(1)[#umpire.journal.lines(1)]:find('EXAMPLE') ~= nil") == "true");
    }
    fs::remove_all(dir);
}
