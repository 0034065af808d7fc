#include "core/table/Unit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/Error.hpp"
#include "core/table/Arc.hpp"

namespace umpire::table {

namespace {

std::vector<std::size_t> nonempty_unit(std::span<const Model> models, UnitId unit) {
    std::vector<std::size_t> idx = unit_models(models, unit);
    if (idx.empty()) throw RuleError("unit " + std::to_string(unit) + " has no models on the table");
    return idx;
}

void check_distance(double inches) {
    if (!(inches >= 0.0) || std::isinf(inches))
        throw RuleError("a distance must be a finite number of inches >= 0, got " +
                        std::to_string(inches));
}

}  // namespace

std::vector<std::size_t> unit_models(std::span<const Model> models, UnitId unit) {
    validate(models);
    std::vector<std::size_t> idx;
    for (std::size_t i = 0; i < models.size(); ++i)
        if (models[i].unit == unit) idx.push_back(i);
    return idx;
}

Point centroid(std::span<const Model> models) {
    validate(models);
    if (models.empty()) throw RuleError("centroid of no models");
    Vec2 sum;
    for (const Model& m : models) sum = sum + m.centre;
    return sum / static_cast<double>(models.size());
}

Point unit_centroid(std::span<const Model> models, UnitId unit) {
    Vec2 sum;
    const auto idx = nonempty_unit(models, unit);
    for (std::size_t i : idx) sum = sum + models[i].centre;
    return sum / static_cast<double>(idx.size());
}

std::size_t closest_model(std::span<const Model> models, UnitId unit, Point from) {
    return closest_model(models, unit, Model{.centre = from, .base_mm = 0.0});
}

std::size_t closest_model(std::span<const Model> models, UnitId unit, const Model& from) {
    const auto idx = nonempty_unit(models, unit);
    // `from` may be a bare point (base 0), so it is not validated as a model; its radius is used.
    const Circle src{from.centre, from.base_mm / kMmPerInch / 2.0};
    std::size_t best = idx.front();
    double best_d = std::numeric_limits<double>::infinity();
    for (std::size_t i : idx) {
        // Signed gap (not clamped at 0) so that among overlapping bases the deepest wins.
        const double d = distance(src.centre, models[i].centre) - src.radius - models[i].base_radius();
        if (d < best_d - kTolerance) best = i, best_d = d;
    }
    return best;
}

std::pair<std::size_t, std::size_t> closest_models(std::span<const Model> models, UnitId unit_a,
                                                   UnitId unit_b) {
    const auto a = nonempty_unit(models, unit_a);
    const auto b = nonempty_unit(models, unit_b);
    std::pair<std::size_t, std::size_t> best{a.front(), b.front()};
    double best_d = std::numeric_limits<double>::infinity();
    for (std::size_t i : a)
        for (std::size_t j : b) {
            const double d = centre_distance(models[i], models[j]) - models[i].base_radius() -
                             models[j].base_radius();
            if (d < best_d - kTolerance) best = {i, j}, best_d = d;
        }
    return best;
}

double unit_distance(std::span<const Model> models, UnitId unit_a, UnitId unit_b) {
    const auto [i, j] = closest_models(models, unit_a, unit_b);
    return edge_distance(models[i], models[j]);
}

bool unit_within(std::span<const Model> models, UnitId unit_a, UnitId unit_b, double inches) {
    check_distance(inches);
    const auto [i, j] = closest_models(models, unit_a, unit_b);
    return within(models[i], models[j], inches);
}

std::vector<UnitId> units_within(std::span<const Model> models, const Circle& area, double inches,
                                 SideId side) {
    check_distance(inches);
    validate(models);
    std::vector<UnitId> ids;
    for (const Model& m : models)
        if ((side == kAnySide || m.side == side) && within(area, m.base(), inches))
            ids.push_back(m.unit);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

std::vector<UnitId> units_within(std::span<const Model> models, Point p, double inches, SideId side) {
    return units_within(models, Circle{p, 0.0}, inches, side);
}

std::vector<UnitId> units_within(std::span<const Model> models, UnitId unit, double inches,
                                 SideId side) {
    check_distance(inches);
    const auto own = nonempty_unit(models, unit);
    std::vector<UnitId> ids;
    for (const Model& m : models) {
        if (m.unit == unit || (side != kAnySide && m.side != side)) continue;
        for (std::size_t i : own)
            if (within(models[i], m, inches)) {
                ids.push_back(m.unit);
                break;
            }
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

bool unit_in_arc(Point origin, double facing, double half_angle, std::span<const Model> models,
                 UnitId unit) {
    for (std::size_t i : nonempty_unit(models, unit))
        if (in_arc(origin, facing, half_angle, models[i])) return true;
    return false;
}

double unit_rotation_into_arc(Point origin, double facing, double half_angle,
                              std::span<const Model> models, UnitId unit) {
    double best = 0.0;
    bool first = true;
    for (std::size_t i : nonempty_unit(models, unit)) {
        const double r = rotation_into_arc(origin, facing, half_angle, models[i]);
        // Smallest turn wins; on an exact tie the counter-clockwise (positive) turn, as for a
        // single target dead behind.
        if (first || std::abs(r) < std::abs(best) - 1e-9 ||
            (std::abs(std::abs(r) - std::abs(best)) <= 1e-9 && r > best)) {
            best = r;
            first = false;
        }
    }
    return best;
}

}  // namespace umpire::table
