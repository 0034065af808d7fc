// Points and vectors on the tabletop, in inches.
//
// Conventions used by every function in umpire::table (and by umpire.table.* in Lua):
//   * lengths are inches (double); model bases are given in millimetres (1″ = 25.4 mm);
//   * the table is a plane with x to the right and y away from the player (maths axes, not screen
//     axes, so y grows "up" the page);
//   * angles are degrees, 0° = +x, counter-clockwise positive (90° = +y). Absolute angles
//     (bearings, facings) are returned in [0, 360); signed turns are returned in (-180, 180].
#pragma once

namespace umpire::table {

struct Vec2 {
    double x = 0.0;
    double y = 0.0;

    friend constexpr Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
    friend constexpr Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
    friend constexpr Vec2 operator-(Vec2 a) { return {-a.x, -a.y}; }
    friend constexpr Vec2 operator*(Vec2 a, double k) { return {a.x * k, a.y * k}; }
    friend constexpr Vec2 operator*(double k, Vec2 a) { return {a.x * k, a.y * k}; }
    friend constexpr Vec2 operator/(Vec2 a, double k) { return {a.x / k, a.y / k}; }
    friend constexpr bool operator==(Vec2 a, Vec2 b) = default;
};

// A position on the table. Same type as a displacement: the distinction is in the names only.
using Point = Vec2;

// Dot and cross (z of the 3-D cross product) products.
constexpr double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
constexpr double cross(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

// Euclidean length of a vector, in inches.
double length(Vec2 v);

// Centre-to-centre distance between two points, in inches.
double distance(Point a, Point b);

// Angle of `to` seen from `from`, in degrees [0, 360), 0° = +x, counter-clockwise.
// Coincident points have no bearing; 0 is returned (callers that care test distance first).
double bearing(Point from, Point to);

// Unit vector pointing along `degrees`.
Vec2 direction(double degrees);

// `v` rotated counter-clockwise by `degrees` about the origin.
Vec2 rotate(Vec2 v, double degrees);

// `p` rotated counter-clockwise by `degrees` about `centre`.
Point rotate_about(Point p, Point centre, double degrees);

// An angle brought into [0, 360).
double normalize_angle(double degrees);

// The shortest signed turn from heading `from` to heading `to`, in (-180, 180]; positive is
// counter-clockwise. A target dead behind gives +180 (turn counter-clockwise).
double turn_between(double from, double to);

double to_radians(double degrees);
double to_degrees(double radians);

}  // namespace umpire::table
