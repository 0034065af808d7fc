// The attack suite: what a stranger's ruleset or script may try, one attack per row. Each row
// asserts that the attack is refused, with which error, and that the host is still alive and
// usable afterwards (it answers 1 + 1, and loads a good ruleset where the attack was a ruleset).
// Attacks that can only be stopped by ending the process (a C function that never returns to
// the hook) run in a forked child, and the parent checks the child's exit status and message.
// Classes (docs/sandbox.md has the list): C-stack exhaustion, sticky time stop, sticky memory
// stop, escapes from the allow-list, bad arguments, bad YAML data, paths outside the ruleset,
// attacks at load time, the watchdog backstop.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "app/OddsRunner.hpp"
#include "bindings/GameLog.hpp"
#include "core/bus/Journal.hpp"
#include "core/odds/Exact.hpp"
#include "core/odds/Report.hpp"
#include "ruleset/Load.hpp"
#include "ruleset/Ruleset.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;
namespace fs = std::filesystem;

namespace {

struct Attack {
    const char* name;
    const char* code;
    const char* expected;  // a substring of the error
};

// Fast limits, so the suite stays quick (and under ASan).
umpire::HostOptions attack_options() {
    umpire::HostOptions o;
    o.time_limit = 0.25;
    o.memory_limit = std::size_t{32} << 20;
    return o;
}

void check_refused(TestHost& t, const Attack& a) {
    INFO("attack: " << a.name);
    t.lines.clear();
    CHECK_THROWS_WITH(t.host.run_string(a.code, "@attack.lua"), Catch::Contains(a.expected));
    CHECK(t.eval("1 + 1") == "2");  // alive and usable
    CHECK(t.host.memory_used() < (std::size_t{16} << 20));
}

constexpr const char* kCStack = "C stack overflow";
constexpr const char* kStopped = "script stopped: ran longer than 0.25s";
constexpr const char* kMemory = "memory limit";

// Scratch folders of test processes that are gone: a process ended by the watchdog (an attack
// that was not stopped in time is a test failure, and the watchdog ends the process) cannot run
// destructors, so the next run removes what it left.
void remove_stale_scratch() {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::temp_directory_path(), ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("umpire-attack-")) continue;
        const auto dash = name.rfind('-');
        const long pid = std::strtol(name.c_str() + dash + 1, nullptr, 10);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
    }
}

// A scratch folder of rulesets, removed when the test ends (tests leave nothing in /tmp).
struct Scratch {
    fs::path dir;
    explicit Scratch(const std::string& tag)
        : dir(fs::temp_directory_path() / ("umpire-attack-" + tag + "-" + std::to_string(::getpid()))) {
        remove_stale_scratch();
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    ~Scratch() { fs::remove_all(dir); }
    // A ruleset `name` with the given manifest body (after `name:`) and files.
    fs::path ruleset(const std::string& name, const std::string& manifest,
                     const std::vector<std::pair<std::string, std::string>>& files = {}) {
        const fs::path r = dir / name;
        fs::create_directories(r / "data");
        fs::create_directories(r / "rules");
        test_helpers::write(r / "ruleset.yaml", "name: " + name + "\n" + manifest);
        for (const auto& [file, text] : files) {
            fs::create_directories((r / file).parent_path());
            test_helpers::write(r / file, text);
        }
        return r;
    }
};

// Loads dir into a fresh host and expects the load refused with `expected`; then the same host
// loads a good ruleset and runs code: the attack left it usable.
void check_load_refused(const fs::path& dir, const std::string& expected,
                        umpire::HostOptions options = attack_options()) {
    INFO("ruleset: " << dir.filename().string());
    TestHost t(options);
    CHECK_THROWS_WITH(umpire::ruleset::load(t.host, {dir.string()}), Catch::Contains(expected));
    CHECK(t.eval("1 + 1") == "2");
    umpire::ruleset::load(t.host, {(test_helpers::fixtures() / "base").string()});
    CHECK(t.eval("umpire.ruleset.name") == "base");
}


// The exact odds of the Lua expression `call` in t's host: each path gives the host the engine's
// dice, evaluates the call, and takes its text as the outcome.
std::optional<umpire::odds::Result> enumerate_call(TestHost& t, const std::string& call) {
    return umpire::odds::enumerate([&](umpire::dice::DieSource& d) {
        t.host.set_die_source(std::shared_ptr<umpire::dice::DieSource>(&d, [](umpire::dice::DieSource*) {}));
        const std::string value = t.eval(call);
        t.host.set_die_source(nullptr);
        return umpire::odds::Outcome(value);
    });
}

}  // namespace

TEST_CASE("attacks: recursion through C functions is an error, not a crash", "[attacks][cstack]") {
    const Attack attacks[] = {
        {"gsub with a recursive function", "local function f(s) return (s:gsub('.', f)) end f('ab')", kCStack},
        {"string.gsub called through the env copy", "local function f(s) return (string.gsub(s, '.', f)) end f('ab')", kCStack},
        {"__index -> gsub with the table as replacement",
         "local t t = setmetatable({}, {__index = function(_, k) return (('x'):gsub('.', t)) end}) return t.a", kCStack},
        {"coroutine.wrap recursion", "local function f() return coroutine.wrap(f)() end f()", kCStack},
        {"coroutine.resume recursion",
         "local function f() local ok, e = coroutine.resume(coroutine.create(f)) if not ok then error(e, 0) end end f()", kCStack},
        // (pcall and xpcall are LuaJIT's own underneath since session 36, run in the VM on no C
        // frame: their recursion overflows the Lua stack, an error all the same)
        {"pcall recursion", "local function f() local ok, e = pcall(f) if not ok then error(e, 0) end end f()", "stack overflow"},
        {"xpcall recursion",
         "local function f() local ok, e = xpcall(f, function(m) return m end) if not ok then error(e, 0) end end f()",
         "stack overflow"},
        {"table.sort comparator recursion", "local function f(a, b) table.sort({3, 2, 1}, f) return a < b end table.sort({3, 2, 1}, f)", kCStack},
        {"string.format %s through __tostring",
         "local t t = setmetatable({}, {__tostring = function() return string.format('%s', t) end}) return string.format('%s', t)", kCStack},
        {"print through __tostring", "local t t = setmetatable({}, {__tostring = function() print(t) return 'x' end}) print(t)", kCStack},
        {"load with a recursive reader", "local function r() load(r) return nil end load(r)", kCStack},
        {"umpire.hooks.fire from its own handler", "umpire.hooks.on('x', function() umpire.hooks.fire('x') end) umpire.hooks.fire('x')", kCStack},
        {"plain Lua recursion", "local function f() return 1 + f() end f()", "stack overflow"},
        {"gsub recursion inside pcall inside a coroutine",
         "local function f(s) return (s:gsub('.', f)) end local co = coroutine.wrap(function() return pcall(f, 'ab') end) "
         "local ok, e = co() error(e, 0)", kCStack},
    };
    TestHost t(attack_options());
    for (const auto& a : attacks) check_refused(t, a);

    // The depth count unwinds with the error: after overflows caught within one call, gsub with
    // a function still works in that same call (the count did not stay at the limit).
    CHECK(t.eval("(function() for i = 1, 5 do pcall(function() local function f(s) return (s:gsub('.', f)) end "
                 "f('ab') end) end return (('ab'):gsub('.', function() return 'x' end)) end)()") == "xx");
}

TEST_CASE("attacks: the time limit cannot be caught or hidden", "[attacks][time]") {
    const Attack attacks[] = {
        {"while true do end", "while true do end", kStopped},
        {"a loop of pcall(loop)", "while true do pcall(function() while true do end end) end", kStopped},
        {"a loop inside coroutine.resume, resumed again and again",
         "while true do coroutine.resume(coroutine.create(function() while true do end end)) end", kStopped},
        {"a loop inside coroutine.wrap under pcall", "while true do pcall(coroutine.wrap(function() while true do end end)) end", kStopped},
        {"a loop in xpcall's handler", "xpcall(function() error('x') end, function() while true do end end)", kStopped},
        {"xpcall swallowing the stop in a loop",
         "while true do xpcall(function() while true do end end, function(e) return e end) end", kStopped},
        {"a loop inside a gsub callback", "(('x'):rep(10)):gsub('.', function() while true do end end)", kStopped},
        {"a loop inside a sort comparator", "table.sort({3, 2, 1}, function(a, b) while true do end end)", kStopped},
        {"a loop inside a load reader", "load(function() while true do end end)", kStopped},
        {"a loop inside an __index metamethod",
         "local t = setmetatable({}, {__index = function() while true do end end}) return t.x", kStopped},
        {"a loop inside a hook handler", "umpire.hooks.on('y', function() while true do end end) umpire.hooks.fire('y')", kStopped},
        {"an endless tail call through tostring",
         "local t t = setmetatable({}, {__tostring = function() return tostring(t) end}) return tostring(t)", kStopped},
        {"a loop inside a yielding coroutine, resumed in a loop",
         "local co = coroutine.wrap(function() while true do coroutine.yield() end end) while true do co() end", kStopped},
        {"a loop in a coroutine that catches with pcall inside",
         "coroutine.wrap(function() while true do pcall(function() while true do end end) end end)()", kStopped},
    };
    TestHost t(attack_options());
    for (const auto& a : attacks) check_refused(t, a);

    SECTION("a caught stop does not let the script carry on") {
        t.lines.clear();
        CHECK_THROWS_WITH(t.host.run_string("print(coroutine.resume(coroutine.create(function() while true do end end))) "
                                            "print('carried on')"),
                          Catch::Contains(kStopped));
        CHECK(t.lines.empty());
    }
}

TEST_CASE("attacks: the memory cap cannot be caught or dodged", "[attacks][memory]") {
    const Attack attacks[] = {
        {"a growing table", "local t = {} while true do t[#t + 1] = ('x'):rep(1e5) .. #t end", kMemory},
        {"a doubling string", "local s = 'x' while true do s = s .. s end", kMemory},
        {"a memory bomb inside pcall, retried",
         "for i = 1, 3 do pcall(function() local t = {} while true do t[#t + 1] = {} end end) end", kMemory},
        {"a memory bomb inside coroutine.resume",
         "local ok = coroutine.resume(coroutine.create(function() local s = 'x' while true do s = s .. s end end)) "
         "print('carried on', ok)", kMemory},
        {"a memory bomb inside coroutine.wrap under pcall",
         "pcall(coroutine.wrap(function() local t = {} while true do t[#t + 1] = ('y'):rep(1e5) .. #t end end)) print('on')", kMemory},
        {"string.rep past the cap", "return ('x'):rep(2^30)", kMemory},
        {"table.concat past the cap", "local t = {} for i = 1, 64 do t[i] = ('z'):rep(1e6) end return table.concat(t)", kMemory},
        {"distributions held past the cap (C++ heap)",
         "local t = {} for i = 1, 8 do t[i] = umpire.dice.dist('d200000') end", "would pass the Lua memory cap"},
        {"one distribution larger than the cap", "return umpire.dice.dist('d1000000')", "would pass the Lua memory cap"},
        {"a load() reader that never ends",
         "local piece = ('x'):rep(2^20) load(function() return piece end)", "more than 16 MiB"},
    };
    // A generous time limit: making distributions is C++ work the hook cannot interrupt, and
    // past the limit (+0.1 s) the watchdog would end this test process (see [watchdog] below).
    umpire::HostOptions o = attack_options();
    o.time_limit = 30;
    TestHost t(o);
    for (const auto& a : attacks) check_refused(t, a);
}

TEST_CASE("attacks: escapes from the allow-list stay closed", "[attacks][escape]") {
    const Attack attacks[] = {
        {"io.open", "io.open('/etc/passwd')", "global 'io'"},
        {"os.execute", "os.execute('true')", "global 'os'"},
        {"require ffi", "require('ffi')", "global 'require'"},
        {"debug.getregistry", "debug.getregistry()", "global 'debug'"},
        {"string.dump through a string", "load(('x').dump(print))", "field 'dump'"},
        {"precompiled bytecode", "assert(load('\\27LJ\\2 bytecode'))", "bytecode is refused"},
        {"getfenv to reach the real globals", "getfenv(0)", "global 'getfenv'"},
        {"the string metatable", "getmetatable('').__index.rep = nil", "index a boolean"},
        {"collectgarbage('collect')", "collectgarbage('collect')", "only 'count'"},
        {"math.randomseed", "math.randomseed(42)", "--seed"},
        {"newproxy for a __gc finaliser", "newproxy(true)", "global 'newproxy'"},
        {"package.loadlib", "package.loadlib('libc.so.6', 'system')", "global 'package'"},
    };
    TestHost t(attack_options());
    for (const auto& a : attacks) check_refused(t, a);
}

TEST_CASE("attacks: bad arguments to math.random are errors, never undefined behaviour", "[attacks][args]") {
    const Attack attacks[] = {
        {"math.random(0/0)", "return math.random(0/0)", "NaN"},
        {"math.random(0/0, 1)", "return math.random(0/0, 1)", "NaN"},
        {"math.random(1/0)", "return math.random(1/0)", "too large"},
        {"math.random(-1/0, 1)", "return math.random(-1/0, 1)", "too large"},
        {"math.random(2^40)", "return math.random(2^40)", "too large"},
    };
    TestHost t(attack_options());
    for (const auto& a : attacks) check_refused(t, a);
}

TEST_CASE("attacks: bad YAML data is refused with file:line:col", "[attacks][yaml]") {
    Scratch s("yaml");
    const std::string manifest = "data: [d]\n";
    struct Bad {
        const char* name;
        std::string text;
        const char* expected;
    };
    std::string alias_bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i < 12; ++i) {
        alias_bomb += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
        for (int k = 0; k < 9; ++k) alias_bomb += (k ? ", *a" : "*a") + std::to_string(i - 1);
        alias_bomb += "]\n";
    }
    const Bad bad[] = {
        {"huge", "a: 1\nb: 1e999\n", "d.yaml:2:4: number out of range: 1e999"},
        {"hexhuge", "a: 0xffffffffffffffffffffffffff\n", "d.yaml:1:4: number out of range"},
        {"octhuge", "a: 0o7777777777777777777777777\n", "d.yaml:1:4: number out of range"},
        {"utf8", "a: ok\nb: caf\xff\n", "d.yaml:2:7: malformed UTF-8 (byte 0xFF)"},
        {"overlong", "a: \xc0\xaf\n", "d.yaml:1:4: malformed UTF-8 (byte 0xC0)"},
        {"surrogate", "a: \xed\xa0\x80\n", "d.yaml:1:4: malformed UTF-8 (byte 0xED)"},
        {"truncated", "a: \xe2\x82\n", "d.yaml:1:4: malformed UTF-8"},
        {"merge", "base: &b {x: 1}\nchild:\n  <<: *b\n  y: 2\n", "d.yaml:3:3: YAML merge keys (<<) are not supported"},
        {"deep", "a: " + std::string(100, '[') + std::string(100, ']') + "\n", "nested deeper than 64 levels"},
        {"deeper", "a: " + std::string(100000, '[') + std::string(100000, ']') + "\n", "nested deeper than 64 levels"},
        {"aliasbomb", alias_bomb, "aliases expanding without end"},
        {"big", "a: \"" + std::string((std::size_t{16} << 20) + 16, 'x') + "\"\n", "a data file may hold at most 16 MiB"},
    };
    // The bombs run under the default memory cap, to show that the value cap stops them first.
    for (const auto& b : bad) {
        const fs::path r = s.ruleset(std::string("yaml-") + b.name, manifest, {{"data/d.yaml", b.text}});
        check_load_refused(r, b.expected, umpire::HostOptions{});
    }
    // An alias bomb in the manifest's turn_sequence, which is converted like data.
    std::string ts = "turn_sequence:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
    for (int i = 1; i < 12; ++i) {
        ts += "  a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
        for (int k = 0; k < 9; ++k) ts += (k ? ", *a" : "*a") + std::to_string(i - 1);
        ts += "]\n";
    }
    check_load_refused(s.ruleset("yaml-turn-bomb", ts), "aliases expanding without end", umpire::HostOptions{});
}

TEST_CASE("attacks: a manifest cannot name files outside its folder", "[attacks][paths]") {
    Scratch s("paths");
    const fs::path outside = s.dir / "secret.yaml";
    test_helpers::write(outside, "token: hunter2\n");
    const fs::path outside_lua = s.dir / "evil.lua";
    test_helpers::write(outside_lua, "return {}\n");

    check_load_refused(s.ruleset("abs-data", "data: [" + outside.string() + "]\n"), "no absolute paths");
    check_load_refused(s.ruleset("dotdot-data", "data: [../secret]\n"), "no absolute paths, no '..'");
    check_load_refused(s.ruleset("dotdot-nested", "data: [data/../../secret]\n"), "no '..'");
    check_load_refused(s.ruleset("dotdot-module", "modules: [../evil]\n"), "no '..'");
    check_load_refused(s.ruleset("abs-module", "modules: [" + outside_lua.string() + "]\n"), "no absolute paths");
    check_load_refused(s.ruleset("abs-test", "tests: [" + outside_lua.string() + "]\n"), "no absolute paths");

    const fs::path link_data = s.ruleset("link-data", "data: [leak]\n");
    fs::create_symlink(outside, link_data / "data/leak.yaml");
    check_load_refused(link_data, "resolves outside the ruleset folder");

    const fs::path link_module = s.ruleset("link-module", "modules: [m]\n");
    fs::create_symlink(outside_lua, link_module / "rules/m.lua");
    check_load_refused(link_module, "resolves outside the ruleset folder");

    const fs::path link_dir = s.ruleset("link-dir", "data: [d]\n");
    fs::remove_all(link_dir / "data");
    fs::create_directory_symlink(s.dir, link_dir / "data");  // data/ itself points outside
    test_helpers::write(s.dir / "d.yaml", "a: 1\n");
    check_load_refused(link_dir, "resolves outside the ruleset folder");

    const fs::path link_test = s.ruleset("link-test", "");
    fs::create_directories(link_test / "tests");
    fs::create_symlink(outside_lua, link_test / "tests/spec.lua");
    check_load_refused(link_test, "resolves outside the ruleset folder");

    s.ruleset("parent", "");
    check_load_refused(s.ruleset("extends-abs", "extends: " + (s.dir / "parent").string() + "\n"), "never a path");
    check_load_refused(s.ruleset("extends-dotdot", "extends: ../parent\n"), "never a path");
    check_load_refused(s.ruleset("extends-missing", "extends: no-such-ruleset\n"), "not found on the search path");

    // A name is never a path, whatever the search path (what replay uses for a journal's rulesets).
    const std::vector<fs::path> search{s.dir};
    CHECK_THROWS_WITH(umpire::ruleset::find_by_name("../paths", search), Catch::Contains("is not a ruleset name"));
    CHECK_THROWS_WITH(umpire::ruleset::find_by_name("/etc", search), Catch::Contains("is not a ruleset name"));
    CHECK(umpire::ruleset::find_by_name("parent", search) == (s.dir / "parent").lexically_normal());
}

TEST_CASE("attacks: rule code at load time is under the same limits", "[attacks][load]") {
    Scratch s("load");
    const char* kGood = "return {}\n";
    struct Bad {
        const char* name;
        const char* module;
        const char* expected;
    };
    const Bad bad[] = {
        {"cstack", "local function f(s) return (s:gsub('.', f)) end f('ab') return {}\n", kCStack},
        {"index-gsub",
         "local t t = setmetatable({}, {__index = function() return (('x'):gsub('.', t)) end}) local _ = t.a return {}\n", kCStack},
        {"loop", "while true do end\n", kStopped},
        {"coroutine-loop", "while true do coroutine.resume(coroutine.create(function() while true do end end)) end\n", kStopped},
        {"memory", "local t = {} while true do t[#t + 1] = ('x'):rep(1e5) .. #t end\n", kMemory},
        {"validate-loop", "return { validate = function() while true do end end }\n", kStopped},
    };
    for (const auto& b : bad) {
        const fs::path r = s.ruleset(std::string("load-") + b.name, "modules: [m, ok]\n",
                                     {{"rules/m.lua", b.module}, {"rules/ok.lua", kGood}});
        umpire::HostOptions o = attack_options();
        if (std::string(b.expected) == kMemory) o.time_limit = 30;  // the cap, not the clock, must stop it
        check_load_refused(r, b.expected, o);
    }
}

TEST_CASE("attacks: a C function that never returns is ended by the watchdog", "[attacks][watchdog]") {
    // Pattern bombs run inside the C matcher, which calls no hook: in-process they cannot be
    // stopped, so the watchdog ends the process (a forked child here) just after the limit.
    const char* bombs[] = {
        "return ('a'):rep(3000):find('.-.-.-.-.-b')",
        "for m in ('a'):rep(3000):gmatch('.-.-.-.-.-b') do end",
        "return ('a'):rep(3000):match('(.-)(.-)(.-)(.-)b')",
    };
    for (const char* bomb : bombs) {
        INFO(bomb);
        int pipe_fds[2];
        REQUIRE(pipe(pipe_fds) == 0);
        const auto start = std::chrono::steady_clock::now();
        const pid_t pid = fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            dup2(pipe_fds[1], 2);
            close(pipe_fds[0]);
            umpire::HostOptions o;
            o.time_limit = 0.3;
            umpire::LuaHost host(o);
            try {
                host.run_string(bomb, "@bomb.lua");
            } catch (...) {
            }
            _exit(42);  // not reached: the watchdog ends the process first
        }
        close(pipe_fds[1]);
        std::string message;
        char buffer[512];
        for (ssize_t n; (n = read(pipe_fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, n);
        close(pipe_fds[0]);
        int status = 0;
        REQUIRE(waitpid(pid, &status, 0) == pid);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 1);
        CHECK_THAT(message, Catch::Contains("ran longer than 0.3s inside a C function"));
        CHECK(seconds < 5.0);  // the bomb alone runs for hours
    }
    // The parent (this test process) is alive and its hosts work.
    TestHost t;
    CHECK(t.eval("1 + 1") == "2");
}

TEST_CASE("attacks: one ruleset cannot change the libraries or the API under another", "[attacks][isolation]") {
    const Attack attacks[] = {
        {"string.format redefined", "string.format = function() return 'forged' end", "string is read-only"},
        {"umpire.dice.dr redefined", "umpire.dice.dr = function() return 2 end", "umpire.dice is read-only"},
        {"rawset past the view", "rawset(math, 'floor', function() return 0 end)", "read-only view"},
        {"the view's metatable removed", "setmetatable(table, nil)", "protected metatable"},
        {"the view's metatable read", "getmetatable(string).__index.format = nil", "index a boolean"},
        {"umpire.bus.on replaced", "umpire.bus.on = nil", "umpire.bus is read-only"},
        {"umpire.hex patched", "umpire.hex.distance = function() return 0 end", "umpire.hex is read-only"},
        {"umpire.cite replaced (the journal's citations)", "umpire.cite = function() end", "umpire is read-only"},
        {"umpire.data replaced as a whole", "umpire.data = {}", "umpire is read-only"},
        // session 32: umpire.odds was no view, so one ruleset could fold another's chains its way
        {"umpire.odds.chain replaced", "umpire.odds.chain = function() return 'forged' end", "umpire.odds is read-only"},
        {"rawset past umpire.odds", "rawset(umpire.odds, 'chain', print)", "read-only view"},
    };
    TestHost t(attack_options());
    for (const auto& a : attacks) check_refused(t, a);
    CHECK(t.eval("string.format('%d', 7)") == "7");

    // Two rulesets in one load: the second tries to patch string.format under the first at load
    // time; the load is refused and the first ruleset, loaded alone, works as before.
    Scratch s("isolation");
    const fs::path honest = s.ruleset("honest", "modules: [m]\n",
                                      {{"rules/m.lua", "return { show = function(n) return string.format('%d hits', n) end }\n"}});
    const fs::path forger = s.ruleset("forger", "modules: [f]\n",
                                      {{"rules/f.lua", "string.format = function() return 'forged' end return {}\n"}});
    TestHost both(attack_options());
    CHECK_THROWS_WITH(umpire::ruleset::load(both.host, {honest.string(), forger.string()}),
                      Catch::Contains("f.lua:1: string is read-only"));
    umpire::ruleset::load(both.host, {honest.string()});
    CHECK(both.eval("umpire.rules.m.show(3)") == "3 hits");
}

TEST_CASE("attacks: a journal with fields this version does not know is refused", "[attacks][journal]") {
    umpire::bus::Journal j;
    j.append(umpire::bus::JournalEntry::Kind::cite, "a line", nlohmann::json::object(), "A1.1");
    nlohmann::json good = j.to_json();
    CHECK_NOTHROW(umpire::bus::Journal::from_json(good));

    nlohmann::json entry_field = good;
    entry_field["entries"][0]["run"] = "os.execute";
    CHECK_THROWS_WITH(umpire::bus::Journal::from_json(entry_field), Catch::Contains("'run'") && Catch::Contains("unknown field"));
    nlohmann::json header_field = good;
    header_field["header"]["search_path"] = "/";
    CHECK_THROWS_WITH(umpire::bus::Journal::from_json(header_field), Catch::Contains("unknown header field \"search_path\""));
    nlohmann::json top_field = good;
    top_field["code"] = "while true do end";
    CHECK_THROWS_WITH(umpire::bus::Journal::from_json(top_field), Catch::Contains("unknown field \"code\""));
}

TEST_CASE("attacks: C++ memory made for rule code counts against the Lua cap, isolated or not", "[attacks][memory][cxx]") {
    // In-process (as --no-isolate runs): the worker's address-space limit plays no part here.
    Scratch s("cxx");
    const std::string manifest = "data: [d]\n";
    std::string many_nodes;  // 250 001 list items: one past the node cap, 1 MB of text
    for (int i = 0; i <= 250000; ++i) many_nodes += "- 1\n";
    std::string big_tree;  // 200 000 nodes: under the node cap, ~98 MiB of yaml-cpp tree
    for (int i = 0; i < 100000; ++i) big_tree += "- [1]\n";
    // Refused from the parser's events, before yaml-cpp builds the tree, at the node past the cap
    // (the list itself is node 1, so node 250 001 is the item on line 250 000).
    check_load_refused(s.ruleset("nodes", manifest, {{"data/d.yaml", many_nodes}}),
                       "d.yaml:250000:3: more than 250000 values in one file", umpire::HostOptions{});
    // A tree that fits the node cap but not the Lua memory cap (32 MiB here).
    check_load_refused(s.ruleset("tree", manifest, {{"data/d.yaml", big_tree}}),
                       "d.yaml:1:1: memory limit: parsing this file takes ~");
    // The manifest itself is bounded like data (it was read whole, with no cap).
    check_load_refused(s.ruleset("manifest-nodes", "description: x\nextra:\n" + many_nodes),
                       "more than 250000 values in one file", umpire::HostOptions{});
    {
        const fs::path r = s.ruleset("manifest-big", "");
        std::ofstream(r / "ruleset.yaml", std::ios::app) << "description: \"" << std::string((std::size_t{16} << 20) + 16, 'x') << "\"\n";
        check_load_refused(r, "ruleset.yaml:1:1: 16 MiB; a data file may hold at most 16 MiB");
    }

    // Rule code is read whole into C++ memory before it becomes a Lua string: capped like data.
    check_load_refused(s.ruleset("module-big", "modules: [big]\n",
                                 {{"rules/big.lua", "return {}\n--" + std::string((std::size_t{16} << 20) + 16, 'x') + "\n"}}),
                       "big.lua:1:1: 17 MiB; a rules module may hold at most 16 MiB");

    // Distributions: refused before they are computed when the result could not be kept.
    umpire::HostOptions o = attack_options();
    o.time_limit = 30;
    TestHost t(o);
    const Attack distributions[] = {
        {"a distribution of 10^9 outcomes (would compute for minutes)", "return umpire.dice.dist('1000d1000000')",
         "a distribution of 999999001 outcomes"},
        {"a sum of two kept distributions past the cap",
         "local a, b = umpire.dice.dist('d300000'), umpire.dice.dist('d300000') return a + b",
         "a distribution of 599999 outcomes"},
    };
    for (const auto& a : distributions) check_refused(t, a);
}

TEST_CASE("attacks: the journal's C++ memory counts against the Lua cap", "[attacks][memory][journal]") {
    // "the journal would hold ~N MiB" (an entry's charge refused) or "the journal holds ~N MiB of
    // it" (a Lua allocation refused, the journal holding most of the cap).
    constexpr const char* kJournal = "the journal";
    umpire::HostOptions o = attack_options();
    o.time_limit = 30;  // the cap, not the clock, must stop them
    const Attack attacks[] = {
        {"umpire.note in a loop", "local s = ('x'):rep(1000) while true do umpire.note(s) end", kJournal},
        {"umpire.cite in a loop, under pcall", "local s = ('y'):rep(1000) while true do pcall(umpire.cite, 'A1', s) end",
         kJournal},
        {"umpire.result with data in a loop",
         "local d = {text = ('z'):rep(500)} while true do umpire.result('r', d) end", kJournal},
        {"rolls in a loop (journaled by the dice, charged by the count hook)", "while true do umpire.dice.dr() end",
         kJournal},
    };
    for (const auto& a : attacks) {
        INFO("attack: " << a.name);
        TestHost t(o);
        // Whichever allocation meets the cap first (an entry's charge, or a Lua allocation once
        // the journal holds most of the cap), the error says the journal filled it; without the
        // charge the loop ran on to the time limit, its Lua heap a few KiB.
        CHECK_THROWS_WITH(t.host.run_string(a.code, "@attack.lua"),
                          Catch::Contains("memory limit") && Catch::Contains(a.expected));
        CHECK(t.host.extension<umpire::GameLog>().journal.bytes() > (std::size_t{16} << 20));
        // The journal stays full (it is the game's record) until it is replaced, which gives its
        // charge back: then the same host runs again.
        t.host.extension<umpire::GameLog>().journal = umpire::bus::Journal();
        t.host.run_string("umpire.note('after')");
        CHECK(t.eval("1 + 1") == "2");
        CHECK(t.host.memory_used() < (std::size_t{16} << 20));
    }
}

// umpire.data is read-only (host/DataGuard.hpp): every write is refused after the run that made
// it, with the path it changed, and undone, so the next run (and any other ruleset) sees the data
// as loaded. A ruleset of two data files: `ift.columns` a list, `ift.table` nested maps.
TEST_CASE("attacks: umpire.data cannot be changed, and a change never reaches the next run", "[attacks][data]") {
    Scratch s("data");
    const fs::path owner = s.ruleset("owner", "data: [ift]\nmodules: [fire]\n",
                                     {{"data/ift.yaml", "columns: [1, 2, 4, 6]\ntable:\n  '12': {KIA: 1}\n"},
                                      {"rules/fire.lua", "return { last = function() local c = umpire.data.ift.columns "
                                                         "return c[#c] end }\n"}});
    const Attack attacks[] = {
        {"a nested list element", "umpire.data.ift.columns[3] = 99", "changed umpire.data.ift.columns[3] (umpire.data is read-only"},
        {"a nested map value", "umpire.data.ift.table['12'].KIA = 0", "changed umpire.data.ift.table[\"12\"].KIA"},
        {"a key added", "umpire.data.ift.extra = 1",
         "attack.lua:1: cannot add the key 'extra' to umpire.data.ift: umpire.data is read-only"},
        {"a list item added by index", "local c = umpire.data.ift.columns c[#c + 1] = 8",
         "attack.lua:1: cannot add the key '5' to umpire.data.ift.columns"},
        {"a key removed", "umpire.data.ift.table = nil", "changed umpire.data.ift.table"},
        {"table.insert", "table.insert(umpire.data.ift.columns, 8)", "changed umpire.data.ift.columns[5]"},
        {"table.remove", "table.remove(umpire.data.ift.columns)", "changed umpire.data.ift.columns[4]"},
        {"table.sort", "table.sort(umpire.data.ift.columns, function(a, b) return a > b end)",
         "changed umpire.data.ift.columns[1]"},
        {"rawset", "rawset(umpire.data.ift, 'columns', {})", "attack.lua:1: rawset: umpire.data is read-only"},
        {"setmetatable", "setmetatable(umpire.data.ift.columns, {__index = function() return 0 end})",
         "cannot change a protected metatable"},
        {"a subtable kept in a local and changed later",
         "local c = umpire.data.ift.columns for i = 1, #c do c[i] = 0 end", "changed umpire.data.ift.columns[1]"},
        {"the write made inside a coroutine", "coroutine.wrap(function() umpire.data.ift.columns[1] = 7 end)()",
         "changed umpire.data.ift.columns[1]"},
        {"umpire.data.scenario replaced", "umpire.data.scenario = print", "changed umpire.data.scenario"},
        {"a new top-level data table", "umpire.data.mine = {1}", "cannot add the key 'mine' to umpire.data:"},
        {"a key added in a table the run removed and put back",
         "local t = umpire.data.ift.table umpire.data.ift.table = nil umpire.data.ift.table = t", "cannot add the key 'table'"},
    };
    TestHost t(attack_options());
    umpire::ruleset::load(t.host, {owner.string()});
    const std::string clean = "1 2 4 6 1 nil false";
    const std::string look =
        "table.concat(umpire.data.ift.columns, ' ') .. ' ' .. umpire.data.ift.table['12'].KIA .. ' ' .. "
        "tostring(umpire.data.ift.extra) .. ' ' .. tostring(getmetatable(umpire.data.ift.columns))";
    REQUIRE(t.eval(look) == clean);
    for (const auto& a : attacks) {
        check_refused(t, a);
        INFO("attack: " << a.name);
        CHECK(t.eval(look) == clean);  // restored for the next run
        CHECK(t.eval("umpire.rules.fire.last()") == "6");
        CHECK(t.eval("type(umpire.data.scenario)") == "function");
    }

    // A run that writes and then fails: its own error is reported, and the data is restored all
    // the same.
    CHECK_THROWS_WITH(t.host.run_string("umpire.data.ift.columns[1] = 5 error('boom')", "@attack.lua"),
                      Catch::Contains("attack.lua:1: boom"));
    CHECK(t.eval(look) == clean);

    // A script file (what `watch` runs on each save): run 1 changes the data and is refused,
    // run 2 of the same host sees the data as loaded.
    const fs::path script = s.dir / "watched.lua";
    test_helpers::write(script, "local c = umpire.data.ift.columns\nprint(c[1])\nc[1] = 100\n");
    t.lines.clear();
    CHECK_THROWS_WITH(t.host.run_file(script), Catch::Contains("watched.lua changed umpire.data.ift.columns[1]"));
    t.lines.clear();
    CHECK_THROWS(t.host.run_file(script));
    REQUIRE(t.lines.size() == 1);
    CHECK(t.lines[0] == "1");  // not 100

    // Reading, copying and changing the copy stay allowed, and are not refused.
    CHECK(t.eval("(function() local c = {} for i, v in ipairs(umpire.data.ift.columns) do c[i] = v * 2 end "
                 "c[5] = 1 table.sort(c) return table.concat(c, ',') end)()") == "1,2,4,8,12");
    CHECK(t.eval("#umpire.data.ift.columns .. type(umpire.data.ift) .. select('#', unpack(umpire.data.ift.columns))") ==
          "4table4");
}

TEST_CASE("attacks: one ruleset cannot change another's data, at load time or at run time", "[attacks][data]") {
    Scratch s("data2");
    const fs::path owner = s.ruleset("owner", "data: [ift]\n", {{"data/ift.yaml", "columns: [1, 2, 4, 6]\n"}});
    const fs::path at_load = s.ruleset("at_load", "modules: [m]\n",
                                       {{"rules/m.lua", "umpire.data.ift.columns[2] = 0 return {}\n"}});
    const fs::path in_validate =
        s.ruleset("in_validate", "modules: [m]\n",
                  {{"rules/m.lua", "return { validate = function(data) table.insert(data.ift.columns, 9) end }\n"}});
    const fs::path at_run = s.ruleset("at_run", "modules: [m]\n",
                                      {{"rules/m.lua", "return { fire = function() umpire.data.ift.columns[4] = 1 return 1 end }\n"}});
    {
        TestHost t(attack_options());
        CHECK_THROWS_WITH(umpire::ruleset::load(t.host, {owner.string(), at_load.string()}),
                          Catch::Contains("loading the rules changed umpire.data.ift.columns[2]"));
        CHECK_THROWS_WITH(umpire::ruleset::load(t.host, {owner.string(), in_validate.string()}),
                          Catch::Contains("loading the rules changed umpire.data.ift.columns[5]"));
        umpire::ruleset::load(t.host, {owner.string()});
        CHECK(t.eval("table.concat(umpire.data.ift.columns, ' ')") == "1 2 4 6");
    }
    TestHost t(attack_options());
    umpire::ruleset::load(t.host, {owner.string(), at_run.string()});
    CHECK_THROWS_WITH(t.host.run_string("return umpire.rules.m.fire()", "@attack.lua"),
                      Catch::Contains("changed umpire.data.ift.columns[4]"));
    CHECK(t.eval("table.concat(umpire.data.ift.columns, ' ')") == "1 2 4 6");
}

// The event bus's subscriptions, the fold's state maps and the hex map live on the C++ heap; each
// counts against the Lua cap (docs/sandbox.md, "Memory"), so growing them without end ends in a
// clear error with the host alive, and the charge is given back.
TEST_CASE("attacks: the bus, the chain fold and the hex map count against the Lua cap", "[attacks][memory][cxx]") {
    umpire::HostOptions o = attack_options();
    o.time_limit = 30;  // the caps, not the clock, must stop these (ASan runs them slowly)
    TestHost t(o);
    const std::size_t before = t.host.memory_used();
    // One shared handler and short names: ~30 bytes of Lua heap per subscription against ~400 of
    // C++ heap, so without the charge the Lua cap would let about 10 times the cap through.
    // The subscriptions stay (they are the game's), so the refusal leaves room for what follows.
    CHECK_THROWS_WITH(t.host.run_string("local f = function() end for i = 1, 1e7 do umpire.bus.on('e' .. i, f) end",
                                        "@attack.lua"),
                      Catch::Contains("attack.lua:1: memory limit: umpire.bus.on: ") &&
                          Catch::Contains("subscriptions (~") && Catch::Contains("would pass the Lua memory cap"));
    CHECK(t.eval("1 + 1") == "2");
    // umpire.bus.off gives the charge back: what is left is what the subscriptions kept.
    const std::size_t subscribed = t.host.memory_used();
    CHECK(subscribed > before + (std::size_t{8} << 20));  // the subscriptions were charged
    t.host.run_string("local i = 1 while umpire.bus.off(i) do i = i + 1 end");
    CHECK(t.host.memory_used() < before + (std::size_t{4} << 20));

    // A chain whose states never repeat (and hold 20 kB of text each, all one interned Lua
    // string): under the exact odds engine the fold's maps grow by 6 states per state per step.
    t.host.run_string(
        "function __chain() local s = umpire.odds.chain{state = {n = 0, pad = ('x'):rep(20000)}, max_steps = 12, "
        "step = function(s) s.n = s.n * 6 + umpire.dice.d(6) end, stop = function() return false end} return s.n end");
    CHECK_THROWS_WITH(enumerate_call(t, "__chain()"),
                      Catch::Contains(":1: memory limit: umpire.odds.chain: its distinct states take ~") &&
                          Catch::Contains("which would pass the Lua memory cap"));
    t.host.set_die_source(nullptr);
    CHECK(t.eval("1 + 1") == "2");
    CHECK(t.host.memory_used() < before + (std::size_t{4} << 20));  // the fold's charge was given back

    // A huge hex map: its boards are counted on the C++ side, and the Lua table that declares
    // them is larger still, so the cap refuses it while it is built.
    check_refused(t, {"a hex map of millions of boards",
                      "local b = {} for i = 1, 1e7 do b[i] = {board = i} end umpire.hex.map{boards = b}", kMemory});
    CHECK_NOTHROW(t.host.run_string("umpire.hex.map{boards = {{board = 21}, {board = 22, column_offset = 10}}}"));
}

// The rest of the C++ memory an odds run grows for rule code (docs/sandbox.md, "Memory"): the
// fold cache that keeps each chain's end states for the rest of the run, the engine's tallies of
// distinct outcomes, and the state written as JSON. Each grows past the 32 MiB cap here and must
// be refused with the limit named and the host (or the run's caller) alive; without the charge
// each of these ran on (the cache and the tallies to the time limit, the JSON to its end).
TEST_CASE("attacks: the fold cache, the odds tallies and the state's JSON count against the Lua cap",
          "[attacks][memory][cxx]") {
    umpire::HostOptions o = attack_options();
    o.time_limit = 60;  // the cap, not the clock, must stop these (ASan runs them slowly)

    SECTION("the fold cache: a chain started from a new state on every call") {
        TestHost t(o);
        const std::size_t before = t.host.memory_used();
        // Each call folds afresh (its initial state is new) and the cache keeps ~40 kB for it: the
        // key (with the 20 kB initial state) and the 20 kB end state. The Lua heap holds the pad
        // once, so only the cache grows.
        t.host.run_string(
            "function __grow() local pad = ('x'):rep(20000) for i = 1, 4000 do umpire.odds.chain{state = {n = i, pad = "
            "pad}, max_steps = 1, step = function(s) s.n = s.n + 1 end} end return 1 end");
        CHECK_THROWS_WITH(enumerate_call(t, "__grow()"),
                          Catch::Contains(":1: memory limit: umpire.odds.chain: the end states kept for the rest "
                                          "of the odds run (") &&
                              Catch::Contains("would pass the Lua memory cap"));
        t.host.set_die_source(nullptr);
        CHECK(t.eval("1 + 1") == "2");
        CHECK(t.host.memory_used() < before + (std::size_t{4} << 20));  // the cache gave its charge back
        // A chain that fits folds as before, from the same host.
        t.host.run_string("function __ok() return (umpire.odds.chain{state = {n = 0}, max_steps = 3, step = "
                          "function(s) s.n = s.n + umpire.dice.d(2) end}).n end");
        const auto ok = enumerate_call(t, "__ok()");
        REQUIRE(ok);
        CHECK(ok->exact_probability(umpire::odds::Outcome("3")) == mpq_class(1, 8));  // three 1s
        CHECK(ok->exact_probability(umpire::odds::Outcome("4")) == mpq_class(3, 8));
    }

    SECTION("the odds tallies: an outcome that never repeats, exact and Monte Carlo") {
        Scratch s("tally");
        const fs::path script = s.dir / "unique.lua";
        // 10^6 paths (the default budget) or 2 * 10^5 samples, each a distinct 1 kB outcome:
        // ~2 kB of tally each, so the 32 MiB cap is reached after some 15 000. A table outcome
        // whose long field is one shared string, so the Lua heap's garbage stays small.
        test_helpers::write(script, "local pad = ('x'):rep(1000)\n"
                                    "return {a = umpire.dice.d(1000), b = umpire.dice.d(1000), pad = pad}\n");
        umpire::odds_runner::Request request;
        request.host = o;
        request.script = script;
        request.odds.monte_carlo.samples = 200000;
        request.odds.monte_carlo.threads = 2;
        request.odds.monte_carlo.seed = 3;
        const auto refused = [&] {
            INFO("monte carlo: " << request.odds.monte_carlo_only);
            CHECK_THROWS_WITH(umpire::odds_runner::run_script(request),
                              Catch::Contains("unique.lua: memory limit: the odds engine's tally of this script's "
                                              "distinct outcomes (") &&
                                  Catch::Contains("would pass the Lua memory cap of 32 MiB"));
        };
        refused();  // exact
        request.odds.monte_carlo_only = true;
        refused();  // Monte Carlo, 2 threads
        // The same script with few outcomes runs under the same cap.
        test_helpers::write(script, "local pad = ('x'):rep(1000)\nreturn {a = umpire.dice.d(6), pad = pad}\n");
        request.odds.monte_carlo_only = false;
        const auto r = umpire::odds_runner::run_script(request);
        REQUIRE(r.outcomes.size() == 6);
        CHECK(r.exact_probability(umpire::odds::Outcome(umpire::odds::Fields{{"a", 4.0}, {"pad", std::string(1000, 'x')}})) ==
              mpq_class(1, 6));
    }

    SECTION("the state written as JSON") {
        TestHost t(o);
        // 1.5 million thirds: 12 MiB of Lua array, 28 MB of JSON text ("0.3333333333333333,").
        t.host.run_string("local big = {} for i = 1, 1.5e6 do big[i] = 1 / 3 end umpire.state.big = big");
        CHECK_THROWS_WITH(t.host.state_json(),
                          Catch::Contains("memory limit: umpire.state written as JSON would take more than") &&
                              Catch::Contains("which would pass the Lua memory cap"));
        CHECK_THROWS_WITH(t.host.run_string("umpire.result('r', umpire.state.big)", "@attack.lua"),
                          Catch::Contains("attack.lua:1: memory limit: the data of umpire.result written as JSON"));
        CHECK(t.eval("1 + 1") == "2");
        t.host.run_string("umpire.state.big = nil");
        lua_gc(t.host.state(), LUA_GCCOLLECT, 0);
        // A text the cap holds (400,000 times the same 30-byte string: 3.2 MB of Lua array, 13 MB
        // of JSON, under the 32 MiB cap) must not be parsed beside it into a document larger still
        // (a json value and a heap string per element: ~32 MB), uncharged: refused before it is
        // parsed. Before, the document was built and only the journal's later charge looked at it.
        t.host.extension<umpire::GameLog>().set_journaling(true);
        t.host.run_string("local s = ('x'):rep(30) local t = {} for i = 1, 4e5 do t[i] = s end umpire.state.strings = {list = t}");
        CHECK_THROWS_WITH(t.host.run_string("umpire.result('r', umpire.state.strings)", "@attack.lua"),
                          Catch::Contains("attack.lua:1: memory limit: the data of umpire.result (~12 MiB as JSON) "
                                          "parsed for the journal would take ~") &&
                              Catch::Contains("which would pass the Lua memory cap"));
        CHECK(t.eval("1 + 1") == "2");
        // A small result is parsed and journaled as before.
        t.host.run_string("umpire.result('small', {n = 3, s = 'x'})");
        CHECK(t.host.extension<umpire::GameLog>().journal.entries().back().data == nlohmann::json::parse(R"({"n":3,"s":"x"})"));
        t.host.run_string("umpire.state.strings = nil");
        lua_gc(t.host.state(), LUA_GCCOLLECT, 0);
        CHECK(t.host.memory_used() < (std::size_t{4} << 20));  // every charge given back
        t.host.run_string("umpire.state.small = {1, 2.5, 'x'}");
        CHECK(t.host.state_json() == "{\"small\":[1,2.5,\"x\"]}");
    }
}

// After a memory stop the heap can still be full (the run filled umpire.state, which outlives
// it), and putting umpire.data back can need memory (a table the run made rehash smaller gets its
// keys back). That restore used to fail inside its protected call with the failure dropped,
// leaving the data half put back for every later run.
TEST_CASE("attacks: umpire.data is put back after a memory stop that leaves the heap full", "[attacks][memory][data]") {
    Scratch s("restore");
    std::string map = "m:\n";
    for (int i = 1; i <= 20000; ++i) map += "  key" + std::to_string(i) + ": " + std::to_string(i) + "\n";
    const fs::path owner = s.ruleset("owner", "data: [d]\n", {{"data/d.yaml", map}});
    umpire::HostOptions o = attack_options();
    o.time_limit = 60;
    TestHost t(o);
    umpire::ruleset::load(t.host, {owner.string()});
    // (By name: the sandbox's pairs cannot order a table of more than ~8000 keys.) A key the
    // run added and left would fail the data check of the run that looks.
    const std::string look = "(function() local m, n, sum = umpire.data.d.m, 0, 0 for i = 1, 20000 do local v = "
                             "m['key' .. i] if v then n = n + 1 sum = sum + v end end return n .. ' ' .. sum end)()";
    REQUIRE(t.eval(look) == "20000 200010000");
    // Every key removed (by name: the strings exist, so no garbage is made), then table.insert
    // (raw) adds key 1, which makes the table rehash to one key, so putting the 20 000 keys back
    // needs a new hash part (~768 KiB); then memory is filled through umpire.state with small
    // blocks, so that after the stop and the collection the heap stays within a block of the cap.
    CHECK_THROWS_WITH(t.host.run_string("local m = umpire.data.d.m for i = 1, 20000 do m['key' .. i] = nil end "
                                        "table.insert(m, 1) "
                                        "local f = {} umpire.state.fill = f while true do f[1] = {} f = f[1] end",
                                        "@attack.lua"),
                      Catch::Contains("memory limit"));
    // The filler is the game's; drop it from C++ (the heap is full), then look at the data.
    lua_State* L = t.host.state();
    t.host.push_state();
    lua_pushnil(L);
    lua_setfield(L, -2, "fill");
    lua_pop(L, 1);
    lua_gc(L, LUA_GCCOLLECT, 0);
    CHECK(t.eval(look) == "20000 200010000");
    CHECK(t.eval("umpire.data.d.m[1]") == "nil");
    CHECK(!t.host.unusable());
}

TEST_CASE("attacks: a host made unusable refuses every later call, naming why", "[attacks][memory][data]") {
    TestHost t(attack_options());
    t.host.make_unusable("umpire.data could not be put back (test)");
    CHECK_THROWS_WITH(t.host.run_string("return 1"), "umpire.data could not be put back (test)");
    CHECK_THROWS_WITH(t.host.run_string("return 1"), "umpire.data could not be put back (test)");
    CHECK(lua_gettop(t.host.state()) == 0);
}

// `umpire odds d1000000` runs outside any host: its report (a row per possible total) took
// 1.85 GB and 21.5 s. The expression's range is checked against the memory cap before anything
// is computed; expressions that fit give the exact distribution as before.
TEST_CASE("attacks: odds of a dice expression with more totals than the memory cap holds", "[attacks][memory][odds]") {
    namespace runner = umpire::odds_runner;
    CHECK_THROWS_WITH(runner::of_expression("d1000000"),
                      Catch::StartsWith("memory limit: d1000000 has 1000000 possible totals") &&
                          Catch::Contains("past the memory cap of 256 MiB (at most 262144 totals;"));
    CHECK_THROWS_WITH(runner::of_expression("1000d1000000"), Catch::Contains("999999001 possible totals"));
    CHECK_THROWS_WITH(runner::of_expression("d100000", runner::kJsonBytesPerTotal),
                      Catch::Contains("(at most 58254 totals as JSON;"));
    // What fits: every total of a large die (its report built in linear time, where it was n^2),
    // and small sums against a brute-force count of every face combination.
    const auto large = runner::of_expression("d100000");
    REQUIRE(large.outcomes.size() == 100000);
    CHECK(large.outcomes.front().exact == mpq_class(1, 100000));
    CHECK(large.outcomes.back().outcome == umpire::odds::Outcome(100000));
    const auto report = umpire::odds::build_report("d100000", {{"", large}});
    CHECK(report.outcomes.rows.size() == 100000);
    CHECK(report.outcomes.rows[49999].sides[0].at_most == mpq_class(1, 2));
    for (const auto& [expression, dice, sides, plus] :
         {std::tuple{"3d6", 3, 6, 0}, std::tuple{"2d10+3", 2, 10, 3}, std::tuple{"4d4-2", 4, 4, -2}}) {
        INFO(expression);
        std::map<int, int> ways;
        int total_ways = 0;
        std::vector<int> faces(static_cast<std::size_t>(dice), 1);
        for (;;) {
            int sum = plus;
            for (int f : faces) sum += f;
            ++ways[sum];
            ++total_ways;
            std::size_t i = 0;
            while (i < faces.size() && faces[i] == sides) faces[i++] = 1;
            if (i == faces.size()) break;
            ++faces[i];
        }
        const auto r = runner::of_expression(expression);
        REQUIRE(r.outcomes.size() == ways.size());
        for (const auto& [sum, n] : ways) {
            mpq_class expected(n, total_ways);
            expected.canonicalize();
            CHECK(r.exact_probability(umpire::odds::Outcome(sum)) == expected);
        }
    }
}
