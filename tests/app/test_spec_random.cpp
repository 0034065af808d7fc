// The spec API's seeded_random (app/SpecRunner.cpp): the draws are Park and Miller's minimal
// standard, computed here again in 64-bit integers, for random seeds and ranges; a seed that would
// stay 0 forever is refused with a clear error.
#include <catch2/catch.hpp>

#include <cstdint>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>

#include "app/SpecRunner.hpp"
#include "ruleset/Load.hpp"
#include "tests/support/helpers.hpp"

namespace fs = std::filesystem;

TEST_CASE("spec API: seeded_random draws Park and Miller's sequence, 1..n", "[spec]") {
    const fs::path dir = test_helpers::scratch_root() / "spec-seeded-random";
    fs::remove_all(dir);
    fs::create_directories(dir / "tests");
    std::mt19937_64 random(20261125);
    std::string spec;
    for (int c = 0; c < 40; ++c) {
        // Seeds past 2^31 - 1 too (the generator reduces them first), and ranges up to 2^31.
        const std::int64_t seed = 1 + static_cast<std::int64_t>(random() % 4294967290ull);
        const std::int64_t n = 1 + static_cast<std::int64_t>(random() % (c < 20 ? 6 : 2147483648ull));
        std::string want;
        std::int64_t state = seed % 2147483647;
        for (int i = 0; i < 50; ++i) {
            state = state * 48271 % 2147483647;
            want += (i ? "," : "") + std::to_string(state % n + 1);
        }
        const std::string name = "case " + std::to_string(c);
        spec += "test('" + name + "', function()\n"
                "  local pick, got = seeded_random(" + std::to_string(seed) + "), {}\n"
                "  for i = 1, 50 do got[i] = string.format('%d', pick(" + std::to_string(n) + ")) end\n"
                "  eq(table.concat(got, ','), '" + want + "')\n"
                "end)\n";
    }
    spec += "test('seed 0', function() assert_error(function() seeded_random(2147483647 * 3) end,"
            " 'seed must be a whole number that is not a multiple of 2^31 - 1') end)\n"
            "test('a fraction', function() raises(function() seeded_random(1.5) end, 'seeded_random%(seed%)') end)\n";
    test_helpers::write(dir / "tests" / "random_spec.lua", spec);
    test_helpers::TestHost t;
    std::ostringstream out;
    const auto result = umpire::run_spec_file(t.host, dir / "tests" / "random_spec.lua", {}, out);
    INFO(out.str());
    CHECK(result.failed == 0);
    CHECK(result.passed == 42);
    fs::remove_all(dir);
}
