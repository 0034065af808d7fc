#include <catch2/catch.hpp>

#include "core/table/Vec2.hpp"

using namespace umpire::table;

TEST_CASE("distance is Euclidean, in inches", "[table][vec2]") {
    CHECK(distance({0, 0}, {3, 4}) == Approx(5.0));
    CHECK(distance({-1, 2}, {2, -2}) == Approx(5.0));
    CHECK(distance({1, 1}, {1, 1}) == 0.0);
}

TEST_CASE("bearing: degrees, 0 = +x, counter-clockwise, from 0 up to but not including 360", "[table][vec2]") {
    CHECK(bearing({0, 0}, {5, 0}) == Approx(0.0));
    CHECK(bearing({0, 0}, {0, 5}) == Approx(90.0));
    CHECK(bearing({0, 0}, {-5, 0}) == Approx(180.0));
    CHECK(bearing({0, 0}, {0, -5}) == Approx(270.0));  // not -90
    CHECK(bearing({1, 1}, {2, 2}) == Approx(45.0));
    CHECK(bearing({2, 2}, {2, 2}) == 0.0);  // coincident: defined as 0
}

TEST_CASE("rotation is counter-clockwise for positive degrees", "[table][vec2]") {
    const Vec2 r = rotate({1, 0}, 90);
    CHECK(r.x == Approx(0.0).margin(1e-12));
    CHECK(r.y == Approx(1.0));
    const Point p = rotate_about({2, 0}, {1, 0}, 180);
    CHECK(p.x == Approx(0.0).margin(1e-12));
    CHECK(p.y == Approx(0.0).margin(1e-12));
    const Vec2 d = direction(135);
    CHECK(d.x == Approx(-std::sqrt(0.5)));
    CHECK(d.y == Approx(std::sqrt(0.5)));
}

TEST_CASE("angles normalise and turns take the short way", "[table][vec2]") {
    CHECK(normalize_angle(-90) == Approx(270));
    CHECK(normalize_angle(720) == Approx(0));
    CHECK(normalize_angle(359.5) == Approx(359.5));
    CHECK(turn_between(350, 10) == Approx(20));
    CHECK(turn_between(10, 350) == Approx(-20));
    CHECK(turn_between(0, 180) == Approx(180));  // dead behind: counter-clockwise
    CHECK(turn_between(90, 270) == Approx(180));
    CHECK(turn_between(45, 45) == Approx(0));
}
