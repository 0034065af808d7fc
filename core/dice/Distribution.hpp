// The exact distribution of an integer outcome: integer weights over a common denominator, in
// arbitrary precision (GMP), so 40d6 (denominator 6^40 > 2^64) and beyond stay exact.
//
// Representation: the weight of each outcome from min() to max(), densely; the denominator is the
// sum of the weights. Weights are not reduced: for dice they count equally likely sequences, so
// 2d6 has weight 6 at 7 over 36. Probabilities come out as reduced mpq_class fractions.
// Distributions are values: every operation returns a new one. Operations whose dense result would
// be unreasonably large (more than max_outcomes outcomes, or more than max_work multiply-adds)
// throw RuleError rather than run for minutes: that is the odds engine's cue for Monte Carlo.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <gmpxx.h>

namespace umpire::dice {

class Distribution {
public:
    static constexpr std::size_t max_outcomes = std::size_t{1} << 24;
    static constexpr double max_work = 2e8;

    // The constant 0.
    Distribution();

    // --- construction ---
    static Distribution constant(std::int64_t value);
    // One die: 1..sides with weight 1 each (sides >= 1).
    static Distribution uniform(std::uint32_t sides);
    // Outcome -> weight; weights must be >= 0 and not all 0 (RuleError otherwise).
    static Distribution from_weights(const std::map<std::int64_t, mpz_class>& weights);
    // Sum of n dice of `sides` faces (n >= 0): uniform(sides).repeat(n).
    static Distribution sum_of_dice(std::uint32_t n, std::uint32_t sides);
    // Sum of the k highest (lowest) of n dice of `sides` faces; 1 <= k <= n.
    static Distribution keep_highest(std::uint32_t n, std::uint32_t sides, std::uint32_t k);
    static Distribution keep_lowest(std::uint32_t n, std::uint32_t sides, std::uint32_t k);

    // --- pool counting: how many of n dice of `sides` faces meet a target, over 0..n ---
    // Weight of k is C(n,k) a^k b^(n-k), a = faces that succeed, b = faces that fail; the
    // denominator is sides^n. Never enumerates sequences.
    static Distribution count_matching(std::uint32_t n, std::uint32_t sides,
                                       const std::function<bool(std::uint32_t face)>& success);
    static Distribution count_at_least(std::uint32_t n, std::uint32_t sides, std::uint32_t target);
    static Distribution count_at_most(std::uint32_t n, std::uint32_t sides, std::uint32_t target);

    // --- arithmetic on independent outcomes ---
    Distribution plus(const Distribution& other) const;   // X + Y (convolution)
    Distribution minus(const Distribution& other) const;  // X - Y
    Distribution negate() const;                          // -X
    Distribution shift(std::int64_t c) const;             // X + c
    Distribution scale(std::int64_t c) const;             // X * c (c may be 0 or negative)
    Distribution repeat(std::uint32_t n) const;           // X1 + ... + Xn, independent copies
    // fn(X): outcomes mapped to the same value are merged.
    Distribution map(const std::function<std::int64_t(std::int64_t)>& fn) const;

    // --- probabilities, as exact reduced fractions ---
    mpq_class probability(const std::function<bool(std::int64_t)>& predicate) const;
    mpq_class probability_equal(std::int64_t v) const;     // P(X == v)
    mpq_class probability_less(std::int64_t v) const;      // P(X < v)
    mpq_class probability_at_most(std::int64_t v) const;   // P(X <= v)
    mpq_class probability_greater(std::int64_t v) const;   // P(X > v)
    mpq_class probability_at_least(std::int64_t v) const;  // P(X >= v)
    // Against an independent Y: P(X > Y), P(X < Y), P(X == Y).
    mpq_class probability_greater(const Distribution& y) const;
    mpq_class probability_less(const Distribution& y) const;
    mpq_class probability_equal(const Distribution& y) const;

    mpq_class mean() const;
    mpq_class variance() const;

    // --- inspection ---
    std::int64_t min() const { return min_; }
    std::int64_t max() const { return min_ + static_cast<std::int64_t>(weights_.size()) - 1; }
    // Outcomes with non-zero weight, ascending.
    std::vector<std::int64_t> outcomes() const;
    // Weight of v (0 if impossible), over denominator().
    mpz_class weight(std::int64_t v) const;
    const mpz_class& denominator() const { return denominator_; }

    // One line per possible outcome: "7  6/36  16.6667%" (weight over the common denominator,
    // then the percentage rounded to 4 decimals).
    std::string to_string() const;

    // Same probabilities for every outcome (weights may differ by a common factor).
    bool operator==(const Distribution& other) const;

private:
    Distribution(std::int64_t min, std::vector<mpz_class> weights);
    void normalise();  // trims zero weights at both ends and recomputes the denominator

    std::int64_t min_ = 0;
    std::vector<mpz_class> weights_;  // weights_[i] is the weight of min_ + i
    mpz_class denominator_;
};

Distribution operator+(const Distribution& x, const Distribution& y);
Distribution operator-(const Distribution& x, const Distribution& y);
Distribution operator+(const Distribution& x, std::int64_t c);
Distribution operator-(const Distribution& x, std::int64_t c);

}  // namespace umpire::dice
