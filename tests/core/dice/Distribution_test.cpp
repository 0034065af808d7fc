#include <catch2/catch.hpp>

#include <array>
#include <map>

#include "core/Error.hpp"
#include "core/dice/CategoryCounts.hpp"
#include "core/dice/Distribution.hpp"

using namespace umpire::dice;

namespace {
mpq_class q(long num, long den) {
    mpq_class r(num, den);
    r.canonicalize();
    return r;
}
mpz_class pow_ui(unsigned long base, unsigned long exp) {
    mpz_class r;
    mpz_ui_pow_ui(r.get_mpz_t(), base, exp);
    return r;
}
// Brute force over every sequence of n dice: the slow way, to check keep_highest/lowest.
Distribution brute_keep(unsigned n, unsigned sides, unsigned k, bool highest) {
    std::map<int64_t, mpz_class> w;
    std::vector<unsigned> faces(n, 1);
    for (;;) {
        std::vector<unsigned> sorted = faces;
        std::sort(sorted.begin(), sorted.end());
        if (highest) std::reverse(sorted.begin(), sorted.end());
        int64_t sum = 0;
        for (unsigned i = 0; i < k; ++i) sum += sorted[i];
        w[sum] += 1;
        unsigned i = 0;
        while (i < n && faces[i] == sides) faces[i++] = 1;
        if (i == n) break;
        ++faces[i];
    }
    return Distribution::from_weights(w);
}
}  // namespace

TEST_CASE("constant and uniform", "[dice][distribution]") {
    const Distribution c = Distribution::constant(-4);
    CHECK(c.min() == -4);
    CHECK(c.max() == -4);
    CHECK(c.probability_equal(-4) == 1);
    const Distribution d6 = Distribution::uniform(6);
    CHECK(d6.denominator() == 6);
    CHECK(d6.outcomes() == std::vector<int64_t>{1, 2, 3, 4, 5, 6});
    CHECK(d6.probability_equal(3) == q(1, 6));
    CHECK(d6.probability_equal(7) == 0);
    CHECK(d6.mean() == q(7, 2));
    CHECK_THROWS_AS(Distribution::uniform(0), umpire::RuleError);
}

TEST_CASE("2d6 by convolution: P(7) = 1/6, mean 7, variance 35/6", "[dice][distribution]") {
    const Distribution d = Distribution::uniform(6) + Distribution::uniform(6);
    CHECK(d.denominator() == 36);
    const long w[] = {1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1};
    for (int v = 2; v <= 12; ++v) CHECK(d.weight(v) == w[v - 2]);
    CHECK(d.probability_equal(7) == q(1, 6));
    CHECK(d.probability_at_least(8) == q(15, 36));
    CHECK(d.probability_greater(7) == q(15, 36));
    CHECK(d.probability_less(7) == q(15, 36));
    CHECK(d.probability_at_most(7) == q(21, 36));
    CHECK(d.mean() == 7);
    CHECK(d.variance() == q(35, 6));
    CHECK(d == Distribution::sum_of_dice(2, 6));
    CHECK(d.to_string().find("7  6/36  16.6667%\n") != std::string::npos);
    CHECK(d.to_string().find("2  1/36  2.7778%\n") != std::string::npos);
}

TEST_CASE("3d6 matches the known counts", "[dice][distribution]") {
    const Distribution d = Distribution::sum_of_dice(3, 6);
    const long w[] = {1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1};
    CHECK(d.min() == 3);
    CHECK(d.max() == 18);
    for (int v = 3; v <= 18; ++v) CHECK(d.weight(v) == w[v - 3]);
    CHECK(d.denominator() == 216);
}

TEST_CASE("40d6 and 100d6 are exact beyond 64 bits", "[dice][distribution]") {
    const Distribution d = Distribution::sum_of_dice(40, 6);
    CHECK(d.denominator() == pow_ui(6, 40));
    CHECK(d.denominator() > mpz_class("18446744073709551615"));
    CHECK(d.weight(240) == 1);
    CHECK(d.weight(40) == 1);
    CHECK(d.weight(41) == 40);
    CHECK(d.weight(239) == 40);
    CHECK(d.weight(42) == 40 + 40 * 39 / 2);  // one die shows 3, or two dice show 2
    CHECK(d.probability_equal(240) == mpq_class(mpz_class(1), pow_ui(6, 40)));
    CHECK(d.mean() == 140);
    CHECK(d.weight(140) == d.weight(140));  // symmetric around 140:
    for (int v = 40; v <= 140; ++v) REQUIRE(d.weight(v) == d.weight(280 - v));
    const Distribution h = Distribution::sum_of_dice(100, 6);
    CHECK(h.denominator() == pow_ui(6, 100));
    CHECK(h.weight(600) == 1);
    CHECK(h.mean() == 350);
}

TEST_CASE("difference, negation, shift, scale, map", "[dice][distribution]") {
    const Distribution d6 = Distribution::uniform(6);
    const Distribution diff = d6 - d6;
    CHECK(diff.min() == -5);
    CHECK(diff.max() == 5);
    CHECK(diff.weight(0) == 6);
    CHECK(diff.weight(-5) == 1);
    CHECK(diff.mean() == 0);
    CHECK(d6.negate().outcomes() == std::vector<int64_t>{-6, -5, -4, -3, -2, -1});
    CHECK((d6 + 10).outcomes() == std::vector<int64_t>{11, 12, 13, 14, 15, 16});
    CHECK((d6 - 1).min() == 0);
    const Distribution twice = d6.scale(2);
    CHECK(twice.outcomes() == std::vector<int64_t>{2, 4, 6, 8, 10, 12});
    CHECK(twice.probability_equal(3) == 0);
    CHECK(twice.probability_equal(4) == q(1, 6));
    CHECK(d6.scale(-3).outcomes() == std::vector<int64_t>{-18, -15, -12, -9, -6, -3});
    CHECK(d6.scale(0) == Distribution::constant(0));
    const Distribution two = Distribution::sum_of_dice(2, 6);
    const Distribution hit = two.map([](int64_t v) { return v >= 7 ? 1 : 0; });
    CHECK(hit.outcomes() == std::vector<int64_t>{0, 1});
    CHECK(hit.probability_equal(1) == q(21, 36));
    CHECK(two.probability([](int64_t v) { return v == 2 || v == 12; }) == q(1, 18));
    CHECK(d6.repeat(0) == Distribution::constant(0));
    CHECK(d6.repeat(5) == d6 + d6 + d6 + d6 + d6);
}

TEST_CASE("comparing two independent distributions", "[dice][distribution]") {
    const Distribution d6 = Distribution::uniform(6);
    CHECK(d6.probability_greater(d6) == q(5, 12));
    CHECK(d6.probability_less(d6) == q(5, 12));
    CHECK(d6.probability_equal(d6) == q(1, 6));
    // 2d6 against 7: P(2d6 > constant 7) = 15/36.
    CHECK(Distribution::sum_of_dice(2, 6).probability_greater(Distribution::constant(7)) == q(15, 36));
    // d8 vs d6: P(X > Y) = sum over y of (8-y)/8 /6 = (7+6+5+4+3+2)/48 = 27/48.
    CHECK(Distribution::uniform(8).probability_greater(d6) == q(27, 48));
}

TEST_CASE("from_weights and equality up to a common factor", "[dice][distribution]") {
    const Distribution a = Distribution::from_weights({{1, 2}, {3, 4}});
    CHECK(a.denominator() == 6);
    CHECK(a.probability_equal(3) == q(2, 3));
    CHECK(a.weight(2) == 0);
    CHECK(a == Distribution::from_weights({{1, 1}, {3, 2}}));
    CHECK_FALSE(a == Distribution::from_weights({{1, 1}, {3, 1}}));
    CHECK_THROWS_AS(Distribution::from_weights({}), umpire::RuleError);
    CHECK_THROWS_AS(Distribution::from_weights({{1, 0}}), umpire::RuleError);
    CHECK_THROWS_AS(Distribution::from_weights({{1, -1}}), umpire::RuleError);
    CHECK_THROWS_AS(Distribution::from_weights({{0, 1}, {int64_t{1} << 40, 1}}), umpire::RuleError);
}

TEST_CASE("keep highest / lowest are exact", "[dice][distribution]") {
    const Distribution kh = Distribution::keep_highest(4, 6, 3);
    CHECK(kh.denominator() == 1296);
    CHECK(kh.probability_equal(18) == q(21, 1296));
    CHECK(kh.probability_equal(3) == q(1, 1296));
    CHECK(kh.min() == 3);
    CHECK(kh.max() == 18);
    CHECK(kh == brute_keep(4, 6, 3, true));
    CHECK(Distribution::keep_lowest(4, 6, 2) == brute_keep(4, 6, 2, false));
    CHECK(Distribution::keep_highest(5, 4, 2) == brute_keep(5, 4, 2, true));
    CHECK(Distribution::keep_lowest(3, 5, 3) == Distribution::sum_of_dice(3, 5));
    CHECK(Distribution::keep_highest(2, 20, 1) == brute_keep(2, 20, 1, true));  // advantage
    // 40 dice would be 6^40 sequences; the fold is instant.
    const Distribution big = Distribution::keep_highest(40, 6, 3);
    CHECK(big.denominator() == pow_ui(6, 40));
    CHECK(big.probability_equal(3) == mpq_class(mpz_class(1), pow_ui(6, 40)));
    CHECK_THROWS_AS(Distribution::keep_highest(4, 6, 5), umpire::RuleError);
    CHECK_THROWS_AS(Distribution::keep_highest(4, 6, 0), umpire::RuleError);
}

TEST_CASE("pool counting: P(k of 10d6 >= 5) = C(10,k) 2^k 4^(10-k) / 6^10", "[dice][distribution]") {
    const Distribution d = Distribution::count_at_least(10, 6, 5);
    CHECK(d.min() == 0);
    CHECK(d.max() == 10);
    CHECK(d.denominator() == pow_ui(6, 10));
    for (unsigned k = 0; k <= 10; ++k) {
        mpz_class binom;
        mpz_bin_uiui(binom.get_mpz_t(), 10, k);
        mpq_class expected(binom * pow_ui(2, k) * pow_ui(4, 10 - k), pow_ui(6, 10));
        expected.canonicalize();
        REQUIRE(d.probability_equal(k) == expected);
    }
    CHECK(d.mean() == q(10, 3));
    CHECK(Distribution::count_at_most(3, 6, 1).probability_equal(0) == q(125, 216));
    CHECK(Distribution::count_matching(2, 6, [](uint32_t f) { return f % 2 == 0; }).probability_equal(1) == q(1, 2));
    // Every face succeeds / none does: all weight at n / at 0.
    CHECK(Distribution::count_at_least(5, 6, 1) == Distribution::constant(5));
    CHECK(Distribution::count_at_least(5, 6, 7) == Distribution::constant(0));
    const Distribution big = Distribution::count_at_least(100, 6, 5);
    CHECK(big.denominator() == pow_ui(6, 100));
    CHECK(big.weight(100) == pow_ui(2, 100));
}

TEST_CASE("category counts: multinomial pool counting", "[dice][distribution]") {
    // 1-3 miss, 4-5 hit, 6 crit.
    const auto category = [](uint32_t f) -> uint32_t { return f <= 3 ? 0 : f <= 5 ? 1 : 2; };
    const CategoryCounts c = CategoryCounts::count(3, 6, 3, category);
    CHECK(c.denominator == 216);
    CHECK(c.weights.size() == 10);  // C(5, 2) count vectors
    CHECK(c.probability({0, 0, 3}) == q(1, 216));
    CHECK(c.probability({1, 1, 1}) == q(36, 216));  // 3! orders * 3 * 2 * 1
    CHECK(c.probability({3, 0, 0}) == q(27, 216));
    CHECK(c.probability({1, 1}) == 0);
    mpz_class total = 0;
    for (const auto& [counts, w] : c.weights) total += w;
    CHECK(total == c.denominator);
    const CategoryCounts big = CategoryCounts::count(100, 6, 3, category);
    CHECK(big.weights.size() == 5151);
    CHECK(big.probability({0, 0, 100}) == mpq_class(mpz_class(1), pow_ui(6, 100)));
    // An empty category never gets dice.
    const CategoryCounts e = CategoryCounts::count(2, 6, 3, [](uint32_t f) -> uint32_t { return f <= 3 ? 0 : 1; });
    CHECK(e.weights.size() == 3);
    CHECK_THROWS_AS(CategoryCounts::count(2, 6, 2, [](uint32_t f) -> uint32_t { return f; }), umpire::RuleError);
}

TEST_CASE("oversized exact requests fail cleanly", "[dice][distribution]") {
    CHECK_THROWS_AS(Distribution::sum_of_dice(1000, 1000000), umpire::RuleError);
    CHECK_THROWS_AS(Distribution::keep_highest(1000, 1000, 500), umpire::RuleError);
    CHECK_THROWS_AS(Distribution::constant(INT64_MAX) + 1, umpire::RuleError);
}
