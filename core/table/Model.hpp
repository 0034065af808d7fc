// A model on the table: a round base at a position, belonging to a unit and a side.
//
// Bolt Action measures between models base edge to base edge, so most functions here come in a
// centre version and an edge version. A model without a base (artillery crew, a team on a
// collective base) is treated as standing on a 25 mm round base (Bolt Action, HE: "imagine that each
// model has an individual 25mm round base").
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/table/Circle.hpp"
#include "core/table/Vec2.hpp"

namespace umpire::table {

inline constexpr double kMmPerInch = 25.4;
inline constexpr double kDefaultBaseMm = 25.0;

using UnitId = std::int32_t;
using SideId = std::int32_t;

// Plain data (standard layout) so the bindings can hand arrays of models to C++ through the FFI.
struct Model {
    Point centre;                      // inches
    double base_mm = kDefaultBaseMm;   // round base diameter in millimetres, > 0
    SideId side = 0;                   // owner / player
    UnitId unit = 0;                   // the unit it belongs to
    double facing = 0.0;               // degrees, same convention as bearing(); used by arcs

    // Base radius in inches.
    double base_radius() const { return base_mm / kMmPerInch / 2.0; }
    // The base as a circle in inches.
    Circle base() const { return {centre, base_radius()}; }
};

// Throws RuleError if a model's base is not a positive finite size or its position is not finite.
// Every function that takes models calls this, so a bad model is reported, not silently measured.
void validate(const Model& m);
void validate(std::span<const Model> models);

// Centre-to-centre distance in inches.
double centre_distance(const Model& a, const Model& b);

// Base edge to base edge distance in inches; 0 if the bases touch or overlap.
double edge_distance(const Model& a, const Model& b);

// Distance from a point to the nearest edge of a model's base; 0 if the point is on the base.
double edge_distance(Point p, const Model& m);

// True if the two models are within `inches` of each other, base edge to base edge (inclusive).
bool within(const Model& a, const Model& b, double inches);

// The nearest of `targets` to one model, base edge to base edge: its 0-based index and the
// distance, bit for bit edge_distance(model, targets[index]).
struct Nearest {
    std::size_t index;
    double distance;
};

// For every model of `from`, the nearest model of `targets` (one declare step of Bolt Action
// measures each firer to its target unit). Ties go to the first such target, as a loop keeping
// the strictly smaller distance would choose; models touching at distance 0 tie too. Throws
// RuleError if `targets` is empty, since there is then no nearest model.
std::vector<Nearest> nearest_each(std::span<const Model> from, std::span<const Model> targets);

}  // namespace umpire::table
