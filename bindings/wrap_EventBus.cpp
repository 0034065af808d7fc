// umpire.bus.on / off / emit: rules subscribe Lua functions to named events (core/bus/EventBus).
//
// The Lua event table travels through the C++ bus in Event::host (a registry reference), so
// handlers see each other's changes to ev.payload directly, with no conversion. ev:cancel()
// sets ev.cancelled in Lua; after each handler the binding copies it onto the C++ Event, whose
// bus then skips later handlers (unless they subscribed with sees_cancelled).
#include <memory>
#include <string>

#include "bindings/GameLog.hpp"
#include "bindings/HeldBytes.hpp"
#include "bindings/WholeNumber.hpp"
#include "bindings/api_modules.hpp"

namespace umpire {
namespace {

// A Lua registry reference that unrefs itself; held by shared_ptr in Event::host and handlers.
struct LuaRef {
    LuaRef(lua_State* L, int index) : L(L) {
        lua_pushvalue(L, index);
        ref = luaL_ref(L, LUA_REGISTRYINDEX);
    }
    ~LuaRef() { luaL_unref(L, LUA_REGISTRYINDEX, ref); }
    void push() const { lua_rawgeti(L, LUA_REGISTRYINDEX, ref); }
    lua_State* L;
    int ref;
};

constexpr const char* kCancel = R"lua(
return function(ev) ev.cancelled = true end
)lua";

void push_cancel(lua_State* L) {
    // One shared cancel function per state, kept in the registry.
    lua_getfield(L, LUA_REGISTRYINDEX, "umpire.bus.cancel");
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        luaL_loadstring(L, kCancel);
        lua_call(L, 0, 1);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, "umpire.bus.cancel");
    }
}

// The bus's subscriptions live on the C++ heap (EventBus::bytes()) and count against the Lua memory
// cap (bindings/HeldBytes.hpp): the change since the last call is charged or given back after each
// on/off, so subscriptions a reload dropped are given back at the next one.
struct BusMemory {
    explicit BusMemory(Game&) {}
    HeldBytes held;
};

bool charge_bus_memory(lua_State* L) {
    Game& game = Game::of(L);
    return game.extension<BusMemory>().held.follow(game, GameLog::of(L).bus.bytes());
}

/// @lua umpire.bus.on(event, handler, options)
/// ---Subscribes handler(ev) to a named event. Higher `priority` runs first (default 0; ties in
/// ---registration order). A handler may change ev.payload, call ev:cancel() (later handlers are
/// ---skipped unless they subscribed with sees_cancelled = true), or emit further events.
/// ---Handlers registered while a module loads are replaced, not doubled, when it reloads.
/// ---@param event string
/// ---@param handler fun(ev: {name: string, payload: table, cancelled: boolean, cancel: fun(ev)})
/// ---@param options? {priority?: integer, sees_cancelled?: boolean}
/// ---@return integer id for umpire.bus.off
int l_on(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const std::string event = lua::check_text(L, 1);
        luaL_checktype(L, 2, LUA_TFUNCTION);
        int priority = 0;
        bool sees_cancelled = false;
        if (lua_istable(L, 3)) {
            lua_getfield(L, 3, "priority");
            // (0.5 was read as 0, 1e300 as whatever int it cast to: the handlers' order changed)
            priority = lua_isnil(L, -1) ? 0 : static_cast<int>(lua::whole_number(L, -1, "umpire.bus.on: priority", -1000000000, 1000000000));
            lua_getfield(L, 3, "sees_cancelled");
            sees_cancelled = lua_toboolean(L, -1);
            lua_pop(L, 2);
        }
        auto handler = std::make_shared<LuaRef>(L, 2);
        Game* game = &Game::of(L);
        auto& log = GameLog::of(L);
        const auto id = log.bus.subscribe(
            event, priority,
            [handler, game](bus::Event& ev) {
                lua_State* S = game->state();
                auto* table = static_cast<LuaRef*>(ev.host.get());
                handler->push();
                table->push();
                game->call(1, 0);
                table->push();
                lua_getfield(S, -1, "cancelled");
                const bool cancelled = lua_toboolean(S, -1);
                lua_pop(S, 2);
                if (cancelled && !ev.cancelled) ev.cancel();
            },
            log.owner(), sees_cancelled);
        if (!charge_bus_memory(L)) {
            log.bus.unsubscribe(id);
            const std::size_t count = log.bus.subscription_count();
            throw RuleError("memory limit: umpire.bus.on: " + std::to_string(count + 1) + " subscriptions (~" +
                            std::to_string((log.bus.bytes() >> 20) + 1) +
                            " MiB of C++ memory) would pass the Lua memory cap (subscribing without end?)");
        }
        lua_pushnumber(L, static_cast<lua_Number>(id));
        return 1;
    });
}

/// @lua umpire.bus.off(id)
/// ---Removes one subscription made by umpire.bus.on. Returns false if it was already gone.
/// ---@param id integer
/// ---@return boolean
int l_off(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        const auto id = static_cast<bus::EventBus::SubscriptionId>(luaL_checknumber(L, 1));
        lua_pushboolean(L, GameLog::of(L).bus.unsubscribe(id));
        charge_bus_memory(L);  // gives back
        return 1;
    });
}

/// @lua umpire.bus.emit(event, payload)
/// ---Raises an event now: its handlers run in priority order, nested inside the caller.
/// ---Returns the event as the handlers left it: ev.payload (the same table, changed in place)
/// ---and ev.cancelled.
/// ---@param event string
/// ---@param payload? table
/// ---@return {name: string, payload: table, cancelled: boolean}
int l_emit(lua_State* L) {
    return lua::lua_guard(L, [&] {
        Game::require_main_thread(L, "umpire.bus.emit");
        lua::StackCheck check(L, 1);
        const std::string name = lua::check_text(L, 1);
        lua_createtable(L, 0, 4);
        const int table = lua_gettop(L);
        lua_pushstring(L, name.c_str());
        lua_setfield(L, table, "name");
        if (lua_istable(L, 2)) lua_pushvalue(L, 2);
        else lua_newtable(L);
        lua_setfield(L, table, "payload");
        lua_pushboolean(L, 0);
        lua_setfield(L, table, "cancelled");
        push_cancel(L);
        lua_setfield(L, table, "cancel");
        bus::Event ev;
        ev.name = name;
        ev.host = std::make_shared<LuaRef>(L, table);
        GameLog::of(L).bus.dispatch(ev);
        lua_pushboolean(L, ev.cancelled);
        lua_setfield(L, table, "cancelled");
        return 1;
    });
}

const luaL_Reg kBusFunctions[] = {
    {"on", l_on},
    {"off", l_off},
    {"emit", l_emit},
    {nullptr, nullptr},
};

}  // namespace

void open_modifiers(lua_State* L, int bus_table);  // wrap_ModifierPipeline.cpp

void open_bus(lua_State* L) {
    lua::StackCheck check(L, 0);
    lua_newtable(L);
    luaL_register(L, nullptr, kBusFunctions);
    open_modifiers(L, lua_gettop(L));
    lua_setfield(L, -2, "bus");
}

}  // namespace umpire
