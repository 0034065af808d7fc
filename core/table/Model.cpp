#include "core/table/Model.hpp"

#include <cmath>
#include <string>

#include "core/Error.hpp"

namespace umpire::table {

void validate(const Model& m) {
    if (!(std::isfinite(m.base_mm) && m.base_mm > 0.0))
        throw RuleError("model of unit " + std::to_string(m.unit) +
                        " has a base diameter of " + std::to_string(m.base_mm) +
                        " mm; a base must be a positive size");
    if (!(std::isfinite(m.centre.x) && std::isfinite(m.centre.y)))
        throw RuleError("model of unit " + std::to_string(m.unit) + " has no finite position");
}

void validate(std::span<const Model> models) {
    for (const Model& m : models) validate(m);
}

double centre_distance(const Model& a, const Model& b) { return distance(a.centre, b.centre); }

double edge_distance(const Model& a, const Model& b) { return edge_distance(a.base(), b.base()); }

double edge_distance(Point p, const Model& m) { return edge_distance(p, m.base()); }

bool within(const Model& a, const Model& b, double inches) { return within(a.base(), b.base(), inches); }

// A plain loop over every pair: a declare step has tens of models, so a spatial index would cost
// more than it saves, and calling edge_distance for each pair keeps the numbers identical to
// measuring the pairs one by one.
std::vector<Nearest> nearest_each(std::span<const Model> from, std::span<const Model> targets) {
    if (targets.empty()) throw RuleError("nearest_each: no target models to measure to");
    std::vector<Nearest> out;
    out.reserve(from.size());
    for (const Model& m : from) {
        Nearest best{0, edge_distance(m, targets[0])};
        for (std::size_t i = 1; i < targets.size(); ++i) {
            const double d = edge_distance(m, targets[i]);
            if (d < best.distance) best = {i, d};
        }
        out.push_back(best);
    }
    return out;
}

}  // namespace umpire::table
