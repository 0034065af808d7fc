// libFuzzer harness of the Lua API surface: each input is read as a short program of calls
// "function #i of umpire.* with arguments #a, #b, ..." over a fixed pool of awkward values (NaN,
// infinities, huge and negative numbers, empty and long strings, dice and hex texts, tables,
// functions, nil). Every call either returns or raises a Lua error that the host turns into a
// ScriptError; a crash, an ASan report or an exception of another type is a finding. The
// function list is gathered once from the real tables behind umpire's read-only views.
#include <cstddef>
#include <cstdint>
#include <string>

#include "host/LuaHost.hpp"
#include "host/Sandbox.hpp"

namespace {

constexpr const char* kPool[] = {
    "nil", "0", "1", "-1", "6", "2^31", "2^53", "-2^63", "1/0", "-1/0", "0/0", "0.5", "true", "false",
    "''", "'2d6'", "'4d6kh3'", "'d%'", "'X3'", "'21K8'", "'A9.2'", "('9'):rep(400)", "('d'):rep(300)",
    "{}", "{1, 2, 3}", "{x = 1, y = 2}", "{{}}", "setmetatable({}, {__index = function() error('boom') end})",
    "function() end", "print", "umpire", "umpire.dice", "string.rep('x', 1e5)",
};
constexpr int kPoolSize = sizeof kPool / sizeof kPool[0];

umpire::LuaHost& host() {
    static umpire::LuaHost* h = [] {
        umpire::HostOptions o;
        o.memory_limit = std::size_t{64} << 20;
        o.time_limit = 2;
        o.print = [](const std::string&) {};
        auto* made = new umpire::LuaHost(o);  // lives for the process: libFuzzer never returns
        // F = every function of umpire and its modules, in a fixed (sorted) order.
        made->run_string("F = {}");
        lua_State* L = made->state();
        made->push_env();
        lua_getfield(L, -1, "umpire");
        umpire::sandbox::push_writable(L, -1);
        const int api = lua_gettop(L);
        std::string list = "local names = {";
        lua_pushnil(L);
        while (lua_next(L, api)) {
            if (lua_type(L, -2) == LUA_TSTRING) {
                const std::string key = lua_tostring(L, -2);
                if (lua_isfunction(L, -1)) list += "'" + key + "', ";
                if (lua_istable(L, -1) && key != "data" && key != "rules" && key != "state") {
                    umpire::sandbox::push_writable(L, -1);
                    lua_pushnil(L);
                    while (lua_next(L, -2)) {
                        if (lua_type(L, -2) == LUA_TSTRING && lua_isfunction(L, -1))
                            list += "'" + key + "." + lua_tostring(L, -2) + "', ";
                        lua_pop(L, 1);
                    }
                    lua_pop(L, 1);
                }
            }
            lua_pop(L, 1);
        }
        lua_settop(L, api - 3);
        made->run_string(list + "} table.sort(names) for i, n in ipairs(names) do "
                                "local f = umpire for part in n:gmatch('[^.]+') do f = f[part] end F[i] = f end");
        return made;
    }();
    return *h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    umpire::LuaHost& h = host();
    // Each call takes 1 + 1 + n bytes: function, argument count (0-3), arguments.
    std::string code = "local n = #F\n";
    std::size_t i = 0;
    for (int calls = 0; calls < 8 && i + 2 <= size; ++calls) {
        const int fn = data[i++];
        const int argc = data[i++] % 4;
        std::string args;
        for (int a = 0; a < argc && i < size; ++a) args += (a ? ", " : "") + std::string(kPool[data[i++] % kPoolSize]);
        code += "pcall(F[" + std::to_string(fn) + " % n + 1], " + (args.empty() ? "nil" : args) + ")\n";
    }
    try {
        h.run_string(code, "=fuzz");
    } catch (const umpire::ScriptError&) {
    }
    return 0;
}
