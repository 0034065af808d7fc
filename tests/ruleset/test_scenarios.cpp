// umpire.data.scenario reads every scenario when the rulesets load (ruleset/Scenarios.hpp): a bad
// scenario is a load error with file:line:col, a symlink out of the ruleset is refused when it is
// asked for, a missing name names the folders looked in, each call gives a fresh table, a child's
// scenario hides its parent's, and the kept scenarios count against the memory cap; a reload sees
// every edit of a scenario and of the manifest, and the checks and names of the scenarios folder
// stay those of a path resolved whole.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "host/LuaHost.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/LoadCache.hpp"
#include "ruleset/Ruleset.hpp"
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

TEST_CASE("scenarios: a scenario file umpire.data.scenario could not name fails the load, naming it (a hidden one "
          "is no scenario)", "[ruleset][scenario]") {
    // In the parent: every layer's scenarios are read by the child's load.
    ruleset_with("scenario-names", "base", {{"ok.yaml", "a: 1\n"}, {"first battle.yaml", "a: 2\n"}});
    const fs::path child = ruleset_with("scenario-names", "child", {{"._ok.yaml", std::string("\x00\x05", 2)}}, "base");
    TestHost t;
    const std::string error = load_error(t, child);
    INFO(error);
    CHECK(error.find("base/scenarios/first battle.yaml:1:1: not a scenario name (letters, digits, _ and - only)") !=
          std::string::npos);
    CHECK(error.find("rename it") != std::string::npos);
    // Renamed, it loads; the hidden file (a copy's leftovers, not YAML) is not read.
    fs::rename(test_helpers::scratch_root() / "scenario-names" / "base" / "scenarios" / "first battle.yaml",
               test_helpers::scratch_root() / "scenario-names" / "base" / "scenarios" / "first_battle.yaml");
    TestHost fresh;
    REQUIRE(load_error(fresh, child).empty());
    CHECK(fresh.eval("umpire.data.scenario('first_battle').a") == "2");
    CHECK(fresh.eval("select(2, pcall(umpire.data.scenario, '._ok'))").find("bad scenario name") != std::string::npos);
}

TEST_CASE("scenarios: lookup, fresh tables, a child's scenario over its parent's, the missing and the refused",
          "[ruleset][scenario]") {
    ruleset_with("scenario-layers", "base", {{"shared.yaml", "who: base\nlist: [1, 2]\n"}, {"only_base.yaml", "n: 1\n"}});
    const fs::path child = ruleset_with("scenario-layers", "child", {{"shared.yaml", "who: child\n"},
                                                                     {".#shared.yaml", "who: [editor\n"}}, "base");
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

// The books of several generations share a scenario's document when a reload took it from the load
// cache (ruleset/Scenarios.cpp, KeptScenario): it is charged once while any of them holds it. With
// the collector stopped, the old generations' books all stay alive here.
TEST_CASE("scenarios: a reload that keeps a scenario's document does not charge it again",
          "[ruleset][scenario][memory][reload]") {
    std::string big = "items:\n";
    for (int i = 0; i < 20000; ++i) big += "  - " + std::to_string(i) + "\n";
    const fs::path dir = ruleset_with("scenario-charge", "r", {{"s.yaml", big}});
    TestHost t;
    t.host.extension<umpire::ruleset::LoadCache>().settle_margin = std::chrono::nanoseconds(0);
    umpire::ruleset::load(t.host, {dir.string()});
    lua_gc(t.host.state(), LUA_GCSTOP, 0);
    umpire::ruleset::reload(t.host);
    const std::size_t one_document = t.host.charged_memory();
    CHECK(one_document > 20000 * 48);
    for (int i = 0; i < 5; ++i) umpire::ruleset::reload(t.host);
    CHECK(t.host.charged_memory() == one_document);
    // An edit makes a new document: both are charged while the old books hold the old one, and
    // the old one's charge is given back when the collector frees them.
    std::string edited = big;
    edited.replace(edited.find("- 0\n"), 4, "- 7\n");
    test_helpers::write(dir / "scenarios/s.yaml", edited);
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("umpire.data.scenario('s').items[1]") == "7");
    CHECK(t.host.charged_memory() > one_document + 20000 * 48);
    umpire::ruleset::reload(t.host);
    lua_gc(t.host.state(), LUA_GCRESTART, 0);
    t.host.collect_garbage();
    CHECK(t.host.charged_memory() == one_document);
}

namespace {

// The folders the "no scenario" message says it looked in.
std::string looked_in(TestHost& t) {
    const std::string message = t.eval("select(2, pcall(umpire.data.scenario, 'nowhere'))");
    const std::string head = "(looked in";
    const std::size_t at = message.find(head);
    REQUIRE(at != std::string::npos);
    return message.substr(at + head.size(), message.rfind(')') - at - head.size());
}

}  // namespace

// The scenarios folder is resolved from the ruleset folder the manifest check resolved, and each
// scenario and the manifest are stamped by the lstat that checks them (ruleset/Scenarios.cpp): so
// the folder's name must still be LuaHost::display_path's (here reached through a symlinked
// folder above the ruleset, so that the spelled and the resolved paths differ), a same-size edit
// with its old mtime put back must still be seen, and a folder swapped for a symlink out of the
// ruleset must still be refused.
TEST_CASE("scenarios and the manifest: every edit is seen on reload, the folder named as display_path names it",
          "[ruleset][scenario][reload]") {
    const fs::path root = test_helpers::scratch_root() / "scenario-reload";
    fs::remove_all(root);
    const fs::path real = root / "real" / "r";
    fs::create_directories(real / "scenarios");
    test_helpers::write(real / "ruleset.yaml", "name: r\nversion: 1.0.0\n");
    test_helpers::write(real / "scenarios/a.yaml", "n: 1\n");
    fs::create_directory_symlink(root / "real", root / "via");
    const fs::path dir = root / "via" / "r";
    TestHost t;
    umpire::ruleset::load(t.host, {dir.string()});
    CHECK(looked_in(t) == " " + umpire::LuaHost::display_path(dir / "scenarios"));
    CHECK(looked_in(t).find("real/r/scenarios") != std::string::npos);
    // Every stamp trusted at once, then same-size edits with the old times put back (the ctime
    // still changes): only the stamps taken by the checks' lstat can tell.
    t.host.extension<umpire::ruleset::LoadCache>().settle_margin = std::chrono::nanoseconds(0);
    umpire::ruleset::reload(t.host);
    for (const auto& [file, from, to] : {std::tuple{real / "scenarios/a.yaml", "n: 1", "n: 2"},
                                         std::tuple{real / "ruleset.yaml", "1.0.0", "2.0.0"}}) {
        struct stat st {};
        REQUIRE(::stat(file.c_str(), &st) == 0);
        std::string text = umpire::LuaHost::read_file(file);
        text.replace(text.find(from), std::string(from).size(), to);
        test_helpers::write(file, text);
        const timespec times[2] = {st.st_mtim, st.st_mtim};
        REQUIRE(::utimensat(AT_FDCWD, file.c_str(), times, 0) == 0);
    }
    umpire::ruleset::reload(t.host);
    CHECK(t.eval("umpire.data.scenario('a').n") == "2");
    CHECK(t.eval("umpire.ruleset.version") == "2.0.0");

    SECTION("the folder swapped for a symlink out of the ruleset") {
        fs::create_directories(root / "outside");
        test_helpers::write(root / "outside/a.yaml", "n: 3\n");
        fs::rename(real / "scenarios", real / "scenarios.old");
        fs::create_directory_symlink(root / "outside", real / "scenarios");
        umpire::ruleset::reload(t.host);
        CHECK(t.eval("select(2, pcall(umpire.data.scenario, 'a'))").find("resolves outside its ruleset folder") !=
              std::string::npos);
        CHECK(looked_in(t) == " " + umpire::LuaHost::display_path(dir / "scenarios"));
    }
    SECTION("the folder swapped for a symlink inside the ruleset") {
        fs::rename(real / "scenarios", real / "kept");
        fs::create_directory_symlink("kept", real / "scenarios");
        umpire::ruleset::reload(t.host);
        CHECK(t.eval("umpire.data.scenario('a').n") == "2");
        CHECK(looked_in(t) == " " + umpire::LuaHost::display_path(dir / "scenarios"));
        CHECK(looked_in(t).find("real/r/kept") != std::string::npos);
    }
    SECTION("the folder removed") {
        fs::remove_all(real / "scenarios");
        umpire::ruleset::reload(t.host);
        CHECK(looked_in(t) == " " + umpire::LuaHost::display_path(dir / "scenarios"));
        CHECK(looked_in(t).find("real/r/scenarios") != std::string::npos);
    }
}

// ruleset/Ruleset.hpp's entry checks read the text of a manifest entry as std::filesystem::path
// reads it: every string of up to 7 characters from 'a', '.' and '/' against path's own answers.
TEST_CASE("manifest entries: '..' parts and extensions are found as std::filesystem::path finds them", "[rulesets]") {
    const std::string alphabet = "a./";
    std::vector<std::string> entries{""};
    std::size_t checked = 0;
    for (std::size_t from = 0; from < entries.size(); ++from) {
        const std::string entry = entries[from];
        const fs::path p(entry);
        const bool climbs = std::any_of(p.begin(), p.end(), [](const fs::path& part) { return part == ".."; });
        INFO("entry '" << entry << "'");
        CHECK(umpire::ruleset::entry_climbs(entry) == climbs);
        CHECK(umpire::ruleset::entry_has_extension(entry) == !p.extension().empty());
        ++checked;
        if (entry.size() < 7)
            for (const char c : alphabet) entries.push_back(entry + c);
    }
    CHECK(checked == (2187 * 3 - 1) / 2);  // 3^0 + ... + 3^7
}
