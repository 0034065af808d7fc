// libFuzzer harness of the YAML loader (ruleset/YamlLoader): any bytes either load into a Lua
// table or are refused with a ScriptError naming fuzz.yaml:line:col; the host stays usable.
// A crash, an exception of another type, a Lua error escaping the protected call, or an ASan
// report is a finding. One host serves every input, under a 64 MiB Lua cap. See dice_fuzzer.cpp.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "host/LuaHost.hpp"
#include "ruleset/YamlLoader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static umpire::LuaHost* host = [] {
        umpire::HostOptions o;
        o.memory_limit = std::size_t{64} << 20;
        return new umpire::LuaHost(o);  // lives for the process: libFuzzer never returns
    }();
    const std::string text(reinterpret_cast<const char*>(data), size);
    lua_State* L = host->state();
    const int top = lua_gettop(L);
    try {
        host->protect([&] { umpire::yaml::push_string(L, text, "fuzz.yaml"); });
    } catch (const umpire::ScriptError& e) {
        if (std::string(e.what()).rfind("fuzz.yaml:", 0) != 0 && std::string(e.what()).rfind("memory limit", 0) != 0)
            std::abort();  // every refusal names the place
    }
    if (lua_gettop(L) != top) std::abort();
    return 0;
}
