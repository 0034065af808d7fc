#include "app/ScenarioDraw.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "host/DataGuard.hpp"
#include "host/FileSnapshot.hpp"
#include "host/Isolation.hpp"
#include "host/LuaHost.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"
#include "ruleset/YamlLoader.hpp"
#include "core/draw/MapSvg.hpp"
#include "core/hex/AslName.hpp"
#include "core/hex/Facing.hpp"
#include "core/hex/Vertex.hpp"
#include "core/table/Placement.hpp"

namespace umpire {
namespace fs = std::filesystem;

namespace {

struct Reader {
    std::string display;
    // Board placements (map.boards: a number or {board, column_offset, row_offset}); a name
    // without a board is on the first one.
    std::map<int, std::pair<int, int>> offsets;
    int default_board = 0;

    hex::Hex place(const hex::AslName& n) const {
        const auto it = offsets.find(n.board == 0 ? default_board : n.board);
        const auto [dc, dr] = it == offsets.end() ? std::pair<int, int>{0, 0} : it->second;
        return hex::local_hex(n.column + dc, n.row + dr);
    }

    [[noreturn]] void fail(const YAML::Node& n, const std::string& what) const {
        const auto m = n.Mark();
        throw ScriptError(display + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1) + ": " +
                              what,
                          display, m.line + 1);
    }
    // An ASL hex name; the board is not drawn (a scenario's hexes are on one board).
    hex::Hex hex_of(const YAML::Node& n) const {
        if (!n || !n.IsScalar()) fail(n, "expected a hex name like K8 or 21K8");
        try {
            return place(hex::parse_asl_name(n.Scalar()));
        } catch (const std::exception& e) {
            fail(n, e.what());
        }
    }
    std::pair<hex::Hex, hex::Hex> hexside_of(const YAML::Node& n) const {
        const std::string s = n.Scalar();
        const auto dash = s.find('-');
        if (dash == std::string::npos) fail(n, "expected a hexside like J2-K2");
        try {
            const auto a = hex::parse_asl_name(s.substr(0, dash)), b = hex::parse_asl_name(s.substr(dash + 1));
            return {place(a), place(b)};
        } catch (const std::exception& e) {
            fail(n, e.what());
        }
    }
    static std::string str(const YAML::Node& n, const std::string& fallback = "") {
        return n && n.IsScalar() ? n.Scalar() : fallback;
    }
};

draw::HexScene hex_scene(const YAML::Node& doc, Reader& rd, const DrawOptions& o) {
    draw::HexScene scene;
    scene.title = Reader::str(doc["name"], "scenario");
    const YAML::Node map = doc["map"];
    if (doc["board"]) rd.default_board = doc["board"].as<int>();
    if (map && map["boards"] && map["boards"].IsSequence()) {
        for (const auto& b : map["boards"]) {
            const int board = b.IsMap() ? b["board"].as<int>() : b.as<int>();
            if (rd.offsets.empty() && !doc["board"]) rd.default_board = board;
            rd.offsets[board] = {b.IsMap() && b["column_offset"] ? b["column_offset"].as<int>() : 0,
                                 b.IsMap() && b["row_offset"] ? b["row_offset"].as<int>() : 0};
        }
    }
    if (map && map["default"]) scene.default_terrain = Reader::str(map["default"]);
    if (map && map["hexes"]) {
        for (const auto& kv : map["hexes"]) {
            draw::HexScene::Cell c;
            c.hex = rd.hex_of(kv.first);
            if (kv.second.IsScalar()) {
                c.terrain = kv.second.Scalar();
            } else if (kv.second.IsMap()) {
                c.terrain = Reader::str(kv.second["terrain"], scene.default_terrain);
                if (kv.second["elevation"]) c.elevation = kv.second["elevation"].as<int>();
                if (kv.second["wrecks"] && kv.second["wrecks"].as<int>() > 0 && c.terrain == "open") c.terrain = "wreck";
            }
            scene.cells.push_back(c);
        }
    }
    if (map && map["hexsides"])
        for (const auto& s : map["hexsides"])
            scene.sides.push_back({rd.hex_of(s["a"]), rd.hex_of(s["b"]), Reader::str(s["kind"], "wall")});
    if (map && map["roads"])
        for (const auto& r : map["roads"]) {
            const auto [a, b] = rd.hexside_of(r);
            scene.arrows.push_back({a, b, std::nullopt, "road", "#a08a5a", ""});
        }
    std::map<std::string, hex::Hex> unit_hex;
    if (doc["units"] && doc["units"].IsMap()) {
        for (const auto& kv : doc["units"]) {
            const auto& u = kv.second;
            const hex::Hex h = rd.hex_of(u["hex"]);
            unit_hex[kv.first.Scalar()] = h;
            std::string label = Reader::str(u["name"], Reader::str(u["counter"], kv.first.Scalar()));
            for (const char* nat : {"German ", "Russian ", "American "})
                if (label.rfind(nat, 0) == 0) label = label.substr(std::string(nat).size());
            scene.counters.push_back({h, label, Reader::str(u["side"]), false, std::nullopt});
        }
    }
    if (doc["vehicles"] && doc["vehicles"].IsMap()) {
        for (const auto& kv : doc["vehicles"]) {
            const auto& v = kv.second;
            const std::string label = Reader::str(v["type"], kv.first.Scalar());
            if (v["bypass"]) {
                const hex::Hex h = rd.hex_of(v["bypass"]["hex"]);
                const auto [a, b] = rd.hexside_of(v["bypass"]["hexside"]);
                scene.counters.push_back({h, label, Reader::str(v["side"]), true, a == h ? b : a});
                continue;
            }
            const hex::Hex h = rd.hex_of(v["hex"]);
            scene.counters.push_back({h, label, Reader::str(v["side"]), true, std::nullopt});
            if (!v["vca"] || v["vca"].size() != 2) continue;
            const hex::Hex f1 = rd.hex_of(v["vca"][0]), f2 = rd.hex_of(v["vca"][1]);
            hex::VertexDir dir;
            try {
                dir = hex::vertex_dir(h, hex::vertex_between(h, f1, f2));
            } catch (const std::exception& e) {
                rd.fail(v["vca"], std::string("the VCA hexes must share a vertex with the vehicle's hex: ") + e.what());
            }
            if (o.covered_arc) {
                draw::HexScene::Shade ca{{}, "covered-arc", "#4e79a7", label + " VCA"};
                for (const auto& t : hex::range(h, 4)) {
                    const int col = t.q, row = t.r + (t.q - (t.q & 1)) / 2;  // odd-q (AslName.hpp)
                    if (col < 0 || row < 0) continue;                        // off the boards
                    if (t != h && hex::in_covered_arc(h, dir, t)) ca.hexes.push_back(t);
                }
                scene.shades.push_back(ca);
            }
            if (o.facing) scene.arrows.push_back({h, h, dir, "facing", "#1f3b73", ""});
        }
    }
    // Fire lanes (A9.22): along a hex grain the lane is the line of hexes to the counter; along an
    // alternate hex grain (A9.221) the hexes on the declared side (both sides if none declared).
    std::vector<YAML::Node> lanes;
    if (doc["lane"]) lanes.push_back(doc["lane"]);
    if (doc["lanes"])
        for (const auto& l : doc["lanes"]) lanes.push_back(l);
    if (o.fire_lane || o.alt_grain) {
        for (const auto& l : lanes) {
            const std::string mg = Reader::str(l["mg"], "mg");
            const auto it = unit_hex.find(mg);
            if (it == unit_hex.end()) rd.fail(l, "lane: no unit '" + mg + "' with a hex");
            const hex::Hex from = it->second, target = rd.hex_of(l["target"]);
            const hex::Hex end = l["counter"] ? rd.hex_of(l["counter"]) : target;
            const std::string side = Reader::str(l["side"]);
            if (hex::grain(from, end)) {
                if (o.fire_lane) {
                    auto hexes = hex::line(from, end);
                    hexes.erase(hexes.begin());
                    scene.shades.push_back({hexes, "lane", "#e15759", "Fire Lane"});
                }
            } else if (hex::on_alt_grain(from, end)) {
                const auto left = hex::alt_grain(from, end, hex::Side::Left);
                const auto right = hex::alt_grain(from, end, hex::Side::Right);
                if (o.alt_grain) {
                    scene.shades.push_back({left, "alt-grain", "#59a14f", "left alternate hex grain"});
                    scene.shades.push_back({right, "alt-grain", "#b07aa1", "right alternate hex grain"});
                }
                if (o.fire_lane) {
                    std::vector<hex::Hex> hexes;
                    if (side != "right") hexes.insert(hexes.end(), left.begin(), left.end());
                    if (side != "left")
                        for (const auto& h : right)
                            if (std::find(hexes.begin(), hexes.end(), h) == hexes.end()) hexes.push_back(h);
                    scene.shades.push_back({hexes, "lane", "#e15759", "Fire Lane" + (side.empty() ? "" : " (" + side + ")")});
                }
            } else {
                rd.fail(l, "lane: the counter hex is on neither a hex grain nor an alternate hex grain from the MG");
            }
            // No text on the arrow: it would sit on the lane hexes, where the Residual FP notes go.
            if (o.fire_lane) scene.arrows.push_back({from, end, std::nullopt, "lane", "#b3001b", ""});
        }
    }
    if (o.path && doc["moves"])
        for (const auto& m : doc["moves"])
            scene.arrows.push_back({rd.hex_of(m["from"]), rd.hex_of(m["to"]), std::nullopt, "path", "#333333",
                                    m["mf"] ? Reader::str(m["mf"]) + " MF" : ""});
    return scene;
}

// The hex-map overlay flags by their Lua name (the command-line flag is the same with '-' for '_'):
// what the draw hook's overlay table holds, and what a tabletop scene refuses.
std::array<std::pair<std::string, bool>, 5> overlay_flags(const DrawOptions& o) {
    return {{{"fire_lane", o.fire_lane}, {"alt_grain", o.alt_grain}, {"covered_arc", o.covered_arc},
             {"facing", o.facing}, {"path", o.path}}};
}

// Reads a hex name a ruleset gave (a string like "Y4" or "1K2"), placed like the scenario's own.
hex::Hex ruleset_hex(lua_State* L, int index, const Reader& rd, const std::string& where) {
    const char* name = lua_isstring(L, index) ? lua_tostring(L, index) : nullptr;
    if (!name) throw ScriptError(where + ": expected a hex name string, got " + luaL_typename(L, index));
    try {
        return rd.place(hex::parse_asl_name(name));
    } catch (const std::exception& e) {
        throw ScriptError(where + ": " + e.what());
    }
}

// The rulesets' own labels: every handler of umpire.hooks "draw" is called with the scenario (as
// umpire.data.scenario gives it) and an overlay table {fire_lane, alt_grain, covered_arc, facing,
// path, notes = {}, arrows = {}}. A handler may append notes {hex = "Y4", text = "2 FP"[, colour]}
// and arrows {from = "L1", to = "K1"[, text = "+½ MP"][, colour]}. A hex the scenario's reader
// cannot place is an error naming the note or arrow.
void add_ruleset_overlay(LuaHost& rules, const fs::path& file, const Reader& rd, const DrawOptions& o,
                         draw::HexScene& scene) {
    lua_State* L = rules.state();
    const int top = lua_gettop(L);
    rules.push_env();
    lua_getfield(L, -1, "umpire");
    lua_getfield(L, -1, "hooks");
    lua_getfield(L, -1, "fire");
    lua_pushliteral(L, "draw");
    yaml::push_file(L, file, rd.display);
    lua_newtable(L);
    const int overlay = lua_gettop(L);
    for (const auto& [name, on] : overlay_flags(o)) {
        lua_pushboolean(L, on);
        lua_setfield(L, overlay, name.c_str());
    }
    lua_newtable(L);
    lua_setfield(L, overlay, "notes");
    lua_newtable(L);
    lua_setfield(L, overlay, "arrows");
    lua_pushvalue(L, overlay);
    lua_insert(L, overlay - 3);  // keep the overlay below the call: fire(event, scenario, overlay)
    auto optional_string = [&](int index, const std::string& fallback) {
        return lua_isstring(L, index) ? std::string(lua_tostring(L, index)) : fallback;
    };
    // Calls each(i) with item i of overlay[list] on top of the stack, for i = 1, 2, ... while the
    // items are tables; each() leaves the stack as it found it.
    auto for_each_item = [&](int overlay_index, const char* list, const auto& each) {
        lua_getfield(L, overlay_index, list);
        const int items = lua_gettop(L);
        for (int i = 1; lua_rawgeti(L, items, i), lua_istable(L, -1); ++i) {
            each(i);
            lua_pop(L, 1);
        }
        lua_settop(L, overlay_index);
    };
    try {
        rules.call(3, 0);
        DataGuard::check(rules, "the rulesets' draw handlers");
        const int result = lua_gettop(L);
        for_each_item(result, "notes", [&](int i) {
            const std::string where = rd.display + ": the rulesets' draw note " + std::to_string(i);
            lua_getfield(L, -1, "hex");
            lua_getfield(L, -2, "text");
            lua_getfield(L, -3, "colour");
            draw::HexScene::Note note{ruleset_hex(L, -3, rd, where), optional_string(-2, "")};
            note.colour = optional_string(-1, note.colour);
            scene.notes.push_back(note);
            lua_pop(L, 3);
        });
        for_each_item(result, "arrows", [&](int i) {
            const std::string where = rd.display + ": the rulesets' draw arrow " + std::to_string(i);
            lua_getfield(L, -1, "from");
            lua_getfield(L, -2, "to");
            lua_getfield(L, -3, "text");
            lua_getfield(L, -4, "colour");
            scene.arrows.push_back({ruleset_hex(L, -4, rd, where), ruleset_hex(L, -3, rd, where), std::nullopt, "path",
                                    optional_string(-1, "#333333"), optional_string(-2, "")});
            lua_pop(L, 4);
        });
    } catch (...) {
        lua_settop(L, top);
        throw;
    }
    lua_settop(L, top);
}

std::string draw_table(const YAML::Node& doc, const Reader& rd, const DrawOptions& o) {
    // The overlay flags are hex-map overlays; a tabletop scene always shows its arcs and HE
    // templates. Saying so beats drawing the same picture and leaving the author to wonder.
    for (auto [flag, on] : overlay_flags(o)) {
        std::replace(flag.begin(), flag.end(), '_', '-');
        if (on)
            throw ScriptError(rd.display + ": --" + flag +
                              " is a hex-map overlay; a tabletop scenario always shows its models' arcs and HE "
                              "templates (drop the flag)");
    }
    draw::TableScene scene;
    scene.title = Reader::str(doc["cite"], Reader::str(doc["name"], "scenario"));
    std::vector<table::Model> models;
    std::vector<std::string> sides;
    std::map<std::string, int> side_ids;
    std::string firer_side;
    int unit_id = 0;
    for (const auto& u : doc["units"]) {
        ++unit_id;
        const std::string side = Reader::str(u["side"]);
        if (!side_ids.count(side)) side_ids[side] = static_cast<int>(side_ids.size()) + 1;
        if (!u["models"] || !u["models"].IsSequence()) rd.fail(u, "a unit needs a list of models");
        table::Point apex{};
        bool has_firer = false;
        double reach = 6;
        for (const auto& m : u["models"]) {
            table::Model model;
            model.centre = {m["x"].as<double>(), m["y"].as<double>()};
            if (m["base_mm"]) model.base_mm = m["base_mm"].as<double>();
            model.side = side_ids[side];
            model.unit = unit_id;
            try {
                table::validate(model);
            } catch (const std::exception& e) {
                rd.fail(m, e.what());
            }
            models.push_back(model);
            sides.push_back(side);
            scene.figures.push_back({model, Reader::str(m["id"]), draw::side_colour(side), false});
            if (Reader::str(m["role"]) == "firer") {
                apex = model.centre;
                has_firer = true;
                firer_side = side;
            }
        }
        if (!has_firer) apex = models[models.size() - u["models"].size()].centre;
        if (u["facing"]) {
            for (const auto& f : scene.figures) reach = std::max(reach, table::distance(apex, f.model.centre) + 2);
            scene.arcs.push_back({apex, u["facing"].as<double>(), 45, reach,
                                  Reader::str(u["id"]) + ": front arc (45 degrees either side)"});
        }
    }
    // HE (BA Diagrams 9-10): the template(s) the scenario expects, placed by the kernel over the
    // first unit not on the firer's side, never clipping the firer's side.
    const YAML::Node expect = doc["expect"];
    if (expect && expect["template"] && !firer_side.empty()) {
        const double diameter = expect["template"].as<double>();
        const std::size_t count = expect["templates"] ? expect["templates"].as<std::size_t>() : 1;
        std::vector<table::Model> targets, friends;
        std::vector<std::size_t> target_index;
        table::UnitId target_unit = 0;
        for (std::size_t i = 0; i < models.size(); ++i) {
            if (sides[i] == firer_side) {
                friends.push_back(models[i]);
            } else if (target_unit == 0 || models[i].unit == target_unit) {
                target_unit = models[i].unit;
                targets.push_back(models[i]);
                target_index.push_back(i);
            }
        }
        const auto placed = table::place_templates(count, diameter, targets, friends);
        scene.templates = placed.placed;
        for (const auto k : placed.hits) scene.figures[target_index[k]].hit = true;
        scene.title += " - " + std::to_string(placed.placed.size()) + " x " +
                       std::to_string(static_cast<int>(diameter)) + "\" HE: " + std::to_string(placed.hits.size()) +
                       " hits";
    }
    return draw::render_table(scene);
}

// The scenario file's YAML document (a map), or a ScriptError with file:line:col.
YAML::Node read_scenario(const fs::path& file, const std::string& display) {
    YAML::Node doc;
    try {
        doc = yaml::read_tree(file, display);
    } catch (const YAML::Exception& e) {
        throw ScriptError(display + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                              ": " + e.msg,
                          display, e.mark.line + 1);
    }
    if (!doc.IsMap()) throw ScriptError(display + ":1:1: a scenario must be a map", display, 1);
    return doc;
}

// A tabletop lists its units (each with models); a hex map keys them by name.
bool is_tabletop(const YAML::Node& doc) { return doc["units"] && doc["units"].IsSequence(); }

}  // namespace

bool is_tabletop_scenario(const fs::path& file) { return is_tabletop(read_scenario(file, LuaHost::display_path(file))); }

std::string draw_scenario(const fs::path& file, const DrawOptions& options, LuaHost* rules) {
    Reader rd{LuaHost::display_path(file), {}, 0};
    const YAML::Node doc = read_scenario(file, rd.display);
    try {
        if (is_tabletop(doc)) return draw_table(doc, rd, options);
        draw::HexScene scene = hex_scene(doc, rd, options);
        if (rules) add_ruleset_overlay(*rules, file, rd, options, scene);
        return draw::render_hex_map(scene);
    } catch (const YAML::Exception& e) {
        throw ScriptError(rd.display + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                              ": " + e.msg,
                          rd.display, e.mark.line + 1);
    }
}

fs::path find_scenario(const std::string& file_or_name, const std::vector<std::string>& rulesets,
                       const std::vector<fs::path>& search_path) {
    std::error_code too_long;  // a name too long for a path is looked up as a name
    if (fs::is_regular_file(file_or_name, too_long)) return file_or_name;
    std::string looked;
    for (const auto& r : rulesets) {
        auto chain = ruleset::chain(ruleset::find(r, search_path), search_path);
        std::reverse(chain.begin(), chain.end());
        for (const auto& m : chain) {
            const fs::path f = m.dir / "scenarios" / (file_or_name + ".yaml");
            if (fs::is_regular_file(f, too_long)) return f;
            looked += " " + LuaHost::display_path(f.parent_path());
        }
    }
    throw ScriptError("no scenario file '" + file_or_name + "'" +
                      (looked.empty() ? " (give a file, or a name with --ruleset)" : " (looked in" + looked + ")"));
}

std::string draw_with_rules(const std::string& file_or_name, std::vector<std::string> rulesets,
                            const HostOptions& options, const DrawOptions& draw) {
    LuaHost rules(options);
    const auto file = find_scenario(file_or_name, rulesets, ruleset::search_path(rules));
    // A scenario file inside a ruleset (rulesets/asl/scenarios/x.yaml) brings its ruleset,
    // so the ruleset's own notes (asl: Fire Lane Residual FP) appear without --ruleset.
    const auto home = fs::absolute(file).parent_path().parent_path();
    if (rulesets.empty() && fs::is_regular_file(home / "ruleset.yaml")) rulesets.push_back(home.string());
    // Read before any rule code runs, and kept for draw_scenario's reads after the files close.
    file_snapshot::limit(options.memory_limit);
    {
        const file_snapshot::Recording recording;
        LuaHost::read_file(file, yaml::kMaxFileBytes, "a scenario file");
    }
    if (!rulesets.empty()) ruleset::load(rules, rulesets);
    isolation::close_files();
    return draw_scenario(file, draw, rulesets.empty() ? nullptr : &rules);
}

}  // namespace umpire
