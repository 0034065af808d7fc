// libFuzzer harness of the tail-call locator (host/TailCallWhere.cpp), which reads the bytecode
// and the live registers of rule code to place a pattern function reached through tail calls.
// Each input is read as a small program: up to four functions, each defined as a local, a global,
// a field or a method of a class (or a field or method named `locate` itself), whose lines either fill, return (as a tail call or not) a call of
// another function or of the pattern function `locate` in one of its spellings (s:locate, a field
// of a global table, a local alias, a parenthesised call, which is no tail call), or return
// something else; the main chunk calls one of them with a chosen `c`, which picks the branches.
// `locate` is a C function in the real string table (strings reach it as a method) that asks the
// locator where it was called from, as the real pattern functions do before a long match.
//
// The oracle is a second, independent computation: the harness follows the program's branches
// itself and knows the line that called locate, and whether that call was a tail call.
// A direct call must be placed on its own line; a tail call on the line of the tail call, or, when
// the locator says it cannot tell, on the line that made the last call still on the stack with
// "in a tail call from" or "in a call of". Any other answer, a crash or an ASan report is a
// finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "host/LuaHost.hpp"
#include "host/TailCallWhere.hpp"

namespace {

std::string g_where;  // what the last locate was told
int g_calls = 0;

int l_locate(lua_State* L) {
    if (!umpire::tail_call::push_caller_where(L)) luaL_where(L, 1);
    g_where = lua_tostring(L, -1);
    ++g_calls;
    return 0;
}

umpire::LuaHost& host() {
    static umpire::LuaHost* h = [] {
        umpire::HostOptions o;
        o.memory_limit = std::size_t{64} << 20;
        o.time_limit = 2;
        o.print = [](const std::string&) {};
        auto* made = new umpire::LuaHost(o);  // lives for the process: libFuzzer never returns
        lua_State* L = made->state();
        // locate in the real string table, which strings read through their metatable.
        lua_pushliteral(L, "");
        lua_getmetatable(L, -1);
        lua_getfield(L, -1, "__index");
        lua_pushcfunction(L, l_locate);
        lua_setfield(L, -2, "locate");
        lua_pop(L, 3);
        return made;
    }();
    return *h;
}

struct Bytes {
    const std::uint8_t* data;
    std::size_t size, at = 0;
    int next(int range) { return at < size ? data[at++] % range : 0; }
};

// own_field and own_method are named `locate`, as the pattern function is: `N2.locate(s, c)` and
// `P2:locate(s, c)` read like the direct `s:locate(c)` by name, and only the table tells them apart.
enum class Kind { local, global, field, method, own_field, own_method };
constexpr int kKinds = 6;
// What a function line does when its branch is taken.
enum class Line { fill, tail_locate, direct_locate, tail_call, direct_call, other };

struct Step {
    Line what = Line::fill;
    int c = 0;       // the branch's value of c (the last line has none: it always returns)
    int target = 0;  // the function called (tail_call, direct_call)
    int line = 0;    // its line in the program
};

struct Function {
    Kind kind = Kind::local;
    std::vector<Step> steps;
};

constexpr const char* kTailLocate[] = {"s:locate(c)", "S.locate(s, c)", "loc(s, c)", "(s):locate(c)"};
constexpr const char* kDirectLocate[] = {"(s:locate(c))", "(loc(s, c))"};

std::string reference(const std::vector<Function>& fns, int i) {
    const std::string n = std::to_string(i + 1);
    switch (fns[i].kind) {
        case Kind::local: return "f" + n + "(s, c)";
        case Kind::global: return "g" + n + "(s, c)";
        case Kind::field: return "M.f" + n + "(s, c)";
        case Kind::method: return "O:f" + n + "(s, c)";
        case Kind::own_field: return "N" + n + ".locate(s, c)";
        case Kind::own_method: return "P" + n + ":locate(s, c)";
    }
    return "";
}

std::string returned(const std::vector<Function>& fns, const Step& step, int form) {
    switch (step.what) {
        case Line::tail_locate: return std::string("return ") + kTailLocate[form % 4];
        case Line::direct_locate: return std::string("return ") + kDirectLocate[form % 2];
        case Line::tail_call: return "return " + reference(fns, step.target);
        case Line::direct_call: return "local r = " + reference(fns, step.target) + " return r";
        case Line::other: return "return tostring(c)";
        case Line::fill: return "local x = c + 1";
    }
    return "";
}

// The independent computation: follows the branches from function i with this c. Returns false
// when locate is not called; else its calling line, whether it was a tail call, and the
// line of the last call still on the stack.
bool follow(const std::vector<Function>& fns, int i, int c, int calling_line, int& line, bool& tail, int& caller) {
    for (const Step& step : fns[i].steps) {
        const bool taken = &step == &fns[i].steps.back() || (step.what != Line::fill && step.c == c);
        if (!taken) continue;
        switch (step.what) {
            case Line::tail_locate: line = step.line, tail = true, caller = calling_line; return true;
            case Line::direct_locate: line = step.line, tail = false, caller = step.line; return true;
            case Line::tail_call: return follow(fns, step.target, c, calling_line, line, tail, caller);
            case Line::direct_call: return follow(fns, step.target, c, step.line, line, tail, caller);
            case Line::other: return false;
            case Line::fill: return false;  // a last line that fills returns nothing
        }
    }
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    umpire::LuaHost& h = host();
    Bytes in{data, size};
    std::vector<Function> fns(1 + in.next(4));
    for (auto& f : fns) f.kind = static_cast<Kind>(in.next(kKinds));
    std::vector<std::string> lines = {
        "local loc = ('').locate",
        "S = {locate = loc}",
        "local M, Class = {}, {}",
        "Class.__index = Class",
        "local O = setmetatable({}, Class)",
        "local f1, f2, f3, f4",
        "local N1, N2, N3, N4 = {}, {}, {}, {}",
        "local C1, C2, C3, C4 = {}, {}, {}, {}",
        "C1.__index, C2.__index, C3.__index, C4.__index = C1, C2, C3, C4",
        "local P1, P2, P3, P4 = setmetatable({}, C1), setmetatable({}, C2), setmetatable({}, C3), setmetatable({}, C4)",
    };
    for (std::size_t i = 0; i < fns.size(); ++i) {
        const std::string n = std::to_string(i + 1);
        switch (fns[i].kind) {
            case Kind::local: lines.push_back("f" + n + " = function(s, c)"); break;
            case Kind::global: lines.push_back("g" + n + " = function(s, c)"); break;
            case Kind::field: lines.push_back("M.f" + n + " = function(s, c)"); break;
            case Kind::method: lines.push_back("function Class:f" + n + "(s, c)"); break;
            case Kind::own_field: lines.push_back("N" + n + ".locate = function(s, c)"); break;
            case Kind::own_method: lines.push_back("function C" + n + ":locate(s, c)"); break;
        }
        const int count = 1 + in.next(5);
        const bool has_later = i + 1 < fns.size();  // calls go only to later functions: no cycle
        for (int k = 0; k < count; ++k) {
            Step step;
            step.what = static_cast<Line>(in.next(6));
            if ((step.what == Line::tail_call || step.what == Line::direct_call) && !has_later) step.what = Line::tail_locate;
            if (step.what == Line::tail_call || step.what == Line::direct_call)
                step.target = static_cast<int>(i) + 1 + in.next(static_cast<int>(fns.size() - i - 1));
            step.c = in.next(4);
            const int form = in.next(4);
            step.line = static_cast<int>(lines.size()) + 1;
            const std::string body = returned(fns, step, form);
            const bool last = k + 1 == count;
            if (last || step.what == Line::fill) lines.push_back("  " + body);
            else lines.push_back("  if c == " + std::to_string(step.c) + " then " + body + " end");
            fns[i].steps.push_back(step);
        }
        lines.push_back("end");
    }
    const int start = in.next(static_cast<int>(fns.size()));
    const int c = in.next(4);
    lines.push_back("local s = 'subject'");
    lines.push_back("local c = " + std::to_string(c));
    lines.push_back("local r = " + reference(fns, start));
    const int main_line = static_cast<int>(lines.size());
    lines.push_back("return r");
    std::string code;
    for (const auto& line : lines) code += line + "\n";

    int line = 0, caller = 0;
    bool tail = false;
    const bool called = follow(fns, start, c, main_line, line, tail, caller);
    g_calls = 0;
    g_where.clear();
    try {
        h.run_string(code, "=fuzz");
    } catch (const umpire::ScriptError& e) {
        std::fprintf(stderr, "the program failed: %s\n%s", e.what(), code.c_str());
        std::abort();
    }
    if (g_calls != (called ? 1 : 0)) {
        std::fprintf(stderr, "locate called %d times, expected %d\n%s", g_calls, called ? 1 : 0, code.c_str());
        std::abort();
    }
    if (!called) return 0;
    const std::string exact = "fuzz:" + std::to_string(line) + ": ";
    const std::string from = "fuzz:" + std::to_string(caller) + ": ";
    const bool right = g_where == exact ||
                       (tail && (g_where.rfind(from + "in a tail call from ", 0) == 0 ||
                                 g_where.rfind(from + "in a call of ", 0) == 0));
    if (!right) {
        std::fprintf(stderr, "placed at '%s', expected '%s'%s\n%s", g_where.c_str(), exact.c_str(),
                     tail ? " (a tail call)" : "", code.c_str());
        std::abort();
    }
    return 0;
}
