// The host's small-block allocator (host/LuaHost.cpp, LuaHost::Allocator: a shelf of resting
// blocks per 16-byte size class for blocks up to 1 KiB) under random Lua workloads.
//
// Each workload is a seeded random mix of what rule code does to the heap: tables grown and
// shrunk through both parts (colocated arrays split off, hash parts rehashed), strings of every
// small length, string.format with many and long arguments and %s through __tostring (a
// re-entrant C call, the path umpire.cite takes), gsub with callbacks that allocate, coroutines
// that allocate between yields, closures and upvalues, garbage collections in between. It returns
// a digest of everything it built. The same workload runs in a plain LuaJIT state
// (luaL_newstate: LuaJIT's own allocator) as the independent computation: a block handed out
// twice, or written past, changes the digest. Under the ASan build (the CI stage) the allocator
// also poisons the bytes past each block's requested size and every resting block, and
// checks each free's old size against malloc's, so an overflow or a wrong size stops the test at
// the faulty access.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <map>
#include <string>

#include "host/Sanitizers.hpp"
#include "tests/support/helpers.hpp"

using test_helpers::TestHost;

namespace {

// The workload: workload(seed, rounds) -> digest string. Only deterministic operations (no
// pairs over hash parts, no addresses), so the two states must agree byte for byte.
const char* const kWorkload = R"LUA(
local function workload(seed, rounds)
  local state = seed
  local function rand(n)  -- Park-Miller of its own (exact in doubles): the same numbers in both states
    state = state * 16807 % 2147483647
    return state % n + 1
  end
  local function rstr(n)
    local parts = {}
    for i = 1, n do parts[i] = string.char(96 + rand(26)) end
    return table.concat(parts)
  end
  local Named = {__tostring = function(self) return "<" .. self.name .. string.rep("!", self.n) .. ">" end}
  local keep, digest = {}, {}
  local function note(s) digest[#digest + 1] = s; if #digest > 64 then digest = {table.concat(digest, "|")} end end
  for round = 1, rounds do
    local op = rand(9)
    if op == 1 then  -- a table grown through its array part, then shrunk from the end
      local t = {}
      local n = rand(80)
      for i = 1, n do t[i] = rstr(rand(40)) end
      for i = n, math.floor(n / 2), -1 do t[i] = nil end
      note(#t .. ":" .. (t[1] or ""))
      keep[rand(50)] = t
    elseif op == 2 then  -- a small constructor (colocated array) grown past it, plus hash keys
      local t = {rand(9), rand(9), rand(9)}
      for i = 4, 3 + rand(30) do t[i] = i end
      for i = 1, rand(40) do t["k" .. i] = rstr(rand(20)) end
      local s = 0
      for i = 1, #t do s = s + t[i] end
      note(s .. ":" .. (t.k1 or "-"))
      keep[rand(50)] = t
    elseif op == 3 then  -- string.format with many and long arguments, %s through __tostring
      local obj = setmetatable({name = rstr(rand(60)), n = rand(200)}, Named)
      local line = string.format("[%s] %d %5.2f %-12s %q %x %s %s", rstr(rand(12)), rand(1000),
        rand(1000) / 7, rstr(rand(300)), rstr(rand(50)), rand(65535), obj, rstr(rand(250)))
      note(#line .. line:sub(1, 16))
      keep[rand(50)] = line
    elseif op == 4 then  -- gsub with a callback that allocates a string of its own
      local subject = rstr(rand(200))
      local out, count = subject:gsub("%a", function(c) return c:upper() .. string.rep(c, rand(20)) end)
      note(count .. ":" .. #out .. ":" .. out:sub(-8))
    elseif op == 5 then  -- coroutines allocating between yields
      local co = coroutine.wrap(function(n)
        local acc = {}
        for i = 1, n do acc[#acc + 1] = rstr(rand(64)); coroutine.yield(#acc[#acc]) end
        return table.concat(acc, ",")
      end)
      local n, total = rand(20), 0
      for _ = 1, n do total = total + co(n) end
      note(total .. ":" .. #co())
    elseif op == 6 then  -- closures and upvalues
      local fns = {}
      for i = 1, rand(40) do
        local captured = rstr(rand(30))
        fns[i] = function(x) return captured .. x end
      end
      note(fns[#fns]("." .. #fns))
      keep[rand(50)] = fns
    elseif op == 7 then  -- strings built up and cut down through every small length
      local s = ""
      for _ = 1, rand(60) do s = s .. rstr(rand(9)) end
      for _ = 1, rand(20) do s = s:sub(1 + rand(3)) end
      note(s)
    elseif op == 8 then  -- table.sort with a comparator (re-entrant), then table.remove/insert
      local t = {}
      for i = 1, rand(60) do t[i] = rstr(rand(12)) end
      table.sort(t, function(a, b) return a < b end)
      for _ = 1, rand(10) do if #t > 0 then table.remove(t, rand(#t)) end end
      table.insert(t, 1, rstr(5))
      note(table.concat(t, "", 1, math.min(#t, 4)))
    else  -- drop what was kept, so the lists refill and the collector frees in bulk
      for i = 1, 50 do if rand(3) == 1 then keep[i] = nil end end
      collectgarbage("count")
    end
  end
  local kept = 0
  for i = 1, 50 do if keep[i] ~= nil then kept = kept + 1 end end
  return table.concat(digest, "|") .. "#" .. kept
end
return workload(...)
)LUA";

// The digest in a plain LuaJIT state (LuaJIT's allocator, no sandbox).
std::string reference_digest(int seed, int rounds) {
    lua_State* L = luaL_newstate();
    REQUIRE(L != nullptr);
    luaL_openlibs(L);
    REQUIRE(luaL_loadstring(L, kWorkload) == 0);
    lua_pushinteger(L, seed);
    lua_pushinteger(L, rounds);
    const int status = lua_pcall(L, 2, 1, 0);
    const std::string digest = lua_tostring(L, -1) ? lua_tostring(L, -1) : "(no digest)";
    lua_close(L);
    REQUIRE(status == 0);
    return digest;
}

// The digest in a host (the small-block allocator, the sandbox's wrapped library functions).
std::string host_digest(TestHost& test, int seed, int rounds) {
    umpire::LuaHost& host = test.host;
    const std::string call = std::string("local workload = function(...) ") + kWorkload + " end return workload(" +
                             std::to_string(seed) + ", " + std::to_string(rounds) + ")";
    const int n = host.run_string(call, "=(allocator stress)", true);
    REQUIRE(n == 1);
    const std::string digest = lua_tostring(host.state(), -1);
    lua_pop(host.state(), n);
    return digest;
}

}  // namespace

TEST_CASE("random Lua workloads give the same digest on the host's small-block allocator as on LuaJIT's",
          "[host][allocator]") {
    const int rounds = 400;
    for (const bool trusted : {false, true}) {
        umpire::HostOptions options;
        options.trusted = trusted;
        TestHost test(options);
        // Several workloads on one host: blocks freed by one are handed out again by the next.
        for (int seed = 1; seed <= 6; ++seed) {
            INFO("seed " << seed << (trusted ? ", trusted (JIT on)" : ", sandboxed"));
            CHECK(host_digest(test, seed, rounds) == reference_digest(seed, rounds));
        }
        CHECK(test.host.memory_used() > 0);
    }
}

TEST_CASE("the memory cap's count returns to its level once a workload's garbage is collected",
          "[host][allocator]") {
    // The allocator counts the sizes Lua asked for; a block resting on a shelf is not in use.
    // After a full collection the count is back near where it started (the workload keeps nothing).
    TestHost test;
    lua_State* L = test.host.state();
    lua_gc(L, LUA_GCCOLLECT, 0);  // host code may collect (rule code only asks for the count)
    const std::size_t before = test.host.memory_used();
    CHECK(!host_digest(test, 7, 300).empty());
    lua_gc(L, LUA_GCCOLLECT, 0);
    const std::size_t after = test.host.memory_used();
    // Interned strings of the chunk and the string table's growth stay; the workload's tables,
    // strings and coroutines (hundreds of kilobytes) must not.
    CHECK(after < before + 64 * 1024);
}

#ifdef UMPIRE_ASAN
// The ASan checks themselves: a free with a wrong old size (a size of another class than the
// block's) stops the process instead of filing the block under the wrong class.
TEST_CASE("under ASan, freeing a small block with a wrong old size aborts", "[host][allocator][asan]") {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        // The abort is expected: no Catch2 handler for it, no report in the test log.
        std::signal(SIGABRT, SIG_DFL);
        const int null_fd = ::open("/dev/null", O_WRONLY);
        ::dup2(null_fd, 1);
        ::dup2(null_fd, 2);
        umpire::LuaHost host;
        void* ud = nullptr;
        lua_Alloc alloc = lua_getallocf(host.state(), &ud);
        void* block = alloc(ud, nullptr, 0, 40);      // class of 48 bytes
        alloc(ud, block, 64, 0);                       // freed as if it were 64: must abort
        _exit(0);
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGABRT);
}
#endif

#ifndef UMPIRE_ASAN
// Two hosts made on one thread, as a Monte Carlo run makes its workers' hosts, never hand out
// small blocks on the same 64-byte cache line: each host cuts its blocks from slabs of its own
// (host/LuaHost.cpp, Allocator::carve). With malloc's blocks, the two workers' objects shared lines
// and the lines went back and forth between the cores on every sample. (Under ASan the blocks
// are malloc's, so ASan can check them, and the test does not apply.)
TEST_CASE("two hosts' small blocks never share a cache line", "[host][allocator]") {
    umpire::LuaHost first, second;
    struct Taken {
        lua_Alloc alloc;
        void* ud;
        void* block;
        std::size_t size;
        unsigned owner;  // 1: the first host's, 2: the second's
    };
    // Reserved, and the lines counted after: nothing but the hosts' blocks is allocated meanwhile.
    std::vector<Taken> taken;
    taken.reserve(2 * 64 * 1000 + 2000);
    const auto take = [&](unsigned owner, std::size_t size) {
        Taken t{};
        t.alloc = lua_getallocf((owner == 1 ? first : second).state(), &t.ud);
        t.size = size;
        t.owner = owner;
        t.block = t.alloc(t.ud, nullptr, 0, size);
        REQUIRE(t.block);
        taken.push_back(t);
    };
    // First each host's resting blocks (its start-up's garbage, on its shelves) are taken, so that
    // the blocks below are new ones, as a second host's load takes them.
    for (unsigned owner : {1u, 2u})
        for (std::size_t size = 16; size <= 1024; size += 16)
            for (int i = 0; i < 1000; ++i) take(owner, size);
    std::uint64_t state = 12345;
    for (int i = 0; i < 2000; ++i) {
        state = state * 16807 % 2147483647;
        take(1u + static_cast<unsigned>(i % 2), 1 + state % 1024);  // every small class, in turn
    }
    std::map<std::uintptr_t, unsigned> owners;  // a 64-byte line -> bit 1: first host's, bit 2: second's
    for (const Taken& t : taken) {
        const auto begin = reinterpret_cast<std::uintptr_t>(t.block);
        for (std::uintptr_t line = begin / 64; line <= (begin + t.size - 1) / 64; ++line) owners[line] |= t.owner;
    }
    std::size_t shared = 0;
    for (const auto& [line, who] : owners) shared += who == 3u;
    CHECK(shared == 0);
    for (const Taken& t : taken) t.alloc(t.ud, t.block, t.size, 0);
}
#endif
