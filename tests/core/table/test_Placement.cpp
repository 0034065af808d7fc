#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "core/Error.hpp"
#include "core/table/Placement.hpp"
#include "core/table/Unit.hpp"

using namespace umpire::table;

namespace {
constexpr double r25 = 25.0 / 25.4 / 2.0;  // 0.4921259843″
Model at(double x, double y, UnitId unit = 1, SideId side = 2) {
    return Model{.centre = {x, y}, .side = side, .unit = unit};
}
using Idx = std::vector<std::size_t>;

// Every placement the search returns must be legal and must hit what it says.
void check_legal(const Placement& p, const std::vector<Model>& targets, const std::vector<Model>& friends) {
    REQUIRE(p.found);
    CHECK(models_under(p.placed, friends).empty());
    CHECK(models_under(p.placed, targets) == p.hits);
}
}  // namespace

TEST_CASE("placement: a row of models, ties broken towards the centroid then lowest x", "[table][placement]") {
    // Five models 1.5″ apart: a 1″ template (reach 0.9921″ from a centre) can cover two neighbours,
    // never three. The pairs (1,2) and (2,3) are equally close to the centroid (3,0): the nearest
    // points of their regions are (2.4921,0) and (3.5079,0). Lowest x wins.
    const std::vector<Model> ts = {at(0, 0), at(1.5, 0), at(3, 0), at(4.5, 0), at(6, 0)};
    const Placement p = place_template(1.0, ts, {});
    check_legal(p, ts, {});
    CHECK(p.hits == Idx{1, 2});
    CHECK(p.placed.centre.x == Approx(1.5 + 0.5 + r25).margin(1e-6));
    CHECK(p.placed.centre.y == Approx(0.0).margin(1e-6));
    CHECK(p.placed.diameter == 1.0);
}

TEST_CASE("placement finds centres that are neither a model nor the centroid", "[table][placement]") {
    // Equilateral triangle of side 1.6″: its circumcentre is 0.924″ from each corner, inside a 1″
    // template's reach (0.9921″); a model centre reaches only one model, an edge midpoint two.
    // A fourth model far off drags the centroid away, so only the geometric candidates find 3.
    const std::vector<Model> ts = {at(0, 0), at(1.6, 0), at(0.8, 1.6 * std::sqrt(3.0) / 2), at(6, 0)};
    const Placement p = place_template(1.0, ts, {});
    check_legal(p, ts, {});
    CHECK(p.hits == Idx{0, 1, 2});
}

TEST_CASE("placement must not clip a friendly model, so it covers fewer targets", "[table][placement]") {
    // Three models 1.4″ apart in a row: a 2″ template (reach 1.4921″) centred near the middle one
    // covers all three. Two friends 1.45″ either side of the middle one block every such centre.
    const std::vector<Model> ts = {at(0, 0), at(1.4, 0), at(2.8, 0)};
    const std::vector<Model> friends = {at(1.4, 1.45, 9, 1), at(1.4, -1.45, 9, 1)};
    const Placement free = place_template(2.0, ts, {});
    CHECK(free.hits.size() == 3);
    const Placement p = place_template(2.0, ts, friends);
    check_legal(p, ts, friends);
    CHECK(p.hits.size() == 2);
    // One friend alone still leaves room for all three on the other side.
    const std::vector<Model> one = {friends[0]};
    const Placement q = place_template(2.0, ts, one);
    check_legal(q, ts, one);
    CHECK(q.hits.size() == 3);
}

TEST_CASE("placement picks the cluster with most models", "[table][placement]") {
    const std::vector<Model> ts = {at(0, 0),   at(1, 0),                    // two
                                   at(10, 0),  at(11, 0), at(10.5, 0.9),   // three
                                   at(20, 0)};
    const Placement p = place_template(3.0, ts, {});
    check_legal(p, ts, {});
    CHECK(p.hits == Idx{2, 3, 4});
}

TEST_CASE("placement: equal clusters go to the one nearer the unit's centroid", "[table][placement]") {
    // Pairs at x = 0..1 and x = 10..11, a loner at 8: centroid x = 6, so the right pair.
    const std::vector<Model> ts = {at(0, 0), at(1, 0), at(10, 0), at(11, 0), at(8, 0)};
    const Placement p = place_template(1.0, ts, {});
    check_legal(p, ts, {});
    CHECK(p.hits == Idx{2, 3});
    CHECK(p.placed.centre.x == Approx(11 - 0.5 - r25).margin(1e-6));
}

TEST_CASE("a 1-inch template between two models 1 inch apart hits both (HE text)", "[table][placement]") {
    // Base edges exactly 1″ apart: the template touches both bases, and the text counts two hits.
    const double gap = 1.0 + 2 * r25;
    for (double deg : {0.0, 33.0, 90.0, 217.0}) {
        const Vec2 d = direction(deg);
        const std::vector<Model> ts = {Model{.centre = Point{3, 4}}, Model{.centre = Point{3, 4} + d * gap}};
        const Placement p = place_template(1.0, ts, {});
        check_legal(p, ts, {});
        CHECK(p.hits.size() == 2);
        CHECK(distance(p.placed.centre, Point{3, 4} + d * (gap / 2)) == Approx(0.0).margin(1e-6));
    }
}

TEST_CASE("no placement when every centre reaching a target clips a friend", "[table][placement]") {
    const std::vector<Model> ts = {at(0, 0)};
    std::vector<Model> friends;
    for (int k = 0; k < 6; ++k) friends.push_back(Model{.centre = direction(60.0 * k) * 0.99, .side = 1});
    const Placement p = place_template(1.0, ts, friends);
    CHECK_FALSE(p.found);
    CHECK(p.hits.empty());
    CHECK(p.placed.centre == Point{0, 0});
}

TEST_CASE("placement from one model list: target unit, friendly side, other enemies ignored", "[table][placement]") {
    // Unit 1 (side 2) is the target; unit 3 (side 2) is another enemy right beside it, which the
    // template may clip freely; unit 5 (side 1) is friendly.
    const std::vector<Model> all = {at(0, 0, 1, 2), at(1.2, 0, 1, 2), at(0.6, 0.3, 3, 2),
                                    at(5, 5, 5, 1), at(2.4, 0, 1, 2)};
    const Placement p = place_template(2.0, all, 1, 1);
    REQUIRE(p.found);
    CHECK(p.hits == Idx{0, 1, 4});  // indices into `all`
    CHECK(models_under(p.placed, all) == Idx{0, 1, 2, 4});  // the other enemy unit is clipped too
    CHECK_THROWS_AS(place_template(2.0, all, 42, 1), umpire::RuleError);
}

TEST_CASE("placement errors", "[table][placement]") {
    const std::vector<Model> ts = {at(0, 0)};
    CHECK_THROWS_AS(place_template(0.9, ts, {}), umpire::RuleError);
    CHECK_THROWS_AS(place_template(4.1, ts, {}), umpire::RuleError);
    CHECK_THROWS_AS(place_template(2.0, std::vector<Model>{}, {}), umpire::RuleError);
    CHECK_THROWS_AS(place_templates(2, 5.0, ts, {}), umpire::RuleError);
}

TEST_CASE("multiple HE hits: templates in contact, not overlapping, union of hits", "[table][placement]") {
    const std::vector<Model> ts = {at(0, 0), at(1.2, 0), at(2.4, 0), at(3.6, 0)};
    const MultiPlacement m = place_templates(2, 1.0, ts, {});
    REQUIRE(m.found);
    REQUIRE(m.placed.size() == 2);
    CHECK(distance(m.placed[0].centre, m.placed[1].centre) == Approx(1.0).margin(1e-9));
    CHECK_FALSE(overlaps(m.placed[0].area(), m.placed[1].area()));
    CHECK(m.hits.size() == 3);
    CHECK(m.hits == models_under(m.placed, ts));
    // One template only: the first.
    CHECK(place_templates(1, 1.0, ts, {}).hits.size() == 2);
    // More templates than there is anything new to hit: stops when nothing new can be hit.
    const MultiPlacement all = place_templates(9, 1.0, ts, {});
    CHECK(all.hits.size() == 4);
    for (std::size_t i = 0; i < all.placed.size(); ++i)
        for (std::size_t j = i + 1; j < all.placed.size(); ++j)
            CHECK_FALSE(overlaps(all.placed[i].area(), all.placed[j].area()));
}

TEST_CASE("placement agrees with a brute-force grid search", "[table][placement][slow]") {
    // Random units of 10 models with 3 friends nearby. No grid point may beat the search, either in
    // models hit or (at equal hits) in closeness to the centroid.
    std::mt19937 rng(20240611);
    std::uniform_real_distribution<double> u(0.0, 6.0);
    const double step = 0.025;
    for (int round = 0; round < 12; ++round) {
        std::vector<Model> ts, fs;
        while (ts.size() < 10) {
            const Model m = at(u(rng), u(rng));
            bool clear = true;  // bases do not overlap on a real table
            for (const Model& o : ts) clear = clear && edge_distance(m, o) > 0.05;
            if (clear) ts.push_back(m);
        }
        while (fs.size() < 3) {
            const Model m = at(u(rng) * 1.4 - 1.0, u(rng) * 1.4 - 1.0, 9, 1);
            bool clear = true;
            for (const Model& o : ts) clear = clear && edge_distance(m, o) > 0.05;
            for (const Model& o : fs) clear = clear && edge_distance(m, o) > 0.05;
            if (clear) fs.push_back(m);
        }
        const double diameter = 1.0 + (round % 4);
        const Placement p = place_template(diameter, ts, fs);
        check_legal(p, ts, fs);
        const Point g = centroid(ts);
        const double best_d = distance(p.placed.centre, g);
        std::size_t grid_best = 0, closer = 0;
        for (double x = -3; x <= 9; x += step)
            for (double y = -3; y <= 9; y += step) {
                const Template t{{x, y}, diameter};
                if (!models_under(t, fs).empty()) continue;
                const std::size_t n = models_under(t, ts).size();
                grid_best = std::max(grid_best, n);
                if (n == p.hits.size() && distance(Point{x, y}, g) < best_d - 1e-6) ++closer;
            }
        CHECK(closer == 0);
        CHECK(grid_best <= p.hits.size());
        CHECK(grid_best + 1 >= p.hits.size());  // the grid gets close (usually equal)
    }
}
