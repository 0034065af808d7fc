#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "core/Error.hpp"
#include "core/dice/Generator.hpp"

using umpire::dice::Generator;

namespace {

// An independent transcription of the published reference code (prng.di.unimi.it:
// splitmix64.c, xoshiro256starstar.c with its jump()), kept deliberately separate from
// Generator.cpp so that a change to either shows up as a mismatch.
struct Reference {
    uint64_t s[4];
    static uint64_t rotl(const uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    explicit Reference(uint64_t seed) {
        uint64_t x = seed;
        for (auto& w : s) {
            uint64_t z = (x += 0x9e3779b97f4a7c15);
            z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
            z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
            w = z ^ (z >> 31);
        }
    }
    uint64_t next() {
        const uint64_t result = rotl(s[1] * 5, 7) * 9;
        const uint64_t t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return result;
    }
    void jump() {
        static const uint64_t JUMP[] = {0x180ec6d33cfd0aba, 0xd5a61266f0c9392c, 0xa9582618e03fc9aa,
                                        0x39abdc4529b1661c};
        uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        for (unsigned i = 0; i < sizeof JUMP / sizeof *JUMP; i++)
            for (int b = 0; b < 64; b++) {
                if (JUMP[i] & UINT64_C(1) << b) {
                    s0 ^= s[0];
                    s1 ^= s[1];
                    s2 ^= s[2];
                    s3 ^= s[3];
                }
                next();
            }
        s[0] = s0;
        s[1] = s1;
        s[2] = s2;
        s[3] = s3;
    }
};

}  // namespace

TEST_CASE("splitmix64 matches its published first output for seed 0", "[dice][generator]") {
    uint64_t x = 0;
    CHECK(Generator::splitmix64(x) == 0xe220a8397b1dcdafULL);
}

TEST_CASE("xoshiro256** matches the known vector for state {1,2,3,4}", "[dice][generator]") {
    // Published test vector (used e.g. by rand_xoshiro) for the raw algorithm.
    Generator g = Generator::from_state({1, 2, 3, 4});
    const uint64_t expected[] = {11520, 0, 1509978240, 1215971899390074240ULL, 1216172134540287360ULL,
                                 607988272756665600ULL};
    for (uint64_t e : expected) CHECK(g.next() == e);
}

TEST_CASE("seed 42 gives pinned outputs", "[dice][generator]") {
    // Pinned once from this implementation: a change to seeding or the algorithm breaks saves.
    Generator g(42);
    CHECK(g.next() == 0x15780b2e0c2ec716ULL);
    CHECK(g.next() == 0x6104d9866d113a7eULL);
    CHECK(g.next() == 0xae17533239e499a1ULL);
    CHECK(g.next() == 0xecb8ad4703b360a1ULL);
    CHECK(g.next() == 0xfde6dc7fe2ec5e64ULL);
    Generator d(7);
    const uint32_t faces[] = {5, 2, 6, 6, 6, 6, 1, 1, 3, 1};
    for (uint32_t f : faces) CHECK(d.uniform(6) == f);
}

TEST_CASE("Generator agrees with the reference algorithm seeded by splitmix64", "[dice][generator]") {
    for (uint64_t seed : {0ULL, 1ULL, 42ULL, 0xdeadbeefcafef00dULL, ~0ULL}) {
        Generator g(seed);
        Reference r(seed);
        for (int i = 0; i < 1000; ++i) REQUIRE(g.next() == r.next());
        g.jump();
        r.jump();
        for (int i = 0; i < 100; ++i) REQUIRE(g.next() == r.next());
    }
}

TEST_CASE("save and restore reproduce the sequence", "[dice][generator]") {
    Generator g(123);
    for (int i = 0; i < 17; ++i) g.next();
    const auto words = g.state();
    const std::string text = g.to_text();
    CHECK(text.rfind("xoshiro256**:", 0) == 0);
    CHECK(text.size() == 13 + 4 * 16 + 3);
    Generator from_words = Generator::from_state(words);
    Generator from_text = Generator::from_text(text);
    for (int i = 0; i < 100; ++i) {
        const uint64_t expected = g.next();
        REQUIRE(from_words.next() == expected);
        REQUIRE(from_text.next() == expected);
    }
}

TEST_CASE("bad saved states are refused with a position", "[dice][generator]") {
    CHECK_THROWS_AS(Generator::from_state({0, 0, 0, 0}), umpire::RuleError);
    const std::string good = Generator(5).to_text();
    try {
        std::string bad = good;
        bad[20] = 'g';
        Generator::from_text(bad);
        FAIL("accepted a non-hex digit");
    } catch (const umpire::ParseError& e) {
        CHECK(e.position == 20);
    }
    CHECK_THROWS_AS(Generator::from_text("pcg64:0"), umpire::ParseError);
    CHECK_THROWS_AS(Generator::from_text(good + "0"), umpire::ParseError);
    CHECK_THROWS_AS(Generator::from_text(good.substr(0, good.size() - 1)), umpire::ParseError);
}

TEST_CASE("streams differ from each other and are reproducible", "[dice][generator]") {
    Generator g(2024);
    Reference r(2024);
    std::set<uint64_t> firsts;
    for (uint64_t k = 0; k < 8; ++k) {
        Generator a = g.stream(k), b = g.stream(k);
        for (int i = 0; i < 50; ++i) REQUIRE(a.next() == b.next());
        firsts.insert(g.stream(k).next());
    }
    CHECK(firsts.size() == 8);
    // stream(0) is the generator from its seed; stream(2) is two reference jumps; advancing the
    // generator does not move its streams.
    for (int i = 0; i < 10; ++i) g.next();
    Generator s0 = g.stream(0);
    CHECK(s0.next() == Reference(2024).next());
    r.jump();
    r.jump();
    Generator s2 = g.stream(2);
    for (int i = 0; i < 10; ++i) REQUIRE(s2.next() == r.next());
}

TEST_CASE("uniform(n) stays in 1..n and is flat (chi-square)", "[dice][generator]") {
    Generator g(99);
    for (uint32_t n : {1u, 2u, 3u, 6u, 10u, 20u, 100u}) {
        const int per_face = 2000;
        std::vector<long> count(n + 1, 0);
        for (long i = 0; i < long(n) * per_face; ++i) {
            const uint32_t v = g.uniform(n);
            REQUIRE(v >= 1);
            REQUIRE(v <= n);
            ++count[v];
        }
        double chi2 = 0;
        for (uint32_t f = 1; f <= n; ++f) chi2 += std::pow(count[f] - per_face, 2) / per_face;
        // df = n-1; mean df, sd sqrt(2 df). Allow 6 sd: fails only for a real bias.
        const double df = n - 1;
        CHECK(chi2 <= df + 6 * std::sqrt(2 * df) + 1);
    }
    // A large n exercises the rejection branch of Lemire's method.
    const uint32_t big = 3000000000u;
    for (int i = 0; i < 1000; ++i) {
        const uint32_t v = g.uniform(big);
        REQUIRE((v >= 1 && v <= big));
    }
    CHECK_THROWS_AS(g.uniform(0), umpire::RuleError);
}
