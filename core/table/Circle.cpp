#include "core/table/Circle.hpp"

#include <algorithm>

namespace umpire::table {

double edge_distance(const Circle& a, const Circle& b) {
    return std::max(0.0, distance(a.centre, b.centre) - a.radius - b.radius);
}

double edge_distance(Point p, const Circle& c) {
    return std::max(0.0, distance(p, c.centre) - c.radius);
}

bool overlaps(const Circle& a, const Circle& b) {
    return distance(a.centre, b.centre) < a.radius + b.radius - kTolerance;
}

bool intersects(const Circle& a, const Circle& b) {
    return distance(a.centre, b.centre) <= a.radius + b.radius + kTolerance;
}

bool within(const Circle& a, const Circle& b, double inches) {
    return distance(a.centre, b.centre) - a.radius - b.radius <= inches + kTolerance;
}

}  // namespace umpire::table
