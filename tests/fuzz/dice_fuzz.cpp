// Long random-input test for the dice expression parser: whatever the text, DiceExpression either
// parses it or throws ParseError pointing inside (or just past) the input; nothing else, no crash.
// Built as part of test_fuzz and run under ASan+UBSan in CI. Iterations: UMPIRE_FUZZ_ITERATIONS
// (default 200000); seed: UMPIRE_FUZZ_SEED (default 1), printed so a failure can be replayed.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

#include "core/Error.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/dice/Distribution.hpp"
#include "core/dice/Generator.hpp"
#include "core/dice/GeneratorSource.hpp"

using namespace umpire::dice;

namespace {

std::uint64_t env_or(const char* name, std::uint64_t fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// Half the inputs are drawn from dice-ish characters (so many parse, and the keep/percent/limit
// paths are reached), half are mutations of valid expressions, with a little raw garbage in both.
std::string random_input(Generator& g) {
    static const std::string alphabet = "0123456789dDkKhHlL%+- \tfFrRoO!<>=[],.{}*";
    static const char* const seeds[] = {"2d6", "D6+1", "D3+1", "3D6", "d20", "d%", "2d6+d3-1", "4d6kh3",
                                        "4d6kl1", "1000d1000000", "99999999999999999", "10-d4", "2d%kh1",
                                        "d6!", "d6!>=5{3}", "d6r1", "2d6ro<3", "4d6dl1", "3d6dh1", "10d6>=5+1",
                                        "6d6<=2", "d[1,1,2,3,5,8]", "d[-2..3]", "4dF", "d6*2", "3*2d6", "d66",
                                        "2d66kh1", "8d6r1!>=6{2}>=5", "d[1,2]!{1}*10-2"};
    std::string s;
    if (g.uniform(2) == 1) {
        const std::uint32_t len = g.uniform(25) - 1;
        for (std::uint32_t i = 0; i < len; ++i)
            s += g.uniform(20) == 1 ? static_cast<char>(g.uniform(256) - 1) : alphabet[g.uniform(alphabet.size()) - 1];
    } else {
        s = seeds[g.uniform(std::size(seeds)) - 1];
        for (std::uint32_t m = g.uniform(4); m > 0; --m) {
            const std::size_t at = g.uniform(static_cast<std::uint32_t>(s.size()) + 1) - 1;
            const char c = g.uniform(10) == 1 ? static_cast<char>(g.uniform(256) - 1) : alphabet[g.uniform(alphabet.size()) - 1];
            switch (g.uniform(3)) {
            case 1: s.insert(at, 1, c); break;
            case 2: if (at < s.size()) s.erase(at, 1); break;
            default: if (at < s.size()) s[at] = c; break;
            }
        }
    }
    return s;
}

}  // namespace

TEST_CASE("dice expression parser survives random input", "[fuzz][dice]") {
    const std::uint64_t iterations = env_or("UMPIRE_FUZZ_ITERATIONS", 200000);
    const std::uint64_t seed = env_or("UMPIRE_FUZZ_SEED", 1);
    Generator g(seed);
    GeneratorSource dice(seed);
    std::uint64_t parsed = 0, rejected = 0, exact = 0;
    for (std::uint64_t i = 0; i < iterations; ++i) {
        const std::string input = random_input(g);
        try {
            const DiceExpression e(input);
            ++parsed;
            // The canonical form must parse back to itself.
            const std::string canonical = e.to_string();
            if (DiceExpression(canonical).to_string() != canonical)
                FAIL("canonical form does not round-trip: '" << input << "' -> '" << canonical << "'");
            const RollResult r = e.roll(dice);
            if (r.total < e.min() || r.total > e.max())
                FAIL("roll of '" << input << "' gave " << r.total << " outside " << e.min() << ".." << e.max());
            // Exact odds for the small ones: must cover exactly min..max and sum to 1.
            if (e.max() - e.min() <= 60 && r.faces.size() <= 12) {
                const Distribution d = e.distribution();
                ++exact;
                if (d.min() != e.min() || d.max() != e.max() || d.probability([](std::int64_t) { return true; }) != 1)
                    FAIL("distribution of '" << input << "' disagrees with its range");
            }
        } catch (const umpire::ParseError& err) {
            ++rejected;
            if (err.position > input.size() || err.input != input)
                FAIL("ParseError position " << err.position << " beyond input '" << input << "'");
        } catch (const std::exception& other) {
            FAIL("input '" << input << "' threw something other than ParseError: " << other.what());
        }
    }
    std::cout << "dice fuzz: " << iterations << " inputs (seed " << seed << "): " << parsed << " parsed, "
              << rejected << " rejected, " << exact << " exact distributions checked\n";
    CHECK(parsed + rejected == iterations);
    CHECK(parsed > iterations / 20);  // the generator must keep reaching the successful paths
}
