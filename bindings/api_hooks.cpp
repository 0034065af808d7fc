// umpire.hooks: named event handlers that belong to the load generation that registered them,
// so a reload replaces a module's handlers instead of adding a second copy. This is the
// reference use of Registry::Listener; the bus binding stages its subscriptions the same way.
#include <map>
#include <vector>

#include "bindings/Game.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/api_modules.hpp"

namespace umpire {
namespace {

class Hooks final : public Registry::Listener {
public:
    explicit Hooks(Game& game) : game_(game) { game_.registry().add_listener(this); }
    ~Hooks() override {
        game_.registry().remove_listener(this);
        // The lua_State may be closing; references die with it.
    }

    void add(const std::string& event, int ref) {
        handlers_[event].push_back({game_.registry().registration_generation(), ref});
    }
    const std::vector<std::pair<std::uint64_t, int>>* find(const std::string& event) const {
        auto it = handlers_.find(event);
        return it == handlers_.end() ? nullptr : &it->second;
    }

    void commit(std::uint64_t generation) override {
        drop([&](std::uint64_t g) { return g < generation; });
    }
    void rollback(std::uint64_t generation) override {
        drop([&](std::uint64_t g) { return g == generation; });
    }

private:
    template <class Pred>
    void drop(Pred pred) {
        for (auto& [event, list] : handlers_) {
            std::vector<std::pair<std::uint64_t, int>> kept;
            for (auto& h : list) {
                if (pred(h.first)) luaL_unref(game_.state(), LUA_REGISTRYINDEX, h.second);
                else kept.push_back(h);
            }
            list.swap(kept);
        }
    }

    Game& game_;
    std::map<std::string, std::vector<std::pair<std::uint64_t, int>>> handlers_;
};

/// @lua umpire.hooks.on(event, handler)
/// ---Registers handler for event. Handlers registered while a ruleset loads belong to that load:
/// ---a reload replaces them (never doubles them); a failed reload keeps the old ones.
/// ---@param event string
/// ---@param handler fun(...)
int l_on(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 0);
        const std::string event = luaL_checkstring(L, 1);
        luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_pushvalue(L, 2);
        Game::of(L).extension<Hooks>().add(event, luaL_ref(L, LUA_REGISTRYINDEX));
        return check.result(0);
    });
}

/// @lua umpire.hooks.fire(event, ...)
/// ---Calls every handler of event in registration order with the extra arguments.
/// ---@param event string
/// ---@return integer count how many handlers ran
int l_fire(lua_State* L) {
    luaL_checkstring(L, 1);
    const int nargs = lua_gettop(L) - 1;
    int count = 0;
    {
        // Put the handlers on the Lua stack first (a handler may register more while we run),
        // so no C++ object is alive across the calls below: their errors propagate as Lua errors.
        const std::string event = lua_tostring(L, 1);
        if (const auto* list = Game::of(L).extension<Hooks>().find(event)) {
            luaL_checkstack(L, static_cast<int>(list->size()) + nargs + 2, "too many handlers");
            for (const auto& h : *list) {
                lua_rawgeti(L, LUA_REGISTRYINDEX, h.second);
                ++count;
            }
        }
    }
    CCallDepth depth(L);  // a handler that fires its own event recurses through this C function
    for (int i = 0; i < count; ++i) {
        lua_pushvalue(L, nargs + 2 + i);
        for (int a = 2; a <= nargs + 1; ++a) lua_pushvalue(L, a);
        lua_call(L, nargs, 0);
    }
    lua_pushinteger(L, count);
    return 1;
}

}  // namespace

void open_hooks(lua_State* L) {
    lua_newtable(L);
    lua_pushcfunction(L, l_on);
    lua_setfield(L, -2, "on");
    lua_pushcfunction(L, l_fire);
    lua_setfield(L, -2, "fire");
    lua_setfield(L, -2, "hooks");
}

}  // namespace umpire
