// Facing and fire arcs.
//
// An arc is the wedge of table seen from `origin` within `half_angle` degrees either side of
// `facing` (angles as in Vec2.hpp: degrees, 0° = +x, counter-clockwise). It is unbounded in range:
// range is a separate question. Bolt Action, Fixed: "within an angle of 45° to each side of their
// barrel", so a Fixed weapon's front arc is half_angle = kFixedHalfAngle about the model's facing.
//
// Decisions, used everywhere:
//   * The arc edges are inclusive: a point exactly 45° off the barrel is in a 45° arc.
//   * A model is in the arc if ANY part of its base is (Fixed: a target "that lies at least
//     partially within their front arc"); a base just touching the edge line counts as in.
//   * A point at the origin (or a base covering the origin) is in every arc.
// half_angle must lie in [0, 180]; 180 is all round. Anything else is a RuleError.
#pragma once
#include "core/table/Circle.hpp"
#include "core/table/Model.hpp"
#include "core/table/Vec2.hpp"

namespace umpire::table {

inline constexpr double kFixedHalfAngle = 45.0;

// Is the point inside the arc?
bool in_arc(Point origin, double facing, double half_angle, Point target);

// Is any part of the circle inside the arc?
bool in_arc(Point origin, double facing, double half_angle, const Circle& target);

// Is any part of the model's base inside the arc?
bool in_arc(Point origin, double facing, double half_angle, const Model& target);

// Is any part of `target`'s base in `shooter`'s arc (origin = shooter centre, facing = shooter.facing)?
bool in_arc(const Model& shooter, double half_angle, const Model& target);

// The smallest signed turn (degrees, counter-clockwise positive, in (-180, 180]) that brings the
// target into the arc: 0 if it is already in, otherwise just enough for the arc edge to reach it
// (for a model: to reach the edge of its base). A target dead behind turns counter-clockwise.
// Bolt Action, Fixed: on an Advance order the weapon "can be rotated on the spot" and then fire.
double rotation_into_arc(Point origin, double facing, double half_angle, Point target);
double rotation_into_arc(Point origin, double facing, double half_angle, const Circle& target);
double rotation_into_arc(Point origin, double facing, double half_angle, const Model& target);

// The signed turn that points the facing straight at the target's centre, in (-180, 180].
double rotation_to_face(Point origin, double facing, Point target);

}  // namespace umpire::table
