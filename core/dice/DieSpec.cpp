#include "core/dice/DieSpec.hpp"

#include <map>
#include <numeric>
#include <utility>

#include "core/Error.hpp"

namespace umpire::dice {

namespace {

using Probabilities = std::map<std::int64_t, mpq_class>;

// A distribution from exact probabilities: weights over the least common denominator.
Distribution from_probabilities(const Probabilities& p) {
    mpz_class common = 1;
    for (const auto& [v, q] : p) mpz_lcm(common.get_mpz_t(), common.get_mpz_t(), q.get_den_mpz_t());
    std::map<std::int64_t, mpz_class> weights;
    for (const auto& [v, q] : p)
        if (q > 0) weights[v] = q.get_num() * (common / q.get_den());
    return Distribution::from_weights(weights);
}

Probabilities probabilities(const Distribution& d) {
    Probabilities p;
    for (const std::int64_t v : d.outcomes()) p[v] = d.probability_equal(v);
    return p;
}

std::string list(const std::set<std::int64_t>& values) {
    std::string out;
    for (const auto v : values) out += (out.empty() ? "" : ",") + std::to_string(v);
    return values.size() == 1 ? out : "[" + out + "]";
}

}  // namespace

DieSpec DieSpec::sides(std::uint32_t n) {
    if (n == 0) throw RuleError("a die needs at least one side");
    DieSpec d;
    d.faces_.resize(n);
    std::iota(d.faces_.begin(), d.faces_.end(), std::int64_t{1});
    d.name_ = "d" + std::to_string(n);
    return d;
}

DieSpec DieSpec::faces(std::vector<std::int64_t> values) {
    if (values.empty()) throw RuleError("a die with custom faces needs at least one face");
    DieSpec d;
    d.name_ = "d[";
    for (std::size_t i = 0; i < values.size(); ++i) d.name_ += (i ? "," : "") + std::to_string(values[i]);
    d.name_ += "]";
    d.faces_ = std::move(values);
    return d;
}

DieSpec DieSpec::fudge() {
    DieSpec d = faces({-1, -1, 0, 0, 1, 1});
    d.name_ = "dF";
    return d;
}

DieSpec DieSpec::reroll(std::set<std::int64_t> on, bool once) const {
    DieSpec d = *this;
    if (!once) {
        bool any_kept = false;
        for (const auto f : faces_) any_kept = any_kept || !on.count(f);
        if (!any_kept)
            throw RuleError(name_ + ": re-rolling every face (" + list(on) + ") until it shows another never ends");
    }
    d.reroll_on_ = std::move(on);
    d.reroll_once_ = once;
    return d;
}

DieSpec DieSpec::explode(std::set<std::int64_t> on, std::uint32_t depth) const {
    if (depth == 0) throw RuleError(name_ + ": an explosion needs a depth of at least 1");
    DieSpec d = *this;
    d.explode_on_ = std::move(on);
    d.explode_depth_ = depth;
    return d;
}

std::int64_t DieSpec::roll_plain(DieSource& source, std::vector<std::int64_t>* rolled) const {
    const auto one = [&] {
        const std::int64_t v = faces_[source.die(face_count()) - 1];
        if (rolled) rolled->push_back(v);
        return v;
    };
    std::int64_t v = one();
    if (reroll_once_) {
        if (reroll_on_.count(v)) v = one();
    } else {
        while (reroll_on_.count(v)) v = one();
    }
    return v;
}

std::int64_t DieSpec::roll(DieSource& source, std::vector<std::int64_t>* rolled) const {
    std::int64_t last = roll_plain(source, rolled), total = last;
    for (std::uint32_t extra = 0; extra < explode_depth_ && explode_on_.count(last); ++extra) {
        last = roll_plain(source, rolled);
        total += last;
    }
    return total;
}

// One physical die after its re-roll rule, as integer weights over k (none), k (until: over the
// kept faces) or k^2 (once).
Distribution DieSpec::plain_distribution() const {
    const std::int64_t k = face_count();
    std::int64_t rerolled = 0;
    for (const auto f : faces_) rerolled += reroll_on_.count(f) ? 1 : 0;
    std::map<std::int64_t, mpz_class> weights;
    for (const auto f : faces_) {
        const bool kept = !reroll_on_.count(f);
        if (reroll_on_.empty()) weights[f] += 1;
        else if (!reroll_once_) weights[f] += kept ? 1 : 0;
        else weights[f] += (kept ? k : 0) + rerolled;  // kept at once, or re-rolled into it
    }
    return Distribution::from_weights(weights);
}

// Explosions, from the last die back: D_0 is one die as rolled; D_j = the die, plus D_{j-1} when
// it shows an exploding face. The result is D_depth.
Distribution DieSpec::distribution() const {
    const Distribution plain = plain_distribution();
    if (explode_on_.empty()) return plain;
    const Probabilities one = probabilities(plain);
    Probabilities chain = one;
    for (std::uint32_t j = 0; j < explode_depth_; ++j) {
        Probabilities next;
        for (const auto& [v, p] : one) {
            if (!explode_on_.count(v)) {
                next[v] += p;
                continue;
            }
            for (const auto& [rest, q] : chain) next[v + rest] += p * q;
        }
        chain = std::move(next);
    }
    return from_probabilities(chain);
}

std::string DieSpec::to_string() const {
    std::string out = name_;
    if (!reroll_on_.empty()) out += (reroll_once_ ? "ro" : "r") + list(reroll_on_);
    if (!explode_on_.empty()) out += "!" + list(explode_on_) + " (depth " + std::to_string(explode_depth_) + ")";
    return out;
}

Distribution sum_distribution(std::uint32_t n, const DieSpec& die) {
    if (n == 0) return Distribution::constant(0);
    return die.distribution().repeat(n);
}

Distribution count_distribution(std::uint32_t n, const DieSpec& die,
                                const std::function<bool(std::int64_t)>& test) {
    const Distribution one = die.distribution();
    mpz_class pass = 0;
    for (const std::int64_t v : one.outcomes())
        if (test(v)) pass += one.weight(v);  // the test is asked once per distinct result
    const mpz_class fail = one.denominator() - pass;
    std::map<std::int64_t, mpz_class> weights;
    for (std::uint32_t h = 0; h <= n; ++h) {
        mpz_class w, a, b;
        mpz_bin_uiui(w.get_mpz_t(), n, h);
        mpz_pow_ui(a.get_mpz_t(), pass.get_mpz_t(), h);
        mpz_pow_ui(b.get_mpz_t(), fail.get_mpz_t(), n - h);
        weights[h] = w * a * b;
    }
    return Distribution::from_weights(weights);
}

// Order statistics without sequences: the distinct results are taken best first (highest first to
// keep the highest). dp[(m, s)] is the probability that m of the n dice show one of the results
// taken so far, the kept ones among them summing to s. Taking result v with probability p, j more
// dice show it (C(n-m, j) p^j: the multinomial built one result at a time), and the first k dice in
// that order are the kept ones, so v counts min(j, k - m) times while m < k. Dice showing results
// not yet taken are accounted for when those are; at the end every die is placed (m = n).
Distribution keep_distribution(std::uint32_t n, const DieSpec& die, std::uint32_t k, bool highest) {
    if (k > n) throw RuleError("keep " + std::to_string(k) + " of " + std::to_string(n) + " dice: cannot keep more dice than are rolled");
    const Probabilities one = probabilities(die.distribution());
    std::vector<std::pair<std::int64_t, mpq_class>> order(one.begin(), one.end());
    if (highest) std::reverse(order.begin(), order.end());
    std::map<std::pair<std::uint32_t, std::int64_t>, mpq_class> dp = {{{0, 0}, 1}};
    for (const auto& [v, p] : order) {
        std::map<std::pair<std::uint32_t, std::int64_t>, mpq_class> next;
        for (const auto& [at, q] : dp) {
            const auto [m, s] = at;
            mpq_class power = 1;
            for (std::uint32_t j = 0; m + j <= n; ++j, power *= p) {
                mpz_class ways;
                mpz_bin_uiui(ways.get_mpz_t(), n - m, j);
                const std::uint32_t kept = m >= k ? 0 : std::min(j, k - m);
                next[{m + j, s + v * static_cast<std::int64_t>(kept)}] += q * power * mpq_class(ways);
            }
        }
        dp = std::move(next);
    }
    Probabilities result;
    for (const auto& [at, q] : dp)
        if (at.first == n) result[at.second] += q;
    return from_probabilities(result);
}

}  // namespace umpire::dice
