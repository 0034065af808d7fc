#include "bindings/api_modules.hpp"

#include "bindings/LuaError.hpp"

namespace umpire {

// The single list. Order matters only if a module reads another's field while opening.
static const ApiModule kApiModules[] = {
    {"data", open_data},
    {"state", open_state},
    {"rules", open_rules},
    {"hooks", open_hooks},
    {"dice", open_dice},
    {"hex", open_hex},
    {"table", open_table},
    {"bus", open_bus},
    {"journal", open_journal},
    {"odds", open_odds},
    // {"bus", open_bus}, {"cite", open_cite}.
};

void open_api_modules(lua_State* L) {
    for (const auto& module : kApiModules) {
        lua::StackCheck check(L, 0);
        module.open(L);
    }
}

}  // namespace umpire
