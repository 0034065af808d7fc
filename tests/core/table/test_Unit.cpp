#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <vector>

#include "core/Error.hpp"
#include "core/table/Arc.hpp"
#include "core/table/Unit.hpp"

using namespace umpire::table;

namespace {
constexpr double r25 = 25.0 / 25.4 / 2.0;
Model at(double x, double y, UnitId unit, SideId side = 2, double base_mm = 25) {
    return Model{.centre = {x, y}, .base_mm = base_mm, .side = side, .unit = unit};
}
using Ids = std::vector<UnitId>;
}  // namespace

TEST_CASE("unit centroid and models", "[table][unit]") {
    const std::vector<Model> ms = {at(0, 0, 1), at(9, 9, 2), at(2, 0, 1), at(1, 3, 1)};
    const Point c = unit_centroid(ms, 1);
    CHECK(c.x == Approx(1.0));
    CHECK(c.y == Approx(1.0));
    CHECK(unit_models(ms, 1) == std::vector<std::size_t>{0, 2, 3});
    CHECK_THROWS_AS(unit_centroid(ms, 5), umpire::RuleError);
}

TEST_CASE("closest model measures to base edges, not centres", "[table][unit]") {
    // Unit 1: a 25 mm model 4″ away and a 60 mm model whose centre is 4.3″ away but whose edge is
    // nearer (4.3 - 1.18 = 3.12″).
    const std::vector<Model> ms = {at(4, 0, 1), at(0, 4.3, 1, 2, 60), at(50, 50, 2)};
    CHECK(closest_model(ms, 1, Point{0, 0}) == 1);
    const Model shooter = at(0, 0, 3, 1);
    CHECK(closest_model(ms, 1, shooter) == 1);
    // Ties go to the lowest index.
    const std::vector<Model> tie = {at(3, 0, 1), at(0, 3, 1)};
    CHECK(closest_model(tie, 1, Point{0, 0}) == 0);
}

TEST_CASE("unit to unit distance is between the closest bases", "[table][unit]") {
    const std::vector<Model> ms = {at(0, 0, 1), at(0, 2, 1), at(5, 2.5, 2), at(9, 0, 2)};
    CHECK(closest_models(ms, 1, 2) == std::pair<std::size_t, std::size_t>{1, 2});
    const double d = std::hypot(5.0, 0.5) - 2 * r25;  // 4.0328″
    CHECK(unit_distance(ms, 1, 2) == Approx(d));
    CHECK(unit_within(ms, 1, 2, 4.05));
    CHECK_FALSE(unit_within(ms, 1, 2, 4.0));
    CHECK_THROWS_AS(unit_within(ms, 1, 2, -1), umpire::RuleError);
}

TEST_CASE("units within 6 inches of a template (Multiple Launcher)", "[table][unit]") {
    // A 4″ template (radius 2) at the origin. Distances are template edge to base edge.
    const Circle tpl{{0, 0}, 2.0};
    const std::vector<Model> ms = {
        at(0.5, 0, 1, 2),     // the target unit, under the template
        at(8.4, 0, 2, 2),     // enemy: edge 8.4 - 2 - 0.492 = 5.908″ -> in (centre-based: 6.4, out)
        at(8.6, 0, 3, 2),     // enemy: 6.108″ -> out
        at(0, -8.45, 5, 1),   // friend: 5.958″ -> in: the launcher may not fire
        at(0, 20, 6, 1),      // friend far away
        at(-8.2, 0, 7, 2), at(-20, 0, 7, 2),  // a unit with one model in range counts
    };
    CHECK(units_within(ms, tpl, 6.0) == Ids{1, 2, 5, 7});
    CHECK(units_within(ms, tpl, 6.0, 2) == Ids{1, 2, 7});  // enemies
    CHECK(units_within(ms, tpl, 6.0, 1) == Ids{5});         // friends: shot wasted
    CHECK(units_within(ms, Point{0, 0}, 6.0) == Ids{1});    // from a point (radius 0)
    CHECK(units_within(ms, 1, 6.0) == Ids{});               // from unit 1's base edges
    // From (0.5,0): unit 2 at 6.92″, unit 3 at 7.12″, unit 5 at 7.48″, unit 7 at 7.72″.
    CHECK(units_within(ms, 1, 7.5) == Ids{2, 3, 5});
    CHECK(units_within(ms, 1, 7.5, 1) == Ids{5});
}

TEST_CASE("a unit partly inside the arc can be targeted, rotation for the rest", "[table][unit][arc]") {
    const Point o{0, 0};
    // Facing +y. One model at 60° off (out), one straddling the 45° edge (in by its base).
    const std::vector<Model> ms = {at(10 * std::cos(150 * std::numbers::pi / 180), 10 * std::sin(150 * std::numbers::pi / 180), 1),
                                   at(10 * std::cos(137 * std::numbers::pi / 180), 10 * std::sin(137 * std::numbers::pi / 180), 1),
                                   at(10, 0, 2), at(0, -10, 2)};
    CHECK(unit_in_arc(o, 90, 45, ms, 1));
    CHECK(unit_rotation_into_arc(o, 90, 45, ms, 1) == 0.0);
    CHECK_FALSE(unit_in_arc(o, 90, 45, ms, 2));
    // Unit 2: (10,0) needs -(90 - 45 - 2.82) = -42.18; (0,-10) needs 135 - 2.82 either way.
    const double w = std::asin(r25 / 10) * 180 / std::numbers::pi;
    CHECK(unit_rotation_into_arc(o, 90, 45, ms, 2) == Approx(-(45 - w)));
    CHECK(unit_in_arc(o, 90 + unit_rotation_into_arc(o, 90, 45, ms, 2), 45, ms, 2));
}
