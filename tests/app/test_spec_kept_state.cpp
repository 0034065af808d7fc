// The starting state a spec file's tests are each given back (app/SpecRunner.cpp) is kept as JSON
// while the tests' code runs, so it is charged against the memory cap while kept
// (host/LuaHost.hpp, KeptState), as a load's undo copy and an odds worker's are.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>

#include <lua.hpp>

#include "app/SpecRunner.hpp"
#include "ruleset/Load.hpp"
#include "tests/support/helpers.hpp"

namespace fs = std::filesystem;

// A module fills the state with 2 million thirds (16 MiB of Lua array, ~28 MiB as JSON). A test
// then grows strings up to a cap that leaves room for them beside the state's tables, with room to
// spare for the 16 MiB array the test's fresh state left as garbage, but not beside the JSON text
// too. Before, the text was charged to nothing and the
// test passed, holding more than the cap; now it fails with the memory limit, and the next test
// of the file still runs, with the state as loaded.
TEST_CASE("a spec file's kept starting state counts against the memory cap", "[spec][attacks][memory][cxx]") {
    const fs::path dir = test_helpers::scratch_root() / "spec-kept-state";
    fs::remove_all(dir);
    fs::create_directories(dir / "rules");
    fs::create_directories(dir / "tests");
    test_helpers::write(dir / "ruleset.yaml", "name: stateful\nmodules: [fill]\n");
    test_helpers::write(dir / "rules" / "fill.lua",
                        "local t = {}\nfor i = 1, 2000000 do t[i] = i / 3 end\numpire.state.thirds = t\nreturn {}\n");
    umpire::HostOptions options;
    options.memory_limit = std::size_t{160} << 20;
    test_helpers::TestHost t(options);
    umpire::ruleset::load(t.host, {dir.string()});
    lua_gc(t.host.state(), LUA_GCCOLLECT, 0);
    const std::size_t loaded = t.host.memory_used();
    const std::size_t text = t.host.state_json().size();
    const std::size_t mib = std::size_t{1} << 20;
    // What a test may leave uncollected: the state's old array, replaced by set_state_json before
    // the test, and a string being made.
    const std::size_t garbage = 17 * mib;
    REQUIRE(text > garbage + 8 * mib);
    // Strings that fit beside the state's tables and that garbage, halfway between it and the text.
    const std::size_t spare = (garbage + text) / 2;
    const std::size_t strings = (options.memory_limit - loaded - spare) / mib;
    REQUIRE(loaded + strings * mib + garbage < options.memory_limit);
    REQUIRE(loaded + text + strings * mib > options.memory_limit);
    test_helpers::write(dir / "tests" / "grow_spec.lua",
                        "test('grows', function()\n"
                        "  local s, t = ('x'):rep(1048000), {}\n"
                        "  for i = 1, " + std::to_string(strings) + " do t[i] = s .. i end\n"
                        "end)\n"
                        "test('still has the state', function() eq(#umpire.state.thirds, 2000000) end)\n");
    const std::size_t charged_before = t.host.charged_memory();
    std::ostringstream out;
    const auto result = umpire::run_spec_file(t.host, dir / "tests" / "grow_spec.lua", {}, out);
    INFO(out.str());
    CHECK(result.failed == 1);
    CHECK(result.passed == 1);
    // With the line of the allocation the cap refused (LuaHost::note_refused_allocation; before,
    // no place: the heap jumped past the cap from below half, so the count hook had noted none).
    CHECK(out.str().find("grow_spec.lua: grows\n     ") != std::string::npos);
    CHECK(out.str().find("grow_spec.lua:3: memory limit: the rules used more than 160 MiB of Lua memory") !=
          std::string::npos);
    CHECK(out.str().find("ok   ") != std::string::npos);
    // The charge is given back with the kept text.
    CHECK(t.host.charged_memory() == charged_before);
}
