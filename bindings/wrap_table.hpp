// The C functions behind umpire.table, one group per core type (wrap_Vec2.cpp, wrap_Model.cpp,
// wrap_Placement.cpp). The names Lua sees are chosen in one table: kTableFunctions in
// api_table.cpp. Points and models cross as plain tables: a point is {x=, y=} (inches), a model
// {x=, y=, base_mm= (default 25), facing= (degrees, default 0)}.
#pragma once
#include <lua.hpp>

#include <vector>

#include "core/table/Model.hpp"
#include "core/table/Vec2.hpp"

namespace umpire::wrap {
table::Point check_point(lua_State* L, int arg);
table::Model check_model(lua_State* L, int arg);
std::vector<table::Model> check_models(lua_State* L, int arg);
void push_point(lua_State* L, table::Point p);
void push_indices(lua_State* L, const std::vector<std::size_t>& indices);  // 0-based -> 1-based

int vec_point(lua_State* L);      // wrap_Vec2.cpp
int vec_distance(lua_State* L);
int vec_bearing(lua_State* L);
int model_edge_distance(lua_State* L);  // wrap_Model.cpp
int model_nearest_each(lua_State* L);
int model_in_arc(lua_State* L);
int model_rotation_into_arc(lua_State* L);
int placement_under_template(lua_State* L);  // wrap_Placement.cpp
int placement_place_template(lua_State* L);
int placement_place_templates(lua_State* L);
}  // namespace umpire::wrap
