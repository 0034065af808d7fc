// umpire.table: the names Lua sees for the tabletop geometry bindings, chosen in this one table.
#include "bindings/LuaLibrary.hpp"
#include "bindings/api_modules.hpp"
#include "bindings/wrap_table.hpp"

namespace umpire {
namespace {

const luaL_Reg kTableFunctions[] = {
    {"point", wrap::vec_point},
    {"distance", wrap::vec_distance},
    {"bearing", wrap::vec_bearing},
    {"edge_distance", wrap::model_edge_distance},
    {"nearest_each", wrap::model_nearest_each},
    {"in_arc", wrap::model_in_arc},
    {"rotation_into_arc", wrap::model_rotation_into_arc},
    {"under_template", wrap::placement_under_template},
    {"place_template", wrap::placement_place_template},
    {"place_templates", wrap::placement_place_templates},
    {nullptr, nullptr},
};

}  // namespace

void open_table(lua_State* L) { lua::set_library(L, -1, "table", kTableFunctions); }

}  // namespace umpire
