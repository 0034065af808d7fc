#include "core/table/Vec2.hpp"

#include <cmath>
#include <numbers>

namespace umpire::table {

double length(Vec2 v) { return std::hypot(v.x, v.y); }

double distance(Point a, Point b) { return length(b - a); }

double to_radians(double degrees) { return degrees * std::numbers::pi / 180.0; }
double to_degrees(double radians) { return radians * 180.0 / std::numbers::pi; }

double normalize_angle(double degrees) {
    double a = std::fmod(degrees, 360.0);
    if (a < 0.0) a += 360.0;
    // fmod of a tiny negative number can round back up to exactly 360.
    if (a >= 360.0) a -= 360.0;
    return a;
}

double bearing(Point from, Point to) {
    const Vec2 d = to - from;
    if (d.x == 0.0 && d.y == 0.0) return 0.0;
    return normalize_angle(to_degrees(std::atan2(d.y, d.x)));
}

Vec2 direction(double degrees) {
    const double r = to_radians(degrees);
    return {std::cos(r), std::sin(r)};
}

Vec2 rotate(Vec2 v, double degrees) {
    const double r = to_radians(degrees);
    const double c = std::cos(r), s = std::sin(r);
    return {v.x * c - v.y * s, v.x * s + v.y * c};
}

Point rotate_about(Point p, Point centre, double degrees) {
    return centre + rotate(p - centre, degrees);
}

double turn_between(double from, double to) {
    double d = normalize_angle(to - from);  // [0, 360)
    if (d > 180.0) d -= 360.0;              // (-180, 180]
    return d;
}

}  // namespace umpire::table
