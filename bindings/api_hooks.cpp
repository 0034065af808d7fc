// umpire.hooks: named event handlers that belong to the load generation that registered them,
// so a reload replaces a module's handlers instead of adding a second copy. This is the
// reference use of Registry::Listener; the bus binding stages its subscriptions the same way.
#include <map>
#include <string>
#include <vector>

#include "bindings/Game.hpp"
#include "bindings/HeldBytes.hpp"
#include "bindings/LuaError.hpp"
#include "bindings/api_modules.hpp"
#include "core/Error.hpp"

namespace umpire {
namespace {

class Hooks final : public Registry::Listener {
public:
    explicit Hooks(Game& game) : game_(game) { game_.registry().add_listener(this); }
    ~Hooks() override {
        game_.registry().remove_listener(this);
        // The lua_State may be closing; references die with it.
    }

    // Adds the handler `ref`; false (nothing added) when its C++ memory would pass the Lua memory cap.
    bool add(const std::string& event, int ref) {
        const auto [it, fresh] = handlers_.try_emplace(event);
        auto& list = it->second;
        const std::size_t capacity = list.capacity();
        list.push_back({game_.registry().registration_generation(), ref});
        const std::size_t grown =
            (list.capacity() - capacity) * sizeof(list.front()) + (fresh ? kEventBytes + it->first.capacity() : 0);
        bytes_ += grown;
        if (held_.follow(game_, bytes_)) return true;
        bytes_ -= grown;
        list.pop_back();
        if (fresh) handlers_.erase(it);
        return false;
    }
    std::size_t bytes() const { return bytes_; }
    std::size_t count() const {
        std::size_t n = 0;
        for (const auto& [event, list] : handlers_) n += list.size();
        return n;
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
        bytes_ = 0;
        for (auto it = handlers_.begin(); it != handlers_.end();) {
            std::vector<std::pair<std::uint64_t, int>> kept;
            for (auto& h : it->second) {
                if (pred(h.first)) luaL_unref(game_.state(), LUA_REGISTRYINDEX, h.second);
                else kept.push_back(h);
            }
            if (kept.empty()) {
                it = handlers_.erase(it);  // an event no handler is left for (it stayed, with its name)
                continue;
            }
            it->second.swap(kept);
            bytes_ += kEventBytes + it->first.capacity() + it->second.capacity() * sizeof(it->second.front());
            ++it;
        }
        held_.follow(game_, bytes_);  // gives back
    }

    // A map node and the vector in it, beside the event's name and the handlers (a std::map node
    // holds three pointers and a colour, then the key and the value).
    static constexpr std::size_t kEventBytes =
        4 * sizeof(void*) + sizeof(std::string) + sizeof(std::vector<std::pair<std::uint64_t, int>>);

    Game& game_;
    std::map<std::string, std::vector<std::pair<std::uint64_t, int>>> handlers_;
    // What handlers_ holds on the C++ heap, charged against the Lua memory cap (bindings/HeldBytes.hpp):
    // an event's name is a std::string of its own, so 3000 events of 1 MiB names took 2 GB outside
    // the cap (session 37).
    std::size_t bytes_ = 0;
    HeldBytes held_;
};

/// @lua umpire.hooks.on(event, handler)
/// ---Registers handler for event. Handlers registered while a ruleset loads belong to that load:
/// ---a reload replaces them (never doubles them); a failed reload keeps the old ones.
/// ---@param event string
/// ---@param handler fun(...)
int l_on(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 0);
        const std::string event = lua::check_text(L, 1);
        luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_pushvalue(L, 2);
        const int ref = luaL_ref(L, LUA_REGISTRYINDEX);
        auto& hooks = Game::of(L).extension<Hooks>();
        if (!hooks.add(event, ref)) {
            luaL_unref(L, LUA_REGISTRYINDEX, ref);
            throw RuleError("memory limit: umpire.hooks.on: " + std::to_string(hooks.count() + 1) + " handlers (~" +
                            std::to_string((hooks.bytes() + event.capacity()) / 1024 / 1024 + 1) +
                            " MiB of C++ memory) would pass the Lua memory cap (registering without end?)");
        }
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
        const std::string event = lua::check_text(L, 1);
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
