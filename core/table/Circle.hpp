// A circle on the table: a model's base, a template, or a "within N″" area.
#pragma once
#include "core/table/Vec2.hpp"

namespace umpire::table {

// Comparisons of lengths allow this much slack (inches, about 25 nanometres) so that floating-point
// noise in positions computed by rulesets never flips a rules question. Two predicates on circles,
// which differ only at exact tangency (within kTolerance):
//   * intersects: the circles touch or share area. Used for "under a template" and "clips a
//     friendly model" (see Template.hpp for why touching counts);
//   * overlaps: the circles share area; touching is not overlapping. Used where the rules allow
//     contact but forbid overlap (Multiple HE Hits: templates "in contact ... without overlapping").
// Distances are inclusive: a distance within kTolerance of a limit is within it ("within 6″"
// includes 6″).
inline constexpr double kTolerance = 1e-9;

struct Circle {
    Point centre;
    double radius = 0.0;  // inches, >= 0
};

// Gap between the edges of two circles, in inches; 0 when they touch or overlap (never negative,
// because every rules question asks "how far apart", and overlapping bases are 0″ apart).
double edge_distance(const Circle& a, const Circle& b);

// Gap between a point and the edge of a circle; 0 when the point is inside it.
double edge_distance(Point p, const Circle& c);

// True if the two circles share area. Exact tangency (within kTolerance) is NOT an overlap.
bool overlaps(const Circle& a, const Circle& b);

// True if the two circles touch or share area. Exact tangency (within kTolerance) intersects.
bool intersects(const Circle& a, const Circle& b);

// True if edge_distance(a, b) <= inches (within kTolerance).
bool within(const Circle& a, const Circle& b, double inches);

}  // namespace umpire::table
