// State folding (core/odds/Fold.hpp) against plain path enumeration of the same process written
// as one script: the same exact fractions, over random small configurations.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>

#include "core/Error.hpp"
#include "core/dice/Distribution.hpp"
#include "core/odds/EnumeratingSource.hpp"
#include "core/odds/Exact.hpp"
#include "core/odds/Fold.hpp"

using namespace umpire::odds;
using umpire::RuleError;
using umpire::dice::DieSource;
using umpire::dice::Distribution;

namespace {

// A ROF-like chain: each shot rolls two dice; a total <= kill is a kill; the first die <= rof keeps
// the chain going. State "shots,kills"; it stops when a shot loses ROF ("x" suffix) or at `cap`.
struct RofChain {
    int sides, kill, rof, cap;

    std::string step(const std::string& state, DieSource& dice) const {
        int shots = 0, kills = 0;
        std::sscanf(state.c_str(), "%d,%d", &shots, &kills);
        const int first = static_cast<int>(dice.die(sides)), second = static_cast<int>(dice.die(sides));
        ++shots;
        if (first + second <= kill) ++kills;
        const bool keeps = first <= rof;
        return std::to_string(shots) + "," + std::to_string(kills) + (keeps && shots < cap ? "" : "x");
    }
    static bool stop(const std::string& state) { return state.back() == 'x'; }

    // The same process as one script, run once per path.
    Outcome script(DieSource& dice) const {
        std::string state = "0,0";
        while (!stop(state)) state = step(state, dice);
        return Outcome(state);
    }
};

std::map<std::string, mpq_class> as_map(const FoldResult& r) {
    std::map<std::string, mpq_class> m;
    for (const auto& s : r.states) m[s.state] += s.probability;
    return m;
}

std::map<std::string, mpq_class> as_map(const Result& r) {
    std::map<std::string, mpq_class> m;
    for (const auto& o : r.outcomes) m[std::get<std::string>(o.outcome.scalar())] = o.exact;
    return m;
}

}  // namespace

TEST_CASE("a folded chain gives the same exact fractions as enumerating every path", "[odds][fold]") {
    std::mt19937 random(20261123);
    for (int trial = 0; trial < 25; ++trial) {
        RofChain chain{2 + static_cast<int>(random() % 4), 0, 0, 1 + static_cast<int>(random() % 4)};
        chain.kill = 2 + static_cast<int>(random() % (2 * chain.sides - 1));
        chain.rof = static_cast<int>(random() % chain.sides);  // 0: never keeps ROF
        INFO("sides " << chain.sides << " kill <= " << chain.kill << " rof " << chain.rof << " cap " << chain.cap);
        const FoldResult folded = fold(
            "0,0", [&](const std::string& s, DieSource& d) { return chain.step(s, d); }, RofChain::stop);
        const auto paths = enumerate([&](DieSource& d) { return chain.script(d); });
        REQUIRE(paths.has_value());
        CHECK(as_map(folded) == as_map(*paths));
        CHECK(folded.truncated == 0);
    }
}

TEST_CASE("a long chain folds in linear work", "[odds][fold]") {
    RofChain chain{6, 7, 4, 60};
    const FoldResult r = fold("0,0", [&](const std::string& s, DieSource& d) { return chain.step(s, d); },
                              RofChain::stop);
    // Live states after step k: kills 0..k, so about k states of 36 runs each: far from 36^60.
    CHECK(r.runs < 36 * 60 * 61);
    mpq_class sum = 0;
    for (const auto& s : r.states) sum += s.probability;
    CHECK(sum == 1);
    CHECK(r.truncated == 0);
}

TEST_CASE("an exploding die folds to its totals, max_steps cuts it with the exact truncated mass", "[odds][fold]") {
    for (int sides = 2; sides <= 6; ++sides) {
        for (std::uint32_t depth = 1; depth <= 4; ++depth) {
            // state "total" or "total!" once a non-maximal face ends it
            const FoldStep step = [sides](const std::string& s, DieSource& d) {
                const int face = static_cast<int>(d.die(static_cast<std::uint32_t>(sides)));
                const int total = std::stoi(s) + face;
                return std::to_string(total) + (face == sides ? "" : "!");
            };
            const FoldStop stop = [](const std::string& s) { return s.back() == '!'; };
            FoldOptions options;
            options.max_steps = depth;
            const FoldResult r = fold("0", step, stop, options);
            // Brute force: every sequence of at most `depth` faces.
            std::map<std::string, mpq_class> expected;
            mpq_class truncated = 0;
            const std::function<void(int, int, mpq_class)> walk = [&](int total, int rolled, mpq_class p) {
                for (int face = 1; face <= sides; ++face) {
                    const mpq_class q = p / sides;
                    const std::string s = std::to_string(total + face) + (face == sides ? "" : "!");
                    if (face != sides) expected[s] += q;
                    else if (rolled + 1 == static_cast<int>(depth)) { expected[s] += q; truncated += q; }
                    else walk(total + face, rolled + 1, q);
                }
            };
            walk(0, 0, 1);
            INFO("d" << sides << " exploding, depth " << depth);
            CHECK(as_map(r) == expected);
            CHECK(r.truncated == truncated);
            mpq_class cut(1, 1);
            for (std::uint32_t i = 0; i < depth; ++i) cut /= sides;
            CHECK(r.truncated == cut);
        }
    }
}

TEST_CASE("epsilon stops a chain once the live mass is below it", "[odds][fold]") {
    const FoldStep step = [](const std::string& s, DieSource& d) {
        return std::to_string(std::stoi(s) + 1) + (d.die(2) == 1 ? "!" : "");
    };
    FoldOptions options;
    options.max_steps = 1000;
    options.epsilon = mpq_class(1, 1000);
    const FoldResult r = fold("0", step, [](const std::string& s) { return s.back() == '!'; }, options);
    CHECK(r.steps == 10);  // (1/2)^10 < 1/1000 <= (1/2)^9
    CHECK(r.truncated == mpq_class(1, 1024));
}

TEST_CASE("a step that reads something outside its state is refused, naming the step", "[odds][fold]") {
    int calls = 0;
    const FoldStep leaky = [&](const std::string& s, DieSource& d) {
        d.die(6);
        return s + std::to_string(++calls % 2);  // depends on how often it ran
    };
    FoldOptions options;
    options.name = "the step at rof.lua:12";
    options.max_steps = 2;
    CHECK_THROWS_WITH(fold("s", leaky, [](const std::string&) { return false; }, options),
                      Catch::Contains("the step at rof.lua:12 is not a function of its state and dice"));
}

TEST_CASE("a fold past its budget says so (the odds engine then falls back)", "[odds][fold]") {
    const FoldStep step = [](const std::string& s, DieSource& d) { return s + std::to_string(d.die(6)); };
    FoldOptions options;
    options.max_steps = 10;
    options.budget = 500;
    CHECK_THROWS_AS(fold("", step, [](const std::string&) { return false; }, options), FoldOverBudget);
}

TEST_CASE("folded rolls branch once per result, with the exact distribution", "[odds][fold]") {
    // 3d6 summed as one folded roll: 16 branches, not 216, and the same fractions.
    const Distribution sum = Distribution::sum_of_dice(3, 6);
    const auto folded = enumerate([&](DieSource& d) {
        return Outcome(static_cast<double>(d.folded(sum, [](DieSource& s) {
            return static_cast<std::int64_t>(s.die(6) + s.die(6) + s.die(6));
        })));
    });
    const auto paths = enumerate([](DieSource& d) { return Outcome(d.die(6) + d.die(6) + d.die(6)); });
    REQUIRE(folded.has_value());
    REQUIRE(paths.has_value());
    CHECK(folded->paths == 16);
    CHECK(paths->paths == 216);
    REQUIRE(folded->outcomes.size() == paths->outcomes.size());
    for (std::size_t i = 0; i < folded->outcomes.size(); ++i) CHECK(folded->outcomes[i].exact == paths->outcomes[i].exact);
}

TEST_CASE("a weighted choice marks truncated paths, the exact runner sums their mass", "[odds][fold]") {
    auto choice = std::make_shared<EnumeratingSource::Choice>();
    choice->probabilities = {mpq_class(1, 3), mpq_class(2, 3)};
    choice->truncated = {false, true};
    choice->what = "a test choice";
    const auto r = enumerate([&](DieSource& d) {
        auto& e = dynamic_cast<EnumeratingSource&>(d);
        return Outcome(static_cast<double>(e.choose(choice) * 10 + d.die(2)));
    });
    REQUIRE(r.has_value());
    CHECK(r->truncated == mpq_class(2, 3));
    CHECK(r->exact_probability(Outcome(1.0)) == mpq_class(1, 6));
    CHECK(r->exact_probability(Outcome(11.0)) == mpq_class(1, 3));
}
