#include "core/table/Placement.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/Error.hpp"
#include "core/table/Unit.hpp"

namespace umpire::table {

// The placement search (maximum coverage circle with forbidden discs).
//
// A template of radius R centred at p covers a base of radius r centred at c exactly when
// |p - c| <= R + r: p lies in the closed disc of radius R + r around c (Template.hpp: touching
// counts). It clips a friend under the same test. So the question is: which point lies in the most
// target discs and in no friend disc? The set of best centres is a region bounded by arcs of those
// circles (possibly a single point, e.g. two models exactly 1″ apart under a 1″ template). Every
// such region contains one of these candidate points:
//   * a point where two of the circles cross or touch (a corner of the region);
//   * on each circle, the point nearest the target centroid (covers regions bounded by whole
//     circles, and is where the distance to the centroid is least along an arc);
//   * the centroid itself and each target centre (regions with no boundary in the way).
// So the best candidate gives the true maximum, and among best candidates the one closest to the
// centroid is the closest best placement overall: the distance to a point is least over a region
// either at that point, at the nearest point of a boundary arc, or at a corner.
// Target circles are used as they are (a corner on one is within kTolerance, so it counts); friend
// circles are grown by kPlacementMargin, so a candidate on one is clearly clear of the friend.
// With n targets and m friends there are O((n+m)^2) candidates, each scored in O(n+m).
//
// A touching template (Multiple HE Hits) runs the same search with its centre confined to the
// circles of radius R + R_i around the templates already placed ("rails"): the candidates are then
// the crossings of those rails with every other circle and with each other, plus the point nearest
// the centroid on each rail. Templates may touch but not overlap, so the rails are exact.

namespace {

struct Disc {
    Point c;
    double r;
};

void crossings(const Disc& a, const Disc& b, std::vector<Point>& out) {
    const Vec2 d = b.c - a.c;
    const double dist = length(d);
    if (dist < 1e-12) return;  // concentric: no corner
    // Tangent circles (within kTolerance) still give their touching point: it can be the only
    // best centre (two models exactly one template diameter apart).
    if (dist > a.r + b.r + kTolerance || dist < std::abs(a.r - b.r) - kTolerance) return;
    const double along = (a.r * a.r - b.r * b.r + dist * dist) / (2.0 * dist);
    const double h = std::sqrt(std::max(0.0, a.r * a.r - along * along));
    const Vec2 u = d / dist;
    const Vec2 n{-u.y, u.x};
    const Point m = a.c + u * along;
    out.push_back(m + n * h);
    if (h > 0.0) out.push_back(m - n * h);
}

Point nearest_on(const Disc& d, Point goal) {
    const Vec2 v = goal - d.c;
    const double len = length(v);
    if (len < 1e-12) return d.c + Vec2{d.r, 0.0};
    return d.c + v * (d.r / len);
}

// Scores candidates and keeps the best under the documented order.
struct Search {
    double radius = 0.0;
    std::span<const Model> targets{};
    std::span<const Model> friends{};
    std::span<const Template> placed{};          // must not be overlapped
    const std::vector<bool>* already = nullptr;  // targets that do not count again
    Point goal{};

    bool have = false;
    Point best{};
    std::size_t best_count = 0;
    double best_dist = 0.0;

    void consider(Point p) {
        const Circle t{p, radius};
        for (const Model& f : friends)
            if (intersects(t, f.base())) return;
        for (const Template& q : placed)
            if (overlaps(t, q.area())) return;
        std::size_t count = 0;
        for (std::size_t i = 0; i < targets.size(); ++i)
            if ((!already || !(*already)[i]) && intersects(t, targets[i].base())) ++count;
        const double dist = distance(p, goal);
        if (!have || count > best_count ||
            (count == best_count && better_tie(p, dist))) {
            have = true;
            best = p;
            best_count = count;
            best_dist = dist;
        }
    }

    bool better_tie(Point p, double dist) const {
        if (dist < best_dist - kTolerance) return true;
        if (dist > best_dist + kTolerance) return false;
        if (p.x < best.x - kTolerance) return true;
        if (p.x > best.x + kTolerance) return false;
        return p.y < best.y - kTolerance;
    }
};

void check_targets(double diameter, std::span<const Model> targets, std::span<const Model> friends) {
    validate_template_diameter(diameter);
    if (targets.empty()) throw RuleError("template placement needs at least one target model");
    validate(targets);
    validate(friends);
}

// The circles that bound the regions of interest: targets exact, friends grown by the margin.
std::vector<Disc> boundary_discs(double radius, std::span<const Model> targets,
                                 std::span<const Model> friends) {
    std::vector<Disc> discs;
    discs.reserve(targets.size() + friends.size());
    for (const Model& m : targets) discs.push_back({m.centre, radius + m.base_radius()});
    for (const Model& m : friends)
        discs.push_back({m.centre, radius + m.base_radius() + kPlacementMargin});
    return discs;
}

Placement finish(const Search& s, double diameter, std::span<const Model> targets) {
    Placement out;
    out.placed.diameter = diameter;
    if (!s.have || s.best_count == 0) {
        out.placed.centre = s.goal;
        return out;
    }
    out.found = true;
    out.placed.centre = s.best;
    const Circle t{s.best, diameter / 2.0};
    for (std::size_t i = 0; i < targets.size(); ++i)
        if ((!s.already || !(*s.already)[i]) && intersects(t, targets[i].base()))
            out.hits.push_back(i);
    return out;
}

}  // namespace

Placement place_template(double diameter, std::span<const Model> targets,
                         std::span<const Model> friends) {
    check_targets(diameter, targets, friends);
    Search s{.radius = diameter / 2.0, .targets = targets, .friends = friends, .placed = {},
             .goal = centroid(targets)};
    const auto discs = boundary_discs(s.radius, targets, friends);

    s.consider(s.goal);
    for (const Model& m : targets) s.consider(m.centre);
    std::vector<Point> pts;
    for (std::size_t i = 0; i < discs.size(); ++i) {
        s.consider(nearest_on(discs[i], s.goal));
        for (std::size_t j = i + 1; j < discs.size(); ++j) {
            pts.clear();
            crossings(discs[i], discs[j], pts);
            for (Point p : pts) s.consider(p);
        }
    }
    return finish(s, diameter, targets);
}

Placement place_template(double diameter, std::span<const Model> models, UnitId target_unit,
                         SideId friendly_side) {
    validate(models);
    std::vector<Model> targets, friends;
    std::vector<std::size_t> back;  // target index -> index into models
    for (std::size_t i = 0; i < models.size(); ++i) {
        if (models[i].unit == target_unit) {
            targets.push_back(models[i]);
            back.push_back(i);
        } else if (models[i].side == friendly_side) {
            friends.push_back(models[i]);
        }
    }
    if (targets.empty())
        throw RuleError("unit " + std::to_string(target_unit) + " has no models on the table");
    Placement p = place_template(diameter, targets, friends);
    for (std::size_t& h : p.hits) h = back[h];
    return p;
}

Placement place_touching_template(double diameter, std::span<const Template> placed,
                                  std::span<const Model> targets, std::span<const Model> friends) {
    check_targets(diameter, targets, friends);
    if (placed.empty()) return place_template(diameter, targets, friends);
    for (const Template& t : placed) validate_template_diameter(t.diameter);

    std::vector<bool> already(targets.size(), false);
    for (std::size_t i : models_under(placed, targets)) already[i] = true;

    Search s{.radius = diameter / 2.0, .targets = targets, .friends = friends, .placed = placed,
             .already = &already, .goal = centroid(targets)};
    const auto discs = boundary_discs(s.radius, targets, friends);
    // The circles the centre must lie on to touch each placed template (exactly, no margin: a
    // centre exactly at the sum of radii is in contact and does not overlap).
    std::vector<Disc> rails;
    for (const Template& t : placed) rails.push_back({t.centre, s.radius + t.radius()});

    std::vector<Point> pts;
    for (std::size_t i = 0; i < rails.size(); ++i) {
        s.consider(nearest_on(rails[i], s.goal));
        for (const Disc& d : discs) {
            pts.clear();
            crossings(rails[i], d, pts);
            for (Point p : pts) s.consider(p);
        }
        for (std::size_t j = i + 1; j < rails.size(); ++j) {
            pts.clear();
            crossings(rails[i], rails[j], pts);
            for (Point p : pts) s.consider(p);
        }
    }
    return finish(s, diameter, targets);
}

MultiPlacement place_templates(std::size_t count, double diameter, std::span<const Model> targets,
                               std::span<const Model> friends) {
    check_targets(diameter, targets, friends);
    MultiPlacement out;
    if (count == 0) return out;
    Placement first = place_template(diameter, targets, friends);
    if (!first.found) return out;
    out.found = true;
    out.placed.push_back(first.placed);
    while (out.placed.size() < count) {
        Placement next = place_touching_template(diameter, out.placed, targets, friends);
        // A further template that can add no new hit changes nothing the rules count (hits are
        // the union), so the search stops there rather than inventing a position for it.
        if (!next.found) break;
        out.placed.push_back(next.placed);
    }
    out.hits = models_under(out.placed, targets);
    return out;
}

}  // namespace umpire::table
