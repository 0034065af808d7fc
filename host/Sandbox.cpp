// The sandbox: what rules can reach.
//
// Allow-list (everything else is absent): assert error ipairs pairs next pcall xpcall select
// tonumber tostring type unpack rawequal rawget rawset setmetatable getmetatable print load
// loadstring collectgarbage("count") _VERSION _G, and the libraries string (no dump), table (no
// foreach/foreachi, which walk in hash order), math (random = the game's dice, randomseed an
// error), bit, coroutine. Absent on purpose: io, os, ffi, jit, debug, package, require, module,
// dofile, loadfile, string.dump, newproxy, getfenv, setfenv, gcinfo.
//
// Determinism: pairs and next visit keys in a fixed order (booleans, then numbers ascending, then
// strings bytewise), whatever the hash layout; a table keyed by tables or functions cannot be
// iterated with pairs (error), because their order would depend on memory addresses.
#include "host/Sandbox.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "bindings/LuaError.hpp"
#include "bindings/LuaTables.hpp"
#include "bindings/RawWrite.hpp"
#include "bindings/api_modules.hpp"
#include "host/LuaHost.hpp"

namespace umpire::sandbox {
namespace {

// load()'s reader pieces are joined on the C++ heap, outside the Lua memory cap.
constexpr std::size_t kMaxLoadSize = std::size_t{16} << 20;
// A pattern call on a subject at least this long notes its position for the watchdog.
constexpr std::size_t kLongSubject = 1024;

// Deterministic pairs/next. The order is fixed by the keys alone (booleans, false first; then
// numbers ascending; then strings bytewise, a prefix first), so it never depends on the hash
// layout. Sorting on every call cost 13-16% of an ASL attack, so the sorted order is cached per
// table (ordered_keys, in C below) and reused while the table's keys are the same ones in the
// same raw order; a table whose keys changed is sorted again. An iteration walks the snapshot it
// started with: a key removed during the loop is skipped, a key added is not visited (as before).
// The Lua side runs with the raw library captured in upvalues, so rules cannot tamper with it.
constexpr const char* kPrelude = R"lua(
local ordered_keys, views, raw_pcall, raw_xpcall, protected_enter, protected_failed = ...
local type, error, rawget, raw_next, select = type, error, rawget, next, select

local function sorted_keys(t, fname)
  local keys, n = ordered_keys(t)
  if not keys then
    error(fname .. ": a table with a key of type " .. n .. " has no stable order " ..
          "(key sets by string or number ids instead)", 3)
  end
  return keys, n
end

-- A walk of two keys or more follows the sorted keys ordered_keys caches for the table, one list
-- shared by every walk of it. So its position is kept in a closure, not in a state table handed
-- to the for loop: that table is rule code's to read and write (`local f, s = pairs(t)`), and
-- through it rule code could rewrite the shared list (a later walk of the table would skip keys
-- or visit others) or, walking a read-only view, reach the real table behind it and patch a
-- library every ruleset of the Lua state sees. The closure costs three allocations more than a
-- state table would (docs/sandbox.md, "pairs hands rule code nothing of its own").
local function walk(t, keys, n)
  local i = 0
  return function()
    while i < n do
      i = i + 1
      local k = keys[i]
      local v = rawget(t, k)
      if v ~= nil then return k, v end  -- removed during the loop: skip, as next would
    end
  end
end

-- A table with no key or one key has one order, so no sort and no cache entry is needed: rule
-- code makes many such tables afresh (options, conditions, overrides) and iterates each once.
-- The one-key state {t, key, done} keeps the snapshot rule: the key is visited if still there.
-- It holds only what the caller already has (its own table, one of its keys), so it is handed to
-- the for loop; a view's one key goes the closure's way, since its state would hold the real table.
local function step_none() return nil end
local function step_one(s)
  if s[3] then return nil end
  s[3] = true
  local k = s[2]
  local v = rawget(s[1], k)
  if v ~= nil then return k, v end
end

-- The argument check and the view's look-up are written out here rather than called: pairs runs
-- in the hot loops of rule code, where each Lua call and C call counts (docs/performance.md).
-- A read-only view (make_read_only below) is an empty table reading through to the real one:
-- pairs and next walk the real one, so `for k in pairs(string)` still lists the library. `views`
-- maps each view to its real table (weak keys and values: a view collected takes its entry with it).
local function pairs(t)
  if type(t) ~= "table" then
    error("bad argument #1 to 'pairs' (table expected, got " .. type(t) .. ")", 2)
  end
  local real = views[t]
  local walked = real or t
  local first = raw_next(walked)
  if first == nil then return step_none, t, nil end
  if not real and raw_next(t, first) == nil then
    local kind = type(first)
    if kind == "string" or kind == "number" or kind == "boolean" then return step_one, {t, first, false}, nil end
  end
  local keys, n = ordered_keys(walked)
  if not keys then
    error("pairs: a table with a key of type " .. n .. " has no stable order " ..
          "(key sets by string or number ids instead)", 2)
  end
  return walk(walked, keys, n), t, nil
end

-- O(n) per call with a key (it looks the key up): fine for `next(t) == nil`; loops should use pairs.
local function next(t, key)
  if type(t) ~= "table" then
    error("bad argument #1 to 'next' (table expected, got " .. type(t) .. ")", 2)
  end
  t = views[t] or t
  local keys, n = sorted_keys(t, "next")
  local i = 0
  if key ~= nil then
    for j = 1, n do if keys[j] == key then i = j break end end
    if i == 0 then error("invalid key to 'next'", 2) end
  end
  i = i + 1
  if i <= n then return keys[i], rawget(t, keys[i]) end
  return nil
end

-- pcall and xpcall that cannot swallow a stop: once a limit fired (runaway loop, memory cap), the
-- error goes on up to the host even through a script's pcall, otherwise `while true do
-- pcall(loop) end` would run forever. They are LuaJIT's own underneath, which run the function in
-- the VM, on no C frame of their own: a `yield` inside goes through them (through a C function
-- calling lua_pcall it was "attempt to yield across C-call boundary"), and their recursion is a
-- Lua stack overflow, an error, not a C one (so they need no C-call depth). Around them, two small
-- C functions: protected_enter raises a stop noted already and returns the count of refused
-- allocations; after a failed call, protected_failed raises the stop if one fired meanwhile, or
-- the memory stop if an allocation was refused meanwhile (LuaJIT's pcall does not show that its
-- error was LUA_ERRMEM, and an error of the text "not enough memory" is not one).
-- (The call is not a tail call, so this function is one more level for error(msg, level): a level
-- past the pcalled function names this line. Level 2, the usual, is LuaJIT's pcall: no place.)
local function after_protected(mark, ok, ...)
  if not ok then protected_failed(mark) end
  return ok, ...
end

-- (No argument at all is an error, a nil one is a call of nil: `select` tells them apart, and is
-- asked only when the first is nil, since a C call of it was ~100 machine instructions of every
-- pcall, docs/performance.md, "session 37 (h3)".)
local function pcall(...)
  local f = ...
  if f == nil and select("#", ...) == 0 then error("bad argument #1 to 'pcall' (value expected)", 2) end
  return after_protected(protected_enter(), raw_pcall(...))
end

local function xpcall(f, handler, ...)
  if type(handler) ~= "function" then
    error("bad argument #2 to 'xpcall' (function expected, got " .. type(handler) .. ")", 2)
  end
  return after_protected(protected_enter(), raw_xpcall(f, handler, ...))
end

return { pairs = pairs, next = next, pcall = pcall, xpcall = xpcall }
)lua";

// One key of a table being ordered: its type and value, a string by pointer (the table being
// ordered keeps it alive while we sort).
struct OrderedKey {
    int type;
    double number;
    const char* text;
    std::size_t length;
    int raw_position;  // 1-based position in lua_next's order
};

// The prelude's order: booleans (false first), then numbers ascending, then strings compared
// byte by byte as unsigned chars with a prefix first -- what LuaJIT's `<` on strings does.
bool key_before(const OrderedKey& a, const OrderedKey& b) {
    const auto rank = [](int type) { return type == LUA_TBOOLEAN ? 0 : type == LUA_TNUMBER ? 1 : 2; };
    if (a.type != b.type) return rank(a.type) < rank(b.type);
    if (a.type == LUA_TBOOLEAN || a.type == LUA_TNUMBER) return a.number < b.number;
    const int c = std::memcmp(a.text, b.text, std::min(a.length, b.length));
    return c != 0 ? c < 0 : a.length < b.length;
}

// ordered_keys(t) -> sorted keys (an array the caller must not change), count; or nil and the
// type name of a key that has no stable order.
//
// The cache is direct-mapped and small (kOrderSlots entries), indexed by the table's address:
// rule code iterates a few long-lived tables (data, counters) again and again, and many fresh
// copies once each, and a weak-keyed table of every table ever iterated cost more in rehashing
// than the sort it saved. An entry is one Lua array: the sorted keys in 1..n, then the same keys
// in raw (lua_next) order in n+1..2n; the slot also remembers the address and n. The entry is
// valid for a table when lua_next still yields exactly its raw-order keys: equal sequences mean
// equal key sets, and the sorted order depends on the key set only. So a wrong hit is impossible
// even when a collected table's address is reused (the entry holds keys, never the table, so it
// keeps nothing alive), and a change that moves keys in the hash only costs a new sort. An entry
// is never changed in place, so a loop that started on it keeps its snapshot when the table is
// sorted again under it.
constexpr int kOrderSlots = 64;

struct OrderCache {
    const void* table[kOrderSlots];
    int count[kOrderSlots];
};

int l_ordered_keys(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    auto* cache = static_cast<OrderCache*>(lua_touserdata(L, lua_upvalueindex(2)));
    const void* address = lua_topointer(L, 1);
    const int slot = static_cast<int>((reinterpret_cast<std::uintptr_t>(address) >> 4) *
                                      0x9E3779B97F4A7C15ull >> 58);  // 6 bits: kOrderSlots
    if (cache->table[slot] == address) {
        lua_rawgeti(L, lua_upvalueindex(1), slot + 1);  // 2: the entry
        const int count = cache->count[slot];
        int seen = 0;
        bool same = true;
        lua_pushnil(L);
        while (lua_next(L, 1) != 0) {
            lua_pop(L, 1);  // the value
            if (++seen > count) same = false;
            else {
                lua_rawgeti(L, 2, count + seen);
                same = lua_rawequal(L, -1, -2);
                lua_pop(L, 1);
            }
            if (!same) {
                lua_pop(L, 1);  // the key: the walk stops here
                break;
            }
        }
        if (same && seen == count) {
            lua_pushinteger(L, count);
            return 2;
        }
        lua_settop(L, 1);
    }
    // The keys stay on the stack (indices 3..count+2) in raw order: a second walk could differ
    // from the first if an allocation here let the GC clear entries of a weak table. The C stack
    // holds only so many values (LuaJIT's limit is about 8,000), so a table with more keys has
    // them moved to a spill table at index 2 once the stack will not grow, and the rest go there
    // too; index 2 is nil until then.
    std::vector<OrderedKey> keys;
    lua_pushnil(L);  // 2: the spill table, once needed
    bool spilled = false;
    lua_pushnil(L);
    while (lua_next(L, 1) != 0) {
        lua_pop(L, 1);
        const int type = lua_type(L, -1);
        if (type != LUA_TBOOLEAN && type != LUA_TNUMBER && type != LUA_TSTRING) {
            lua_pushnil(L);
            lua_pushstring(L, lua_typename(L, type));
            return 2;
        }
        OrderedKey key{type, 0, nullptr, 0, static_cast<int>(keys.size()) + 1};
        if (type == LUA_TBOOLEAN) key.number = lua_toboolean(L, -1);
        else if (type == LUA_TNUMBER) key.number = lua_tonumber(L, -1);
        else key.text = lua_tolstring(L, -1, &key.length);  // alive while the stack or spill holds it
        keys.push_back(key);
        if (!spilled && !lua_checkstack(L, 3)) {
            // Keys 3..top-1 into the spill table; the current key (on top) stays for lua_next.
            const int stacked = lua_gettop(L) - 3;
            lua_createtable(L, 2 * stacked, 0);
            for (int i = 1; i <= stacked; ++i) {
                lua_pushvalue(L, 2 + i);
                lua_rawseti(L, -2, i);
            }
            lua_replace(L, 2);
            lua_pushvalue(L, -1);
            lua_replace(L, 3);
            lua_settop(L, 3);
            spilled = true;
        }
        if (spilled) {
            lua_pushvalue(L, -1);
            lua_rawseti(L, 2, key.raw_position);
        } else {
            lua_pushvalue(L, -1);
            lua_insert(L, -2);  // a copy stays below the key lua_next continues from
        }
    }
    const int count = static_cast<int>(keys.size());
    // Pushes the key at raw position i (1-based).
    const auto push_raw = [&](int i) {
        if (spilled) lua_rawgeti(L, 2, i);
        else lua_pushvalue(L, 2 + i);
    };
    lua_createtable(L, 2 * count, 0);  // the entry
    const int entry = lua_gettop(L);
    for (int i = 1; i <= count; ++i) {
        push_raw(i);
        lua_rawseti(L, entry, count + i);
    }
    std::sort(keys.begin(), keys.end(), key_before);
    for (int i = 0; i < count; ++i) {
        push_raw(keys[i].raw_position);
        lua_rawseti(L, entry, i + 1);
    }
    lua_replace(L, 2);
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    lua_rawseti(L, lua_upvalueindex(1), slot + 1);
    cache->table[slot] = address;
    cache->count[slot] = count;
    lua_pushinteger(L, count);
    return 2;
}

// l_ordered_keys with its cache as upvalues: the entries (a Lua array) and the slots' addresses
// and counts (a userdata).
void push_ordered_keys(lua_State* L) {
    lua_createtable(L, kOrderSlots, 0);
    auto* cache = static_cast<OrderCache*>(lua_newuserdata(L, sizeof(OrderCache)));
    for (int i = 0; i < kOrderSlots; ++i) {
        cache->table[i] = nullptr;
        cache->count[i] = 0;
    }
    lua_pushcclosure(L, l_ordered_keys, 2);
}

// (error is the sandbox's own, l_error: push_env)
const char* const kBase[] = {"assert", "ipairs",       "select",
                             "tonumber", "tostring",     "type",         "unpack",
                             "rawequal", "rawget", "rawset",       "setmetatable", "getmetatable",
                             "_VERSION"};
const char* const kLibraries[] = {"string", "table", "math", "bit", "coroutine"};
// Library members removed from the env copies (string.dump is also removed from the real lib).
const char* const kRemoved[][2] = {{"string", "dump"},  {"table", "foreach"},
                                   {"table", "foreachi"}, {"math", "randomseed"}};

/// ---@param m? integer
/// ---@param n? integer
/// ---@return number
/// --- The game's dice, not a private generator: random() in [0,1), random(m) in 1..m,
/// --- random(m, n) in m..n. Every call is one die rolled through the game's die source.
int l_random(lua_State* L) {
    return lua::lua_guard(L, [&] {
        lua::StackCheck check(L, 1);
        auto& host = LuaHost::from(L);
        const int n = lua_gettop(L);
        if (n == 0) {
            // 2^30-sided die: enough resolution for a float in [0,1) without bias.
            const double face = host.die(1u << 30);
            lua_pushnumber(L, (face - 1) / double(1u << 30));
            return check.result(1);
        }
        // As Lua 5.1: a third argument is an error (it was ignored), and the bounds are cut to
        // whole numbers toward zero (random(0.5, 3.7) gave 0.5, 1.5, 2.5 or 3.5, not 0 to 3).
        if (n > 2) throw Error("bad argument to 'random' (wrong number of arguments)");
        const lua_Number lo = std::trunc(n >= 2 ? luaL_checknumber(L, 1) : 1);
        const lua_Number hi = std::trunc(n >= 2 ? luaL_checknumber(L, 2) : luaL_checknumber(L, 1));
        // NaN compares false with everything, so test it first: casting it to an integer below
        // would be undefined behaviour.
        if (lo != lo || hi != hi) throw Error("bad argument to 'random' (NaN is not a number of faces)");
        if (lo > hi) throw Error("bad argument to 'random' (interval is empty)");
        const double span = hi - lo + 1;
        if (!(span <= 4294967295.0)) throw Error("bad argument to 'random' (interval is too large)");
        lua_pushnumber(L, lo + host.die(static_cast<std::uint32_t>(span)) - 1);
        return check.result(1);
    });
}

/// --- Raises an error: the game's generator is seeded once by the host (--seed).
int l_randomseed(lua_State* L) {
    return luaL_error(L, "math.randomseed is not available: the game's dice are seeded by the "
                         "host (umpire --seed N)");
}

/// ---@param opt? "count"
/// ---@return number kilobytes
/// --- Only "count" is allowed: the Lua heap in use, in KiB.
int l_collectgarbage(lua_State* L) {
    const char* opt = luaL_optstring(L, 1, "count");
    if (std::string(opt) != "count")
        return luaL_error(L, "collectgarbage('%s') is not available in a ruleset (only 'count')",
                          opt);
    lua_pushnumber(L, lua_gc(L, LUA_GCCOUNT, 0) + lua_gc(L, LUA_GCCOUNTB, 0) / 1024.0);
    return 1;
}

/// ---@param ... any
/// --- Prints through the host (stdout for the umpire command), tab-separated like Lua's print.
int l_print(lua_State* L) {
    CCallDepth depth(L);  // tostring may call a __tostring metamethod
    const int n = lua_gettop(L);
    std::string line;
    for (int i = 1; i <= n; ++i) {
        lua_pushvalue(L, lua_upvalueindex(1));  // the real tostring
        lua_pushvalue(L, i);
        lua_call(L, 1, 1);
        size_t len = 0;
        const char* s = lua_tolstring(L, -1, &len);
        if (!s) return luaL_error(L, "'tostring' must return a string to 'print'");
        if (i > 1) line += '\t';
        line.append(s, len);
        lua_pop(L, 1);
    }
    return lua::lua_guard(L, [&] {
        LuaHost::from(L).print(line);
        return 0;
    });
}

/// ---@param chunk string|fun():string?
/// ---@param chunkname? string
/// ---@return function? chunk
/// ---@return string? error
/// --- Compiles Lua text (never bytecode) into a function running in the caller's sandbox.
int l_load(lua_State* L) {
    CCallDepth depth(L);  // the reader is Lua code
    std::string code;
    if (lua_type(L, 1) == LUA_TSTRING) {
        size_t len = 0;
        const char* s = lua_tolstring(L, 1, &len);
        code.assign(s, len);
    } else if (lua_type(L, 1) == LUA_TFUNCTION) {
        for (;;) {
            lua_pushvalue(L, 1);
            lua_call(L, 0, 1);
            if (lua_isnil(L, -1)) { lua_pop(L, 1); break; }
            size_t len = 0;
            const char* s = lua_tolstring(L, -1, &len);
            if (!s) return luaL_error(L, "reader function must return a string");
            if (len == 0) { lua_pop(L, 1); break; }
            // The pieces gather on the C++ heap, outside the Lua memory cap: bound them.
            if (code.size() + len > kMaxLoadSize)
                return luaL_error(L, "load: the reader function returned more than %d MiB of "
                                     "text", static_cast<int>(kMaxLoadSize >> 20));
            code.append(s, len);
            lua_pop(L, 1);
        }
    } else {
        return luaL_argerror(L, 1, "string or function expected");
    }
    const std::string name = luaL_optstring(L, 2, "=(load)");
    auto& host = LuaHost::from(L);
    if (!code.empty() && code[0] == '\x1b') {
        lua_pushnil(L);
        lua_pushliteral(L, "load: precompiled bytecode is refused in the sandbox (text chunks only)");
        return 2;
    }
    // luaL_loadbufferx mode "t" refuses precompiled bytecode (belt and braces).
    const std::string chunkname = name;
    if (luaL_loadbufferx(L, code.data(), code.size(), chunkname.c_str(), "t") != 0) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    // Interpreted like the code that loads it, unless that runs with the JIT on (LuaHost::load_chunk).
    if (!host.options().trusted && !host.options().sandbox_jit) luaJIT_setmode(L, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
    lua_pushvalue(L, lua_upvalueindex(1));  // the env this load belongs to
    lua_setfenv(L, -2);
    return 1;
}

// The C side of the sandbox's pcall and xpcall (kPrelude): raises a stop noted already; returns the
// allocator's count of refused allocations, for protected_failed.
int l_protected_enter(lua_State* L) {
    LuaHost::raise_if_stopped(L, 0);
    lua_pushnumber(L, static_cast<lua_Number>(LuaHost::refused_allocations(L)));
    return 1;
}

// After a failed protected call: raises the stop if a limit fired, or if an allocation was refused
// since protected_enter's count (the error was LUA_ERRMEM: from now on the call is stopped).
int l_protected_failed(lua_State* L) {
    const bool refused = static_cast<lua_Number>(LuaHost::refused_allocations(L)) > lua_tonumber(L, 1);
    return LuaHost::raise_if_stopped(L, refused ? LUA_ERRMEM : 0);
}

// coroutine.resume and coroutine.wrap, in C so that they count C-call depth (each resume runs
// the coroutine on a new C frame chain: `wrap` recursion otherwise overflows the C stack) and so
// that a stop raised inside the coroutine (the count hook fires wherever the loop runs) is
// raised again in the resumer instead of coming back as `false, message`. The status logic is
// Lua 5.1's: a coroutine can be resumed only while suspended (yielded, or not yet started).
const char* resume_refusal(lua_State* L, lua_State* co) {
    if (co == L) return "cannot resume running coroutine";
    const int status = lua_status(co);
    if (status == LUA_YIELD) return nullptr;
    if (status != 0) return "cannot resume dead coroutine";
    lua_Debug ar;
    if (lua_getstack(co, 0, &ar) > 0) return "cannot resume normal coroutine";  // it resumed us
    if (lua_gettop(co) == 0) return "cannot resume dead coroutine";
    return nullptr;
}

// Resumes co with the top nargs values of L. Returns the number of results moved onto L, or -1
// with the error value (a refusal or the coroutine's error) on top of L.
int resume(lua_State* L, lua_State* co, int nargs) {
    LuaHost::raise_if_stopped(L, 0);
    if (const char* refusal = resume_refusal(L, co)) {
        lua_pushstring(L, refusal);
        return -1;
    }
    if (!lua_checkstack(co, nargs)) luaL_error(L, "too many arguments to resume");
    lua_xmove(L, co, nargs);
    int status;
    {
        CCallDepth depth(L);
        const LuaHost::Resuming running(co);
        status = lua_resume(co, nargs);
    }
    if (status == 0 || status == LUA_YIELD) {
        const int nresults = lua_gettop(co);
        if (!lua_checkstack(L, nresults + 1)) luaL_error(L, "too many results to resume");
        lua_xmove(co, L, nresults);
        return nresults;
    }
    lua_xmove(co, L, 1);
    LuaHost::raise_if_stopped(L, status);
    return -1;
}

/// ---Like Lua's error, except that error(message, 2) in a function reached by a tail call from the
/// ---chunk (or function) the host runs, `return check(x)`, names the line of that tail call: the
/// ---frame of its caller is gone, and Lua's error gave no place at all.
int l_error(lua_State* L) {
    const int level = static_cast<int>(luaL_optinteger(L, 2, 1));
    lua_settop(L, 1);
    if (lua_isstring(L, 1) && level > 0) {  // (as LuaJIT's error: a number gets a place too)
        luaL_where(L, level);
        if (lua_objlen(L, -1) == 0 && LuaHost::push_error_tail_caller_where(L, level)) lua_replace(L, -2);
        lua_pushvalue(L, 1);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/// ---Like Lua's coroutine.resume, except that a stopped script stays stopped.
int l_resume(lua_State* L) {
    lua_State* co = lua_tothread(L, 1);
    luaL_argcheck(L, co, 1, "coroutine expected");
    const int n = resume(L, co, lua_gettop(L) - 1);
    if (n < 0) {
        lua_pushboolean(L, 0);
        lua_insert(L, -2);
        return 2;
    }
    lua_pushboolean(L, 1);
    lua_insert(L, -(n + 1));
    return n + 1;
}

int l_wrap_call(lua_State* L) {
    lua_State* co = lua_tothread(L, lua_upvalueindex(1));
    const int n = resume(L, co, lua_gettop(L));
    if (n >= 0) return n;
    if (lua_isstring(L, -1)) {  // as Lua 5.1: the error gets the caller's position
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

/// ---Like Lua's coroutine.wrap, except that a stopped script stays stopped.
int l_wrap(lua_State* L) {
    luaL_checktype(L, 1, LUA_TFUNCTION);
    lua_State* co = lua_newthread(L);
    lua_pushvalue(L, 1);
    lua_xmove(L, co, 1);
    lua_pushcclosure(L, l_wrap_call, 1);
    return 1;
}

// Does the message start with a position ("file:12: ...")? Errors raised by a wrapped library
// function have none (its caller is our C wrapper), errors of Lua code have one.
bool has_position(const char* text) {
    const char* colon = std::strchr(text, ':');
    if (!colon || colon == text) return false;
    const char* p = colon + 1;
    if (!std::isdigit(static_cast<unsigned char>(*p))) return false;
    while (std::isdigit(static_cast<unsigned char>(*p))) ++p;
    return *p == ':';
}

// A library function that can call back into Lua (gsub with a function or a table with
// __index, format's %s through __tostring, sort's comparator), wrapped so that it counts C-call
// depth. Upvalues: the real function, its name ("gsub"), its full name ("string.gsub"), and
// whether it matches patterns (then a call on
// a long subject notes its position for the watchdog's message: the matcher never calls the
// hook, so the watchdog is what stops a pattern bomb). It runs the real function in a protected
// call so that the real function's own errors can be given the caller's position and name,
// which the extra C frame would otherwise hide ("bad argument #1 to '?'").
int l_reentrant(lua_State* L) {
    CCallDepth depth(L);
    const int n = lua_gettop(L);
    if (lua_toboolean(L, lua_upvalueindex(4)) && lua_type(L, 1) == LUA_TSTRING &&
        lua_objlen(L, 1) >= kLongSubject)
        LuaHost::note_c_entry(L, lua_tostring(L, lua_upvalueindex(3)));
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    const int status = lua_pcall(L, n, LUA_MULTRET, 0);
    if (status == 0) return lua_gettop(L);
    LuaHost::raise_if_stopped(L, status);
    if (const char* text = lua_tostring(L, -1); text && lua_type(L, -1) == LUA_TSTRING && !has_position(text)) {
        std::string message = text;
        const std::string unnamed = "to '?'";
        if (const auto at = message.find(unnamed); at != std::string::npos)
            message.replace(at, unnamed.size(), std::string("to '") + lua_tostring(L, lua_upvalueindex(2)) + "'");
        luaL_where(L, 1);
        lua_pushlstring(L, message.data(), message.size());
        lua_concat(L, 2);
    }
    return lua_error(L);
}

// Replaces lib[name] in the real library (strings reach the real string library through their
// metatable, so the env copies are not enough) with its l_reentrant wrapper.
void wrap_reentrant(lua_State* L, const char* lib, const char* name, bool pattern) {
    lua_getglobal(L, lib);
    lua_getfield(L, -1, name);
    lua_pushstring(L, name);
    lua_pushfstring(L, "%s.%s", lib, name);
    lua_pushboolean(L, pattern);
    lua_pushcclosure(L, l_reentrant, 4);
    lua_setfield(L, -2, name);
    lua_pop(L, 1);
}

// Read-only views. All rulesets of a load generation share one env, so without them a second
// ruleset could redefine string.format or umpire.dice.dr under the first (and rewrite what the
// journal cites). A view is an empty table whose metatable reads through to the real table
// (__index) and refuses writes (__newindex); `__metatable` hides and locks that metatable, and
// the sandbox's rawset refuses a view (the marker field below), so neither setmetatable nor
// rawset can get past it. Cost: one __index step per look-up, done by the VM without a call.
using raw_write::kViewMarker;
// The field of a view's metatable holding the name its errors use ("umpire.dice").
constexpr const char* kViewName = "umpire.view_name";
// The registry's table of every view and its real table (weak keys and values), read by pairs and next.
constexpr const char* kViewsKey = "umpire.sandbox.views";
// The registry's slot for the prelude's table of functions (pairs, next, ...).
constexpr const char* kPreludeKey = "umpire.sandbox.prelude";

int l_read_only_newindex(lua_State* L) {
    return luaL_error(L, "%s is read-only: a ruleset cannot change it for the others (keep a "
                         "changed copy in a local instead)",
                      lua_tostring(L, lua_upvalueindex(1)));
}

bool is_read_only_view(lua_State* L, int index) { return raw_write::is_view(L, index); }

/// ---Like Lua's rawset, except that it refuses the read-only views of the libraries and of `umpire`,
/// ---and the tables of `umpire.data`.
int l_rawset(lua_State* L) {
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_checkany(L, 2);
    luaL_checkany(L, 3);
    if (const char* why = raw_write::refusal(L, 1)) return luaL_error(L, "rawset: %s", why);
    lua_settop(L, 3);
    lua_rawset(L, 1);
    return 1;
}

void copy_library(lua_State* L, const char* name) {
    lua_getglobal(L, name);  // the real library
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3) != 0) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_settable(L, -4);
    }
    lua_remove(L, -2);
}

}  // namespace

void make_read_only(lua_State* L, int table, const char* field, const char* display) {
    lua::StackCheck check(L, 0);
    if (table < 0) table = lua_gettop(L) + table + 1;
    lua_getfield(L, table, field);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return;
    }
    lua_newtable(L);  // the view
    lua_createtable(L, 0, 6);
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, display);
    lua_pushcclosure(L, l_read_only_newindex, 1);
    lua_setfield(L, -2, "__newindex");
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, kViewMarker);
    lua_pushstring(L, display);
    lua_setfield(L, -2, kViewName);
    lua_setmetatable(L, -2);
    // pairs and next walk the real table of a view (kPrelude).
    lua_getfield(L, LUA_REGISTRYINDEX, kViewsKey);
    if (!lua_istable(L, -1)) throw Error("sandbox: make_read_only before sandbox::init");
    lua_pushvalue(L, -2);
    lua_pushvalue(L, -4);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    lua_setfield(L, table, field);
    lua_pop(L, 1);
}

// A key shown in a path: `.name` for a string, `[1]` for a number, `[a table]` for anything else
// (never tostring: a key's __tostring would run rule code here).
std::string key_in_path(lua_State* L, int key) {
    switch (lua_type(L, key)) {
        case LUA_TSTRING: {
            std::size_t length = 0;
            const char* text = lua_tolstring(L, key, &length);
            return "." + std::string(text, std::min<std::size_t>(length, 80));
        }
        case LUA_TNUMBER: {
            lua_pushvalue(L, key);  // a copy: lua_tostring changes what it converts
            std::string shown = "[" + std::string(lua_tostring(L, -1)) + "]";
            lua_pop(L, 1);
            return shown;
        }
        case LUA_TBOOLEAN: return lua_toboolean(L, key) ? "[true]" : "[false]";
        default: return std::string("[a ") + luaL_typename(L, key) + "]";
    }
}

std::string clear_views(lua_State* L) {
    lua::StackCheck check(L, 0);
    std::string first;
    lua_getfield(L, LUA_REGISTRYINDEX, kViewsKey);
    if (!lua_istable(L, -1)) {
        lua_pop(L, 1);
        return first;
    }
    const int views = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, views) != 0) {
        lua_pop(L, 1);  // the real table
        const int view = lua_gettop(L);
        lua_pushnil(L);
        if (lua_next(L, view) != 0) {
            if (first.empty()) {
                lua_getmetatable(L, view);
                lua_getfield(L, -1, kViewName);
                first = std::string(lua_isstring(L, -1) ? lua_tostring(L, -1) : "a read-only view") + key_in_path(L, view + 1);
                lua_pop(L, 2);
            }
            lua_pop(L, 2);
            lua::clear_table(L, view);
        }
    }
    lua_pop(L, 1);
    return first;
}

void push_writable(lua_State* L, int index) {
    if (index < 0) index = lua_gettop(L) + index + 1;
    if (is_read_only_view(L, index)) {
        lua_getmetatable(L, index);
        lua_getfield(L, -1, "__index");
        lua_remove(L, -2);
    } else {
        lua_pushvalue(L, index);
    }
}

void init(lua_State* L, bool trusted, bool jit) {
    lua::StackCheck check(L, 0);
    // string.dump must go from the real library: strings reach it through their metatable.
    lua_getglobal(L, "string");
    lua_pushnil(L);
    lua_setfield(L, -2, "dump");
    lua_pop(L, 1);
    // LuaJIT's table.new joins the real table library when first required (the host's
    // data_copy.lua does, while the API modules open), and every env's `table` is a copy made once
    // per state (push_library_views): required here, before any env, so that every env has it,
    // as every env made after the first API modules opened always had.
    lua_getglobal(L, "require");
    lua_pushliteral(L, "table.new");
    lua_call(L, 1, 0);
    // getmetatable("") returns false instead of the shared string metatable.
    lua_pushliteral(L, "");
    lua_getmetatable(L, -1);
    lua_pushboolean(L, 0);
    lua_setfield(L, -2, "__metatable");
    lua_pop(L, 2);
    // Only in the sandbox: trusted code keeps LuaJIT's fast functions, so the JIT can compile it.
    if (!trusted) {
        wrap_reentrant(L, "string", "gsub", true);
        wrap_reentrant(L, "string", "find", true);
        wrap_reentrant(L, "string", "match", true);
        wrap_reentrant(L, "string", "format", false);
        wrap_reentrant(L, "table", "sort", false);
    }

    if (luaL_loadbuffer(L, kPrelude, std::char_traits<char>::length(kPrelude), "=(sandbox)"))
        throw Error(std::string("sandbox prelude: ") + lua_tostring(L, -1));
    // pairs/next and their loop step run inside rule code: interpreted like it, or compiled like it
    // (trusted, --jit). Under --jit they were interpreted too, and LuaJIT ends a trace that calls a
    // function it may not compile ("blacklisted"): no rule function walking a table with pairs was
    // compiled. (The hook gains nothing from them interpreted: rule code's own loops are compiled.)
    if (!jit) luaJIT_setmode(L, -1, LUAJIT_MODE_ALLFUNC | LUAJIT_MODE_OFF);
    push_ordered_keys(L);
    // The views' real tables, for pairs and next (make_read_only fills it). Weak keys and values:
    // with weak keys only, an entry's value held its real table strongly, and a real table that
    // reaches its own view (an environment's _G, a library a ruleset's table holds) kept the view
    // alive too, since Lua 5.1's weak tables are not ephemerons: every reload's views stayed, and
    // each collection walked them all (a reload of asl took 265 µs after 267 reloads, 675 µs after
    // 3,688). A weak value loses nothing: a live view holds its real table through its
    // metatable's __index.
    lua_newtable(L);
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "kv");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, kViewsKey);
    lua_getglobal(L, "pcall");   // LuaJIT's own, which the sandbox's wraps
    lua_getglobal(L, "xpcall");
    lua_pushcfunction(L, l_protected_enter);
    lua_pushcfunction(L, l_protected_failed);
    if (lua_pcall(L, 6, 1, 0))
        throw Error(std::string("sandbox prelude: ") + lua_tostring(L, -1));
    // umpire.merge walks tables with the pairs rule code sees (bindings/api_modules.hpp).
    lua_getfield(L, -1, "pairs");
    register_rule_pairs(L);
    lua_setfield(L, LUA_REGISTRYINDEX, kPreludeKey);
}

void push_load(lua_State* L, int env) {
    lua_pushvalue(L, env);
    lua_pushcclosure(L, l_load, 1);
}

// The registry's table of the library views every env shares (push_library_views).
constexpr const char* kLibraryViewsKey = "umpire.sandbox.library_views";

// Pushes the table of an env's libraries (kLibraries, by name): read-only views of copies of the
// real libraries, less kRemoved, with the game's math.random and the sandbox's coroutine.resume
// and wrap. They hold C functions only and no rule code can change them (make_read_only; the real
// libraries are no env's), so the envs of a state share one set, made with the first env: each
// reload made them anew for its generation, about 3% of the instructions of a reload after an
// edit and some hundred objects a generation for the collector to sweep.
void push_library_views(lua_State* L) {
    lua_getfield(L, LUA_REGISTRYINDEX, kLibraryViewsKey);
    if (lua_istable(L, -1)) return;
    lua_pop(L, 1);
    lua_createtable(L, 0, static_cast<int>(std::size(kLibraries)));
    const int libraries = lua_gettop(L);
    for (const char* name : kLibraries) {
        copy_library(L, name);
        lua_setfield(L, libraries, name);
    }
    for (const auto& [lib, member] : kRemoved) {
        lua_getfield(L, libraries, lib);
        lua_pushnil(L);
        lua_setfield(L, -2, member);
        lua_pop(L, 1);
    }
    lua_getfield(L, libraries, "math");
    lua_pushcfunction(L, l_random);
    lua_setfield(L, -2, "random");
    lua_pushcfunction(L, l_randomseed);
    lua_setfield(L, -2, "randomseed");
    lua_pop(L, 1);
    lua_getfield(L, libraries, "coroutine");
    lua_pushcfunction(L, l_resume);
    lua_setfield(L, -2, "resume");
    lua_pushcfunction(L, l_wrap);
    lua_setfield(L, -2, "wrap");
    lua_pop(L, 1);
    for (const char* name : kLibraries) make_read_only(L, libraries, name, name);
    lua_pushvalue(L, libraries);
    lua_setfield(L, LUA_REGISTRYINDEX, kLibraryViewsKey);
}

void push_env(lua_State* L) {
    lua::StackCheck check(L, 1);
    lua_newtable(L);
    const int env = lua_gettop(L);
    for (const char* name : kBase) {
        lua_getglobal(L, name);
        lua_setfield(L, env, name);
    }
    push_library_views(L);
    for (const char* name : kLibraries) {
        lua_getfield(L, -1, name);
        lua_setfield(L, env, name);
    }
    lua_pop(L, 1);
    lua_pushcfunction(L, l_rawset);
    lua_setfield(L, env, "rawset");
    lua_pushcfunction(L, l_error);
    lua_setfield(L, env, "error");

    lua_getfield(L, LUA_REGISTRYINDEX, kPreludeKey);
    lua_getfield(L, -1, "pairs");
    lua_setfield(L, env, "pairs");
    lua_getfield(L, -1, "next");
    lua_setfield(L, env, "next");

    lua_getfield(L, -1, "pcall");
    lua_setfield(L, env, "pcall");
    lua_getfield(L, -1, "xpcall");
    lua_setfield(L, env, "xpcall");
    lua_pop(L, 1);
    lua_pushcfunction(L, l_collectgarbage);
    lua_setfield(L, env, "collectgarbage");
    lua_getglobal(L, "tostring");
    lua_pushcclosure(L, l_print, 1);
    lua_setfield(L, env, "print");
    push_load(L, env);
    lua_pushvalue(L, -1);
    lua_setfield(L, env, "load");
    lua_setfield(L, env, "loadstring");
    lua_pushvalue(L, env);
    lua_setfield(L, env, "_G");
}

}  // namespace umpire::sandbox
