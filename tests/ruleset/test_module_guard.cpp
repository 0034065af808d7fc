// No ruleset changes another's rules modules (host/ModuleGuard.hpp, issue 16): a change made
// while the rules load fails the load; one made by a run is refused after it and put back. Each
// ruleset's modules have globals of their own.
#include <catch2/catch.hpp>

#include "ruleset/Load.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;
namespace fs = std::filesystem;

namespace {

// Ruleset `a` (module ma: f, g calling f through umpire.rules, a NaN field, a global) and `b`
// (module mb, whose body is `b_body`), under a fresh scratch folder.
fs::path two_rulesets(const std::string& tag, const std::string& b_body) {
    const fs::path root = test_helpers::scratch_root() / ("module-guard-" + tag);
    fs::remove_all(root);
    fs::create_directories(root / "a" / "rules");
    fs::create_directories(root / "b" / "rules");
    test_helpers::write(root / "a" / "ruleset.yaml", "name: a\nversion: \"1\"\nmodules: [ma]\n");
    test_helpers::write(root / "a" / "rules" / "ma.lua",
                        "a_global = 'from a'\nlocal M = {nothing = 0/0}\n"
                        "function M.f() return 'as written' end\n"
                        "function M.g() return umpire.rules.ma.f() end\n"
                        "function M.global() return tostring(a_global) end\nreturn M\n");
    test_helpers::write(root / "b" / "ruleset.yaml", "name: b\nversion: \"1\"\nmodules: [mb]\n");
    test_helpers::write(root / "b" / "rules" / "mb.lua", "local M = {}\n" + b_body + "\nreturn M\n");
    return root;
}

void load_both(TestHost& t, const fs::path& root) {
    umpire::ruleset::load(t.host, {(root / "a").string(), (root / "b").string()});
}

}  // namespace

TEST_CASE("module guard: a ruleset whose module body changes another's module does not load", "[modules]") {
    const std::pair<const char*, const char*> cases[] = {
        {"umpire.rules.ma.f = function() return 'evil' end", "loading the rules changed umpire.rules.ma.f ("},
        {"umpire.rules.ma = {g = function() return 'evil' end}", "loading the rules changed umpire.rules.ma ("},
        {"umpire.rules.ma.extra = 1", "loading the rules changed umpire.rules.ma.extra ("},
        {"setmetatable(umpire.rules.ma, {__index = function() return print end})",
         "loading the rules changed umpire.rules.ma (its metatable)"},
        {"umpire.rules.fake = {}", "loading the rules changed umpire.rules.fake ("},
    };
    int i = 0;
    for (const auto& [body, message] : cases) {
        CAPTURE(body);
        const fs::path root = two_rulesets("load-" + std::to_string(i++), body);
        TestHost t;
        // The rules as loaded before stay loaded (a reload is transactional).
        umpire::ruleset::load(t.host, {(root / "a").string()});
        REQUIRE_THROWS_WITH(load_both(t, root), Catch::Contains(message));
        CHECK(t.eval("umpire.rules.ma.g()") == "as written");
        CHECK(t.eval("umpire.rules.mb") == "nil");
    }
}

TEST_CASE("module guard: a run that changes a module is refused after it, and the module put back", "[modules]") {
    const fs::path root = two_rulesets("run", "");
    TestHost t;
    load_both(t, root);
    const std::pair<const char*, const char*> runs[] = {
        {"umpire.rules.ma.f = function() return 'evil' end", "changed umpire.rules.ma.f ("},
        {"umpire.rules.ma.f = nil", "changed umpire.rules.ma.f ("},
        {"rawset(umpire.rules.ma, 'h', 1)", "changed umpire.rules.ma.h ("},
        {"umpire.rules.ma[1] = true", "changed umpire.rules.ma[1] ("},
        {"setmetatable(umpire.rules.mb, {})", "changed umpire.rules.mb (its metatable)"},
        {"umpire.rules.ma = {g = function() return 'evil' end}", "changed umpire.rules.ma ("},
        {"umpire.rules.mc = {}", "changed umpire.rules.mc ("},
        {"umpire.rules.mb = nil", "changed umpire.rules.mb ("},
    };
    for (const auto& [code, message] : runs) {
        CAPTURE(code);
        REQUIRE_THROWS_WITH(t.host.run_string(code), Catch::Contains(message) && Catch::Contains("no ruleset changes another's functions"));
        CHECK(t.eval("umpire.rules.ma.g()") == "as written");
        CHECK(t.eval("getmetatable(umpire.rules.mb)") == "nil");
        CHECK(t.eval("umpire.rules.ma.h or umpire.rules.ma[1] or umpire.rules.mc or 'none'") == "none");
        CHECK(t.eval("type(umpire.rules.mb)") == "table");
    }
    // A change put back by the run itself, and a NaN field left as it is, are no change.
    CHECK_NOTHROW(t.host.run_string("local f = umpire.rules.ma.f; umpire.rules.ma.f = print; umpire.rules.ma.f = f"));
    CHECK(t.eval("umpire.rules.ma.nothing ~= umpire.rules.ma.nothing") == "true");
}

TEST_CASE("module guard: each ruleset's modules have globals of their own", "[modules]") {
    const fs::path root = two_rulesets("globals", "M.seen = tostring(a_global)\na_global = 'from b'");
    TestHost t;
    load_both(t, root);
    CHECK(t.eval("umpire.rules.mb.seen") == "nil");
    CHECK(t.eval("umpire.rules.ma.global()") == "from a");
}

TEST_CASE("module guard: a house rule's module of the same name replaces the module, as written", "[modules]") {
    const fs::path root = two_rulesets("house", "");
    fs::create_directories(root / "house" / "rules");
    test_helpers::write(root / "house" / "ruleset.yaml", "name: house\nversion: \"1\"\nextends: a\nmodules: [ma]\n");
    test_helpers::write(root / "house" / "rules" / "ma.lua", "return {f = function() return 'house' end}\n");
    TestHost t;
    REQUIRE_NOTHROW(umpire::ruleset::load(t.host, {(root / "a").string(), (root / "house").string()}));
    CHECK(t.eval("umpire.rules.ma.g()") == "house");
    CHECK(t.eval("umpire.base('ma').f()") == "as written");
}

TEST_CASE("module guard: a module whose pairs only moved is no change, and a later change is still found", "[modules]") {
    // Keys added and removed again leave the module's fields as they were but rehash its table,
    // so next() gives them in another order: the check's walk (host/ModuleGuard.cpp)
    // fails, and the exact comparison finds no change. Then the table is recorded again, so a
    // real change after it is still found.
    const fs::path root = two_rulesets("moved", "");
    TestHost t;
    load_both(t, root);
    const char* moved = "local M = umpire.rules.ma\n"
                        "for i = 1, 200 do rawset(M, 'extra' .. i, i) end\n"
                        "for i = 1, 200 do rawset(M, 'extra' .. i, nil) end\n";
    CHECK_NOTHROW(t.host.run_string(moved));
    CHECK_NOTHROW(t.host.run_string("local x = umpire.rules.ma.f"));
    CHECK(t.eval("umpire.rules.ma.g()") == "as written");
    REQUIRE_THROWS_WITH(t.host.run_string("umpire.rules.ma.g = print"), Catch::Contains("changed umpire.rules.ma.g ("));
    CHECK(t.eval("umpire.rules.ma.g()") == "as written");
}

TEST_CASE("module guard: a validate() that changes the last ruleset's own module does not load", "[modules]") {
    // The load's check skips the walk of the last ruleset's modules only when no validate() ran
    // after their seal (ruleset/Ruleset.cpp): a validate is rule code run after the seal.
    const fs::path root = two_rulesets("validate", "function M.validate() umpire.rules.mb.late = 1 end");
    TestHost t;
    umpire::ruleset::load(t.host, {(root / "a").string()});
    REQUIRE_THROWS_WITH(load_both(t, root), Catch::Contains("loading the rules changed umpire.rules.mb.late ("));
    CHECK(t.eval("umpire.rules.mb") == "nil");
}
