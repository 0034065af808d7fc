// Runs a ruleset's spec files (tests/*.lua) in the sandbox. The spec API (docs/rulesets.md):
//   test(name, fn) / it(name, fn)        one test; describe(name, fn) groups tests
//   assert_eq(actual, expected, [msg])   deep equality of plain values
//   assert_near(actual, expected, [tolerance = 1e-9], [msg])
//   assert_error(fn, [text])             fn must raise an error containing text
//   expect(v).to_be(x) / .to_equal(x)    same as assert_eq
//   eq(actual, expected, [msg]), ok(value, [msg]), raises(fn, [lua_pattern])   (docs/lua-api.md)
//   umpire.dice.fix{4, 2, ...}           the next dice rolled in this test, in order
// Each test runs on its own under the host's limits; dice are restored after each test.
#pragma once
#include <filesystem>
#include <ostream>
#include <string>

namespace umpire {
class LuaHost;

struct SpecResult {
    int passed = 0;
    int failed = 0;
};

// Runs every test of one spec file in a fresh script env over the host's current rules,
// printing "ok"/"FAIL" lines to out. `checked`: where the manifest's check found the file
// (ruleset::Manifest::tests_real); the file is read through one descriptor that must lead there
// (ruleset::read_spec_file: a symlink swapped in after the check is refused, a FAIL naming the
// file). Empty only for a spec file no manifest named (tests).
SpecResult run_spec_file(LuaHost& host, const std::filesystem::path& file, const std::string& checked,
                         std::ostream& out);

}  // namespace umpire
