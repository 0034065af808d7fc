// The one door between C++ errors and Lua errors, both ways.
//
// C++ -> Lua: a binding function runs its body inside lua_guard(). Any exception is caught there,
// its message copied onto the Lua stack (prefixed with the calling script's "file:line: "), and
// only after the try block has ended -- so every C++ local of the body is already destroyed --
// do we call lua_error(), which longjmps/unwinds through Lua frames only. C++ exceptions never
// cross into Lua.
//
// Lua -> C++: a failed protected call becomes a ScriptError whose what() is the Lua message
// ("rulesets/asl/rules/malfunction.lua:42: ..."), with the file and line split out and the
// traceback kept on the side for --traceback.
#pragma once
#include <lua.hpp>

#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <utility>

#include "core/Error.hpp"

namespace umpire {

// An error raised by (or while running) a Lua rule or script.
struct ScriptError : Error {
    ScriptError(std::string message, std::string file = {}, int line = 0, std::string traceback = {})
        : Error(std::move(message)), file(std::move(file)), line(line),
          traceback(std::move(traceback)) {}
    std::string file;       // "rulesets/asl/rules/malfunction.lua" ("" when unknown)
    int line = 0;           // 1-based, 0 when unknown
    std::string traceback;  // Lua traceback, "" when not captured
};

namespace lua {

// The string argument at `arg` whole, NULs included (luaL_checkstring's C string ends at the first
// one: "2d6\0+100" rolled 2d6, and the events "e\0a" and "e\0b" were one event; session 37).
// Numbers are converted, as by luaL_checkstring.
inline std::string check_text(lua_State* L, int arg) {
    std::size_t length = 0;
    const char* text = luaL_checklstring(L, arg, &length);
    return std::string(text, length);
}

// check_text, or `fallback` when the argument is absent or nil (as luaL_optstring).
inline std::string opt_text(lua_State* L, int arg, const char* fallback) {
    return lua_isnoneornil(L, arg) ? std::string(fallback) : check_text(L, arg);
}

// check_text for a string the binding parses or quotes in its errors (a dice expression, a hex
// name, an option such as "left"), refused when it holds a control byte other than a tab: a NUL
// cut the error quoting it ("bad dice expression '2d6", and no more). `what` names it.
inline std::string check_printable(lua_State* L, int arg, const char* what) {
    std::string text = check_text(L, arg);
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\t') || c == 0x7f) {
            static const char* kHex = "0123456789ABCDEF";
            throw Error(std::string(what) + " holds the control byte 0x" + kHex[c >> 4] + kHex[c & 15] +
                        " at column " + std::to_string(i + 1) + " (text only)");
        }
    }
    return text;
}

// check_printable, or `fallback` when the argument is absent or nil.
inline std::string opt_printable(lua_State* L, int arg, const char* fallback, const char* what) {
    return lua_isnoneornil(L, arg) ? std::string(fallback) : check_printable(L, arg, what);
}

// Runs body() (which returns the number of Lua results) and turns any C++ exception into a Lua
// error. Use in every lua_CFunction:  return lua_guard(L, [&] { ...; return 1; });
// `level` is the stack level named in the prefix: 1, the binding's caller, unless the binding is
// only called through a Lua front of the host's own (umpire.cite's, wrap_Journal.cpp).
template <class Body>
int lua_guard(lua_State* L, Body&& body, int level = 1) {
    bool failed = false;
    try {
        return body();
    } catch (const std::bad_alloc&) {
        // The process's memory, not the Lua cap (that one is LuaJIT's "not enough memory"): in an
        // isolated worker, its address-space limit.
        luaL_where(L, level);
        lua_pushstring(L, "out of memory: the process's address space ran out (std::bad_alloc; "
                          "--memory sets the worker's limit)");
        lua_concat(L, 2);
        failed = true;
    } catch (const ScriptError& e) {
        // An error of rule code this binding called (a bus handler, a chain's step): its message
        // names its own file:line already. Prefixed with the caller's place too, a handler that
        // emits its own event until the recursion limit read "(command line):1: " 65 times.
        if (e.file.empty()) luaL_where(L, level);
        else lua_pushliteral(L, "");
        lua_pushstring(L, e.what());
        lua_concat(L, 2);
        failed = true;
    } catch (const std::exception& e) {
        // Position of the Lua code that called us, so the author sees their file and line.
        luaL_where(L, level);
        lua_pushstring(L, e.what());
        lua_concat(L, 2);
        failed = true;
    }
    // No catch (...): on x86_64 LuaJIT raises Lua errors (luaL_argerror, luaL_checkinteger...)
    // as foreign exceptions that unwind C++ frames, and catch (...) would swallow them.
    // Outside the try: no C++ object of this frame or of body() is alive any more.
    (void)failed;
    return lua_error(L);
}

// Defold-style stack discipline check: construct at entry with the number of values the
// function will leave (+pushed, -popped).
//   return check.result(1);   strict: throws umpire::Error on imbalance (inside lua_guard that
//                             becomes a Lua error naming the binding's caller)
//   (destructor)              debug builds only: a warning on stderr, never a throw. A Lua error
//                             raised inside the scope (luaL_checkinteger...) unwinds through this
//                             destructor as a foreign exception that std::uncaught_exceptions()
//                             does not count, so the destructor cannot tell an imbalance from an
//                             error in flight, and throwing there would call std::terminate.
class StackCheck {
public:
    StackCheck(lua_State* L, int delta) : L_(L), expected_(lua_gettop(L) + delta) {}
    ~StackCheck() {
#ifndef NDEBUG
        if (!checked_ && std::uncaught_exceptions() == 0 && lua_gettop(L_) != expected_)
            std::fprintf(stderr, "umpire: binding stack imbalance: expected %d values, found %d "
                                 "(or a Lua error was raised in a checked scope)\n",
                         expected_, lua_gettop(L_));
#endif
    }
    int result(int nresults) {
        checked_ = true;
        if (lua_gettop(L_) != expected_)
            throw Error("binding stack imbalance: expected " + std::to_string(expected_) +
                        " values, found " + std::to_string(lua_gettop(L_)));
        return nresults;
    }
    void verify() { result(0); }
    StackCheck(const StackCheck&) = delete;
    StackCheck& operator=(const StackCheck&) = delete;

private:
    lua_State* L_;
    int expected_;
    bool checked_ = false;
};

// Turns the error value on top of the stack (left by a failed lua_pcall) into a ScriptError and
// pops it. `traceback` is whatever the message handler collected ("" if none).
ScriptError to_script_error(lua_State* L, int status, std::string traceback = {});

// Splits "file:line: message" (the shape Lua gives every positioned error).
bool split_position(const std::string& message, std::string& file, int& line);

}  // namespace lua
}  // namespace umpire
