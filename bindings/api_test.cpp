// umpire.test: what spec files need from the host (the assertions themselves are in
// SpecRunner.cpp, in Lua).
#include <memory>
#include <vector>

#include "bindings/LuaHost.hpp"
#include "bindings/api_modules.hpp"

namespace umpire {
namespace {

/// @lua umpire.test.dice(faces)
/// ---Fixes the next dice of this test, in order, whatever is rolled (a d6, a d10 of d%...).
/// ---Rolling more dice than queued, or a face larger than the die, is an error.
/// ---@param faces integer[]
int l_dice(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 0);
        luaL_checktype(L, 1, LUA_TTABLE);
        auto faces = std::make_shared<std::vector<std::uint32_t>>();
        const int n = static_cast<int>(lua_objlen(L, 1));
        for (int i = 1; i <= n; ++i) {
            lua_rawgeti(L, 1, i);
            const lua_Number face = lua_tonumber(L, -1);
            lua_pop(L, 1);
            if (face < 1 || face != static_cast<std::uint32_t>(face))
                throw Error("umpire.test.dice: face #" + std::to_string(i) + " must be a whole number >= 1");
            faces->push_back(static_cast<std::uint32_t>(face));
        }
        auto next = std::make_shared<std::size_t>(0);
        LuaHost::from(L).set_die_function([faces, next](std::uint32_t sides) -> std::uint32_t {
            if (*next >= faces->size())
                throw Error("fixed dice ran out: the test queued " + std::to_string(faces->size()) +
                            " dice with umpire.test.dice");
            const std::uint32_t face = (*faces)[(*next)++];
            if (face > sides)
                throw Error("fixed die #" + std::to_string(*next) + " is " + std::to_string(face) +
                            " but a d" + std::to_string(sides) + " was rolled");
            return face;
        });
        return check.result(0);
    });
}

}  // namespace

void open_test(lua_State* L) {
    lua_newtable(L);
    lua_pushcfunction(L, l_dice);
    lua_setfield(L, -2, "dice");
    lua_setfield(L, -2, "test");
}

}  // namespace umpire
