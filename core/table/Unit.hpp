// Questions about units. A unit is not a separate type: it is the set of models in a model list
// that share a unit id (Model::unit), so the bindings can pass one flat array of models.
//
// Unit-to-unit and model-to-unit distances are base edge to base edge between the closest pair of
// models (Bolt Action measures from base edge). Functions that need a unit with at least one model
// throw RuleError when it has none. Ties go to the lowest index, so results never depend on luck.
#pragma once
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "core/table/Circle.hpp"
#include "core/table/Model.hpp"
#include "core/table/Vec2.hpp"

namespace umpire::table {

// Passed as `side` to mean "units of every side".
inline constexpr SideId kAnySide = -1;

// Indices (ascending) of the models of `unit`.
std::vector<std::size_t> unit_models(std::span<const Model> models, UnitId unit);

// Mean of the model centres of `unit` (of all `models` for the second form).
Point unit_centroid(std::span<const Model> models, UnitId unit);
Point centroid(std::span<const Model> models);

// Index of the model of `unit` whose base edge is closest to `from` (to `from`'s base edge).
std::size_t closest_model(std::span<const Model> models, UnitId unit, Point from);
std::size_t closest_model(std::span<const Model> models, UnitId unit, const Model& from);

// Indices (into `models`) of the closest pair of models, first of unit_a, second of unit_b.
std::pair<std::size_t, std::size_t> closest_models(std::span<const Model> models, UnitId unit_a,
                                                   UnitId unit_b);

// Base edge to base edge distance between the closest models of two units.
double unit_distance(std::span<const Model> models, UnitId unit_a, UnitId unit_b);

// Are the two units within `inches` of each other (closest models, edge to edge, inclusive)?
bool unit_within(std::span<const Model> models, UnitId unit_a, UnitId unit_b, double inches);

// Ids (ascending, each once) of the units with at least one model whose base edge is within
// `inches` of the area's edge (inclusive), optionally only those of `side`. The area is any
// circle: a template (Multiple Launcher: "enemy units within 6″ of the original template"), a
// point (radius 0) or a model's base.
std::vector<UnitId> units_within(std::span<const Model> models, const Circle& area, double inches,
                                 SideId side = kAnySide);
std::vector<UnitId> units_within(std::span<const Model> models, Point p, double inches,
                                 SideId side = kAnySide);

// Ids of the other units within `inches` of `unit` (closest models, edge to edge).
std::vector<UnitId> units_within(std::span<const Model> models, UnitId unit, double inches,
                                 SideId side = kAnySide);

// Is the unit at least partially within the arc (any part of any model's base)? Bolt Action,
// Fixed: "can only target an enemy unit that lies at least partially within their front arc".
bool unit_in_arc(Point origin, double facing, double half_angle, std::span<const Model> models,
                 UnitId unit);

// The smallest turn (see rotation_into_arc) that brings at least part of the unit into the arc.
double unit_rotation_into_arc(Point origin, double facing, double half_angle,
                              std::span<const Model> models, UnitId unit);

}  // namespace umpire::table
