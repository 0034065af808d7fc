#include "bindings/api_modules.hpp"

#include "bindings/LuaError.hpp"

namespace umpire {

// The single list. Order matters only if a module reads another's field while opening.
static const ApiModule kApiModules[] = {
    {"data", open_data},
    {"state", open_state},
    {"rules", open_rules},
    {"hooks", open_hooks},
    {"dice", open_dice, true},
    {"hex", open_hex, true},
    {"table", open_table, true},
    {"bus", open_bus, true},
    {"journal", open_journal},
    {"odds", open_odds},
    // {"bus", open_bus}, {"cite", open_cite}.
};

void open_api_modules(lua_State* L, int shared) {
    if (shared < 0) shared = lua_gettop(L) + shared + 1;
    for (const auto& module : kApiModules) {
        lua::StackCheck check(L, 0);
        if (module.per_state && shared) {
            lua_getfield(L, shared, module.name);
            if (!lua_isnil(L, -1)) {
                lua_setfield(L, -2, module.name);
                continue;
            }
            lua_pop(L, 1);
        }
        module.open(L);
    }
}

const std::vector<const char*>& per_state_api_modules() {
    static const std::vector<const char*> names = [] {
        std::vector<const char*> out;
        for (const auto& module : kApiModules)
            if (module.per_state) out.push_back(module.name);
        return out;
    }();
    return names;
}

}  // namespace umpire
