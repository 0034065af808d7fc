#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <random>
#include <vector>

#include "core/Error.hpp"
#include "core/table/Model.hpp"

using namespace umpire::table;

namespace {
// A 25 mm base has radius 25 / 25.4 / 2 = 0.4921259843″.
constexpr double r25 = 25.0 / 25.4 / 2.0;
Model at(double x, double y, double base_mm = kDefaultBaseMm) {
    return Model{.centre = {x, y}, .base_mm = base_mm};
}
}  // namespace

TEST_CASE("a default base is 25 mm round", "[table][model]") {
    Model m;
    CHECK(m.base_mm == 25.0);
    CHECK(m.base_radius() == Approx(0.4921259843));
}

TEST_CASE("centre and base-edge distances differ by the two radii", "[table][model]") {
    const Model a = at(0, 0), b = at(3, 0);
    CHECK(centre_distance(a, b) == Approx(3.0));
    CHECK(edge_distance(a, b) == Approx(3.0 - 2 * r25));  // 2.0157480315
    CHECK(edge_distance(a, b) == Approx(2.0157480315));

    // Mixed bases: 25 mm and 50 mm, centres 2″ apart.
    const Model big = at(2, 0, 50.0);
    CHECK(edge_distance(a, big) == Approx(2.0 - r25 - 2 * r25));  // 0.5236220472
    CHECK(edge_distance(a, big) == Approx(0.5236220472));

    // Diagonal: 3-4-5.
    CHECK(edge_distance(at(1, 1), at(4, 5)) == Approx(5.0 - 2 * r25));

    // Touching and overlapping bases are 0″ apart, never negative.
    CHECK(edge_distance(a, at(2 * r25, 0)) == Approx(0.0).margin(1e-12));
    CHECK(edge_distance(a, at(0.5, 0)) == 0.0);

    // Point to base edge.
    CHECK(edge_distance(Point{0, 5}, a) == Approx(5.0 - r25));
    CHECK(edge_distance(Point{0.1, 0}, a) == 0.0);
}

TEST_CASE("within N inches is measured edge to edge and is inclusive", "[table][model]") {
    const Model a = at(0, 0), b = at(3, 0);  // 2.0157″ apart edge to edge, 3″ centre to centre
    CHECK(within(a, b, 2.1));
    CHECK_FALSE(within(a, b, 2.0));
    CHECK(within(a, b, 3.0 - 2 * r25));  // exactly the gap: inclusive
    CHECK_FALSE(within(a, b, 3.0 - 2 * r25 - 1e-6));
    // Centres 6.98″ apart are within 6″ edge to edge (5.9957″); a centre-to-centre test says no.
    CHECK(within(a, at(6.98, 0), 6.0));
    CHECK_FALSE(within(a, at(7.0, 0), 6.0));  // 6.0157″
}

TEST_CASE("a bad base is an error", "[table][model]") {
    CHECK_THROWS_AS(validate(at(0, 0, 0.0)), umpire::RuleError);
    CHECK_THROWS_AS(validate(at(0, 0, -25.0)), umpire::RuleError);
    CHECK_THROWS_AS(validate(at(std::numeric_limits<double>::quiet_NaN(), 0)), umpire::RuleError);
    CHECK_NOTHROW(validate(at(0, 0)));
}

// nearest_each against a loop over every pair written here from the rule (centre distance less
// both base radii, never below 0; the first of equally near targets). Models stand on a half-inch
// grid with 25 and 50 mm bases, so touching and overlapping bases (0") and equal distances, i.e.
// ties, are common.
TEST_CASE("nearest_each finds each model's nearest target as a loop over every pair does",
          "[table][model]") {
    std::mt19937 rng(18);
    std::uniform_int_distribution<int> coord(0, 12), count(1, 9), base(0, 1);
    const auto random_models = [&](int n) {
        std::vector<Model> out;
        for (int i = 0; i < n; ++i) out.push_back(at(coord(rng) * 0.5, coord(rng) * 0.5, base(rng) ? 50.0 : 25.0));
        return out;
    };
    int ties = 0, touching = 0;
    for (int trial = 0; trial < 500; ++trial) {
        const auto shooters = random_models(count(rng)), targets = random_models(count(rng));
        const auto nearest = nearest_each(shooters, targets);
        REQUIRE(nearest.size() == shooters.size());
        for (std::size_t s = 0; s < shooters.size(); ++s) {
            std::size_t best = 0;
            double best_gap = std::numeric_limits<double>::infinity();
            int at_best = 0;
            for (std::size_t t = 0; t < targets.size(); ++t) {
                const double dx = shooters[s].centre.x - targets[t].centre.x;
                const double dy = shooters[s].centre.y - targets[t].centre.y;
                const double radii = (shooters[s].base_mm + targets[t].base_mm) / 25.4 / 2.0;
                const double gap = std::max(0.0, std::sqrt(dx * dx + dy * dy) - radii);
                if (gap < best_gap - 1e-12) best = t, best_gap = gap, at_best = 1;
                else if (std::abs(gap - best_gap) <= 1e-12) ++at_best;
            }
            ties += at_best > 1;
            touching += best_gap == 0.0;
            CHECK(nearest[s].index == best);
            CHECK(nearest[s].distance == Approx(best_gap).margin(1e-12));
            // The same number as measuring that pair on its own.
            CHECK(nearest[s].distance == edge_distance(shooters[s], targets[nearest[s].index]));
        }
    }
    // The configurations did exercise ties and touching bases.
    CHECK(ties > 100);
    CHECK(touching > 100);
}

TEST_CASE("nearest_each needs a target", "[table][model]") {
    const std::vector<Model> one{at(0, 0)}, none;
    CHECK_THROWS_AS(nearest_each(one, none), umpire::RuleError);
    CHECK(nearest_each(none, one).empty());
}
