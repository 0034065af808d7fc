#include "core/draw/MapSvg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "core/draw/Svg.hpp"
#include "core/hex/AslName.hpp"
#include "core/hex/Layout.hpp"

namespace umpire::draw {

namespace {

constexpr double kPi = 3.14159265358979323846;
const hex::VertexDir kCorners[] = {hex::VertexDir::NE, hex::VertexDir::E, hex::VertexDir::SE,
                                   hex::VertexDir::SW, hex::VertexDir::W, hex::VertexDir::NW};

// Board column and row of a hex ("odd-q", AslName.hpp).
std::pair<int, int> col_row(hex::Hex h) { return {h.q, h.r + (h.q - (h.q & 1)) / 2}; }

std::string name_of(hex::Hex h) {
    try {
        return hex::to_string(hex::local_name(h));
    } catch (...) {
        return "";
    }
}

}  // namespace

std::string side_colour(const std::string& side) {
    static const std::map<std::string, std::string> k = {
        {"german", "#9fb4cc"}, {"russian", "#d8b070"}, {"american", "#b5c27a"}, {"british", "#c9b58a"},
        {"japanese", "#e6d35a"}, {"ATTACKER", "#9fb4cc"}, {"DEFENDER", "#d8b070"},
        {"axis", "#9fb4cc"}, {"allies", "#b5c27a"}};
    const auto it = k.find(side);
    return it == k.end() ? "#dddddd" : it->second;
}

std::string terrain_colour(const std::string& terrain) {
    static const std::map<std::string, std::string> k = {
        {"open", "#f3eed6"},          {"grain", "#e9d46a"},    {"woods", "#3f7f35"},
        {"orchard", "#9cc26b"},       {"brush", "#b7c98a"},    {"building", "#9a8f84"},
        {"stone_building", "#8f8f94"}, {"wooden_building", "#a0673a"}, {"wreck", "#f3eed6"},
        {"road", "#d9d2bf"},          {"marsh", "#8fb8a8"},    {"water", "#7fb2de"},
        {"hill", "#d9c49a"}};
    const auto it = k.find(terrain);
    return it == k.end() ? "#d8d8d8" : it->second;
}

// Layout: the bounding rectangle of every hex the scene names, in board columns/rows, plus one
// hex of margin; pixel positions are shifted so the leftmost/topmost corner sits at the border,
// below a title line.
std::string render_hex_map(const HexScene& scene, double size) {
    std::vector<hex::Hex> all;
    for (const auto& c : scene.cells) all.push_back(c.hex);
    for (const auto& s : scene.sides) { all.push_back(s.a); all.push_back(s.b); }
    for (const auto& c : scene.counters) all.push_back(c.hex);
    for (const auto& s : scene.shades) all.insert(all.end(), s.hexes.begin(), s.hexes.end());
    for (const auto& a : scene.arrows) { all.push_back(a.from); all.push_back(a.to); }
    for (const auto& n : scene.notes) all.push_back(n.hex);
    if (all.empty()) all.push_back({0, 0});
    int c0 = std::numeric_limits<int>::max(), c1 = std::numeric_limits<int>::min(), r0 = c0, r1 = c1;
    for (const auto& h : all) {
        const auto [c, r] = col_row(h);
        c0 = std::min(c0, c); c1 = std::max(c1, c); r0 = std::min(r0, r); r1 = std::max(r1, r);
    }
    --c0; ++c1; --r0; ++r1;
    std::vector<hex::Hex> grid;
    for (int c = c0; c <= c1; ++c)
        for (int r = r0; r <= r1; ++r) grid.push_back(hex::Hex{c, r - (c - (c & 1)) / 2});
    double minx = 1e18, miny = 1e18, maxx = -1e18, maxy = -1e18;
    for (const auto& h : grid)
        for (auto d : kCorners) {
            const auto p = hex::pixel_corner(h, d, size);
            minx = std::min(minx, p.x); miny = std::min(miny, p.y);
            maxx = std::max(maxx, p.x); maxy = std::max(maxy, p.y);
        }
    const double pad = 10, top = 30;
    const double ox = pad - minx, oy = top - miny;
    auto at = [&](hex::PixelPoint p) { return std::pair<double, double>{p.x + ox, p.y + oy}; };
    auto centre = [&](hex::Hex h) { return at(hex::pixel_centre(h, size)); };
    auto outline = [&](hex::Hex h, double shrink = 1.0) {
        Points pts;
        const auto c = hex::pixel_centre(h, size);
        for (auto d : kCorners) {
            const auto p = hex::pixel_corner(h, d, size);
            pts.push_back(at({c.x + (p.x - c.x) * shrink, c.y + (p.y - c.y) * shrink}));
        }
        return pts;
    };

    Svg svg(std::max(maxx - minx + 2 * pad, 7.5 * static_cast<double>(scene.title.size()) + 2 * pad),
            maxy - miny + top + pad);
    svg.text(pad, 20, scene.title, "start", 14);

    std::map<hex::Hex, const HexScene::Cell*> cells;
    for (const auto& c : scene.cells) cells[c.hex] = &c;
    for (const auto& h : grid) {
        const auto it = cells.find(h);
        const std::string terrain = it == cells.end() ? scene.default_terrain : it->second->terrain;
        const std::string name = name_of(h);
        const int level = it != cells.end() ? it->second->elevation : 0;
        svg.polygon(outline(h), terrain_colour(terrain), "#7a7a6a", "hex " + terrain,
                    name + ": " + terrain + (level ? ", level " + std::to_string(level) : ""), 1,
                    {{"hex", name}, {"terrain", terrain}, {"level", std::to_string(level)}});
        const auto [x, y] = centre(h);
        const bool dark = terrain == "woods" || terrain == "wooden_building";
        svg.text(x, y - size * 0.62, name, "middle", size * 0.26, dark ? "#f0f0f0" : "#555");
        if (terrain == "wreck") svg.text(x, y + size * 0.62, "wreck", "middle", size * 0.24, "#333");
        if (it != cells.end() && it->second->elevation)
            svg.text(x, y + size * 0.62, "level " + std::to_string(it->second->elevation), "middle",
                     size * 0.24, dark ? "#f0f0f0" : "#333");
    }
    for (const auto& s : scene.shades) {
        svg.begin_group(s.css_class, 0.45);
        for (const auto& h : s.hexes) svg.polygon(outline(h, 0.86), s.colour, "none", s.css_class, s.label);
        svg.end_group();
    }
    for (const auto& s : scene.sides) {
        // The hexside between a and b runs between the two corners they share.
        Points ends;
        for (auto d : kCorners) {
            const auto p = hex::pixel_corner(s.a, d, size);
            for (auto e : kCorners) {
                const auto q = hex::pixel_corner(s.b, e, size);
                if (std::hypot(p.x - q.x, p.y - q.y) < size * 1e-6) ends.push_back(at(p));
            }
        }
        if (ends.size() != 2) continue;  // not adjacent: nothing to draw
        const std::string colour = s.kind == "hedge" || s.kind == "bocage" ? "#2f6b2a"
                                   : s.kind == "road"                       ? "#b9a77f"
                                                                            : "#4a3b2c";
        svg.polyline(ends, colour, size * 0.16, s.kind == "hedge" ? "4 2" : "", "hexside " + s.kind);
    }
    for (const auto& a : scene.arrows) {
        const auto [x1, y1] = centre(a.from);
        auto [x2, y2] = a.to_vertex ? at(hex::pixel_corner(a.from, *a.to_vertex, size)) : centre(a.to);
        svg.arrow(x1, y1, x2, y2, a.colour, a.css_class == "lane" ? 3 : 2.5, a.css_class);
        if (!a.label.empty()) {
            // Beside the arrow's middle, on its right-hand side (a hexside's midpoint is where the
            // hexes' own labels and notes are not), anchored away from the line.
            const double dx = x2 - x1, dy = y2 - y1, len = std::max(std::hypot(dx, dy), 1e-9);
            const double nx = -dy / len, ny = dx / len, gap = size * 0.22;
            const char* anchor = nx > 0.3 ? "start" : nx < -0.3 ? "end" : "middle";
            svg.text((x1 + x2) / 2 + nx * gap, (y1 + y2) / 2 + ny * gap + size * 0.1, a.label, anchor, size * 0.3,
                     a.colour);
        }
    }
    std::map<hex::Hex, int> stack;
    for (const auto& c : scene.counters) {
        auto [x, y] = centre(c.hex);
        if (c.hexside_with) {
            const auto m = hex::pixel_hexside_mid(c.hex, *c.hexside_with, size);
            std::tie(x, y) = at(m);
        }
        const int k = stack[c.hex]++;
        const double w = size * 0.78, h = size * 0.34;
        const double cx = x - w / 2 + k * size * 0.12, cy = y - h / 2 + (k - 0.5) * (h + 2) * 0.9;
        svg.rect(cx, cy, w, h, side_colour(c.side), c.vehicle ? "counter vehicle" : "counter", c.label);
        svg.polyline({{cx, cy}, {cx + w, cy}, {cx + w, cy + h}, {cx, cy + h}, {cx, cy}}, "#333", 0.8);
        std::string label = c.label.size() > 12 ? c.label.substr(0, 12) : c.label;
        svg.text(cx + w / 2, cy + h * 0.72, label, "middle", size * 0.2, "#111");
    }
    // Notes sit between the counters (centre and above) and the hex's bottom line (wreck, level);
    // a second note in the same hex goes one line lower.
    std::map<hex::Hex, int> lines;
    for (const auto& n : scene.notes) {
        const auto [x, y] = centre(n.hex);
        const int k = lines[n.hex]++;
        svg.text(x, y + size * (0.4 + 0.3 * k), n.text, "middle", size * 0.3, n.colour, "note");
    }
    return svg.str(true);
}

std::string render_table(const TableScene& scene) {
    double minx = 1e18, miny = 1e18, maxx = -1e18, maxy = -1e18;
    auto grow = [&](double x, double y, double r) {
        minx = std::min(minx, x - r); maxx = std::max(maxx, x + r);
        miny = std::min(miny, y - r); maxy = std::max(maxy, y + r);
    };
    for (const auto& f : scene.figures) grow(f.model.centre.x, f.model.centre.y, f.model.base_radius());
    for (const auto& t : scene.templates) grow(t.centre.x, t.centre.y, t.radius());
    for (const auto& a : scene.arcs) grow(a.apex.x, a.apex.y, 1);
    if (minx > maxx) { minx = miny = 0; maxx = maxy = 1; }
    minx -= 2; miny -= 2; maxx += 2; maxy += 2;
    const double scale = std::clamp(std::min(860.0 / (maxx - minx), 600.0 / (maxy - miny)), 6.0, 60.0);
    const double top = 30, pad = 10;
    auto px = [&](double x, double y) {
        return std::pair<double, double>{pad + (x - minx) * scale, top + (maxy - y) * scale};
    };
    const double title_w = 7.5 * static_cast<double>(scene.title.size()) + 2 * pad;
    Svg svg(std::max((maxx - minx) * scale + 2 * pad, title_w), (maxy - miny) * scale + top + pad + 20);
    svg.text(pad, 20, scene.title, "start", 14);
    svg.rect(pad, top, (maxx - minx) * scale, (maxy - miny) * scale, "#e4ead2", "table");
    for (const auto& a : scene.arcs) {
        // The wedge, clipped to the picture by its radius.
        Points wedge{px(a.apex.x, a.apex.y)};
        for (int i = 0; i <= 24; ++i) {
            const double deg = a.facing - a.half_angle + 2 * a.half_angle * i / 24.0;
            const double rad = deg * kPi / 180;
            // Clamped to the table drawn (the wedge only shows which models are inside).
            wedge.push_back(px(std::clamp(a.apex.x + a.radius * std::cos(rad), minx, maxx),
                               std::clamp(a.apex.y + a.radius * std::sin(rad), miny, maxy)));
        }
        svg.begin_group("arc", 0.35);
        svg.polygon(wedge, "#f2c14e", "#b08a20", "arc", a.label);
        svg.end_group();
    }
    for (const auto& f : scene.figures) {
        const auto [x, y] = px(f.model.centre.x, f.model.centre.y);
        const double r = f.model.base_radius() * scale;
        svg.circle(x, y, r, f.colour, f.hit ? "#c00000" : "#333", f.hit ? "model hit" : "model", f.label,
                   f.hit ? 3 : 1);
        if (scale * 2 > 30) svg.text(x, y + r + 11, f.label, "middle", 10, "#333");
    }
    for (const auto& t : scene.templates) {
        const auto [x, y] = px(t.centre.x, t.centre.y);
        svg.begin_group("template", 0.4);
        svg.circle(x, y, t.radius() * scale, "#e15759", "#8b1a1c", "template",
                   std::to_string(static_cast<int>(t.diameter)) + "\" HE template", 2);
        svg.end_group();
    }
    // A 6-inch scale bar, so distances can be read off the picture.
    const double y = top + (maxy - miny) * scale + 14;
    svg.line(pad, y, pad + scale * 6, y, "#333", 2);
    svg.text(pad + scale * 6 + 6, y + 4, "6 inches", "start", 11);
    return svg.str(true);
}

}  // namespace umpire::draw
