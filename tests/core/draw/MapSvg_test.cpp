// The shared SVG writer, hex pixel geometry, and the scenario pictures built on them.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "core/draw/MapSvg.hpp"
#include "core/draw/Svg.hpp"
#include "core/hex/AslName.hpp"
#include "core/hex/Layout.hpp"

using namespace umpire;

namespace {
std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
    return n;
}
hex::Hex asl(const char* name) {
    const auto n = hex::parse_asl_name(name);
    return hex::local_hex(n.column, n.row);
}
}  // namespace

TEST_CASE("Svg: numbers, escaping, shapes with classes and titles", "[draw]") {
    draw::Svg svg(100, 50);
    svg.circle(1, 2, 3, "red", "none", "model", "a <b>");
    svg.polyline({{0, 0}, {1.5, 2}}, "#000", 2, "4 2");
    svg.arrow(0, 0, 10, 0, "blue");
    const std::string s = svg.str(true);
    CHECK(s.find("<circle class=\"model\" cx=\"1\" cy=\"2\" r=\"3\" fill=\"red\" stroke=\"none\"><title>a &lt;b&gt;</title></circle>") != std::string::npos);
    CHECK(s.find("points=\"0,0 1.5,2\"") != std::string::npos);
    CHECK(s.find("stroke-dasharray=\"4 2\"") != std::string::npos);
    CHECK(count(s, "<polygon") == 1);  // the arrow head
    CHECK(draw::Svg::number(1.005) == "1" );
}

TEST_CASE("Layout: flat-topped odd-q pixel centres (B, D, ... half a hex lower)", "[draw][hex]") {
    const double size = 10;
    const auto a1 = hex::pixel_centre(asl("A1"), size), b1 = hex::pixel_centre(asl("B1"), size),
               c1 = hex::pixel_centre(asl("C1"), size), a2 = hex::pixel_centre(asl("A2"), size);
    CHECK(b1.x - a1.x == Approx(15));
    CHECK(b1.y - a1.y == Approx(std::sqrt(3.0) * 5));
    CHECK(c1.y == Approx(a1.y));
    CHECK(a2.y - a1.y == Approx(std::sqrt(3.0) * 10));
    // K6, J6 and K7 meet at one vertex (the A9.221 EX): the same pixel from each hex.
    const auto k6 = asl("K6"), j6 = asl("J6"), k7 = asl("K7");
    int shared = 0;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            for (int k = 0; k < 6; ++k) {
                const auto p = hex::pixel_corner(k6, static_cast<hex::VertexDir>(i), size);
                const auto q = hex::pixel_corner(j6, static_cast<hex::VertexDir>(j), size);
                const auto r = hex::pixel_corner(k7, static_cast<hex::VertexDir>(k), size);
                if (std::hypot(p.x - q.x, p.y - q.y) < 1e-9 && std::hypot(p.x - r.x, p.y - r.y) < 1e-9) ++shared;
            }
    CHECK(shared == 1);
}

TEST_CASE("render_hex_map: terrain, hexsides, counters, shaded overlays, ASL names", "[draw]") {
    draw::HexScene s;
    s.title = "test";
    s.cells = {{asl("K6"), "woods", 0}, {asl("K7"), "open", 0}};
    s.sides = {{asl("K6"), asl("J6"), "wall"}, {asl("K6"), asl("K8"), "wall"}};  // the second is not adjacent
    s.counters = {{asl("L8"), "MMG", "russian", false, std::nullopt}};
    s.shades = {{{asl("K7"), asl("J6")}, "lane", "#e15759", "Fire Lane"}};
    s.arrows = {{asl("L8"), asl("J5"), std::nullopt, "lane", "#b3001b", ""}};
    const std::string svg = draw::render_hex_map(s);
    CHECK(count(svg, "class=\"hex woods\"") == 1);
    CHECK(count(svg, "class=\"hexside wall\"") == 1);
    CHECK(count(svg, "class=\"counter\"") == 1);
    CHECK(count(svg, "<polygon class=\"lane\"") == 2);
    CHECK(svg.find(">K6</text>") != std::string::npos);
    CHECK(svg.find("<title>K6: woods</title>") != std::string::npos);
    CHECK(count(svg, "class=\"note\"") == 0);

    // A ruleset's notes: one line each, a second in the same hex one line lower; a note's hex
    // widens the picture like any other.
    s.notes = {{asl("K7"), "2 FP"}, {asl("K7"), "4 MP"}, {asl("P9"), "far"}};
    const std::string noted = draw::render_hex_map(s);
    CHECK(count(noted, "class=\"note\"") == 3);
    CHECK(noted.find(">2 FP</text>") != std::string::npos);
    CHECK(noted.find(">P9</text>") != std::string::npos);
    CHECK(svg.find(">P9</text>") == std::string::npos);
}

TEST_CASE("render_table: models, hits, arcs, templates", "[draw]") {
    draw::TableScene s;
    table::Model m;
    m.centre = {0, 0};
    s.figures = {{m, "a", "#ccc", true}, {m, "b", "#ccc", false}};
    s.figures[1].model.centre = {5, 0};
    s.arcs = {{{0, -10}, 90, 45, 12, "arc"}};
    s.templates = {table::make_template({0, 0}, 2)};
    const std::string svg = draw::render_table(s);
    CHECK(count(svg, "class=\"model hit\"") == 1);
    CHECK(count(svg, "class=\"model\"") == 1);
    CHECK(count(svg, "<polygon class=\"arc\"") == 1);
    CHECK(count(svg, "<circle class=\"template\"") == 1);
}
