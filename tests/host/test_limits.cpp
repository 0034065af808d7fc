// Runaway loops and memory bombs.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bindings/GameLog.hpp"
#include "host/DeadlineSignal.hpp"

#include "tests/support/helpers.hpp"

using test_helpers::TestHost;

namespace {

// Number of compiled traces in the state (jit.util is reachable from the raw state, which only
// host code uses).
int trace_count(umpire::LuaHost& host) {
    lua_State* L = host.state();
    const char* code = "local ok, util = pcall(require, 'jit.util') local n = 0 "
                       "while util.traceinfo(n + 1) do n = n + 1 end return n";
    REQUIRE(luaL_dostring(L, code) == 0);
    const int n = static_cast<int>(lua_tointeger(L, -1));
    lua_pop(L, 1);
    return n;
}

// Gives the host's rules env a function `hook_is_set()` that says whether a count hook is set
// while rule code runs, and turns the journal off (a journal alone keeps the periodic hook, whose
// absence is what the probe looks for).
void add_hook_probe(umpire::LuaHost& host) {
    host.extension<umpire::GameLog>().set_journaling(false);
    lua_State* L = host.state();
    host.push_env();
    lua_pushcfunction(L, [](lua_State* L) {
        lua_pushboolean(L, lua_gethook(L) != nullptr);
        return 1;
    });
    lua_setfield(L, -2, "hook_is_set");
    lua_pop(L, 1);
}

bool hook_is_set_in_call(umpire::LuaHost& host) {
    lua_State* L = host.state();
    host.load_chunk("return hook_is_set()", "=probe");
    host.call(0, 1);
    const bool set = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return set;
}

// `while true do end` in the host is stopped with its file and line (not by the watchdog, which
// would end the test process).
void check_loop_stopped(umpire::LuaHost& host) {
    try {
        host.run_string("local n = 0\nwhile true do\n  n = n + 1\nend", "@rules/loop.lua");
        FAIL("the loop was not stopped");
    } catch (const umpire::ScriptError& e) {
        CHECK_THAT(e.what(), Catch::StartsWith("rules/loop.lua:") && Catch::Contains("script stopped: ran longer than"));
    }
}

}  // namespace

TEST_CASE("a sandboxed call runs without a count hook until its deadline", "[limits]") {
    // A count hook, whatever its count, puts LuaJIT's interpreter on its slower dispatch, so the
    // deadline's timer sets it (host/DeadlineSignal.hpp); these are the cases that still need it
    // from the start.
    umpire::HostOptions o;
    o.time_limit = 0.3;
    TestHost t(o);
    add_hook_probe(t.host);
    CHECK_FALSE(hook_is_set_in_call(t.host));
    check_loop_stopped(t.host);  // the timer set the hook at the deadline
    CHECK_FALSE(hook_is_set_in_call(t.host));  // and it is gone for the next call
    // The journal's growth from rolls and events is charged by the periodic hook.
    t.host.extension<umpire::GameLog>().set_journaling(true);
    CHECK(hook_is_set_in_call(t.host));

    umpire::HostOptions budget;
    budget.instruction_limit = 1000000;
    TestHost b(budget);
    add_hook_probe(b.host);
    CHECK(hook_is_set_in_call(b.host));

    umpire::HostOptions none;
    none.time_limit = 0;
    TestHost n(none);
    add_hook_probe(n.host);
    CHECK_FALSE(hook_is_set_in_call(n.host));
}

TEST_CASE("the deadline's timer works in a process forked after it was armed", "[limits]") {
    // A worker forked from a parent whose host already ran a call has none of the parent's timers
    // (host/DeadlineSignal.cpp). The timer is tested alone, on a bare Lua state, so that the
    // child has no host (and no watchdog thread whose lock fork could copy held): in the child a
    // loop must reach the hook at its deadline. alarm() ends a child whose hook never comes, and
    // the parent reads the outcome from the exit code.
    lua_State* L = luaL_newstate();
    REQUIRE(L != nullptr);
    luaL_openlibs(L);
    luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);  // compiled loops never see a hook
    const lua_Hook stop = [](lua_State* L, lua_Debug*) { luaL_error(L, "deadline"); };
    {
        umpire::DeadlineSignal timer(L, stop);
        REQUIRE(timer.usable());
        REQUIRE(timer.arm(std::chrono::steady_clock::now() + std::chrono::hours(1)));  // the parent's timer
        timer.disarm();
        const pid_t child = fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            alarm(20);
            int code = 3;
            if (timer.arm(std::chrono::steady_clock::now() + std::chrono::milliseconds(200))) {
                const int status = luaL_dostring(L, "local n = 0 while true do n = n + 1 end");
                code = status != 0 && std::string(lua_tostring(L, -1)).find("deadline") != std::string::npos ? 0 : 4;
            }
            _exit(code);
        }
        int status = 0;
        REQUIRE(waitpid(child, &status, 0) == child);
        INFO("child status " << status << " (a signal 14 is alarm(): the hook never came)");
        REQUIRE(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 0);
    }
    lua_close(L);
}

TEST_CASE("a host stops at its deadline on whichever thread runs it", "[limits]") {
    umpire::HostOptions o;
    o.time_limit = 0.3;
    TestHost t(o);
    t.host.extension<umpire::GameLog>().set_journaling(false);
    CHECK(t.eval("1 + 1") == "2");  // the timer is aimed at this thread
    for (int run = 0; run < 2; ++run) {
        // Another thread: a timer aimed at the first one would never stop it (the watchdog would
        // end the test process instead).
        std::thread other([&] { check_loop_stopped(t.host); });
        other.join();
    }
    check_loop_stopped(t.host);  // and back on this one
}

TEST_CASE("more hosts than deadline timers fall back to the periodic hook", "[limits]") {
    umpire::HostOptions o;
    o.time_limit = 0.3;
    std::vector<std::unique_ptr<TestHost>> hosts;
    for (int i = 0; i < 140; ++i) {  // DeadlineSignal has 128 slots
        hosts.push_back(std::make_unique<TestHost>(o));
        add_hook_probe(hosts.back()->host);
        hook_is_set_in_call(hosts.back()->host);  // claims its slot, if one is left
    }
    CHECK_FALSE(hook_is_set_in_call(hosts.front()->host));
    CHECK(hook_is_set_in_call(hosts.back()->host));
    check_loop_stopped(hosts.front()->host);
    check_loop_stopped(hosts.back()->host);
    hosts.clear();  // the slots are free again
    TestHost again(o);
    add_hook_probe(again.host);
    CHECK_FALSE(hook_is_set_in_call(again.host));
}

TEST_CASE("a hot loop compiles to traces when trusted, and not in the sandbox", "[limits][jit]") {
    const std::string hot = "local s = 0 for i = 1, 200000 do s = s + i % 7 end";
    umpire::HostOptions trusted_options;
    trusted_options.trusted = true;
    TestHost trusted(trusted_options);
    lua_State* L = trusted.host.state();
    REQUIRE(luaL_dostring(L, "return jit.status()") == 0);
    CHECK(lua_toboolean(L, -1));  // the JIT is on in this LuaJIT build
    lua_pop(L, 1);
    trusted.host.run_string(hot);
    CHECK(trace_count(trusted.host) > 0);  // the same loop shape as `while true do end` compiles

    TestHost sandboxed;
    sandboxed.host.run_string(hot);
    CHECK(trace_count(sandboxed.host) == 0);
}

// The sandbox's pairs (its prelude, host/Sandbox.cpp) runs inside rule code, so under --jit it is
// compiled like it: interpreted, it ended every trace that called it ("blacklisted"), and no rule
// loop walking a table with pairs compiled. In the plain sandbox it stays interpreted. (A table of
// one key: a walk of two keys or more makes a closure, which this LuaJIT does not compile, FNEW.)
TEST_CASE("under --jit a rule loop over pairs compiles and in the plain sandbox it does not", "[limits][jit]") {
    const bool jit = GENERATE(true, false);
    INFO("sandbox_jit " << jit);
    umpire::HostOptions o;
    o.sandbox_jit = jit;
    TestHost t(o);
    lua_State* L = t.host.state();
    // Notes the source of each function a trace that compiled starts in (jit.attach, raw state).
    REQUIRE(luaL_dostring(L, "local util = require('jit.util') compiled_in = {} "
                             "note_trace = function(what, tr, func) if what == 'stop' then "
                             "local source = util.funcinfo(func).source if source then compiled_in[source] = true end end end "
                             "jit.attach(note_trace, 'trace')") == 0);
    t.host.run_string("local t, s = {a = 6}, 0\n"
                      "for i = 1, 3000 do for k, v in pairs(t) do s = s + v end end\n"
                      "assert(s == 18000)", "@walk.lua");
    REQUIRE(luaL_dostring(L, "jit.attach(note_trace) return compiled_in['@walk.lua'] == true") == 0);
    CHECK(static_cast<bool>(lua_toboolean(L, -1)) == jit);
    lua_pop(L, 1);
}

TEST_CASE("while true do end is stopped in the sandbox with file and line", "[limits]") {
    umpire::HostOptions o;
    o.time_limit = 0.3;
    TestHost t(o);
    try {
        t.host.run_string("local n = 0\nwhile true do\n  n = n + 1\nend", "@rules/loop.lua");
        FAIL("the loop was not stopped");
    } catch (const umpire::ScriptError& e) {
        CHECK_THAT(e.what(), Catch::StartsWith("rules/loop.lua:") &&
                                 Catch::Contains("script stopped: ran longer than 0.3s (runaway loop?)"));
    }
    // pcall inside the script cannot swallow the stop for long: the hook fires again.
    CHECK_THROWS_WITH(t.host.run_string("while true do pcall(function() while true do end end) end"),
                      Catch::Contains("script stopped"));
    CHECK(t.eval("1 + 1") == "2");  // still usable
}

TEST_CASE("an instruction budget stops a loop deterministically", "[limits]") {
    umpire::HostOptions o;
    o.instruction_limit = 100000;
    TestHost t(o);
    CHECK_THROWS_WITH(t.host.run_string("while true do end", "@x.lua"),
                      Catch::Contains("x.lua:1: script stopped: ran more than 100000 instructions"));
}

TEST_CASE("a memory bomb is refused and the host stays usable", "[limits]") {
    umpire::HostOptions o;
    o.memory_limit = 64 << 20;
    TestHost t(o);
    CHECK_THROWS_WITH(
        t.host.run_string("local t = {} while true do t[#t + 1] = ('x'):rep(1e6) .. #t end"),
        Catch::Contains("memory limit"));
    CHECK(t.host.memory_used() < (16u << 20));
    CHECK(t.eval("#('x'):rep(1000)") == "1000");
}

// Blocks up to 256 bytes go through the host allocator's free lists (host/LuaHost.cpp): a bomb
// of small tables and short strings must meet the cap like a bomb of big strings, what the
// collector frees must count as freed, and recycled blocks must hold their new contents.
TEST_CASE("a bomb of small blocks meets the cap and recycled blocks stay sound", "[limits]") {
    umpire::HostOptions o;
    o.memory_limit = 24 << 20;
    TestHost t(o);
    CHECK_THROWS_WITH(t.host.run_string("local t = {} while true do t[#t + 1] = {#t, 'k' .. #t} end"),
                      Catch::Contains("memory limit"));
    CHECK(t.host.memory_used() < (4u << 20));
    // Fill, drop and refill with tables of every small size; each must read back what it was given.
    CHECK(t.eval(R"((function()
        for round = 1, 3 do
          local all = {}
          for i = 1, 20000 do
            local n = i % 17
            local x = {}
            for j = 1, n do x[j] = i * 100 + j end
            x.s = 's' .. i
            all[i] = x
          end
          for i = 1, 20000, 7 do
            local x = all[i]
            for j = 1, i % 17 do if x[j] ~= i * 100 + j then return 'bad ' .. i end end
            if x.s ~= 's' .. i then return 'bad string ' .. i end
          end
          all = nil
          collectgarbage('count')
        end
        return 'ok'
      end)())") == "ok");
}

namespace {

// A loop filling a table with strings until the memory cap stops it, at line 3 of its chunk.
constexpr const char* kTableBomb = "local t = {}\nfor i = 1, 1e9 do\n  t[i] = ('x'):rep(1000) .. i\nend\n";

// Runs a memory bomb as `file` and checks that its error starts with `place` followed by the
// memory limit, and that it names that file and line (0 for none).
void check_memory_error(TestHost& t, const char* code, const std::string& file, const std::string& place, int line) {
    try {
        t.host.run_string(code, "@" + file);
        FAIL("the bomb ran to the end");
    } catch (const umpire::ScriptError& e) {
        CHECK_THAT(e.what(), Catch::StartsWith(place + "memory limit"));
        CHECK(e.file == file);
        CHECK(e.line == line);
    }
}

}  // namespace

TEST_CASE("a memory error names the line that was growing the heap", "[limits]") {
    umpire::HostOptions o;
    o.memory_limit = 32 << 20;
    TestHost t(o);
    check_memory_error(t, kTableBomb, "bomb.lua", "bomb.lua:3: ", 3);
    // The next call starts with no location left over from this one.
    CHECK_THROWS_WITH(t.host.run_string("local s = {} while true do s[#s + 1] = ('y'):rep(4e6) .. #s end", "@big.lua"),
                      !Catch::Contains("bomb.lua"));
}

TEST_CASE("a memory error inside a coroutine names the coroutine's line, not its resume's", "[limits]") {
    // One allocation jumps past the cap from below half (no count hook noted a place): the
    // allocator's note reads the running coroutine's frames (LuaHost::Resuming). Before, the
    // error named line 8 (the resume) and line 6 (the call of the wrap's function).
    umpire::HostOptions o;
    o.memory_limit = 32 << 20;
    TestHost t(o);
    const std::string resumed =
        "local function grow(n)\n"
        "  local pad = 1\n"
        "  local s = ('x'):rep(n)\n"
        "  return s\n"
        "end\n"
        "local co = coroutine.create(function() coroutine.yield(1) return #grow(1e8) end)\n"
        "coroutine.resume(co)\nlocal ok, e = coroutine.resume(co)\n";
    CHECK_THROWS_WITH(t.host.run_string(resumed, "@co.lua"), Catch::StartsWith("co.lua:3: memory limit"));
    const std::string wrapped = "local f = coroutine.wrap(function()\n"
                                "  local s = ('y'):rep(1e8)\n"
                                "  coroutine.yield(#s)\n"
                                "end)\n"
                                "local a = 1\n"
                                "return f()\n";
    try {
        t.host.run_string(wrapped, "@wrap.lua");
        FAIL("the allocation passed the cap");
    } catch (const umpire::ScriptError& e) {
        CHECK_THAT(e.what(), Catch::StartsWith("wrap.lua:2: memory limit"));
        CHECK(e.line == 2);
    }
    // Nested: the innermost coroutine's line; and after them, the main thread's own.
    const std::string nested = "local inner = coroutine.wrap(function()\n"
                               "  return #('z'):rep(1e8)\n"
                               "end)\n"
                               "local outer = coroutine.wrap(function() return inner() end)\n"
                               "return outer()\n";
    CHECK_THROWS_WITH(t.host.run_string(nested, "@nested.lua"), Catch::StartsWith("nested.lua:2: memory limit"));
    const std::string after = "coroutine.wrap(function() return 1 end)()\nlocal x = 1\nreturn #('w'):rep(1e8)\n";
    CHECK_THROWS_WITH(t.host.run_string(after, "@after.lua"), Catch::StartsWith("after.lua:3: memory limit"));
}

// Under --jit a compiled trace keeps no frames the debug API can read, and --trusted runs no hook:
// there a memory error named no place at all. Under --jit the JIT is now suspended at the first
// interpreted instruction once the heap passes half the cap (LuaHost::suspend_jit), so a compiled
// loop's error names its line; an allocation that jumps past the cap with nothing interpreted
// since half of it, and every error under --trusted, name the function the host called.
TEST_CASE("a memory error under --jit or --trusted names a place", "[limits][memory]") {
    umpire::HostOptions o;
    o.memory_limit = 32 << 20;
    o.sandbox_jit = true;
    const bool journal = GENERATE(true, false);  // the periodic hook from the start, or none
    INFO("journal " << journal);
    {
        TestHost t(o);
        t.host.extension<umpire::GameLog>().set_journaling(journal);
        check_memory_error(t, kTableBomb, "bomb.lua", "bomb.lua:3: ", 3);
        // The JIT is back on for the next call, which starts below half the cap.
        CHECK(t.eval("(function() local s = 0 for i = 1, 1e5 do s = s + i % 7 end return s end)()") == "300000");
        CHECK(trace_count(t.host) > 0);
        // A single allocation from below half the cap to past it, inside a function.
        const std::string jump = "local function grow(n)\n  local s = ('y'):rep(n)\n  return s\nend\nreturn #grow(1e8)\n";
        CHECK_THROWS_WITH(t.host.run_string(jump, "@jump.lua"), Catch::StartsWith("jump.lua:") &&
                                                                    Catch::Contains("memory limit"));
    }
    o.sandbox_jit = false;
    o.trusted = true;
    TestHost t(o);
    t.host.extension<umpire::GameLog>().set_journaling(journal);
    check_memory_error(t, kTableBomb, "trusted.lua", "trusted.lua: ", 0);
    // A function the host calls is named by where it is defined.
    lua_State* L = t.host.state();
    REQUIRE(t.host.run_string("return function()\n  local t = {}\n  while true do t[#t + 1] = ('z'):rep(1000) .. #t end\nend\n",
                              "@defs.lua", true) == 1);
    CHECK_THROWS_WITH(t.host.call(0, 0), Catch::StartsWith("defs.lua: in the function defined at line 1: memory limit"));
    CHECK(lua_gettop(L) == 0);
}

// A single allocation from below half the cap to past it, made by a compiled loop (a table's
// array part doubling, in a helper the trace calls): the loop's line, found from the return
// address into its trace on the C stack (trace_lines::find_caller). Before, under --jit, the
// error named only the chunk the host called ("grow.lua: memory limit ..."). Fresh hosts, since
// which traces LuaJIT compiles varies from run to run.
TEST_CASE("a memory error in a compiled loop under --jit names the loop's line", "[limits][memory][jit]") {
    umpire::HostOptions o;
    o.memory_limit = 8 << 20;
    o.sandbox_jit = true;
    const char* grow = "local t = {}\nlocal n = 0\nfor i = 1, 1e8 do\n  t[i] = i\nend\nreturn #t\n";
    for (int run = 0; run < 10; ++run) {
        TestHost t(o);
        // (a loop's trace starts at its body's first instruction: line 4, as the deadline's
        // signal names a runaway compiled loop)
        check_memory_error(t, grow, "grow.lua", "grow.lua:4: ", 4);
        CHECK_THROWS_WITH(t.host.run_string(grow, "@grow.lua"), Catch::Contains("compiled under --jit for the loop at this line"));
    }
}

// umpire.bus.emit and umpire.odds.chain call rule code back through the host, on the main thread;
// inside a coroutine that crashed the process (SIGSEGV). They are refused there, with the reason,
// in the sandbox and trusted alike, and the host goes on.
TEST_CASE("umpire.bus.emit and umpire.odds.chain inside a coroutine are an error, not a crash", "[limits][attacks]") {
    const bool trusted = GENERATE(false, true);
    umpire::HostOptions o;
    o.trusted = trusted;
    TestHost t(o);
    INFO((trusted ? "trusted" : "sandboxed"));
    CHECK_THROWS_WITH(t.host.run_string("umpire.bus.on('g', function(ev) end)\n"
                                        "coroutine.wrap(function() umpire.bus.emit('g', {}) end)()\n",
                                        "@emit.lua"),
                      Catch::Contains("umpire.bus.emit cannot be called inside a coroutine"));
    CHECK_THROWS_WITH(t.host.run_string("coroutine.wrap(function()\n"
                                        "  umpire.odds.chain{state = {n = 0}, step = function(s) s.n = s.n + 1 end, max_steps = 2}\n"
                                        "end)()\n",
                                        "@chain.lua"),
                      Catch::Contains("umpire.odds.chain cannot be called inside a coroutine"));
    CHECK(t.eval("(function() umpire.bus.on('h', function(ev) ev.payload.n = 1 end) return umpire.bus.emit('h', {}).payload.n end)()") == "1");
}

TEST_CASE("trusted mode: the watchdog ends a runaway process with exit code 1", "[limits][jit]") {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        umpire::HostOptions o;
        o.trusted = true;
        o.time_limit = 0.3;
        umpire::LuaHost host(o);
        try {
            host.run_string("while true do end");
        } catch (...) {
        }
        _exit(7);  // not reached: a compiled loop is never interrupted in-process
    }
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 1);
}

namespace {

// One of the collector's settings (LUA_GCSETPAUSE, LUA_GCSETSTEPMUL), read by setting it (LuaJIT
// has no getter) and setting it back.
int gc_setting(umpire::LuaHost& host, int what) {
    const int value = lua_gc(host.state(), what, 0);
    lua_gc(host.state(), what, value);
    return value;
}

// The pace as "pause/stepmul": "600/20000" roomy, "200/200" LuaJIT's default.
std::string gc_pace(umpire::LuaHost& host) {
    return std::to_string(gc_setting(host, LUA_GCSETPAUSE)) + "/" + std::to_string(gc_setting(host, LUA_GCSETSTEPMUL));
}

}  // namespace

TEST_CASE("the collector runs at the roomy pace only while the heap is small", "[limits][memory]") {
    // LuaHost::pace_collector: a 600% pause and a 20000% step multiplier while the heap is at most
    // min(8 MiB, cap/32), LuaJIT's defaults (200%, 200%) from the allocation that passes that, and
    // the roomy pace again from the next top-level call that starts with the heap small.
    umpire::HostOptions o;
    o.memory_limit = std::size_t{64} << 20;  // small heap: up to 2 MiB
    TestHost t(o);
    CHECK(gc_pace(t.host) == "600/20000");
    t.host.run_string("local t = {} for i = 1, 1000 do t[i] = i end");
    CHECK(gc_pace(t.host) == "600/20000");
    // 4 MiB kept alive: past the small heap during the call, so the default pace from then on.
    t.host.run_string("kept = {} for i = 1, 64 do kept[i] = string.rep('x', 65536 + i) end");
    CHECK(gc_pace(t.host) == "200/200");
    t.host.run_string("local n = #kept");
    CHECK(gc_pace(t.host) == "200/200");
    // Dropped and collected: the next call starts with a small heap again.
    t.host.run_string("kept = nil");
    lua_gc(t.host.state(), LUA_GCCOLLECT, 0);
    t.host.run_string("local n = 1");
    CHECK(gc_pace(t.host) == "600/20000");
    // A heap that nears the cap is still collected: 40 MiB of garbage in 1 MiB strings, with the
    // cap at 64 MiB, runs without a memory error.
    t.host.run_string("for i = 1, 40 do local s = string.rep('y', 1048576 + i) end");
}

// A full collection can itself take memory: LuaJIT halves its string table, once a cycle, when
// three quarters of it are empty, into a newly allocated table. At the cap that allocation was
// refused, and lua_gc raised the refusal where the host collects after a memory stop, outside any
// protected call (session 32: a reload that dropped most interned strings found it). Here 600 000
// strings grow the table to 2^20 slots and die, so that when a later run fills the heap to its
// cap the table still has halvings to make, each needing far more than the stopped run frees.
TEST_CASE("a full collection at the memory cap is not refused", "[limits][memory]") {
    umpire::HostOptions o;
    o.memory_limit = 96 << 20;
    TestHost t(o);
    t.host.run_string("local t = {} for i = 1, 600000 do t[i] = 'k' .. i end");
    for (int round = 0; round < 3; ++round) {
        CHECK_THROWS_WITH(t.host.run_string("local f = {} umpire.state['fill'] = f while true do f[1] = {} f = f[1] end",
                                            "@fill.lua"),
                          Catch::Contains("memory limit"));
        CHECK(t.eval("umpire.state['fill'] ~= nil") == "true");
        t.host.run_string("umpire.state['fill'] = nil");
        CHECK(t.eval("#('x'):rep(1000)") == "1000");
    }
}

// The interpreter raises a Lua stack overflow in the callee's header, where LuaJIT adds no
// "file:line: ": the message handler names the nearest frame at a line (LuaHost::
// message_handler). When the overflow leaves no room for the handler's own frame no handler runs
// (LUA_ERRERR), and the host names the function it called (LuaHost::call). Which of the two
// happens depends on the traces LuaJIT recorded, which its randomised penalties vary from run to
// run (CI saw the second where this machine had seen only the first): so each recursion is run
// many times, in fresh hosts.
TEST_CASE("a Lua stack overflow names the line of the recursing function", "[limits]") {
    const char* recursions[] = {
        "local function f(n)\n if n == 0 then return 0 end\n return 1 + f(n - 1)\nend\nreturn f(1e7)",
        "local function f() return 1 + f() end\nf()",  // the smallest frames
    };
    for (const bool trusted : {false, true}) {
        for (const char* code : recursions) {
            for (int round = 0; round < 20; ++round) {
                umpire::HostOptions o;
                o.trusted = trusted;
                TestHost t(o);
                CAPTURE(trusted, code, round);
                CHECK_THROWS_WITH(t.host.run_string(code, "@deep.lua"),
                                  Catch::StartsWith("deep.lua:") && Catch::Contains("stack overflow"));
                CHECK(t.eval("1 + 1") == "2");
            }
        }
    }
}
