// The Bolt Action weapons text's diagrams, as far as their captions fix the situation. Positions
// are approximate (the figures are not in the text); each test encodes what the caption states.
#include <catch2/catch.hpp>

#include <vector>

#include "core/table/Arc.hpp"
#include "core/table/Placement.hpp"
#include "core/table/Unit.hpp"

using namespace umpire::table;

namespace {
Model at(double x, double y, UnitId unit, SideId side = 2, double base_mm = 25) {
    return Model{.centre = {x, y}, .base_mm = base_mm, .side = side, .unit = unit};
}
}  // namespace

TEST_CASE("Diagram 8: Fixed weapon front arc", "[table][diagram]") {
    // "Both the German field gun and infantry squad are within the front arc of the machine gun
    // and can be targeted with a Fire order. The officer is outside of the front arc ... The
    // machine gun would need to be ordered to Advance to be repositioned."
    const Model mg{.centre = {0, 0}, .side = 1, .unit = 10, .facing = 90};  // barrel towards +y
    const std::vector<Model> enemy = {
        at(3, 12, 1, 2, 60),                                                  // field gun (14° off)
        at(-6, 10, 2), at(-8, 9, 2), at(-10, 8, 2), at(-9, 11, 2), at(-11, 10, 2),  // squad, partly in
        at(12, 4, 3),                                                         // officer (71.6° off)
    };
    CHECK(unit_in_arc(mg.centre, mg.facing, kFixedHalfAngle, enemy, 1));
    CHECK(unit_in_arc(mg.centre, mg.facing, kFixedHalfAngle, enemy, 2));
    CHECK_FALSE(in_arc(mg, kFixedHalfAngle, enemy[3]));  // one squad member is outside...
    CHECK_FALSE(unit_in_arc(mg.centre, mg.facing, kFixedHalfAngle, enemy, 3));
    // Advance: rotate on the spot (clockwise, negative), then the officer can be shot.
    const double turn = unit_rotation_into_arc(mg.centre, mg.facing, kFixedHalfAngle, enemy, 3);
    CHECK(turn < 0);
    CHECK(turn > -27);
    CHECK(unit_in_arc(mg.centre, mg.facing + turn, kFixedHalfAngle, enemy, 3));
}

TEST_CASE("Diagram 9A: an HE (3\") template scores three hits", "[table][diagram]") {
    // "The player works out that the best place for the template is as shown, scoring three
    // hits." A six-man squad in a loose zig-zag 1.8″ apart: any three neighbours fit under a 3″
    // template (reach 1.99″ from its centre), four never do.
    const std::vector<Model> squad = {at(0, 0, 1), at(1.8, 1, 1), at(3.6, 0, 1),
                                      at(5.4, 1, 1), at(7.2, 0, 1), at(9, 1, 1)};
    const Placement p = place_template(3.0, squad, {});
    REQUIRE(p.found);
    CHECK(p.hits.size() == 3);
}

TEST_CASE("Diagram 9B: an artillery unit hit by HE (3\") suffers two hits", "[table][diagram]") {
    // "If the crew models have no bases, imagine they are mounted on 25mm round bases" (and the
    // text says the same of a collective base, so the gun counts as one 25 mm model too). The gun
    // with three crew spread behind it: the best a 3″ template does is the gun and one crewman.
    const std::vector<Model> gun_team = {at(0, 0, 1), at(-3, -2.5, 1), at(0, -4, 1), at(3, -2.5, 1)};
    const Placement p = place_template(3.0, gun_team, {});
    REQUIRE(p.found);
    CHECK(p.hits.size() == 2);
}

TEST_CASE("Diagram 10: two HE (1\") hits, templates in contact, three hits", "[table][diagram]") {
    // "A light automatic cannon scores two HE (1”) hits against the unit. The two templates are
    // placed and score three hits on the target." Four models 1.2″ apart in a row.
    const std::vector<Model> squad = {at(0, 0, 1), at(1.2, 0, 1), at(2.4, 0, 1), at(3.6, 0, 1)};
    const MultiPlacement m = place_templates(2, 1.0, squad, {});
    REQUIRE(m.placed.size() == 2);
    CHECK(distance(m.placed[0].centre, m.placed[1].centre) == Approx(1.0));  // in contact
    CHECK(m.hits.size() == 3);
    // A model under both templates is hit once: a 2-template union never double counts.
    CHECK(count_under(m.placed, squad) == 3);
}
