#include "core/dice/Distribution.hpp"

#include <algorithm>
#include <limits>

#include "core/Error.hpp"

namespace umpire::dice {

namespace {

std::int64_t checked_add(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_add_overflow(a, b, &r)) throw RuleError("distribution outcome out of 64-bit range");
    return r;
}

std::int64_t checked_mul(std::int64_t a, std::int64_t b) {
    std::int64_t r;
    if (__builtin_mul_overflow(a, b, &r)) throw RuleError("distribution outcome out of 64-bit range");
    return r;
}

void check_span(std::int64_t lo, std::int64_t hi) {
    // hi - lo may itself overflow; compare in unsigned arithmetic.
    const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo);
    if (span >= Distribution::max_outcomes)
        throw RuleError("distribution too large to compute exactly (more than " +
                        std::to_string(Distribution::max_outcomes) + " outcomes)");
}

void check_work(double work) {
    if (work > Distribution::max_work)
        throw RuleError("distribution too expensive to compute exactly; use Monte Carlo");
}

mpz_class to_mpz(std::int64_t v) {
    mpz_class z;
    mpz_set_si(z.get_mpz_t(), static_cast<long>(v));
    return z;
}

// Pascal's triangle rows 0..n, for the multinomial weights of the keep-highest DP.
std::vector<std::vector<mpz_class>> binomials(std::uint32_t n) {
    std::vector<std::vector<mpz_class>> c(n + 1);
    for (std::uint32_t r = 0; r <= n; ++r) {
        c[r].assign(r + 1, 1);
        for (std::uint32_t j = 1; j < r; ++j) c[r][j] = c[r - 1][j - 1] + c[r - 1][j];
    }
    return c;
}

}  // namespace

Distribution::Distribution() : min_(0), weights_{1}, denominator_(1) {}

Distribution::Distribution(std::int64_t min, std::vector<mpz_class> weights)
    : min_(min), weights_(std::move(weights)) {
    normalise();
}

void Distribution::normalise() {
    std::size_t first = 0;
    while (first < weights_.size() && sgn(weights_[first]) == 0) ++first;
    if (first == weights_.size()) throw RuleError("a distribution needs at least one possible outcome");
    std::size_t last = weights_.size();
    while (sgn(weights_[last - 1]) == 0) --last;
    if (first > 0 || last < weights_.size()) {
        weights_.erase(weights_.begin() + static_cast<std::ptrdiff_t>(last), weights_.end());
        weights_.erase(weights_.begin(), weights_.begin() + static_cast<std::ptrdiff_t>(first));
        min_ += static_cast<std::int64_t>(first);
    }
    denominator_ = 0;
    for (const auto& w : weights_) denominator_ += w;
}

Distribution Distribution::constant(std::int64_t value) { return Distribution(value, {1}); }

Distribution Distribution::uniform(std::uint32_t sides) {
    if (sides == 0) throw RuleError("a die needs at least 1 side");
    check_span(1, sides);
    return Distribution(1, std::vector<mpz_class>(sides, 1));
}

Distribution Distribution::from_weights(const std::map<std::int64_t, mpz_class>& weights) {
    if (weights.empty()) throw RuleError("a distribution needs at least one possible outcome");
    const std::int64_t lo = weights.begin()->first, hi = weights.rbegin()->first;
    check_span(lo, hi);
    std::vector<mpz_class> w(static_cast<std::size_t>(hi - lo) + 1, 0);
    for (const auto& [v, weight] : weights) {
        if (sgn(weight) < 0) throw RuleError("a distribution weight cannot be negative");
        w[static_cast<std::size_t>(v - lo)] = weight;
    }
    return Distribution(lo, std::move(w));
}

Distribution Distribution::sum_of_dice(std::uint32_t n, std::uint32_t sides) {
    return uniform(sides).repeat(n);
}

// Keep the k highest of n dice, exactly, without the sides^n sequences. The outcome depends only
// on the multiset of faces, and a multiset with j_f dice showing face f occurs in
// n! / (j_1! ... j_s!) sequences. We enumerate multisets face by face, from the face that is kept
// first (highest for keep-highest) to the last, folding those with the same (dice placed, kept
// sum) into one state: choosing j of the remaining r dice to show face f multiplies the weight by
// C(r, j), and the product of those binomials is the multinomial coefficient. Of the j dice, those
// still within the first k placed are kept. Cost ~ sides * n^2/2 * (k*sides) multiply-adds.
static Distribution keep_extreme(std::uint32_t n, std::uint32_t sides, std::uint32_t k, bool highest) {
    if (sides == 0) throw RuleError("a die needs at least 1 side");
    if (k == 0 || k > n)
        throw RuleError("cannot keep " + std::to_string(k) + " of " + std::to_string(n) + " dice");
    const std::size_t sums = static_cast<std::size_t>(k) * sides + 1;
    check_work(double(sides) * (double(n) + 1) * (double(n) + 2) / 2 * double(sums));
    const auto c = binomials(n);
    std::vector<std::vector<mpz_class>> dp(n + 1, std::vector<mpz_class>(sums, 0)), next = dp;
    dp[0][0] = 1;
    for (std::uint32_t step = 0; step < sides; ++step) {
        const std::uint32_t face = highest ? sides - step : step + 1;
        const bool last = step + 1 == sides;
        for (auto& row : next) std::fill(row.begin(), row.end(), 0);
        for (std::uint32_t placed = 0; placed <= n; ++placed) {
            const std::uint32_t remaining = n - placed;
            const std::uint32_t keep_left = k > placed ? k - placed : 0;
            for (std::size_t s = 0; s < sums; ++s) {
                if (sgn(dp[placed][s]) == 0) continue;
                // The last face must take every remaining die.
                for (std::uint32_t j = last ? remaining : 0; j <= remaining; ++j) {
                    const std::size_t kept = std::size_t{std::min(j, keep_left)} * face;
                    mpz_addmul(next[placed + j][s + kept].get_mpz_t(), dp[placed][s].get_mpz_t(),
                               c[remaining][j].get_mpz_t());
                }
            }
        }
        std::swap(dp, next);
    }
    return Distribution::from_weights([&] {
        std::map<std::int64_t, mpz_class> w;
        for (std::size_t s = 0; s < sums; ++s)
            if (sgn(dp[n][s]) != 0) w.emplace(static_cast<std::int64_t>(s), dp[n][s]);
        return w;
    }());
}

Distribution Distribution::keep_highest(std::uint32_t n, std::uint32_t sides, std::uint32_t k) {
    return keep_extreme(n, sides, k, true);
}

Distribution Distribution::keep_lowest(std::uint32_t n, std::uint32_t sides, std::uint32_t k) {
    return keep_extreme(n, sides, k, false);
}

Distribution Distribution::count_matching(std::uint32_t n, std::uint32_t sides,
                                          const std::function<bool(std::uint32_t)>& success) {
    if (sides == 0) throw RuleError("a die needs at least 1 side");
    unsigned long a = 0;
    for (std::uint64_t f = 1; f <= sides; ++f)
        if (success(static_cast<std::uint32_t>(f))) ++a;  // 64-bit f: sides may be UINT32_MAX
    const unsigned long b = sides - a;
    std::vector<mpz_class> w(std::size_t{n} + 1);
    mpz_class binom, pa, pb;
    for (std::uint32_t k = 0; k <= n; ++k) {
        mpz_bin_uiui(binom.get_mpz_t(), n, k);
        mpz_ui_pow_ui(pa.get_mpz_t(), a, k);
        mpz_ui_pow_ui(pb.get_mpz_t(), b, n - k);
        w[k] = binom * pa * pb;
    }
    return Distribution(0, std::move(w));
}

Distribution Distribution::count_at_least(std::uint32_t n, std::uint32_t sides, std::uint32_t target) {
    return count_matching(n, sides, [target](std::uint32_t f) { return f >= target; });
}

Distribution Distribution::count_at_most(std::uint32_t n, std::uint32_t sides, std::uint32_t target) {
    return count_matching(n, sides, [target](std::uint32_t f) { return f <= target; });
}

Distribution Distribution::plus(const Distribution& other) const {
    const std::size_t na = weights_.size(), nb = other.weights_.size();
    check_work(double(na) * double(nb));
    const std::int64_t lo = checked_add(min_, other.min_);
    checked_add(max(), other.max());
    std::vector<mpz_class> w(na + nb - 1, 0);
    for (std::size_t i = 0; i < na; ++i) {
        if (sgn(weights_[i]) == 0) continue;
        for (std::size_t j = 0; j < nb; ++j)
            mpz_addmul(w[i + j].get_mpz_t(), weights_[i].get_mpz_t(), other.weights_[j].get_mpz_t());
    }
    return Distribution(lo, std::move(w));
}

Distribution Distribution::minus(const Distribution& other) const { return plus(other.negate()); }

Distribution Distribution::negate() const {
    if (max() == std::numeric_limits<std::int64_t>::min()) throw RuleError("distribution outcome out of 64-bit range");
    std::vector<mpz_class> w(weights_.rbegin(), weights_.rend());
    return Distribution(-max(), std::move(w));
}

Distribution Distribution::shift(std::int64_t c) const {
    Distribution d = *this;
    d.min_ = checked_add(min_, c);
    checked_add(max(), c);
    return d;
}

Distribution Distribution::scale(std::int64_t c) const {
    if (c == 0) return constant(0);
    if (c == 1) return *this;
    if (c == -1) return negate();
    const std::int64_t a = checked_mul(min_, c), b = checked_mul(max(), c);
    const std::int64_t lo = std::min(a, b), hi = std::max(a, b);
    check_span(lo, hi);
    std::vector<mpz_class> w(static_cast<std::size_t>(hi - lo) + 1, 0);
    for (std::size_t i = 0; i < weights_.size(); ++i)
        w[static_cast<std::size_t>((min_ + static_cast<std::int64_t>(i)) * c - lo)] = weights_[i];
    return Distribution(lo, std::move(w));
}

// Sum of n copies by binary powering: O(log n) convolutions, each of the sizes that matter.
Distribution Distribution::repeat(std::uint32_t n) const {
    Distribution result = constant(0), base = *this;
    bool first = true;
    while (n > 0) {
        if (n & 1) {
            result = first ? base : result.plus(base);
            first = false;
        }
        n >>= 1;
        if (n > 0) base = base.plus(base);
    }
    return result;
}

Distribution Distribution::map(const std::function<std::int64_t(std::int64_t)>& fn) const {
    std::map<std::int64_t, mpz_class> w;
    for (std::size_t i = 0; i < weights_.size(); ++i)
        if (sgn(weights_[i]) != 0) w[fn(min_ + static_cast<std::int64_t>(i))] += weights_[i];
    return from_weights(w);
}

mpq_class Distribution::probability(const std::function<bool(std::int64_t)>& predicate) const {
    mpz_class num = 0;
    for (std::size_t i = 0; i < weights_.size(); ++i)
        if (sgn(weights_[i]) != 0 && predicate(min_ + static_cast<std::int64_t>(i))) num += weights_[i];
    mpq_class q(num, denominator_);
    q.canonicalize();
    return q;
}

mpq_class Distribution::probability_equal(std::int64_t v) const {
    mpq_class q(weight(v), denominator_);
    q.canonicalize();
    return q;
}
mpq_class Distribution::probability_less(std::int64_t v) const {
    return probability([v](std::int64_t x) { return x < v; });
}
mpq_class Distribution::probability_at_most(std::int64_t v) const {
    return probability([v](std::int64_t x) { return x <= v; });
}
mpq_class Distribution::probability_greater(std::int64_t v) const {
    return probability([v](std::int64_t x) { return x > v; });
}
mpq_class Distribution::probability_at_least(std::int64_t v) const {
    return probability([v](std::int64_t x) { return x >= v; });
}

mpq_class Distribution::probability_greater(const Distribution& y) const { return minus(y).probability_greater(0); }
mpq_class Distribution::probability_less(const Distribution& y) const { return minus(y).probability_less(0); }
mpq_class Distribution::probability_equal(const Distribution& y) const { return minus(y).probability_equal(0); }

mpq_class Distribution::mean() const {
    mpz_class num = 0;
    for (std::size_t i = 0; i < weights_.size(); ++i)
        num += weights_[i] * to_mpz(min_ + static_cast<std::int64_t>(i));
    mpq_class q(num, denominator_);
    q.canonicalize();
    return q;
}

mpq_class Distribution::variance() const {
    mpz_class num = 0;
    for (std::size_t i = 0; i < weights_.size(); ++i) {
        const mpz_class v = to_mpz(min_ + static_cast<std::int64_t>(i));
        num += weights_[i] * v * v;
    }
    mpq_class second(num, denominator_);
    second.canonicalize();
    const mpq_class m = mean();
    return second - m * m;
}

std::vector<std::int64_t> Distribution::outcomes() const {
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < weights_.size(); ++i)
        if (sgn(weights_[i]) != 0) out.push_back(min_ + static_cast<std::int64_t>(i));
    return out;
}

mpz_class Distribution::weight(std::int64_t v) const {
    if (v < min_ || v > max()) return 0;
    return weights_[static_cast<std::size_t>(v - min_)];
}

std::string Distribution::to_string() const {
    std::string out;
    const std::string den = denominator_.get_str();
    for (std::size_t i = 0; i < weights_.size(); ++i) {
        if (sgn(weights_[i]) == 0) continue;
        // Percentage in units of 1e-4 %, rounded half up: (w * 1e6 * 2 + den) / (2 den).
        mpz_class units = (weights_[i] * 2000000 + denominator_) / (denominator_ * 2);
        const std::string u = units.get_str();
        std::string whole = u.size() > 4 ? u.substr(0, u.size() - 4) : "0";
        std::string frac = u.size() > 4 ? u.substr(u.size() - 4) : std::string(4 - u.size(), '0') + u;
        out += std::to_string(min_ + static_cast<std::int64_t>(i)) + "  " + weights_[i].get_str() + "/" +
               den + "  " + whole + "." + frac + "%\n";
    }
    return out;
}

bool Distribution::operator==(const Distribution& other) const {
    if (min_ != other.min_ || weights_.size() != other.weights_.size()) return false;
    for (std::size_t i = 0; i < weights_.size(); ++i)
        if (weights_[i] * other.denominator_ != other.weights_[i] * denominator_) return false;
    return true;
}

Distribution operator+(const Distribution& x, const Distribution& y) { return x.plus(y); }
Distribution operator-(const Distribution& x, const Distribution& y) { return x.minus(y); }
Distribution operator+(const Distribution& x, std::int64_t c) { return x.shift(c); }
Distribution operator-(const Distribution& x, std::int64_t c) {
    if (c == std::numeric_limits<std::int64_t>::min()) throw RuleError("distribution outcome out of 64-bit range");
    return x.shift(-c);
}

}  // namespace umpire::dice
