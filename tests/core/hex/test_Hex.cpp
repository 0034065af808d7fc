#include <algorithm>
#include <set>
#include <unordered_set>

#include <catch2/catch.hpp>

#include "core/Error.hpp"
#include "core/hex/Hex.hpp"

using namespace umpire::hex;

TEST_CASE("Hex: cube coordinate, equality, ordering, hash", "[hex]") {
    constexpr Hex h{3, -5};
    STATIC_REQUIRE(h.s() == 2);
    CHECK(Hex{1, 2} == Hex{1, 2});
    CHECK(Hex{1, 2} != Hex{2, 1});
    CHECK(Hex{1, 9} < Hex{2, -9});
    CHECK(Hex{1, 2} < Hex{1, 3});
    std::unordered_set<Hex> set;
    for (int q = -20; q <= 20; ++q)
        for (int r = -20; r <= 20; ++r) set.insert({q, r});
    CHECK(set.size() == 41u * 41u);
    CHECK(set.count({-20, 20}) == 1);
}

TEST_CASE("Hex: directions and neighbours", "[hex]") {
    const Hex o{0, 0};
    CHECK(neighbour(o, HexsideDir::N) == Hex{0, -1});
    CHECK(neighbour(o, HexsideDir::NE) == Hex{1, -1});
    CHECK(neighbour(o, HexsideDir::SE) == Hex{1, 0});
    CHECK(neighbour(o, HexsideDir::S) == Hex{0, 1});
    CHECK(neighbour(o, HexsideDir::SW) == Hex{-1, 1});
    CHECK(neighbour(o, HexsideDir::NW) == Hex{-1, 0});
    const auto ns = neighbours(Hex{4, 7});
    for (int d = 0; d < 6; ++d) {
        CHECK(distance(Hex{4, 7}, ns[d]) == 1);
        // Opposite directions cancel; a spine vector is the sum of the hexsides either side.
        CHECK(direction(static_cast<HexsideDir>(d)) + direction(opposite(static_cast<HexsideDir>(d))) == o);
        CHECK(direction(static_cast<VertexDir>(d)) ==
              direction(static_cast<HexsideDir>(d)) + direction(rotate(static_cast<HexsideDir>(d), 1)));
        CHECK(distance(o, diagonal(o, static_cast<VertexDir>(d))) == 2);
    }
    CHECK(rotate(HexsideDir::NW, 1) == HexsideDir::N);
    CHECK(rotate(VertexDir::NE, -1) == VertexDir::NW);
    CHECK(opposite(VertexDir::E) == VertexDir::W);
}

TEST_CASE("Hex: distance", "[hex]") {
    CHECK(distance({0, 0}, {0, 0}) == 0);
    CHECK(distance({0, 0}, {3, -1}) == 3);
    CHECK(distance({-2, 5}, {4, -1}) == 6);
    CHECK(distance({1, 1}, {-1, -1}) == 4);
    for (int q = -4; q <= 4; ++q)
        for (int r = -4; r <= 4; ++r) CHECK(distance({q, r}, {0, 0}) == distance({0, 0}, {q, r}));
}

TEST_CASE("Hex: ring and range", "[hex]") {
    const Hex c{2, -3};
    CHECK(ring(c, 0) == std::vector<Hex>{c});
    const auto r1 = ring(c, 1);
    REQUIRE(r1.size() == 6);
    CHECK(r1.front() == neighbour(c, HexsideDir::N));  // starts N, goes clockwise
    CHECK(r1[1] == neighbour(c, HexsideDir::NE));
    for (int radius = 1; radius <= 5; ++radius) {
        const auto r = ring(c, radius);
        CHECK(r.size() == 6u * radius);
        CHECK(std::set<Hex>(r.begin(), r.end()).size() == r.size());
        for (std::size_t i = 0; i < r.size(); ++i) {
            CHECK(distance(c, r[i]) == radius);
            CHECK(distance(r[i], r[(i + 1) % r.size()]) == 1);  // a closed walk
        }
    }
    const auto all = range(c, 3);
    CHECK(all.size() == 37u);
    CHECK(all.front() == c);
    CHECK(std::set<Hex>(all.begin(), all.end()).size() == 37u);
    CHECK(std::is_sorted(all.begin(), all.end(),
                         [&](Hex a, Hex b) { return distance(c, a) < distance(c, b); }));
    CHECK_THROWS_AS(ring(c, -1), umpire::RuleError);
    CHECK_THROWS_AS(range(c, -1), umpire::RuleError);
}

TEST_CASE("Hex: line is a connected chain of distance+1 hexes", "[hex]") {
    for (Hex b : range({0, 0}, 8)) {
        for (Side side : {Side::Left, Side::Right}) {
            const auto l = line({0, 0}, b, side);
            REQUIRE(l.size() == static_cast<std::size_t>(distance({0, 0}, b)) + 1);
            CHECK(l.front() == Hex{0, 0});
            CHECK(l.back() == b);
            for (std::size_t i = 1; i < l.size(); ++i) {
                CHECK(distance(l[i - 1], l[i]) == 1);
                CHECK(distance(l[0], l[i]) == static_cast<int>(i));
            }
        }
    }
}

TEST_CASE("Hex: line tie rule and symmetry", "[hex]") {
    // Along a hexside (the every-other sample of a hexspine line) the side decides; elsewhere
    // left and right agree.
    const Hex o{0, 0};
    const Hex e2 = diagonal(o, VertexDir::E);  // (2,-1): the line runs along the NE|SE hexside
    CHECK(line(o, e2, Side::Left) == std::vector<Hex>{o, {1, -1}, e2});   // NE neighbour: left
    CHECK(line(o, e2, Side::Right) == std::vector<Hex>{o, {1, 0}, e2});   // SE neighbour: right
    CHECK(line(o, Hex{5, -2}, Side::Left) == line(o, Hex{5, -2}, Side::Right));
    // Reversing a line swaps its sides: left from a to b is right from b to a.
    for (Hex b : ring(o, 6)) {
        auto back = line(b, o, Side::Right);
        std::reverse(back.begin(), back.end());
        CHECK(line(o, b, Side::Left) == back);
    }
    // Translation invariance.
    const Hex t{-7, 11};
    auto moved = line(o + t, Hex{4, 3} + t);
    auto base = line(o, Hex{4, 3});
    for (auto& h : base) h = h + t;
    CHECK(moved == base);
}

TEST_CASE("Hex: grain and alternate grain", "[hex]") {
    const Hex o{0, 0};
    CHECK_FALSE(grain(o, o));
    CHECK_FALSE(on_alt_grain(o, o));
    for (int d = 0; d < 6; ++d) {
        CHECK(grain(o, 5 * direction(static_cast<HexsideDir>(d))));
        CHECK_FALSE(on_alt_grain(o, 5 * direction(static_cast<HexsideDir>(d))));
        CHECK(on_alt_grain(o, 3 * direction(static_cast<VertexDir>(d))));
        CHECK_FALSE(grain(o, 3 * direction(static_cast<VertexDir>(d))));
    }
    CHECK(grain(o, {2, -2}));
    CHECK_FALSE(grain(o, {3, -1}));
    CHECK_FALSE(on_alt_grain(o, {3, -1}));
    // An alternate grain of k spine steps has 2k hexes, alternating side hex / centre hex.
    const auto g = alt_grain(o, 4 * direction(VertexDir::SE), Side::Left);
    REQUIRE(g.size() == 8);
    for (std::size_t i = 1; i < g.size(); i += 2)
        CHECK(g[i] == static_cast<int>((i + 1) / 2) * direction(VertexDir::SE));
    CHECK_THROWS_AS(alt_grain(o, {3, -1}, Side::Left), umpire::RuleError);
    CHECK_THROWS_AS(alt_grain(o, o, Side::Left), umpire::RuleError);
    CHECK_THROWS_AS(alt_grain(o, {3, 0}, Side::Left), umpire::RuleError);  // a plain grain
}

TEST_CASE("Hex: in_wedge is closed", "[hex]") {
    const Hex o{0, 0};
    const Hex u = direction(HexsideDir::S), v = direction(HexsideDir::SW);
    CHECK(in_wedge(o, u, v, o));
    CHECK(in_wedge(o, u, v, {0, 4}));
    CHECK(in_wedge(o, u, v, {-4, 4}));
    CHECK(in_wedge(o, u, v, {-2, 4}));
    CHECK_FALSE(in_wedge(o, u, v, {1, 3}));
    CHECK_FALSE(in_wedge(o, u, v, {-3, 2}));
    CHECK(in_wedge(o, v, u, {-2, 4}));  // order of the spanning vectors does not matter
    CHECK_FALSE(in_wedge(o, v, u, {1, 3}));
}
