// DieSpec: every exact distribution against a brute force written here: the real rolling process
// (DieSpec::roll) driven through every sequence of physical dice by an odometer, for random small
// parameters. Re-rolling "until" has no longest sequence: the odometer stops at a depth, and the
// exact answer must lie within the probability of the sequences it cut.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>

#include "core/Error.hpp"
#include "core/dice/DieSpec.hpp"

using namespace umpire::dice;

namespace {

struct Cut {};

// Walks every sequence of dice, one sequence per run, like a car's odometer.
class Odometer final : public DieSource {
public:
    explicit Odometer(std::size_t max_depth) : max_depth_(max_depth) {}
    std::uint32_t die(std::uint32_t sides) override {
        if (cursor_ == path_.size()) {
            if (path_.size() == max_depth_) throw Cut{};
            path_.push_back({1, sides});
        }
        return path_[cursor_++].first;
    }
    void begin() { cursor_ = 0; }
    mpq_class probability() const {
        mpq_class p = 1;
        for (std::size_t i = 0; i < cursor_; ++i) p /= path_[i].second;
        return p;
    }
    bool advance() {
        path_.resize(cursor_);  // a cut run leaves deeper dice unvisited: drop nothing it used
        while (!path_.empty()) {
            if (path_.back().first < path_.back().second) {
                ++path_.back().first;
                return true;
            }
            path_.pop_back();
        }
        return false;
    }

private:
    std::vector<std::pair<std::uint32_t, std::uint32_t>> path_;
    std::size_t cursor_ = 0, max_depth_;
};

struct Brute {
    std::map<std::int64_t, mpq_class> p;
    mpq_class cut = 0;
};

// The distribution of f(the results of n dice), by rolling them for real along every sequence.
template <class F>
Brute brute(const DieSpec& die, std::uint32_t n, F f, std::size_t max_depth = 10) {
    Brute out;
    Odometer source(max_depth);
    do {
        source.begin();
        try {
            std::vector<std::int64_t> results;
            for (std::uint32_t i = 0; i < n; ++i) results.push_back(die.roll(source));
            out.p[f(results)] += source.probability();
        } catch (const Cut&) {
            out.cut += source.probability();
        }
    } while (source.advance());
    return out;
}

// Exact equality when nothing was cut; otherwise every outcome within the cut mass.
void check(const Distribution& exact, const Brute& b) {
    if (b.cut == 0) {
        for (const auto& [v, q] : b.p) CHECK(exact.probability_equal(v) == q);
        mpq_class sum = 0;
        for (const auto& [v, q] : b.p) sum += q;
        CHECK(sum == 1);
        CHECK(exact.outcomes().size() == b.p.size());
        return;
    }
    for (const std::int64_t v : exact.outcomes()) {
        const mpq_class seen = b.p.count(v) ? b.p.at(v) : mpq_class(0);
        const mpq_class diff = exact.probability_equal(v) - seen;
        CHECK(diff >= 0);
        CHECK(diff <= b.cut);
    }
}

DieSpec random_die(std::mt19937& random) {
    DieSpec die = DieSpec::sides(2);
    switch (random() % 3) {
        case 0: die = DieSpec::sides(2 + random() % 5); break;
        case 1: {
            std::vector<std::int64_t> faces(2 + random() % 4);
            for (auto& f : faces) f = static_cast<std::int64_t>(random() % 6) - 2;
            die = DieSpec::faces(faces);
            break;
        }
        default: die = DieSpec::fudge(); break;
    }
    return die;
}

std::set<std::int64_t> random_subset(std::mt19937& random) {
    std::set<std::int64_t> s;
    for (std::int64_t v = -2; v <= 6; ++v)
        if (random() % 4 == 0) s.insert(v);
    return s;
}

}  // namespace

TEST_CASE("one die, re-rolled once or until, exploding to a depth: exact vs rolled", "[dice][diespec]") {
    std::mt19937 random(11);
    for (int trial = 0; trial < 60; ++trial) {
        DieSpec die = random_die(random);
        const int kind = static_cast<int>(random() % 4);
        try {
            if (kind == 1 || kind == 3) die = die.reroll(random_subset(random), random() % 2 == 0);
            if (kind >= 2) die = die.explode(random_subset(random), 1 + random() % 3);
        } catch (const umpire::RuleError&) {
            continue;  // re-rolling every face until: refused, checked below
        }
        INFO(die.to_string());
        check(die.distribution(), brute(die, 1, [](const auto& r) { return r[0]; }, 7));
    }
}

TEST_CASE("pools of n such dice: sum, count, keep highest and lowest", "[dice][diespec]") {
    std::mt19937 random(12);
    for (int trial = 0; trial < 40; ++trial) {
        DieSpec die = random_die(random);
        if (random() % 2) die = die.reroll(random_subset(random), true);
        if (random() % 3 == 0) die = die.explode(random_subset(random), 1 + random() % 2);
        const std::uint32_t n = random() % 4;
        const std::uint32_t k = n ? random() % (n + 1) : 0;
        const std::int64_t target = static_cast<std::int64_t>(random() % 6) - 1;
        INFO(n << " x " << die.to_string() << ", keep " << k << ", count >= " << target);
        check(sum_distribution(n, die), brute(die, n, [](const auto& r) {
                  std::int64_t s = 0;
                  for (auto v : r) s += v;
                  return s;
              }, 14));
        check(count_distribution(n, die, [&](std::int64_t v) { return v >= target; }),
              brute(die, n, [&](const auto& r) { return static_cast<std::int64_t>(std::count_if(r.begin(), r.end(), [&](auto v) { return v >= target; })); }, 14));
        for (const bool highest : {true, false}) {
            check(keep_distribution(n, die, k, highest), brute(die, n, [&](auto r) {
                      std::sort(r.begin(), r.end());
                      if (highest) std::reverse(r.begin(), r.end());
                      std::int64_t s = 0;
                      for (std::uint32_t i = 0; i < k; ++i) s += r[i];
                      return s;
                  }, 14));
        }
    }
}

TEST_CASE("the named cases: 4d6 keep 3, d6 re-roll 1s, exploding d6, Fibonacci faces, dF, empty pools", "[dice][diespec]") {
    CHECK(keep_distribution(4, DieSpec::sides(6), 3, true) == Distribution::keep_highest(4, 6, 3));
    const Distribution reroll_once = DieSpec::sides(6).reroll({1}, true).distribution();
    CHECK(reroll_once.probability_equal(1) == mpq_class(1, 36));
    CHECK(reroll_once.probability_equal(6) == mpq_class(7, 36));
    CHECK(DieSpec::sides(6).reroll({1}, false).distribution().probability_equal(6) == mpq_class(1, 5));
    const Distribution explode = DieSpec::sides(6).explode({6}, 10).distribution();
    CHECK(explode.probability_equal(13) == mpq_class(1, 216));
    CHECK(explode.max() == 66);  // ten 6s, then the eleventh die as rolled
    CHECK(explode.probability_equal(66) == mpq_class(1, 362797056));  // (1/6)^11
    CHECK(DieSpec::faces({1, 1, 2, 3, 5, 8}).distribution().probability_equal(1) == mpq_class(1, 3));
    CHECK(DieSpec::fudge().distribution().mean() == 0);
    CHECK(sum_distribution(0, DieSpec::sides(6)) == Distribution::constant(0));
    CHECK(count_distribution(0, DieSpec::sides(6), [](std::int64_t) { return true; }) == Distribution::constant(0));
    CHECK_THROWS_WITH(DieSpec::sides(6).reroll({1, 2, 3, 4, 5, 6}, false), Catch::Contains("never ends"));
    CHECK_THROWS_WITH(keep_distribution(2, DieSpec::sides(6), 3, true), Catch::Contains("cannot keep more"));
}
