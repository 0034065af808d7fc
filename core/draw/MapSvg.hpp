// Scenario pictures: an ASL hex map (terrain, hexsides, counters, and the overlays the rules use:
// fire lanes, alternate hex grains, covered arcs, vehicle facing, movement paths) and a tabletop
// (model bases, fixed-weapon arcs, HE templates with the models under them). Plain data in, an SVG
// document out; the bindings read the scenario files and fill these in (app/ScenarioDraw.hpp).
//
// Every element a test or a reader may look for has a class: hex (with the terrain as a second
// class: "hex woods"), hexside, counter, lane, alt-grain, covered-arc, facing, path, model, hit,
// arc, template. Each hex also carries data-hex (its ASL name), data-terrain and data-level, which
// `umpire serve`'s page reads when the pointer is over it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/hex/Hex.hpp"
#include "core/hex/VertexDir.hpp"
#include "core/table/Model.hpp"
#include "core/table/Template.hpp"

namespace umpire::draw {

struct HexScene {
    std::string title;
    struct Cell {
        hex::Hex hex;
        std::string terrain;  // "open", "woods", "grain", "stone_building", ...
        int elevation = 0;
    };
    struct Side {
        hex::Hex a, b;
        std::string kind;  // wall, hedge, bocage, road
    };
    struct Counter {
        hex::Hex hex;
        std::string label;
        std::string side;  // german, russian, ... (the colour); ATTACKER/DEFENDER
        bool vehicle = false;
        std::optional<hex::Hex> hexside_with;  // a Bypass vehicle sits on the hexside with this hex
    };
    struct Shade {
        std::vector<hex::Hex> hexes;  // hexes shaded
        std::string css_class;        // lane, alt-grain, covered-arc
        std::string colour;
        std::string label;
    };
    struct Arrow {
        hex::Hex from, to;
        std::optional<hex::VertexDir> to_vertex;  // point at this vertex of `from` instead of `to`
        std::string css_class;                    // facing, path, lane
        std::string colour;
        std::string label;
    };
    struct Note {
        hex::Hex hex;
        std::string text;  // short: "2 FP", "4 MP"; drawn below the hex's counters
        std::string colour = "#b3001b";
    };
    std::vector<Cell> cells;
    std::vector<Side> sides;
    std::vector<Counter> counters;
    std::vector<Shade> shades;
    std::vector<Arrow> arrows;
    std::vector<Note> notes;  // a ruleset's own labels (e.g. Fire Lane Residual FP per hex)
    std::string default_terrain = "open";
};

// The fill colour of a terrain name (unknown names: a neutral grey), and of a side's counters
// and models (german, russian, ..., axis, allies, ATTACKER, DEFENDER).
std::string terrain_colour(const std::string& terrain);
std::string side_colour(const std::string& side);

// The map: every hex in the rectangle (in board columns and rows) around everything named in
// the scene, one hex of margin, each labelled with its ASL name.
std::string render_hex_map(const HexScene& scene, double hex_size = 34);

struct TableScene {
    std::string title;
    struct Figure {
        table::Model model;
        std::string label;
        std::string colour;
        bool hit = false;  // under an HE template: drawn with a red ring
    };
    struct Arc {
        table::Point apex;
        double facing = 0;       // degrees, 0 = +x, counter-clockwise (y up)
        double half_angle = 45;  // degrees either side
        double radius = 10;      // inches
        std::string label;
    };
    std::vector<Figure> figures;
    std::vector<Arc> arcs;
    std::vector<table::Template> templates;
};

// Inches, x right and y up the table (umpire.table conventions), fitted into about 900 px.
std::string render_table(const TableScene& scene);

}  // namespace umpire::draw
