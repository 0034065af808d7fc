// umpire.data.scenario reads every scenario when the rulesets load (ruleset/Scenarios.hpp): a bad
// scenario is a load error with file:line:col, a symlink out of the ruleset is refused when it is
// asked for, a missing name names the folders looked in, each call gives a fresh table, a child's
// scenario hides its parent's, and the kept scenarios count against the memory cap.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <string>

#include "ruleset/Load.hpp"
#include "tests/support/helpers.hpp"

namespace {

namespace fs = std::filesystem;
using test_helpers::TestHost;

// A ruleset `name` under the scratch folder `tag`, with the given scenario files (name -> YAML).
fs::path ruleset_with(const std::string& tag, const std::string& name, const std::map<std::string, std::string>& scenarios,
                      const std::string& extends = "") {
    const fs::path dir = test_helpers::scratch_root() / tag / name;
    fs::create_directories(dir / "scenarios");
    test_helpers::write(dir / "ruleset.yaml", "name: " + name + "\n" + (extends.empty() ? "" : "extends: " + extends + "\n"));
    for (const auto& [file, yaml] : scenarios) test_helpers::write(dir / "scenarios" / file, yaml);
    return dir;
}

std::string load_error(TestHost& t, const fs::path& dir) {
    try {
        umpire::ruleset::load(t.host, {dir.string()});
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("scenarios: a bad scenario fails the load with its file:line:col, before any call", "[ruleset][scenario]") {
    const fs::path dir = ruleset_with("scenario-bad", "bad", {{"ok.yaml", "a: 1\n"}, {"broken.yaml", "a: 1\na: 2\n"}});
    TestHost t;
    const std::string error = load_error(t, dir);
    CHECK(error.find("scenarios/broken.yaml:2:1:") != std::string::npos);
    CHECK(error.find("duplicate") != std::string::npos);
}

TEST_CASE("scenarios: lookup, fresh tables, a child's scenario over its parent's, the missing and the refused",
          "[ruleset][scenario]") {
    ruleset_with("scenario-layers", "base", {{"shared.yaml", "who: base\nlist: [1, 2]\n"}, {"only_base.yaml", "n: 1\n"}});
    const fs::path child = ruleset_with("scenario-layers", "child", {{"shared.yaml", "who: child\n"},
                                                                     {"Not a name.yaml", "x: 1\n"}}, "base");
    // A scenario that is a symlink out of its ruleset: the load goes on, the call is refused (the
    // message names where the link leads).
    test_helpers::write(test_helpers::scratch_root() / "scenario-layers" / "outside.yaml", "secret: 1\n");
    fs::create_symlink(test_helpers::scratch_root() / "scenario-layers" / "outside.yaml", child / "scenarios" / "leak.yaml");
    TestHost t;
    REQUIRE(load_error(t, child).empty());
    CHECK(t.eval("umpire.data.scenario('shared').who") == "child");
    CHECK(t.eval("umpire.data.scenario('only_base').n") == "1");
    // Each call makes its own table: a change to one is not seen by the next.
    t.host.run_string("local s = umpire.data.scenario('only_base') s.n = 99");
    CHECK(t.eval("umpire.data.scenario('only_base').n") == "1");
    CHECK(t.eval("umpire.data.scenario('only_base') ~= umpire.data.scenario('only_base')") == "true");
    const std::string missing = t.eval("select(2, pcall(umpire.data.scenario, 'nowhere'))");
    CHECK(missing.find("umpire.data.scenario: no scenario 'nowhere' (looked in") != std::string::npos);
    CHECK(missing.find("child/scenarios") < missing.find("base/scenarios"));  // leaf first
    CHECK(t.eval("select(2, pcall(umpire.data.scenario, 'a b'))").find("bad scenario name 'a b'") != std::string::npos);
    CHECK(t.eval("select(2, pcall(umpire.data.scenario, 'leak'))").find("outside.yaml resolves outside its ruleset folder") !=
          std::string::npos);
}

TEST_CASE("scenarios: kept scenarios count against the memory cap", "[ruleset][scenario][memory]") {
    // 20 000 list items, each a value of the kept tree: at least sizeof(yaml::Value) bytes each.
    std::string big = "items:\n";
    for (int i = 0; i < 20000; ++i) big += "  - " + std::to_string(i) + "\n";
    const fs::path small_dir = ruleset_with("scenario-memory", "small", {{"s.yaml", "items: [1]\n"}});
    const fs::path big_dir = ruleset_with("scenario-memory", "big", {{"s.yaml", big}});
    const auto used_after_load = [](const fs::path& dir) {
        TestHost t;
        umpire::ruleset::load(t.host, {dir.string()});
        t.host.run_string("collectgarbage() collectgarbage()");
        return t.host.memory_used();
    };
    const std::size_t small = used_after_load(small_dir), large = used_after_load(big_dir);
    // The parse itself is charged while it runs and released after (YamlLoader.cpp); what stays
    // charged here is the kept tree, for as long as the load generation holds it.
    CHECK(large > small + 20000 * 48);
}
