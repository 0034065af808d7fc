// umpire.table.under_template / place_template / place_templates: round HE templates over model
// bases (core/table/Template.hpp, Placement.hpp). Models under a template come back as 1-based
// indices into the list passed in, so a ruleset maps them to its own model tables.
#include "bindings/LuaError.hpp"
#include "bindings/WholeNumber.hpp"
#include "bindings/wrap_table.hpp"
#include "core/table/Placement.hpp"
#include "core/table/Template.hpp"

namespace umpire::wrap {

/// @lua umpire.table.under_template(centre, diameter, models)
/// ---The models (1-based indices into `models`) any part of whose base is under a round
/// ---template of `diameter` inches (1 to 4) centred at `centre`. Touching counts.
/// ---@param centre {x: number, y: number}
/// ---@param diameter number
/// ---@param models table[]
/// ---@return integer[]
int placement_under_template(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto t = table::make_template(check_point(L, 1), luaL_checknumber(L, 2));
        const auto models = check_models(L, 3);
        push_indices(L, table::models_under(t, models));
        return 1;
    });
}

/// @lua umpire.table.place_template(diameter, targets, friends)
/// ---Bolt Action HE: places a template to cover as many `targets` as possible without clipping
/// ---any of `friends`; ties go to the centre nearest the targets' centroid, then lowest x, y.
/// ---Returns the centre (nil if no placement hits a target) and the targets hit (1-based).
/// ---@param diameter number
/// ---@param targets table[]
/// ---@param friends? table[]
/// ---@return {x: number, y: number}|nil centre
/// ---@return integer[] hits
int placement_place_template(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 2);
        const double diameter = luaL_checknumber(L, 1);
        const auto targets = check_models(L, 2);
        const auto friends = check_models(L, 3);
        const auto placement = table::place_template(diameter, targets, friends);
        if (placement.found) push_point(L, placement.placed.centre);
        else lua_pushnil(L);
        push_indices(L, placement.found ? placement.hits : std::vector<std::size_t>{});
        return 2;
    });
}

/// @lua umpire.table.place_templates(count, diameter, targets, friends)
/// ---Multiple HE hits: `count` templates in contact without overlapping, placed greedily for the
/// ---most targets; each model is hit once even under several. Returns the centres and the hits.
/// ---@param count integer
/// ---@param diameter number
/// ---@param targets table[]
/// ---@param friends? table[]
/// ---@return {x: number, y: number}[] centres
/// ---@return integer[] hits
int placement_place_templates(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 2);
        // (a count of -1 was read as 2^64 - 1, and 2.5 as 2)
        const auto count = static_cast<std::size_t>(lua::whole_number(L, 1, "umpire.table.place_templates: count", 0, 1000000));
        const double diameter = luaL_checknumber(L, 2);
        const auto targets = check_models(L, 3);
        const auto friends = check_models(L, 4);
        const auto placement = table::place_templates(count, diameter, targets, friends);
        lua_createtable(L, static_cast<int>(placement.placed.size()), 0);
        for (std::size_t i = 0; i < placement.placed.size(); ++i) {
            push_point(L, placement.placed[i].centre);
            lua_rawseti(L, -2, static_cast<int>(i + 1));
        }
        push_indices(L, placement.hits);
        return 2;
    });
}

}  // namespace umpire::wrap
