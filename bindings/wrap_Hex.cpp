// umpire.hex: ASL hex geometry (core/hex) for rules.
//
// A hex crosses into Lua as a small table {q=, r=} with the shared metatable "umpire.Hex", whose
// __tostring gives the ASL name again ("21K8") through the game's map (HexMap below). A table,
// not a userdata, because rules keep hexes in their own tables and data; equality is by value
// (__eq), and tostring(hex) is the key to use in a table.
//
// The map: a game plays on one or more boards. Until umpire.hex.map{} declares them, the first
// board number seen becomes the (only) board; naming a second board is then an error that says
// how to declare a map, rather than silently overlapping two boards at the same coordinates.
#include <algorithm>
#include <optional>
#include <string>

#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/LuaLibrary.hpp"
#include "bindings/WholeNumber.hpp"
#include "bindings/api_modules.hpp"
#include "core/hex/AslName.hpp"
#include "core/hex/Bypass.hpp"
#include "core/hex/Facing.hpp"
#include "core/hex/Hex.hpp"
#include "core/hex/Hexside.hpp"
#include "core/hex/Map.hpp"
#include "core/hex/Vertex.hpp"

namespace umpire {
namespace {

using hex::Hex;

constexpr const char* kHexMeta = "umpire.Hex";

// The largest coordinate rule code may give, either sign: the geometry is exact (integer
// arithmetic) for |q|, |r| below about 10^8 (core/hex/Hex.hpp).
constexpr std::int64_t kMaxCoordinate = 100000000;
// A hex in Lua: a table with two hash fields and its slot in the list (measured: ~120 bytes over
// umpire.hex.range(h, 300); a margin above that).
constexpr std::size_t kLuaHexBytes = 136;

struct HexMap {
    explicit HexMap(Game&) {}
    std::optional<hex::Map> map;
    bool declared = false;
    std::size_t charged = 0;  // bytes of the boards, charged against the Lua cap

    const hex::Map& get() {
        if (!map) map.emplace(0);
        return *map;
    }
    Hex parse(const std::string& text) {
        const hex::AslName name = hex::parse_asl_name(text);
        if (!declared && name.board != 0) {
            if (!map || map->default_board() == 0) {
                map.emplace(name.board);
            } else if (map->default_board() != name.board) {
                throw RuleError("hex " + text + " is on board " + std::to_string(name.board) +
                                " but the map so far is board " +
                                std::to_string(map->default_board()) +
                                ": declare the boards with umpire.hex.map{...}");
            }
        }
        return get().hex(text);
    }
};

HexMap& hex_map(lua_State* L) { return Game::of(L).extension<HexMap>(); }

Hex check_hex(lua_State* L, int arg) {
    if (lua_type(L, arg) == LUA_TSTRING) return hex_map(L).parse(lua::check_printable(L, arg, "the hex name"));
    if (!lua_istable(L, arg))
        luaL_argerror(L, arg, "hex expected (a value from umpire.hex.asl, or an ASL name)");
    lua_getfield(L, arg, "q");
    lua_getfield(L, arg, "r");
    if (!lua_isnumber(L, -2) || !lua_isnumber(L, -1))
        luaL_argerror(L, arg, "hex expected: a table with integer fields q and r");
    // Whole numbers inside the geometry's exact range (core/hex/Hex.hpp): before, {q = 0.5} was
    // read as q = 0, NaN or 2^40 as whatever int they cast to, and a neighbour of q = 2^31 - 1
    // overflowed.
    const Hex h{static_cast<int>(lua::whole_number(L, -2, "hex.q", -kMaxCoordinate, kMaxCoordinate)),
                static_cast<int>(lua::whole_number(L, -1, "hex.r", -kMaxCoordinate, kMaxCoordinate))};
    lua_pop(L, 2);
    return h;
}

// A field of umpire.hex.map's spec: 0 when absent, else a whole number from min to max.
int optional_whole(lua_State* L, int index, const char* what, std::int64_t min, std::int64_t max) {
    return lua_isnil(L, index) ? 0 : static_cast<int>(lua::whole_number(L, index, std::string("umpire.hex.map: ") + what, min, max));
}

// A radius of ring() or range(): no larger than the coordinates themselves (the list's size is
// then checked against the memory cap before it is made, below).
int check_radius(lua_State* L, int arg) {
    return static_cast<int>(lua::whole_number(L, arg, "radius", 0, kMaxCoordinate));
}

// The C++ and Lua memory of a list of `count` hexes, checked against the Lua memory cap before
// the list is computed, as distributions are (wrap_Distribution.cpp, check_room): a ring, range
// or line is made in a C++ vector, then one Lua table per hex, and `umpire.hex.range(h, 10000)`
// (300 million hexes) took 2.3 GB outside the cap and ran past the time limit inside C++.
void check_hex_list_room(lua_State* L, std::size_t count, const char* what) {
    const std::size_t bytes = count * (sizeof(Hex) + kLuaHexBytes);
    Game& game = Game::of(L);
    if (count > (std::size_t{1} << 40) / kLuaHexBytes || !game.charge_memory(bytes))
        throw RuleError("memory limit: " + std::string(what) + ": a list of " + std::to_string(count) +
                        " hexes (~" + std::to_string(bytes >> 20) + " MiB) would pass the Lua memory cap");
    game.release_memory(bytes);
}

int hex_tostring(lua_State* L);
int hex_eq(lua_State* L);
int hex_concat(lua_State* L);

void push_hex(lua_State* L, Hex h) {
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, h.q);
    lua_setfield(L, -2, "q");
    lua_pushinteger(L, h.r);
    lua_setfield(L, -2, "r");
    static const luaL_Reg metamethods[] = {
        {"__tostring", hex_tostring},
        {"__eq", hex_eq},
        {"__concat", hex_concat},
        {nullptr, nullptr},
    };
    lua::set_metatable(L, kHexMeta, nullptr, metamethods);
}

void push_hexes(lua_State* L, const std::vector<Hex>& hexes) {
    lua_createtable(L, static_cast<int>(hexes.size()), 0);
    for (std::size_t i = 0; i < hexes.size(); ++i) {
        push_hex(L, hexes[i]);
        lua_rawseti(L, -2, static_cast<int>(i + 1));
    }
}

// The ASL name of a hex; a hex off every board (a neighbour past the board edge, say) is named
// as if its default board went on, marked "off-map", so messages stay readable.
std::string name_of(lua_State* L, Hex h) {
    const auto& map = hex_map(L).get();
    if (map.contains(h)) return map.tostring(h);
    hex::AslName name = hex::local_name(h);
    name.board = map.default_board();
    const bool nameable = name.column >= 0 && name.column < 52;
    return "off-map " + (nameable ? hex::to_string(name) : hex::to_string(h));
}

hex::Side check_side(lua_State* L, int arg) {
    const std::string side = lua::opt_printable(L, arg, "left", "the side");
    if (side == "left") return hex::Side::Left;
    if (side == "right") return hex::Side::Right;
    throw Error("side must be \"left\" or \"right\", got \"" + side + "\"");
}

hex::VertexDir check_vertex_dir(lua_State* L, int arg) {
    const std::string text = lua::check_printable(L, arg, "the facing");
    for (int d = 0; d < 6; ++d) {
        const auto dir = static_cast<hex::VertexDir>(d);
        if (text == hex::name(dir)) return dir;
    }
    throw Error("a facing is a vertex direction: NE, E, SE, SW, W or NW; got \"" + text + "\"");
}

hex::HexsideDir check_hexside_dir(lua_State* L, int arg) {
    const std::string text = lua::check_printable(L, arg, "the hexside direction");
    for (int d = 0; d < 6; ++d) {
        const auto dir = static_cast<hex::HexsideDir>(d);
        if (text == hex::name(dir)) return dir;
    }
    throw Error("a hexside direction is N, NE, SE, S, SW or NW; got \"" + text + "\"");
}

int hex_tostring(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua_pushstring(L, name_of(L, check_hex(L, 1)).c_str());
        return 1;
    });
}

int hex_eq(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua_pushboolean(L, check_hex(L, 1) == check_hex(L, 2));
        return 1;
    });
}

int hex_concat(lua_State* L) {
    return lua::lua_guard(L, [&] {
        std::string text;
        for (int i = 1; i <= 2; ++i) {
            if (lua_istable(L, i)) text += name_of(L, check_hex(L, i));
            else text += lua::check_text(L, i);
        }
        lua_pushlstring(L, text.data(), text.size());
        return 1;
    });
}

/// @lua umpire.hex.asl(name)
/// ---The hex named in ASL board notation: "21K8" (board 21, column K, row 8) or "K8" (the
/// ---map's default board). Columns run A-Z then AA-GG; a bad name raises an error pointing at
/// ---the offending character.
/// ---@param name string
/// ---@return Hex
int l_asl(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        push_hex(L, hex_map(L).parse(lua::check_printable(L, 1, "the hex name")));
        return 1;
    });
}

/// @lua umpire.hex.map(spec)
/// ---Declares the boards of the game: {boards = {{board=21, column_offset=0, row_offset=0}, ...},
/// ---default = 21}. Column offsets must be even. Hexes off every board are an error.
/// ---@param spec table
int l_map(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 0);
        luaL_checktype(L, 1, LUA_TTABLE);
        std::vector<hex::BoardPlacement> boards;
        lua_getfield(L, 1, "boards");
        luaL_checktype(L, -1, LUA_TTABLE);
        const int n = static_cast<int>(lua_objlen(L, -1));
        for (int i = 1; i <= n; ++i) {
            lua_rawgeti(L, -1, i);
            hex::BoardPlacement placement;
            lua_getfield(L, -1, "board");
            placement.board = optional_whole(L, -1, "board", 0, 9999);
            lua_getfield(L, -2, "column_offset");
            placement.column_offset = optional_whole(L, -1, "column_offset", -kMaxCoordinate, kMaxCoordinate);
            lua_getfield(L, -3, "row_offset");
            placement.row_offset = optional_whole(L, -1, "row_offset", -kMaxCoordinate, kMaxCoordinate);
            lua_pop(L, 4);
            boards.push_back(placement);
        }
        lua_pop(L, 1);
        lua_getfield(L, 1, "default");
        const int default_board = lua_isnumber(L, -1) ? optional_whole(L, -1, "default", 0, 9999)
                                  : boards.empty()    ? 0
                                                      : boards.front().board;
        lua_pop(L, 1);
        auto& m = hex_map(L);
        // The boards are kept on the C++ heap: counted against the Lua memory cap (docs/sandbox.md,
        // "Memory"), the previous map's share given back. (Always less than the Lua table they
        // came from, so the Lua cap refuses a huge spec first; counted all the same.)
        const std::size_t bytes = boards.size() * sizeof(hex::BoardPlacement);
        Game& game = Game::of(L);
        game.release_memory(m.charged);
        m.charged = 0;
        if (!game.charge_memory(bytes))
            throw RuleError("memory limit: umpire.hex.map: " + std::to_string(boards.size()) +
                            " boards would pass the Lua memory cap");
        m.charged = bytes;
        m.map.emplace(std::move(boards), default_board);
        m.declared = true;
        return 0;
    });
}

/// @lua umpire.hex.on_map(h)
/// ---Is h on one of the map's boards? Geometry (neighbours, rings, lines) is unbounded; rules
/// ---that walk past a board edge ask this.
/// ---@param h Hex
/// ---@return boolean
int l_on_map(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushboolean(L, hex_map(L).get().contains(check_hex(L, 1)));
        return 1;
    });
}

/// @lua umpire.hex.distance(a, b)
/// ---The number of hexes stepped from a to b (the range in hexes).
/// ---@param a Hex
/// ---@param b Hex
/// ---@return integer
int l_distance(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushinteger(L, hex::distance(check_hex(L, 1), check_hex(L, 2)));
        return 1;
    });
}

/// @lua umpire.hex.line(a, b, tie)
/// ---The hexes of the straight line from a to b, a first and b last. Where the line runs exactly
/// ---along a hexside, the hex on the `tie` side ("left" default, or "right", looking from a to b)
/// ---is taken.
/// ---@param a Hex
/// ---@param b Hex
/// ---@param tie? '"left"'|'"right"'
/// ---@return Hex[]
int l_line(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const Hex a = check_hex(L, 1), b = check_hex(L, 2);
        check_hex_list_room(L, static_cast<std::size_t>(hex::distance(a, b)) + 1, "umpire.hex.line");
        push_hexes(L, hex::line(a, b, check_side(L, 3)));
        return 1;
    });
}

/// @lua umpire.hex.grain(a, b)
/// ---A9.22: is the straight line between the centres of a and b a row of adjacent hexes?
/// ---@param a Hex
/// ---@param b Hex
/// ---@return boolean
int l_grain(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushboolean(L, hex::grain(check_hex(L, 1), check_hex(L, 2)));
        return 1;
    });
}

/// @lua umpire.hex.on_alt_grain(a, b)
/// ---A9.221: does the line between the centres of a and b run along a hexspine of a?
/// ---@param a Hex
/// ---@param b Hex
/// ---@return boolean
int l_on_alt_grain(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushboolean(L, hex::on_alt_grain(check_hex(L, 1), check_hex(L, 2)));
        return 1;
    });
}

/// @lua umpire.hex.alt_grain(from, toward, side)
/// ---A9.221: the Alternate Hex Grain from `from` toward `toward`, taking the hex on the declared
/// ---side ("left" or "right", looking from `from`) wherever the line runs along a hexside.
/// ---Returns the hexes in order, without `from`, with `toward`.
/// ---@param from Hex
/// ---@param toward Hex
/// ---@param side '"left"'|'"right"'
/// ---@return Hex[]
int l_alt_grain(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const Hex from = check_hex(L, 1), toward = check_hex(L, 2);
        check_hex_list_room(L, static_cast<std::size_t>(hex::distance(from, toward)) + 1, "umpire.hex.alt_grain");
        push_hexes(L, hex::alt_grain(from, toward, check_side(L, 3)));
        return 1;
    });
}

/// @lua umpire.hex.neighbours(h)
/// ---The six adjacent hexes, N first then clockwise (N, NE, SE, S, SW, NW).
/// ---@param h Hex
/// ---@return Hex[]
int l_neighbours(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto n = hex::neighbours(check_hex(L, 1));
        push_hexes(L, std::vector<Hex>(n.begin(), n.end()));
        return 1;
    });
}

/// @lua umpire.hex.neighbour(h, dir)
/// ---The hex across hexside `dir` (N, NE, SE, S, SW, NW) of h.
/// ---@param h Hex
/// ---@param dir string
/// ---@return Hex
int l_neighbour(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        push_hex(L, hex::neighbour(check_hex(L, 1), check_hexside_dir(L, 2)));
        return 1;
    });
}

/// @lua umpire.hex.ring(center, radius)
/// ---The hexes at exactly `radius` from center, clockwise from the one due N.
/// ---@param center Hex
/// ---@param radius integer
/// ---@return Hex[]
int l_ring(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const Hex center = check_hex(L, 1);
        const int radius = check_radius(L, 2);
        check_hex_list_room(L, radius == 0 ? 1 : 6 * static_cast<std::size_t>(radius), "umpire.hex.ring");
        push_hexes(L, hex::ring(center, radius));
        return 1;
    });
}

/// @lua umpire.hex.range(center, radius)
/// ---Every hex within `radius` of center: center, then ring 1, ring 2, ...
/// ---@param center Hex
/// ---@param radius integer
/// ---@return Hex[]
int l_range(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const Hex center = check_hex(L, 1);
        const auto radius = static_cast<std::size_t>(check_radius(L, 2));
        check_hex_list_room(L, 1 + 3 * radius * (radius + 1), "umpire.hex.range");
        push_hexes(L, hex::range(center, static_cast<int>(radius)));
        return 1;
    });
}

// A hexside or vertex id as text: the ASL names of its hexes joined by "-", in (q, r) order, so
// the same hexside always has the same id whichever hex names it ("J6-K6").
std::string joined_id(lua_State* L, std::vector<Hex> hexes) {
    std::sort(hexes.begin(), hexes.end());
    std::string id;
    for (const auto& h : hexes) id += (id.empty() ? "" : "-") + name_of(L, h);
    return id;
}

/// @lua umpire.hex.hexside(a, b)
/// ---The id of the hexside between two adjacent hexes, the same whichever order they are given
/// ---in ("J6-K6"). Use it as a key for walls and hedges in map data.
/// ---@param a Hex
/// ---@param b Hex
/// ---@return string
int l_hexside(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const Hex a = check_hex(L, 1), b = check_hex(L, 2);
        if (hex::distance(a, b) != 1)
            throw RuleError(name_of(L, a) + " and " + name_of(L, b) + " are not adjacent: no hexside");
        lua_pushstring(L, joined_id(L, {a, b}).c_str());
        return 1;
    });
}

/// @lua umpire.hex.vertex(a, b, c)
/// ---The id of the vertex where three mutually adjacent hexes meet ("J6-K6-K7").
/// ---@param a Hex
/// ---@param b Hex
/// ---@param c Hex
/// ---@return string
int l_vertex(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const Hex a = check_hex(L, 1), b = check_hex(L, 2), c = check_hex(L, 3);
        if (hex::distance(a, b) != 1 || hex::distance(b, c) != 1 || hex::distance(a, c) != 1)
            throw RuleError(name_of(L, a) + ", " + name_of(L, b) + " and " + name_of(L, c) +
                            " do not meet at one vertex");
        lua_pushstring(L, joined_id(L, {a, b, c}).c_str());
        return 1;
    });
}

/// @lua umpire.hex.in_covered_arc(origin, facing, target)
/// ---C3.2/D3.1: is target inside the Covered Arc of a unit in `origin` facing vertex `facing`
/// ---(NE, E, SE, SW, W, NW)? Hexes whose centre lies exactly on a bounding hexspine are inside.
/// ---@param origin Hex
/// ---@param facing string
/// ---@param target Hex
/// ---@return boolean
int l_in_covered_arc(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        lua_pushboolean(L, hex::in_covered_arc(check_hex(L, 1), check_vertex_dir(L, 2),
                                               check_hex(L, 3)));
        return 1;
    });
}

/// @lua umpire.hex.target_facing(target, facing, firer)
/// ---D3.2: the Target Facing ("front", "side" or "rear") struck by fire from `firer` at a
/// ---vehicle in `target` whose VCA/TCA faces vertex `facing`. Fire exactly along a hexspine takes
/// ---the facing least favourable to the attacker. For fire from inside the hex use
/// ---umpire.hex.facing_from_dr.
/// ---@param target Hex
/// ---@param facing string
/// ---@param firer Hex
/// ---@return '"front"'|'"side"'|'"rear"'
int l_target_facing(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto f = hex::target_facing(check_hex(L, 1), check_vertex_dir(L, 2), check_hex(L, 3));
        lua_pushstring(L, std::string(hex::name(f)).c_str());
        return 1;
    });
}

/// @lua umpire.hex.facing_from_dr(colored)
/// ---D3.2: Target Facing for fire from within the target hex by the coloured dr of the To Hit
/// ---DR: 1-2 rear, 3-4 side, 5-6 front.
/// ---@param colored integer
/// ---@return '"front"'|'"side"'|'"rear"'
int l_facing_from_dr(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto f = hex::target_facing_from_dr(static_cast<int>(lua::whole_number(L, 1, "umpire.hex.facing_from_dr: colored", -kMaxCoordinate, kMaxCoordinate)));
        lua_pushstring(L, std::string(hex::name(f)).c_str());
        return 1;
    });
}

/// @lua umpire.hex.rear_hexes(vehicle, facing)
/// ---D2.22: the two hexes of the rear Target Facing of a vehicle in `vehicle` facing `facing`:
/// ---the only hexes it may enter with Reverse Movement.
/// ---@param vehicle Hex
/// ---@param facing string
/// ---@return Hex[]
int l_rear_hexes(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto rear = hex::rear_target_facing_hexes(check_hex(L, 1), check_vertex_dir(L, 2));
        push_hexes(L, {rear[0], rear[1]});
        return 1;
    });
}

/// @lua umpire.hex.bypass_facing(hex, side, cafp, firer)
/// ---D2.32: the Target Facing struck by fire from `firer` at a vehicle in Bypass of `hex`,
/// ---straddling its hexside `side` (N, NE, SE, S, SW, NW) with its CAFP at vertex `cafp`.
/// ---@param hex Hex
/// ---@param side string
/// ---@param cafp string
/// ---@param firer Hex
/// ---@return '"front"'|'"side"'|'"rear"'
int l_bypass_facing(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto b = hex::bypass(check_hex(L, 1), check_hexside_dir(L, 2), check_vertex_dir(L, 3));
        lua_pushstring(L, std::string(hex::name(hex::bypass_target_facing(b, check_hex(L, 4)))).c_str());
        return 1;
    });
}

/// @lua umpire.hex.in_bypass_vca(hex, side, cafp, target)
/// ---D2.32: is target in the Bypass VCA (= the front Target Facing) of a vehicle in Bypass?
/// ---@param hex Hex
/// ---@param side string
/// ---@param cafp string
/// ---@param target Hex
/// ---@return boolean
int l_in_bypass_vca(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto b = hex::bypass(check_hex(L, 1), check_hexside_dir(L, 2), check_vertex_dir(L, 3));
        lua_pushboolean(L, hex::in_bypass_vca(b, check_hex(L, 4)));
        return 1;
    });
}

// The names Lua sees.
const luaL_Reg kHexFunctions[] = {
    {"asl", l_asl},
    {"map", l_map},
    {"on_map", l_on_map},
    {"distance", l_distance},
    {"line", l_line},
    {"grain", l_grain},
    {"on_alt_grain", l_on_alt_grain},
    {"alt_grain", l_alt_grain},
    {"neighbours", l_neighbours},
    {"neighbour", l_neighbour},
    {"ring", l_ring},
    {"range", l_range},
    {"hexside", l_hexside},
    {"vertex", l_vertex},
    {"in_covered_arc", l_in_covered_arc},
    {"target_facing", l_target_facing},
    {"facing_from_dr", l_facing_from_dr},
    {"rear_hexes", l_rear_hexes},
    {"bypass_facing", l_bypass_facing},
    {"in_bypass_vca", l_in_bypass_vca},
    {nullptr, nullptr},
};

}  // namespace

void open_hex(lua_State* L) { lua::set_library(L, -1, "hex", kHexFunctions); }

}  // namespace umpire
