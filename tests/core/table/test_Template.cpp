#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "core/Error.hpp"
#include "core/table/Template.hpp"

using namespace umpire::table;

namespace {
constexpr double r25 = 25.0 / 25.4 / 2.0;  // 0.4921259843″
Model at(double x, double y) { return Model{.centre = {x, y}}; }
using Idx = std::vector<std::size_t>;
}  // namespace

TEST_CASE("a model is under a template if any part of its base is", "[table][template]") {
    const Template t = make_template({0, 0}, 2.0);  // radius 1″; reaches bases up to 1.4921″ away
    CHECK(is_under(t, at(0, 0)));
    CHECK(is_under(t, at(1.4, 0)));       // centre outside the template, base partly under
    CHECK_FALSE(is_under(t, at(1.5, 0)));  // 1.5 > 1 + 0.4921
    CHECK(is_under(t, at(1.0, 1.0)));     // 1.4142″ away
    CHECK_FALSE(is_under(t, at(1.1, 1.1)));  // 1.5556″ away
    // Exact tangency counts as under (see Template.hpp), a hair further does not.
    CHECK(is_under(t, at(1.0 + r25, 0)));
    CHECK(is_under(t, Model{.centre = Point{0, 0} + direction(37) * (1.0 + r25)}));
    CHECK_FALSE(is_under(t, at(1.0 + r25 + 1e-7, 0)));
}

TEST_CASE("count_under and models_under with exact numbers", "[table][template]") {
    const std::vector<Model> ms = {at(0, 0), at(1.4, 0), at(1.5, 0), at(-1.0, -1.0), at(0, 3)};
    CHECK(count_under({0, 0}, 2.0, ms) == 3);
    CHECK(models_under(make_template({0, 0}, 2.0), ms) == Idx{0, 1, 3});
    CHECK(count_under({0, 0}, 1.0, ms) == 1);  // 1″: reaches 0.9921″
    CHECK(count_under({0.7, 0}, 1.0, ms) == 3);  // 0.7, 0.7 and 0.8″ from the three in a row
    CHECK(count_under({0.2, 0}, 1.0, ms) == 1);  // (1.4,0) is 1.2″ away: out; (-1,-1) 1.56″
    CHECK(count_under({0, 1.5}, 4.0, ms) == 4);  // radius 2: reaches 2.4921″; (1.5,0) is 2.12″
    CHECK(models_under(make_template({0, 1.5}, 4.0), ms) == Idx{0, 1, 2, 4});
}

TEST_CASE("template diameter must be 1 to 4 inches", "[table][template]") {
    CHECK_THROWS_AS(make_template({0, 0}, 0.5), umpire::RuleError);
    CHECK_THROWS_AS(make_template({0, 0}, 4.5), umpire::RuleError);
    CHECK_THROWS_AS(make_template({0, 0}, 0.0), umpire::RuleError);
    CHECK_THROWS_AS(make_template({0, 0}, std::nan("")), umpire::RuleError);
    CHECK_THROWS_AS(count_under({0, 0}, 5.0, std::vector<Model>{}), umpire::RuleError);
    CHECK_NOTHROW(make_template({0, 0}, 1.0));
    CHECK_NOTHROW(make_template({0, 0}, 4.0));
    CHECK_NOTHROW(make_template({0, 0}, 2.5));
    try {
        make_template({0, 0}, 6.0);
    } catch (const umpire::RuleError& e) {
        CHECK(std::string(e.what()).find("between 1\" and 4\"") != std::string::npos);
    }
}

TEST_CASE("several templates hit each model once (the union)", "[table][template]") {
    // Two 2″ templates in contact at x = 1; the model at the contact point is under both.
    const std::vector<Model> ms = {at(-1.2, 0), at(1.0, 0), at(3.2, 0), at(1.0, 3)};
    const std::vector<Template> ts = {make_template({0, 0}, 2.0), make_template({2, 0}, 2.0)};
    CHECK(models_under(ts[0], ms).size() == 2);
    CHECK(models_under(ts[1], ms).size() == 2);
    CHECK(count_under(ts, ms) == 3);  // not 4
    CHECK(models_under(ts, ms) == Idx{0, 1, 2});
    CHECK(count_under(std::vector<Template>{}, ms) == 0);
}

TEST_CASE("circles: overlap excludes contact, intersect includes it", "[table][template]") {
    CHECK_FALSE(overlaps({{0, 0}, 1}, {{2, 0}, 1}));
    CHECK(intersects({{0, 0}, 1}, {{2, 0}, 1}));
    CHECK(overlaps({{0, 0}, 1}, {{1.99, 0}, 1}));
    CHECK_FALSE(intersects({{0, 0}, 1}, {{2.01, 0}, 1}));
}
