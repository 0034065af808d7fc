// Long random-input test of the ASL hex-name parser (runs under ASan + UBSan in CI).
// Every input must either parse, format back to a name that parses to the same name and hex, or
// throw umpire::ParseError whose input is the text and whose position lies within it (or at its
// end). Any other exception, crash or sanitizer report is a failure.
// UMPIRE_FUZZ_ITERATIONS sets the number of inputs (default 200000); the seed is fixed so a
// failure reproduces, and UMPIRE_FUZZ_SEED changes it.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/hex/AslName.hpp"
#include "core/hex/Map.hpp"

using namespace umpire::hex;

namespace {

long env_number(const char* name, long fallback) {
    const char* v = std::getenv(name);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    const long n = std::strtol(v, &end, 10);
    return (end && *end == '\0' && n >= 0) ? n : fallback;
}

// Inputs are built from pieces that sit near the grammar's edges: valid names, digits, letter
// pairs, lower case, separators, control and high bytes, and mutations of valid names. Purely
// uniform bytes would almost never get past the first character.
std::string random_input(std::mt19937_64& rng) {
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
    static const std::string alphabet =
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGGHHKKZZabgkz -+_/.,:;#\t\n";
    std::string s;
    switch (pick(4)) {
        case 0: {  // a random run of likely characters
            const int len = pick(10);
            for (int i = 0; i < len; ++i) s += alphabet[pick(static_cast<int>(alphabet.size()))];
            break;
        }
        case 1: {  // any bytes at all, NUL and high bytes included
            const int len = pick(8);
            for (int i = 0; i < len; ++i) s += static_cast<char>(pick(256));
            break;
        }
        default: {  // a valid-looking name, then mutated
            if (pick(2)) s += std::to_string(pick(3) ? pick(100) : pick(100000));
            const int col = pick(40);
            s += col < 26 ? std::string(1, char('A' + col)) : std::string(2, char('A' + col - 26 + pick(2)));
            s += std::to_string(pick(3) ? pick(12) : pick(5000));
            const int mutations = pick(3);
            for (int m = 0; m < mutations && !s.empty(); ++m) {
                const std::size_t at = static_cast<std::size_t>(pick(static_cast<int>(s.size()) + 1));
                switch (pick(3)) {
                    case 0: s.insert(at, 1, alphabet[pick(static_cast<int>(alphabet.size()))]); break;
                    case 1: if (at < s.size()) s.erase(at, 1); break;
                    default: if (at < s.size()) s[at] = static_cast<char>(pick(256)); break;
                }
            }
        }
    }
    return s;
}

}  // namespace

TEST_CASE("hex fuzz: random ASL hex names parse or fail cleanly", "[hex][fuzz]") {
    const long iterations = env_number("UMPIRE_FUZZ_ITERATIONS", 200000);
    std::mt19937_64 rng(static_cast<std::uint64_t>(env_number("UMPIRE_FUZZ_SEED", 20240611)));
    const Map map(21);
    long parsed = 0, rejected = 0, failures = 0;
    for (long i = 0; i < iterations; ++i) {
        const std::string text = random_input(rng);
        try {
            const AslName name = parse_asl_name(text);
            ++parsed;
            const std::string back = to_string(name);
            const bool same = parse_asl_name(back) == name &&
                              (name.board != 0 && name.board != 21 ? true
                                                                     : map.hex(back) == map.hex(text));
            if (!same || name.column < 0 || name.column > 32 || name.row < 0 || name.row > 10) {
                if (failures++ < 10) FAIL_CHECK("round trip failed for '" << text << "' -> '" << back << "'");
            }
        } catch (const umpire::ParseError& e) {
            ++rejected;
            if (e.input != text || e.position > text.size() || e.problem.empty()) {
                if (failures++ < 10)
                    FAIL_CHECK("bad ParseError for '" << text << "': position " << e.position);
            }
        }
        // Anything else propagates and fails the test with its message.
    }
    std::cout << "hex fuzz: " << iterations << " inputs (" << parsed << " parsed, " << rejected
              << " rejected)\n";
    CHECK(failures == 0);
    CHECK(parsed + rejected == iterations);
    if (iterations >= 10000) CHECK(parsed > iterations / 100);  // the generator reaches valid names
}
