#include <catch2/catch.hpp>

#include <limits>

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
