#include "bindings/LuaError.hpp"

#include <cctype>
#include <charconv>

namespace umpire::lua {

bool split_position(const std::string& message, std::string& file, int& line) {
    // "file:line: message"; the file part may itself contain ':' only in odd cases, so take the
    // first ":<digits>:" occurrence.
    for (std::size_t colon = message.find(':'); colon != std::string::npos;
         colon = message.find(':', colon + 1)) {
        std::size_t end = colon + 1;
        while (end < message.size() && std::isdigit(static_cast<unsigned char>(message[end]))) ++end;
        // A line past int is no position (rule code can raise any text: `error("a:1e20 digits: b",
        // 0)`, where std::stoi threw and the error became "umpire: stoi", its own text lost).
        int parsed = 0;
        if (end > colon + 1 && end < message.size() && message[end] == ':' &&
            std::from_chars(message.data() + colon + 1, message.data() + end, parsed).ec == std::errc()) {
            file = message.substr(0, colon);
            line = parsed;
            return true;
        }
        if (message.find('\n') < colon) break;
    }
    return false;
}

ScriptError to_script_error(lua_State* L, int status, std::string traceback) {
    std::string message;
    if (status == LUA_ERRMEM) {
        message = "memory limit: out of Lua memory";
    } else if (const char* s = lua_tostring(L, -1)) {
        message = s;
    } else {
        message = std::string("(error object is a ") + luaL_typename(L, -1) + " value)";
    }
    lua_pop(L, 1);
    std::string file;
    int line = 0;
    split_position(message, file, line);
    return ScriptError(message, file, line, std::move(traceback));
}

}  // namespace umpire::lua
