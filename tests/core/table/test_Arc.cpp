#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "core/Error.hpp"
#include "core/table/Arc.hpp"

using namespace umpire::table;

namespace {
constexpr double r25 = 25.0 / 25.4 / 2.0;
Point polar(double dist, double deg) { return Point{0, 0} + direction(deg) * dist; }
Model model_at(Point p) { return Model{.centre = p}; }
// Half the angle a 25 mm base subtends at 10″: asin(0.4921 / 10) = 2.8208°.
const double widen10 = std::asin(r25 / 10.0) * 180.0 / std::numbers::pi;
}  // namespace

TEST_CASE("a point is in a 45° front arc at 44° and out at 46°, both sides", "[table][arc]") {
    const Point o{0, 0};
    CHECK(in_arc(o, 0, kFixedHalfAngle, polar(10, 44)));
    CHECK_FALSE(in_arc(o, 0, kFixedHalfAngle, polar(10, 46)));
    CHECK(in_arc(o, 0, kFixedHalfAngle, polar(10, -44)));
    CHECK_FALSE(in_arc(o, 0, kFixedHalfAngle, polar(10, -46)));
    CHECK(in_arc(o, 0, kFixedHalfAngle, polar(10, 45)));  // the edge is inclusive
    CHECK_FALSE(in_arc(o, 0, kFixedHalfAngle, polar(10, 180)));
    CHECK(in_arc(o, 0, kFixedHalfAngle, o));  // at the origin: in every arc
}

TEST_CASE("arcs work across 0/360 and for any facing", "[table][arc]") {
    const Point o{5, 5};
    // Facing 350°: 30° is 40° off (in), 36° is 46° off (out), 306° is 44° off (in).
    CHECK(in_arc(o, 350, 45, o + direction(30) * 3));
    CHECK_FALSE(in_arc(o, 350, 45, o + direction(36) * 3));
    CHECK(in_arc(o, 350, 45, o + direction(306) * 3));
    CHECK_FALSE(in_arc(o, 350, 45, o + direction(304) * 3));
    // Facing 90° (+y).
    CHECK(in_arc(o, 90, 45, Point{5, 9}));
    CHECK_FALSE(in_arc(o, 90, 45, Point{9, 5}));
}

TEST_CASE("a base straddling the arc edge is in: any part of the base counts", "[table][arc]") {
    const Point o{0, 0};
    // Centre at 47° (2° outside), 10″ away: the base reaches 2.82° back, so it is in.
    CHECK(in_arc(o, 0, 45, model_at(polar(10, 47))));
    CHECK_FALSE(in_arc(o, 0, 45, polar(10, 47)));  // ...whereas its centre alone is out
    CHECK(in_arc(o, 0, 45, model_at(polar(10, -47))));
    // Base edge exactly tangent to the 45° line: in (touching the edge counts).
    CHECK(in_arc(o, 0, 45, model_at(polar(10, 45 + widen10))));
    CHECK_FALSE(in_arc(o, 0, 45, model_at(polar(10, 45 + widen10 + 1e-6))));
    // Centre at 48.5°: the whole base is outside.
    CHECK_FALSE(in_arc(o, 0, 45, model_at(polar(10, 48.5))));
    // Closer bases subtend more: at 2″ a base reaches asin(0.492/2) = 14.24° back, so 58° is in.
    CHECK(in_arc(o, 0, 45, model_at(polar(2, 58))));
    CHECK_FALSE(in_arc(o, 0, 45, model_at(polar(2, 60))));
    // A base that covers the shooter's position is in.
    CHECK(in_arc(o, 0, 45, model_at(polar(0.3, 180))));
}

TEST_CASE("shooter form uses the shooter's centre and facing", "[table][arc]") {
    Model mg{.centre = {10, 10}, .facing = 270};  // barrel pointing -y
    CHECK(in_arc(mg, kFixedHalfAngle, model_at({10, 0})));
    CHECK(in_arc(mg, kFixedHalfAngle, model_at({17, 3})));  // 45° off, in
    CHECK_FALSE(in_arc(mg, kFixedHalfAngle, model_at({10, 20})));
    CHECK_FALSE(in_arc(mg, kFixedHalfAngle, model_at({20, 9})));
}

TEST_CASE("rotation into a fixed arc: the smallest signed turn", "[table][arc]") {
    const Point o{0, 0};
    // Already in: no turn.
    CHECK(rotation_into_arc(o, 0, 45, polar(10, 30)) == 0.0);
    // Point at 90° with facing 0: turn +45° (counter-clockwise) brings the edge onto it.
    CHECK(rotation_into_arc(o, 0, 45, polar(10, 90)) == Approx(45.0));
    CHECK(rotation_into_arc(o, 0, 45, polar(10, -100)) == Approx(-55.0));
    // Facing 90°, point at 0°: -45°.
    CHECK(rotation_into_arc(o, 90, 45, polar(10, 0)) == Approx(-45.0));
    // A model needs less: only the edge of its base has to enter.
    CHECK(rotation_into_arc(o, 90, 45, model_at(polar(10, 0))) == Approx(-(45.0 - widen10)));
    // Dead behind: 135° counter-clockwise.
    CHECK(rotation_into_arc(o, 0, 45, polar(10, 180)) == Approx(135.0));
    // After the turn the target is in the arc.
    const double turn = rotation_into_arc(o, 10, 45, model_at(polar(10, 200)));
    CHECK(in_arc(o, 10 + turn, 45, model_at(polar(10, 200))));
    CHECK_FALSE(in_arc(o, 10 + turn - 0.01 * (turn > 0 ? 1 : -1), 45, model_at(polar(10, 200))));
    // To face it squarely.
    CHECK(rotation_to_face(o, 0, Point{0, 5}) == Approx(90.0));
    CHECK(rotation_to_face(o, 350, Point{5, 0}) == Approx(10.0));
}

TEST_CASE("a half-angle outside 0..180 is an error", "[table][arc]") {
    CHECK_THROWS_AS(in_arc({0, 0}, 0, 200, Point{1, 0}), umpire::RuleError);
    CHECK_THROWS_AS(in_arc({0, 0}, 0, -1, Point{1, 0}), umpire::RuleError);
    CHECK_THROWS_AS(rotation_into_arc({0, 0}, 0, std::nan(""), Point{1, 0}), umpire::RuleError);
    CHECK(in_arc({0, 0}, 0, 180, Point{-1, 0}));  // 180: all round
}
