#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "core/Error.hpp"
#include "core/dice/DiceExpression.hpp"
#include "core/dice/Distribution.hpp"
#include "core/odds/EnumeratingSource.hpp"
#include "core/odds/Exact.hpp"
#include "core/odds/Odds.hpp"
#include "scripts.hpp"

using namespace umpire::odds;
using namespace odds_test;
using umpire::dice::DiceExpression;
using umpire::dice::Distribution;

namespace {
mpq_class q(long num, long den) {
    mpq_class r(num, den);
    r.canonicalize();
    return r;
}
mpz_class binomial(unsigned long n, unsigned long k) {
    mpz_class r;
    mpz_bin_uiui(r.get_mpz_t(), n, k);
    return r;
}
mpz_class power(unsigned long b, unsigned long e) {
    mpz_class r;
    mpz_ui_pow_ui(r.get_mpz_t(), b, e);
    return r;
}
mpq_class total(const Result& r) {
    mpq_class sum = 0;
    for (const auto& o : r.outcomes) sum += o.exact;
    return sum;
}
}  // namespace

TEST_CASE("Exact odds of 2d6: k/36", "[odds][exact]") {
    const auto r = enumerate(two_d6);
    REQUIRE(r);
    CHECK(r->is_exact());
    CHECK(r->method_name() == "exact");
    CHECK(r->paths == 36);
    REQUIRE(r->outcomes.size() == 11);
    for (int t = 2; t <= 12; ++t) CHECK(r->exact_probability(Outcome(t)) == q(6 - std::abs(t - 7), 36));
    // Ordered numerically, not as text ("10" before "2").
    CHECK(r->outcomes.front().outcome == Outcome(2));
    CHECK(r->outcomes.back().outcome == Outcome(12));
    CHECK(total(*r) == 1);
}

TEST_CASE("Exact odds of d20 and of D3+1 agree with the dice distributions", "[odds][exact]") {
    const auto d20 = enumerate([](DieSource& d) { return Outcome(d.die(20)); });
    REQUIRE(d20);
    CHECK(d20->outcomes.size() == 20);
    for (int f = 1; f <= 20; ++f) CHECK(d20->exact_probability(Outcome(f)) == q(1, 20));

    const DiceExpression d3_plus_1("D3+1");
    const auto r = enumerate([&](DieSource& d) { return Outcome(static_cast<double>(d3_plus_1.roll(d).total)); });
    REQUIRE(r);
    CHECK(r->paths == 6);  // a D3 is a d6 read in pairs
    const Distribution dist = d3_plus_1.distribution();
    REQUIRE(r->outcomes.size() == 3);
    for (int v = 2; v <= 4; ++v) {
        CHECK(r->exact_probability(Outcome(v)) == q(1, 3));
        CHECK(r->exact_probability(Outcome(v)) == dist.probability_equal(v));
    }
}

TEST_CASE("ASL: P(original DR >= 11) = 3/36", "[odds][exact]") {
    const auto r = enumerate(asl_b11);
    REQUIRE(r);
    CHECK(r->exact_probability(Outcome("malfunction")) == q(3, 36));
    CHECK(r->exact_probability(Outcome("fires")) == q(33, 36));
}

TEST_CASE("count(): ten dice at 5+ are 11 binomial branches", "[odds][exact]") {
    const auto r = enumerate(ten_dice_hits);
    REQUIRE(r);
    CHECK(r->paths == 11);
    for (unsigned k = 0; k <= 10; ++k) {
        mpq_class expected(binomial(10, k) * power(2, k) * power(4, 10 - k), power(6, 10));
        expected.canonicalize();
        CHECK(r->exact_probability(Outcome(k)) == expected);
    }
    CHECK(total(*r) == 1);
}

TEST_CASE("count(): a target no face or every face meets is a single branch", "[odds][exact]") {
    const auto none = enumerate([](DieSource& d) { return Outcome(d.count(5, 6, 7, 9)); });
    REQUIRE(none);
    CHECK(none->paths == 1);
    CHECK(none->exact_probability(Outcome(0)) == 1);
    const auto all = enumerate([](DieSource& d) { return Outcome(d.count(5, 6, 0, 6)); });
    REQUIRE(all);
    CHECK(all->paths == 1);
    CHECK(all->exact_probability(Outcome(5)) == 1);
}

TEST_CASE("count(): forty dice counted stay exact", "[odds][exact]") {
    const auto r = enumerate([](DieSource& d) { return Outcome(d.count(40, 6, 4, 6)); });
    REQUIRE(r);
    CHECK(r->paths == 41);
    const Distribution dist = Distribution::count_at_least(40, 6, 4);
    for (int k = 0; k <= 40; ++k) CHECK(r->exact_probability(Outcome(k)) == dist.probability_equal(k));
}

TEST_CASE("pool(): 4d6 keep highest 3 over multisets, P(18) = 21/1296", "[odds][exact]") {
    const auto r = enumerate(four_d6_keep3);
    REQUIRE(r);
    CHECK(r->paths == 126);  // C(4+6-1, 5) multisets instead of 6^4 = 1296 sequences
    CHECK(r->exact_probability(Outcome(18)) == q(21, 1296));
    const Distribution dist = Distribution::keep_highest(4, 6, 3);
    for (int v = 3; v <= 18; ++v) CHECK(r->exact_probability(Outcome(v)) == dist.probability_equal(v));
    CHECK(total(*r) == 1);
}

TEST_CASE("pool() faces come back sorted ascending", "[odds][exact]") {
    bool sorted = true;
    const auto r = enumerate([&](DieSource& d) {
        const auto f = d.pool(3, 4);
        sorted = sorted && std::is_sorted(f.begin(), f.end());
        return Outcome(f.front());
    });
    REQUIRE(r);
    CHECK(sorted);
    CHECK(r->paths == 20);  // C(6, 3)
    // P(lowest of 3d4 is 1) = 1 - (3/4)^3 = 37/64
    CHECK(r->exact_probability(Outcome(1)) == q(37, 64));
}

TEST_CASE("A script rolling a variable number of dice", "[odds][exact]") {
    const auto r = enumerate(reroll_six);
    REQUIRE(r);
    CHECK(r->paths == 11);
    for (int v = 1; v <= 5; ++v) CHECK(r->exact_probability(Outcome(v)) == q(1, 6));
    CHECK(r->exact_probability(Outcome(6)) == 0);
    for (int v = 7; v <= 12; ++v) CHECK(r->exact_probability(Outcome(v)) == q(1, 36));
    CHECK(total(*r) == 1);
}

TEST_CASE("Mixed decisions multiply their weights", "[odds][exact]") {
    // A d6 decides how many of 3 dice to count at 6: P(total hits = 0).
    const auto r = enumerate([](DieSource& d) {
        const std::uint32_t n = d.die(6) <= 3 ? 1 : 3;
        return Outcome(d.count(n, 6, 6, 6));
    });
    REQUIRE(r);
    // 1/2 * 5/6 + 1/2 * 125/216
    CHECK(r->exact_probability(Outcome(0)) == q(1, 2) * q(5, 6) + q(1, 2) * q(125, 216));
    CHECK(r->paths == 3 * 2 + 3 * 4);
}

// The tally sums small path probabilities (numerator and denominator in 64 bits) as integers over a
// shared denominator and large ones in GMP, and finds an outcome it has seen by identity: over
// random trees mixing both (a count of many dice has a denominator past 2^64), with outcomes made
// afresh on every path or handed out as kept copies, it gives what the test's own sum over the
// same tree gives, written from the dice's probabilities.
TEST_CASE("Exact sums mix small and large path probabilities exactly", "[odds][exact]") {
    std::mt19937 rng(1124);
    for (int round = 0; round < 40; ++round) {
        const std::uint32_t first = 2 + rng() % 5, second = 2 + rng() % 9;
        const std::uint32_t big_n = 20 + rng() % 20, big_sides = 3 + rng() % 6, modulus = 2 + rng() % 5;
        const std::int64_t lo = 1 + rng() % big_sides;
        const bool kept = round % 2 == 0;
        std::vector<Outcome> outcomes;
        for (std::uint32_t v = 0; v < modulus; ++v) outcomes.emplace_back(static_cast<int>(v));
        const auto result = enumerate([&](DieSource& d) {
            const std::uint32_t a = d.die(first);
            // Odd faces count many dice (a large probability), even ones roll one more die.
            const std::uint32_t b = a % 2 ? d.count(big_n, big_sides, lo, big_sides) : d.die(second);
            const std::uint32_t v = (a + b) % modulus;
            return kept ? outcomes[v] : Outcome(static_cast<int>(v));
        });
        REQUIRE(result);
        std::vector<mpq_class> expected(modulus, mpq_class(0));
        for (std::uint32_t a = 1; a <= first; ++a) {
            if (a % 2) {
                const unsigned long hit = big_sides - static_cast<unsigned long>(lo) + 1;
                for (std::uint32_t k = 0; k <= big_n; ++k) {
                    mpq_class p(binomial(big_n, k) * power(hit, k) * power(big_sides - hit, big_n - k),
                                power(big_sides, big_n) * first);
                    p.canonicalize();
                    if (p != 0) expected[(a + k) % modulus] += p;
                }
            } else {
                for (std::uint32_t b = 1; b <= second; ++b) expected[(a + b) % modulus] += q(1, first * second);
            }
        }
        INFO("round " << round << ": d" << first << ", then " << big_n << "d" << big_sides << " at " << lo
                      << "+ or d" << second << ", mod " << modulus);
        for (std::uint32_t v = 0; v < modulus; ++v)
            CHECK(result->exact_probability(Outcome(static_cast<int>(v))) == expected[v]);
        CHECK(total(*result) == 1);
    }
}

// A die's weight is kept in 64 bits only and made in GMP when a path's product overflows
// (EnumeratingSource::finish_path): dice before and after a count of 40 dice (6^40 > 2^64), and a
// path of dice alone, each against the test's own product of the dice's probabilities.
TEST_CASE("Dice on a path too large for 64 bits keep their exact weights", "[odds][exact]") {
    std::mt19937 rng(2911);
    for (int round = 0; round < 12; ++round) {
        const std::uint32_t before = 2 + rng() % 9, after = 2 + rng() % 9, n = 40 + rng() % 10;
        const auto result = enumerate([&](DieSource& d) {
            const std::uint32_t a = d.die(before);
            const std::uint32_t k = d.count(n, 6, 6, 6);
            const std::uint32_t b = d.die(after);
            return Outcome(static_cast<int>(a * 1000 + (k % 3) * 100 + b));
        });
        REQUIRE(result);
        INFO("round " << round << ": d" << before << ", " << n << "d6 at 6, d" << after);
        for (std::uint32_t a = 1; a <= before; ++a)
            for (std::uint32_t b = 1; b <= after; ++b)
                for (std::uint32_t m = 0; m < 3; ++m) {
                    mpq_class expected = 0;
                    for (std::uint32_t k = m; k <= n; k += 3) {
                        mpq_class p(binomial(n, k) * power(5, n - k), power(6, n));
                        p.canonicalize();
                        expected += p;
                    }
                    expected *= q(1, before * after);
                    expected.canonicalize();
                    CHECK(result->exact_probability(Outcome(static_cast<int>(a * 1000 + m * 100 + b))) == expected);
                }
        CHECK(total(*result) == 1);
    }
}

TEST_CASE("A script that is not a function of its dice is refused", "[odds][exact]") {
    int runs = 0;
    const Script flaky = [&](DieSource& d) {
        ++runs;
        const std::uint32_t a = d.die(6);
        return Outcome(a + d.die(runs % 2 ? 6 : 8));
    };
    CHECK_THROWS_AS(enumerate(flaky), umpire::RuleError);
    try {
        enumerate(flaky);
    } catch (const umpire::RuleError& e) {
        CHECK_THAT(e.what(), Catch::Contains("not deterministic") && Catch::Contains("roll #2"));
    }

    int calls = 0;
    const Script stops = [&](DieSource& d) {
        const std::uint32_t a = d.die(6);
        if (++calls > 1) return Outcome(a);
        return Outcome(a + d.die(6));
    };
    CHECK_THROWS_WITH(enumerate(stops), Catch::Contains("stopped after 1 rolls"));
}

TEST_CASE("The exact runner gives up past its budget", "[odds][exact]") {
    const Script twelve_dice = [](DieSource& d) {
        std::uint32_t sum = 0;
        for (int i = 0; i < 12; ++i) sum += d.die(6);
        return Outcome(sum);
    };
    CHECK_FALSE(enumerate(two_d6, 35));
    CHECK(enumerate(two_d6, 36));
    CHECK_FALSE(enumerate(twelve_dice, 1000));  // 6^12 paths: abandoned on the first path

    int runs = 0;
    const Script counted = [&](DieSource& d) {
        ++runs;
        return twelve_dice(d);
    };
    CHECK_FALSE(enumerate(counted));
    CHECK(runs == 1);
}

TEST_CASE("odds() falls back to Monte Carlo and says so", "[odds][exact]") {
    OddsOptions options;
    options.budget = 10;
    options.monte_carlo.samples = 20000;
    options.monte_carlo.threads = 2;
    const Result r = odds([] { return Script(two_d6); }, options);
    CHECK(r.method == Method::monte_carlo);
    CHECK(r.samples == 20000);
    CHECK_THAT(r.note, Catch::Contains("budget"));

    options.budget = default_budget;
    const Result exact = odds([] { return Script(two_d6); }, options);
    CHECK(exact.is_exact());
    CHECK(exact.note.empty());
}

TEST_CASE("EnumeratingSource refuses a die without sides", "[odds][exact]") {
    CHECK_THROWS_AS(enumerate([](DieSource& d) { return Outcome(d.die(0)); }), umpire::RuleError);
}
