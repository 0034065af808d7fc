// The attacks only process isolation stops (host/Isolation.hpp): each runs in a worker made by
// isolation::run, and the test (the parent) checks the refusal, the error text, and that it is
// itself alive and its own hosts work afterwards. Also the worker's seccomp filter, one refused
// system call at a time, and what stays allowed (reads, threads).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "host/Isolation.hpp"
#include "host/TraceLines.hpp"
#include "tests/support/helpers.hpp"

#include "host/Sanitizers.hpp"

using test_helpers::TestHost;
namespace fs = std::filesystem;
namespace isolation = umpire::isolation;

namespace {

isolation::Limits test_limits() {
    isolation::Limits limits;
    limits.address_space = std::size_t{1024} << 20;
    limits.cpu_seconds = 20;
    return limits;
}

// Runs body in a worker; returns WorkerDied's message ("" if the worker exited) and sets rc.
std::string died(const std::function<int()>& body, int* rc = nullptr,
                 const isolation::Limits& limits = test_limits()) {
    try {
        const int code = isolation::run(limits, body);
        if (rc) *rc = code;
        return "";
    } catch (const std::exception& e) {  // WorkerDied, or an output the parent refused
        return e.what();
    }
}

// Runs checks(expect) in a worker made with `limits`: the test's own hook, native code in the
// worker as code that escaped the Lua VM would be. expect(what, ok) prints `what` on stderr when
// ok is false. Returns the number of failed expectations the worker reported through its pipe to
// the parent ("0"), or why there is none (the worker died, or sent nothing).
using Expect = std::function<void(const char* what, bool ok)>;
std::string failures_in_worker(const isolation::Limits& limits, const std::function<void(const Expect&)>& checks) {
    std::string reported = "(nothing reported)";
    try {
        isolation::run(limits, [&] {
            int failures = 0;
            checks([&](const char* what, bool ok) {
                if (!ok) {
                    std::fprintf(stderr, "failed in the worker: %s\n", what);
                    ++failures;
                }
            });
            isolation::send("failures", std::to_string(failures));
            return 0;
        }, {}, [&](const std::string&, const std::string& payload) { reported = payload; });
    } catch (const std::exception& e) {
        return e.what();
    }
    return reported;
}

// Did an open of `path` fail with `error`? (0: did it succeed?)
bool open_gives(const fs::path& path, int flags, int error) {
    const int fd = ::open(path.c_str(), flags);
    const int got = fd >= 0 ? 0 : errno;
    if (fd >= 0) ::close(fd);
    return got == error;
}

// The parent is alive and its own Lua hosts still work.
void check_parent_alive() {
    TestHost t;
    CHECK(t.eval("1 + 1") == "2");
    CHECK_FALSE(isolation::in_worker());
}

double since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

TEST_CASE("isolation: a worker's exit code comes back, and its messages", "[isolation]") {
    std::vector<std::string> got;
    const int rc = isolation::run(test_limits(), [] {
        CHECK(isolation::in_worker());
        isolation::send("state", std::string(200000, 's'));  // more than a pipe's buffer
        isolation::send("note", "two");
        return 7;
    }, {}, [&](const std::string& topic, const std::string& payload) { got.push_back(topic + ":" + std::to_string(payload.size())); });
    CHECK(rc == 7);
    CHECK(got == std::vector<std::string>{"state:200000", "note:3"});
    check_parent_alive();
}

TEST_CASE("isolation attacks: a native crash in the worker is an error, not the end of the parent", "[isolation][attacks]") {
    for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) {
        INFO(sig);
        int rc = -1;
        const std::string message = died([sig] {
            isolation::note_where("crash.lua:3:");
            std::raise(sig);  // what a bug in native code does to the process
            return 0;
        }, &rc);
        CHECK_THAT(message, Catch::Contains("the rules' worker process crashed (SIG"));
        CHECK_THAT(message, Catch::Contains("(last known position: crash.lua:3)"));
    }
    // Only the chunk of the top-level call known: said so, not "crash.lua:" with nothing after the
    // colon (session 35; what a crash in compiled code under --jit showed).
    const std::string chunk_only = died([] {
        isolation::note_where("crash.lua:");
        std::raise(SIGSEGV);
        return 0;
    });
    CHECK_THAT(chunk_only, Catch::Contains("(last known position: in crash.lua, line not known)"));
    const std::string in_pattern = died([] {
        isolation::note_where("bomb.lua:2: in string.find:");
        std::raise(SIGSEGV);
        return 0;
    });
    CHECK_THAT(in_pattern, Catch::Contains("(last known position: bomb.lua:2: in string.find)"));
    // note_where writes the shared text only when it changes (host/Isolation.cpp): a position
    // noted again after another, or one that extends the last, must still be the one reported.
    const std::string renoted = died([] {
        for (const char* where : {"a.lua:1:", "b.lua:2:", "a.lua:1:", "a.lua:1:", "a.lua:12:"})
            isolation::note_where(where);
        std::raise(SIGABRT);
        return 0;
    });
    CHECK_THAT(renoted, Catch::Contains("last known position: a.lua:12)"));
#ifndef UMPIRE_ASAN
    // A real invalid write, not a raised signal (under the sanitizers, UBSan reports the null
    // store and exits before the write happens: covered by the raised signals above).
    const std::string message = died([] {
        volatile int* nowhere = nullptr;
        *nowhere = 1;
        return 0;
    });
    CHECK_THAT(message, Catch::Contains("SIGSEGV, a segmentation fault"));
#endif
    check_parent_alive();
}

TEST_CASE("isolation attacks: a pattern bomb is killed at the wall-clock limit with its file and line", "[isolation][attacks]") {
    const auto start = std::chrono::steady_clock::now();
    const std::string message = died([] {
        umpire::HostOptions o;
        o.time_limit = 0.3;
        umpire::LuaHost host(o);
        host.run_string("local s = ('a'):rep(3000)\nlocal found = s:find('.-.-.-.-.-b')\nreturn found", "@bomb.lua");
        return 42;  // not reached: the matcher runs for hours
    });
    const double seconds = since(start);
    CHECK_THAT(message, Catch::Contains("bomb.lua:2: in string.find: script stopped: killed at the wall-clock limit of 0.3 s (--timeout)"));
    CHECK_THAT(message, Catch::Contains("pattern-matching bomb"));
    CHECK(seconds >= 0.3);
    CHECK(seconds < 3.0);  // the limit + 0.1 s grace + start-up, with room for a loaded machine
    check_parent_alive();
}

TEST_CASE("isolation attacks: a compiled loop (JIT on) is killed at the wall-clock limit", "[isolation][attacks][jit]") {
    const std::string message = died([] {
        umpire::HostOptions o;
        o.trusted = true;  // JIT on, no hook: only the out-of-process watchdog can stop it
        o.time_limit = 0.3;
        umpire::LuaHost host(o);
        host.run_string("local n = 0 while true do n = n + 1 end", "@loop.lua");
        return 42;
    });
    CHECK_THAT(message, Catch::Contains("killed at the wall-clock limit of 0.3 s (--timeout): compiled code cannot be interrupted"));
    check_parent_alive();
}

// Under --jit the hook set at the deadline never runs inside a compiled loop, so the parent kills
// the worker; the deadline's signal found the loop's machine code, and the message names the
// line its trace starts at (host/TraceLines.hpp). Before, it named only the chunk: "loop.lua:".
// (A loop that allocates is no case here: its trace leaves for the collector, the hook runs there,
// and the stop is the ordinary in-process one with its line.)
TEST_CASE("isolation attacks: a compiled loop under --jit is killed at the wall-clock limit, naming its line", "[isolation][attacks][jit]") {
    const std::pair<const char*, const char*> loops[] = {
        {"local n = 0\nlocal function spin()\n  while true do\n    n = n + 1\n  end\nend\nspin()", "loop.lua:3: "},
        {"local n = 0\nfor i = 1, math.huge do\n  n = (n + i) % 7919\nend", "loop.lua:2: "},
    };
    for (const auto& [code, where] : loops) {
        const std::string message = died([code = code] {
            umpire::HostOptions o;
            o.sandbox_jit = true;
            o.time_limit = 0.3;
            umpire::LuaHost host(o);
            host.run_string(code, "@loop.lua");
            return 42;
        });
        CAPTURE(code);
        CHECK_THAT(message, Catch::Contains(std::string(where) +
                                            "script stopped: killed at the wall-clock limit of 0.3 s (--timeout): it "
                                            "was running code compiled under --jit for the loop at this line"));
    }
    check_parent_alive();
}

// Under --jit a crash in compiled code (a LuaJIT bug: docs/sandbox.md, "The JIT and untrusted
// code") left the parent only the chunk ("(last known position: nan_keys.lua:)"). The worker's
// crash handler now finds the trace it crashed in (trace_lines::find_crashed): here a crash in a
// C function called from the trace, whose return address into the trace's machine code is on the
// stack; it stands for LuaJIT's helpers (the crash comes as a raised SIGSEGV from a native frame
// holding that address, since no Lua code can make this LuaJIT crash on cue).
TEST_CASE("isolation attacks: a crash in code compiled under --jit names the trace's line", "[isolation][attacks][jit]") {
    const std::string message = died([] {
        umpire::HostOptions o;
        o.sandbox_jit = true;
        umpire::LuaHost host(o);
        host.run_string("local s = 0\nfor i = 1, 1e6 do\n  s = (s + i) % 7919\nend\nreturn s", "@hot.lua");
        // The machine code of a trace of the host's state (through the real jit.util, which the
        // sandbox keeps from rule code).
        lua_State* L = host.state();
        lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
        lua_getfield(L, -1, "jit.util");
        std::uintptr_t address = 0;
        for (int trace = 1; trace < 20 && !address; ++trace) {
            lua_getfield(L, -1, "tracemc");
            lua_pushinteger(L, trace);
            if (lua_pcall(L, 1, 2, 0) == 0 && lua_isstring(L, -2))
                address = static_cast<std::uintptr_t>(lua_tonumber(L, -1));
            lua_pop(L, 2);
        }
        if (!address) return 3;  // no trace compiled: the check below names this
        volatile std::uintptr_t frame[4] = {0, address + 1, 0, 0};  // a return address into the trace
        (void)frame;
        umpire::trace_lines::note_call_frame(__builtin_frame_address(0));
        std::raise(SIGSEGV);
        return 0;
    });
    CHECK_THAT(message, Catch::Contains("hot.lua:2: the rules' worker process crashed (SIGSEGV, a segmentation fault) "
                                        "in code compiled under --jit for the loop at this line"));
    check_parent_alive();
}

TEST_CASE("isolation attacks: a loop the hook stops is still an ordinary error in the worker", "[isolation][attacks]") {
    // The worker's out-of-process watchdog waits the grace period: the hook's in-process stop,
    // with file and line, comes first and the worker lives on to report it.
    int rc = -1;
    const std::string message = died([] {
        umpire::HostOptions o;
        o.time_limit = 0.2;
        umpire::LuaHost host(o);
        try {
            host.run_string("while true do end", "@loop.lua");
        } catch (const umpire::ScriptError& e) {
            return std::string(e.what()).find("loop.lua:1: script stopped: ran longer than 0.2s") != std::string::npos ? 5 : 6;
        }
        return 7;
    }, &rc);
    CHECK(message.empty());
    CHECK(rc == 5);
}

TEST_CASE("isolation attacks: C++ memory beyond the Lua cap ends at the address-space limit", "[isolation][attacks][memory]") {
#ifdef UMPIRE_ASAN
    // ASan reserves terabytes of shadow memory, so the worker sets no RLIMIT_AS under ASan
    // (host/Isolation.cpp); the other limits are tested as usual.
    SUCCEED("RLIMIT_AS is not set under AddressSanitizer");
#else
    isolation::Limits limits = test_limits();
    limits.address_space = std::size_t{512} << 20;
    // C++ memory (the transient memory of a distribution, yaml-cpp's tree: nothing the Lua cap
    // counts) is refused at the limit with std::bad_alloc, which code can report
    // (`umpire odds --memory 256 d1000000` in tests/cli/isolation_test.sh).
    int rc = -1;
    const std::string refused = died([] {
        try {
            std::vector<std::vector<char>> blocks;
            for (;;) blocks.emplace_back(std::size_t{64} << 20, 'x');
        } catch (const std::bad_alloc&) {
            return 3;
        }
        return 0;
    }, &rc, limits);
    CHECK(refused.empty());
    CHECK(rc == 3);
    // Where nothing can catch it (here a noexcept frame; in the field a LuaJIT frame or a
    // destructor), the worker dies, and the parent names the limit.
    const std::string message = died([]() noexcept {
        std::vector<std::vector<char>> blocks;
        for (;;) blocks.emplace_back(std::size_t{64} << 20, 'x');
        return 0;
    }, nullptr, limits);
    CHECK_THAT(message, Catch::Contains("the rules ran out of address space (limit 512 MiB, --memory); the worker ended with SIGABRT"));
#endif
    check_parent_alive();
}

TEST_CASE("isolation attacks: CPU time beyond the limit ends the worker", "[isolation][attacks]") {
    isolation::Limits limits = test_limits();
    limits.cpu_seconds = 1;
    const std::string message = died([] {
        volatile unsigned long n = 0;
        for (;;) n = n + 1;  // no Lua, no hook, no deadline armed: only RLIMIT_CPU stops it
        return 0;
    }, nullptr, limits);
    CHECK_THAT(message, Catch::Contains("the rules ran out of CPU time (limit 1 s of CPU, --cpu)"));
    check_parent_alive();
}

TEST_CASE("isolation: the worker's filter refuses writes, processes, programs, the network", "[isolation][seccomp]") {
    const fs::path dir = test_helpers::scratch_root() / "seccomp";
    fs::create_directories(dir);
    const fs::path readable = dir / "readable.txt";
    {
        std::ofstream(readable) << "rules";
    }
    const fs::path written = dir / "written.txt";
    std::string failures_reported;
    std::string message;
    try {
      isolation::run(test_limits(), [&] {
        int failures = 0;
        const auto refused = [&](const char* what, bool denied) {
            if (!denied) {
                std::fprintf(stderr, "not refused: %s\n", what);
                ++failures;
            }
        };
        const auto eperm = [](long result) { return result == -1 && errno == EPERM; };
        refused("open for writing", eperm(::open(written.c_str(), O_WRONLY | O_CREAT, 0600)));
        refused("openat read-write", eperm(::openat(AT_FDCWD, readable.c_str(), O_RDWR)));
        refused("open to truncate", eperm(::open(readable.c_str(), O_RDONLY | O_TRUNC)));
        refused("open to append", eperm(::open(readable.c_str(), O_WRONLY | O_APPEND)));
        refused("creat", eperm(::creat(written.c_str(), 0600)));
        refused("unlink", eperm(::unlink(readable.c_str())));
        refused("rename", eperm(::rename(readable.c_str(), written.c_str())));
        refused("mkdir", eperm(::mkdir((dir / "new").c_str(), 0700)));
        refused("fork", eperm(::fork()));
        refused("socket", eperm(::socket(AF_INET, SOCK_STREAM, 0)));
        refused("kill the parent", eperm(::kill(getppid(), SIGKILL)));
        char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
        refused("execve", eperm(::execve("/bin/true", argv, environ)));
        // Reads and threads stay: rulesets load after the filter, and Monte Carlo uses threads.
        const int fd = ::open(readable.c_str(), O_RDONLY);
        refused("(a read-only open works)", fd >= 0);
        if (fd >= 0) ::close(fd);
        bool ran = false;
        std::thread([&ran] { ran = true; }).join();
        refused("(a thread runs)", ran);
        // The host's own writes fail with a clear error: save_state opens a file for writing.
        try {
            TestHost t;
            t.host.save_state(written);
            refused("save_state", false);
        } catch (const std::exception& e) {
            refused("save_state's error", std::string(e.what()).find("cannot write game state to") != std::string::npos);
        }
        isolation::send("failures", std::to_string(failures));
        // A file the parent was not asked to write is refused by the parent.
        isolation::write_file(dir / "not-an-output.txt", "x");
        return 0;
      }, {}, [&](const std::string&, const std::string& payload) { failures_reported = payload; });
    } catch (const std::exception& e) {
        message = e.what();
    }
    CHECK(failures_reported == "0");
    CHECK_THAT(message, Catch::Contains("not-an-output.txt, which is not an output of this command: refused"));
    CHECK(fs::exists(readable));
    CHECK_FALSE(fs::exists(written));
    CHECK_FALSE(fs::exists(dir / "not-an-output.txt"));
    check_parent_alive();
}

TEST_CASE("isolation: the parent writes the worker's declared outputs", "[isolation]") {
    const fs::path out = test_helpers::scratch_root() / "isolation-output.txt";
    const int rc = isolation::run(test_limits(), [&] {
        isolation::write_file(out, "journal");
        return 0;
    }, {out});
    CHECK(rc == 0);
    CHECK(umpire::LuaHost::read_file(out) == "journal");
}

namespace {
// The worker's peak resident memory (VmHWM), in bytes; 0 if unknown.
std::size_t peak_resident_bytes() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) << 10;
    return 0;
}
}  // namespace

// A worker's output goes to the parent without being copied on the way: `run --save-state` handed
// over its state text with a newline appended (a copy), then send() joined path and text (a
// second) and write_frame put the frame together (a third), all outside the memory cap. Now the
// frame is written gathered from the parts. A 64 MiB text raised the worker's peak by more than
// twice its size; now by less than a quarter of it.
TEST_CASE("isolation: an output goes to the parent uncopied, its tail included", "[isolation][memory]") {
    const fs::path out = test_helpers::scratch_root() / "isolation-large-output.txt";
    constexpr std::size_t kSize = std::size_t{64} << 20;
    std::string growth = "(nothing reported)";
    const int rc = isolation::run(test_limits(), [&] {
        std::string text(kSize, 'x');
        for (std::size_t i = 0; i < kSize; i += 4096) text[i] = static_cast<char>('a' + (i >> 12) % 26);
        const std::size_t before = peak_resident_bytes();
        isolation::write_file(out, text, "\n");
        isolation::send("growth", std::to_string(peak_resident_bytes() - before));
        return 0;
    }, {out}, [&](const std::string&, const std::string& payload) { growth = payload; });
    CHECK(rc == 0);
    INFO("the worker's peak grew by " << growth << " bytes writing " << kSize);
    REQUIRE(growth != "(nothing reported)");
    CHECK(std::stoull(growth) < kSize / 4);
    const std::string written = umpire::LuaHost::read_file(out);
    REQUIRE(written.size() == kSize + 1);
    CHECK(written.back() == '\n');
    bool same = true;
    for (std::size_t i = 0; i < kSize; i += 4096) same = same && written[i] == static_cast<char>('a' + (i >> 12) % 26);
    CHECK(same);
    fs::remove(out);
}

// A worker no longer running our code (native code that escaped the Lua VM) writes a frame header
// to its pipe by hand, announcing 4 GiB: the parent refuses it at the header, before it holds
// any of it, stops the worker and names the limit, where it used to grow its buffer towards the
// announced length as long as the worker kept writing.
TEST_CASE("isolation attacks: a frame longer than the worker's address space is refused at its header",
          "[isolation][attacks][memory]") {
    isolation::Limits limits = test_limits();
    limits.address_space = std::size_t{256} << 20;
    const auto started = std::chrono::steady_clock::now();
    const std::string message = died([] {
        // the write end of the pipe to the parent: the one descriptor open for writing that is a FIFO
        for (int fd = 3; fd < 256; ++fd) {
            struct stat st {};
            if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode) || (fcntl(fd, F_GETFL) & O_ACCMODE) != O_WRONLY) continue;
            const std::uint32_t header[2] = {4, 0xFFFFFFF0u};
            if (write(fd, header, sizeof header) != static_cast<ssize_t>(sizeof header)) return 3;
            const std::string chunk(1 << 16, 'x');
            for (int i = 0; i < 100000; ++i)  // ~6 GiB, were it all read
                if (write(fd, chunk.data(), chunk.size()) < 0) return 4;
            return 5;
        }
        return 2;
    }, nullptr, limits);
    CHECK_THAT(message, Catch::Contains("announced a message of 4095 MiB") && Catch::Contains("256 MiB, --memory"));
    CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(20));
    check_parent_alive();
}

TEST_CASE("isolation: Monte Carlo threads work in a worker", "[isolation]") {
    int rc = -1;
    const std::string message = died([] {
        std::vector<std::thread> threads;
        std::vector<int> results(4, 0);
        for (int i = 0; i < 4; ++i)
            threads.emplace_back([&results, i] {
                TestHost t;  // one Lua state per thread, as the Monte Carlo workers have
                results[i] = std::stoi(t.eval(std::to_string(i) + " * 10"));
            });
        for (auto& t : threads) t.join();
        return results == std::vector<int>{0, 10, 20, 30} ? 0 : 1;
    }, &rc);
    CHECK(message.empty());
    CHECK(rc == 0);
}

TEST_CASE("isolation attacks: with Landlock the worker reads only beneath its readable folders", "[isolation][attacks][landlock]") {
    if (isolation::landlock_abi() == 0) {
        WARN("SKIPPED: this kernel has no Landlock, so the worker's reads are not confined (docs/sandbox.md); "
             "nothing was checked");
        return;
    }
    const fs::path dir = test_helpers::scratch_root() / "landlock";
    fs::remove_all(dir);
    fs::create_directories(dir / "rules" / "data");
    {
        std::ofstream(dir / "rules" / "data" / "units.yaml") << "squad: 7\n";
        std::ofstream(dir / "secret.txt") << "token";
    }
    // A link inside the readable folder to a file outside it: Landlock looks at the file opened.
    fs::create_symlink(dir / "secret.txt", dir / "rules" / "data" / "link.yaml");
    isolation::Limits limits = test_limits();
    limits.confine_files = true;
    limits.readable = {dir / "rules", dir / "not-there"};  // a missing folder is skipped
    CHECK(failures_in_worker(limits, [&](const Expect& expect) {
        const auto denied = [](const fs::path& path, int flags = O_RDONLY) { return open_gives(path, flags, EACCES); };
        expect("a worker knows it is confined", isolation::files_confined());
        expect("a file outside is refused", denied(dir / "secret.txt"));
        expect("/etc/passwd is refused", denied("/etc/passwd"));
        expect("the folder above is not listed", denied(dir, O_RDONLY | O_DIRECTORY));
        expect("a symlink out of the folder is refused", denied(dir / "rules" / "data" / "link.yaml"));
        const int environ_fd = ::openat(AT_FDCWD, "/proc/self/environ", O_RDONLY);
        expect("openat from the root is refused", environ_fd < 0 && errno == EACCES);
        if (environ_fd >= 0) ::close(environ_fd);
        expect("a ruleset file reads", open_gives(dir / "rules" / "data" / "units.yaml", O_RDONLY, 0));
        expect("a ruleset folder lists", open_gives(dir / "rules", O_RDONLY | O_DIRECTORY, 0));
        // Threads made after the restriction inherit it (Monte Carlo's hosts).
        bool thread_denied = false;
        std::thread([&] { thread_denied = denied("/etc/passwd"); }).join();
        expect("a later thread is confined too", thread_denied);
        // The host reads through the same kernel: a clear error, not a crash.
        try {
            umpire::LuaHost::read_file(dir / "secret.txt");
            expect("read_file outside", false);
        } catch (const std::exception& e) {
            expect("read_file's error", std::string(e.what()).find("cannot read") != std::string::npos);
        }
    }) == "0");
    fs::remove_all(dir);
    check_parent_alive();
}

TEST_CASE("isolation attacks: after close_files the worker opens no file, not even in its ruleset folder", "[isolation][attacks][landlock]") {
    if (isolation::landlock_abi() == 0) {
        WARN("SKIPPED: this kernel has no Landlock, so a worker's files cannot be closed after loading "
             "(docs/sandbox.md); nothing was checked");
        return;
    }
    const fs::path dir = test_helpers::scratch_root() / "closed";
    fs::remove_all(dir);
    fs::create_directories(dir / "rules");
    std::ofstream(dir / "rules" / "units.yaml") << "squad: 7\n";
    isolation::Limits limits = test_limits();
    limits.confine_files = true;
    limits.readable = {dir / "rules"};
    limits.close_files_after_load = true;
    // The failures are reported through the pipe to the parent after the close: it stays usable.
    CHECK(failures_in_worker(limits, [&](const Expect& expect) {
        const fs::path file = dir / "rules" / "units.yaml";
        // Before: the ruleset folder reads (what a load needs).
        expect("a ruleset file reads while loading", open_gives(file, O_RDONLY, 0));
        expect("not closed yet", !isolation::files_closed());
        expect("close_files closes", isolation::close_files());
        expect("files_closed says so", isolation::files_closed());
        expect("a second call is a no-op that still says closed", isolation::close_files());
        expect("the ruleset file is refused after", open_gives(file, O_RDONLY, EACCES));
        expect("its folder is not listed", open_gives(dir / "rules", O_RDONLY | O_DIRECTORY, EACCES));
        bool in_thread = false;
        std::thread([&] { in_thread = open_gives(file, O_RDONLY, EACCES); }).join();
        expect("a thread made after is refused too (a Monte Carlo thread)", in_thread);
        try {
            umpire::LuaHost::read_file(file);
            expect("read_file after close", false);
        } catch (const std::exception& e) {
            expect("read_file's error", std::string(e.what()).find("cannot read") != std::string::npos);
        }
        // What was open stays open: stderr (and the pipe, which carries this test's result).
        expect("stderr writes", ::write(STDERR_FILENO, "", 0) == 0);
    }) == "0");
    fs::remove_all(dir);
    check_parent_alive();
}

TEST_CASE("isolation: close_files does nothing where the command keeps its reads (watch, test, serve)", "[isolation][landlock]") {
    int rc = -1;
    const fs::path file = test_helpers::scratch_root() / "kept.yaml";
    std::ofstream(file) << "a: 1\n";
    isolation::Limits limits = test_limits();
    limits.confine_files = true;
    limits.readable = {test_helpers::scratch_root()};
    const std::string message = died([&] {
        if (isolation::close_files() || isolation::files_closed()) return 2;
        const int fd = ::open(file.c_str(), O_RDONLY);
        if (fd >= 0) ::close(fd);
        return fd >= 0 ? 0 : 1;
    }, &rc, limits);
    CHECK(message.empty());
    CHECK(rc == 0);
    CHECK_FALSE(isolation::close_files());  // outside a worker too
}

TEST_CASE("isolation: without confine_files the worker's reads are as before", "[isolation][landlock]") {
    int rc = -1;
    const std::string message = died([] {
        if (isolation::files_confined()) return 2;
        const int fd = ::open("/etc/hostname", O_RDONLY);
        if (fd >= 0) ::close(fd);
        return fd >= 0 || errno == ENOENT ? 0 : 1;
    }, &rc);
    CHECK(message.empty());
    CHECK(rc == 0);
}

namespace {
double process_cpu() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + t.tv_nsec / 1e9;
}
// A run of `watch` in miniature: asks for a new CPU budget, waits until the parent has raised the
// limit, then uses `seconds` of CPU time.
void budgeted_run(double seconds) {
    rlimit before{};
    getrlimit(RLIMIT_CPU, &before);
    isolation::new_cpu_budget();
    rlimit now = before;
    for (int i = 0; i < 400 && now.rlim_cur == before.rlim_cur; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        getrlimit(RLIMIT_CPU, &now);
    }
    const double start = process_cpu();
    volatile unsigned long n = 0;
    while (process_cpu() - start < seconds) n = n + 1;
}
}  // namespace

TEST_CASE("isolation: a long-lived worker gives each run its own CPU budget (watch)", "[isolation][cpu]") {
    isolation::Limits limits = test_limits();
    limits.cpu_seconds = 1;
    limits.cpu_per_run = true;
    int rc = -1;
    // Three runs of 0.6 s each: 1.8 s in all, past one budget of 1 s, within each run's own.
    std::string message = died([] {
        for (int run = 0; run < 3; ++run) budgeted_run(0.6);
        return 0;
    }, &rc, limits);
    CHECK(message.empty());
    CHECK(rc == 0);
    // One run past its budget still ends the worker, and the message says the limit is per run.
    message = died([] {
        budgeted_run(0.3);
        budgeted_run(5);
        return 0;
    }, nullptr, limits);
    CHECK_THAT(message, Catch::Contains("the rules ran out of CPU time (limit 1 s of CPU per run, --cpu)"));
    check_parent_alive();
}

TEST_CASE("isolation: a fork server runs each call in a fresh worker while the caller runs threads", "[isolation][fork-server]") {
    // Made while this process has no other thread, as `serve` makes it before its web server.
    isolation::ForkServer workers(test_limits(), [](const std::string& request) {
        if (request == "crash") std::raise(SIGSEGV);
        if (request == "bomb") {
            umpire::HostOptions o;
            o.time_limit = 0.3;
            umpire::LuaHost host(o);
            host.run_string("local s = ('a'):rep(3000)\nlocal found = s:find('.-.-.-.-.-b')\nreturn found", "@bomb.lua");
        }
        isolation::send("pid", std::to_string(getpid()));
        isolation::send("echo", request + std::string(100000, 'x'));  // more than a socket's buffer
        return static_cast<int>(request.size());
    });
    // Now threads that allocate all the time (a lock of the allocator held at a fork is what hangs
    // a child forked from a threaded process), and the calls from yet another thread, as serve's
    // session thread makes them: nothing of this process forks any more.
    std::atomic<bool> stop{false};
    std::vector<std::thread> busy;
    for (int i = 0; i < 2; ++i)
        busy.emplace_back([&stop] {
            while (!stop) std::vector<std::string> v(64, std::string(100, 'b'));
        });
    struct Result {
        int rc = -1;
        std::vector<std::string> pids;
        std::size_t echoed = 0;
        std::string died;
    };
    std::vector<Result> results;
    std::thread caller([&] {
        for (const std::string request : {"abc", "crash", "bomb", "again"}) {
            Result r;
            try {
                r.rc = workers.call(request, [&](const std::string& topic, const std::string& payload) {
                    if (topic == "pid") r.pids.push_back(payload);
                    if (topic == "echo") r.echoed = payload.size();
                });
            } catch (const isolation::WorkerDied& e) {
                r.died = e.what();
            }
            results.push_back(r);
        }
    });
    caller.join();
    stop = true;
    for (auto& t : busy) t.join();
    REQUIRE(results.size() == 4);
    CHECK(results[0].rc == 3);
    CHECK(results[0].echoed == 100003);
    CHECK_THAT(results[1].died, Catch::Contains("the rules' worker process crashed (SIGSEGV"));
    CHECK_THAT(results[2].died, Catch::Contains("bomb.lua:2: in string.find: script stopped: killed at the wall-clock limit of 0.3 s"));
    CHECK(results[3].rc == 5);  // a new worker after the deaths
    REQUIRE(results[0].pids.size() == 1);
    REQUIRE(results[3].pids.size() == 1);
    CHECK(results[0].pids[0] != results[3].pids[0]);  // a fresh worker per call
    CHECK(results[0].pids[0] != std::to_string(getpid()));
    check_parent_alive();
}
