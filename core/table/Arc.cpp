#include "core/table/Arc.hpp"

#include <cmath>
#include <string>

#include "core/Error.hpp"

namespace umpire::table {

namespace {

// Angles are compared with this slack (degrees) so an edge-on target computed in floating point
// lands on the inclusive side, as the rule says.
constexpr double kAngleTolerance = 1e-9;

// The arc's facing and half-angle. A facing of NaN or an infinity compares false with every
// offset: the target was silently out of the arc (in_arc false, rotation_into_arc NaN; session 37).
void check_arc(double facing, double half_angle) {
    if (!(half_angle >= 0.0 && half_angle <= 180.0))
        throw RuleError("arc half-angle must be between 0 and 180 degrees, got " +
                        std::to_string(half_angle));
    if (!std::isfinite(facing))
        throw RuleError("arc facing must be a finite number of degrees, got " + std::to_string(facing));
}

// A circle seen from outside subtends the directions bearing ± asin(r/d): every ray from the
// origin within that cone meets the circle. So the circle meets the arc exactly when its angular
// offset from the facing is at most half_angle + asin(r/d). Returns the signed offset and the
// widening; `inside` is set when the origin lies on or in the circle.
struct Offset {
    double turn = 0.0;   // signed offset of the centre from the facing, (-180, 180]
    double widen = 0.0;  // half the angle the circle subtends, degrees
    bool inside = false;
};

Offset offset_of(Point origin, double facing, const Circle& target) {
    Offset o;
    const double d = distance(origin, target.centre);
    if (d <= target.radius + kTolerance) {
        o.inside = true;
        return o;
    }
    o.turn = turn_between(facing, bearing(origin, target.centre));
    o.widen = to_degrees(std::asin(target.radius / d));
    return o;
}

}  // namespace

bool in_arc(Point origin, double facing, double half_angle, const Circle& target) {
    check_arc(facing, half_angle);
    const Offset o = offset_of(origin, facing, target);
    return o.inside || std::abs(o.turn) <= half_angle + o.widen + kAngleTolerance;
}

bool in_arc(Point origin, double facing, double half_angle, Point target) {
    return in_arc(origin, facing, half_angle, Circle{target, 0.0});
}

bool in_arc(Point origin, double facing, double half_angle, const Model& target) {
    validate(target);
    return in_arc(origin, facing, half_angle, target.base());
}

bool in_arc(const Model& shooter, double half_angle, const Model& target) {
    validate(shooter);
    return in_arc(shooter.centre, shooter.facing, half_angle, target);
}

double rotation_into_arc(Point origin, double facing, double half_angle, const Circle& target) {
    check_arc(facing, half_angle);
    const Offset o = offset_of(origin, facing, target);
    const double reach = half_angle + o.widen;
    if (o.inside || std::abs(o.turn) <= reach + kAngleTolerance) return 0.0;
    return o.turn > 0.0 ? o.turn - reach : o.turn + reach;
}

double rotation_into_arc(Point origin, double facing, double half_angle, Point target) {
    return rotation_into_arc(origin, facing, half_angle, Circle{target, 0.0});
}

double rotation_into_arc(Point origin, double facing, double half_angle, const Model& target) {
    validate(target);
    return rotation_into_arc(origin, facing, half_angle, target.base());
}

double rotation_to_face(Point origin, double facing, Point target) {
    return turn_between(facing, bearing(origin, target));
}

}  // namespace umpire::table
