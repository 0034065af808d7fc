// The Lua API modules the host opens into each generation's `umpire` table.
//
// Contract of an open function: it is called with the new `umpire` table on top of the stack,
// sets its field(s) in it (umpire.<module> = {...}, or plain functions like umpire.cite), and
// leaves the stack as it found it. Per-game C++ state goes in Game::of(L).extension<T>() (bindings/Game.hpp).
// It runs once per load generation (a reload opens everything again into a fresh table), except
// for the modules marked per_state: their tables hold only C functions and closures over the
// Game (never anything of a generation), so a state opens them once and every generation shares
// them (LuaHost::push_new_env keeps them, as read-only views).
//
// To add a module (the wrap_* files): declare open_<module> here, define it in
// bindings/wrap_<Type>.cpp, and add one line to kApiModules in api_modules.cpp.
#pragma once
#include <lua.hpp>

#include <vector>

namespace umpire {

struct ApiModule {
    const char* name;
    void (*open)(lua_State* L);
    // Opened once per Lua state and shared by its generations (see above). Such a module sets
    // exactly one field, umpire.<name>, to a table.
    bool per_state = false;
};

// Opens every module into the `umpire` table on top of the stack. With `shared` (the stack index
// of a table of the per_state modules opened before, by name), those are taken from it instead.
void open_api_modules(lua_State* L, int shared = 0);

// The modules opened once per state (ApiModule::per_state), by name, in opening order.
const std::vector<const char*>& per_state_api_modules();

// The `pairs` that rule code sees (the sandbox's ordered one), which umpire.merge walks tables
// with: the host registers it, from the function on top of the stack (popped), before it opens any
// module. Unregistered (a host with no sandbox prelude), umpire.merge uses Lua's own pairs.
void register_rule_pairs(lua_State* L);

void open_data(lua_State* L);   // umpire.data (the merged YAML), umpire.where
void open_state(lua_State* L);  // umpire.state (the game state table)
void open_rules(lua_State* L);  // umpire.rules (module tables), umpire.base
void open_hooks(lua_State* L);  // umpire.hooks (staged event handlers; model for the bus)
void open_dice(lua_State* L);   // umpire.dice (api_dice.cpp over wrap_Die/AslDr/DiceExpression/...)
void open_hex(lua_State* L);    // umpire.hex (wrap_Hex.cpp)
void open_table(lua_State* L);  // umpire.table (api_table.cpp over wrap_Vec2/Model/Placement)
void open_bus(lua_State* L);    // umpire.bus (wrap_EventBus.cpp, wrap_ModifierPipeline.cpp)
void open_journal(lua_State* L);
void open_odds(lua_State* L);     // umpire.odds.chain (wrap_Fold.cpp: state folding)  // umpire.cite/note/result, umpire.journal (wrap_Journal.cpp)

}  // namespace umpire
