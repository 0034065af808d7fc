#include "host/TailCallWhere.hpp"

#include <cstring>
#include <string>

#include <lua.hpp>

#include "core/Error.hpp"
#include "host/BytecodeOpcodes.hpp"
#include "host/LuaHost.hpp"

namespace umpire::tail_call {
namespace {

// LuaJIT replaces the frame of a tail call (`return s:find(p)` in `probe`) with the callee's and
// keeps no mark of it, so the caller the debug API shows for a pattern function reached that way
// is the one that called `probe`, and a pattern bomb was reported at that line. What is left: the
// name the caller's call instruction gives the callee (getinfo "n": `probe`, a local, upvalue,
// global, field or method), the caller's registers below the call, and the bytecode of every
// function (jit.util). The locator works in three steps:
//
// 1. The function the caller called. For a local, upvalue or global name, C looks the variable
//    up (push_named_callee: the usual direct calls cost no Lua call). For a field or method name
//    (`M.probe(s)`, `obj:probe(s)`, and the running function's own, `s:find(p)` as much as
//    `M.find(s)` ending in `return s:find(p)`) the locator finds the calls on the caller's
//    current line whose function slot was loaded by a TGETS of that name and reads the table:
//    from the caller's live register when it lies below the call (a local), else by following the
//    instructions that loaded it (step 2). A call that reads the running function this way is a
//    direct one (`s:find(p)`: the string table; a temporary string, whose table cannot be told,
//    is taken for one).
// 2. A slot's value at an instruction of a function whose frame is gone: the instruction that last
//    wrote it on the straight path before (no jump target in between) is a MOV (follow its
//    source), a GGET (the function's environment), a UGET (its upvalue) or a TGETS (the table's
//    slot, followed the same way; a table that cannot be told is taken to be the string the
//    pattern function ran on, as in `s:find`). Anything else, or a parameter, cannot be told.
//    Tables are read raw and through __index tables only: no metamethod (rule code) runs.
// 3. From that function, each tail call (CALLT, CALLMT) whose callee is the running function is a
//    hit; one whose callee is another Lua function is followed (a chain of tail calls); one whose
//    callee cannot be told is a maybe. One line among the hits (else among the maybes) is the
//    place. Several lines, or none, cannot be told apart: the calling line is given with the
//    function that made the tail call and its candidate lines, "in a tail call from probe
//    (defined at line 1) on line 3 or 5, " (its file too when it is not the caller's).
//
// What steps 2 and 3 read from the bytecode (a recipe per slot: where its value comes from) is
// worked out once per function and kept in weak tables; each pattern call only follows the
// recipes. Opcodes are read off small functions rather than written down, so another LuaJIT numbering
// does not break it; the operand modes (lj_bc.h's BCMdst, BCMbase, BCMjump) are the ones
// jit/bc.lua reads from jit.util.funcbc too.
//
// The locator is compiled on first use (its ~10 KB took ~90 us to parse, on every host, most of
// which never meet a tail call); what it needs of the real libraries is taken when the host is
// made, before the sandbox, by kLocatorNeeds, and given to it as its argument: it reads no global.
constexpr const char* kLocatorNeeds = R"lua(
local debug, table = debug, table
return {util = require("jit.util"), bit = require("bit"), getinfo = debug.getinfo, getlocal = debug.getlocal,
  getupvalue = debug.getupvalue, getmetatable = debug.getmetatable, getfenv = getfenv, rawget = rawget,
  type = type, setmetatable = setmetatable, sort = table.sort, concat = table.concat}
)lua";
// The locator is kLocatorHeader, the shared opcode readers (host/BytecodeOpcodes.hpp), then kLocatorBody.
constexpr const char* kLocatorHeader = R"lua(
local needs = ...
local util, bit = needs.util, needs.bit
local funcbc, funcinfo, funck = util.funcbc, util.funcinfo, util.funck
local getinfo, getlocal, getupvalue, getmetatable = needs.getinfo, needs.getlocal, needs.getupvalue, needs.getmetatable
local getfenv, rawget, type, setmetatable = needs.getfenv, needs.rawget, needs.type, needs.setmetatable
local sort, concat = needs.sort, needs.concat
local band, rshift = bit.band, bit.rshift
local strings = getmetatable("").__index
)lua";
constexpr const char* kLocatorBody = R"lua(
local up
local GGET, UGET = op_at(function() return g end, 1), op_at(function() return up end, 1)
local TGETS, MOV = op_at(function(t) return t.x end, 1), op_at(function(a) local b = a return b end, 1)
local FNEW = op_at(function() return function() end end, 1)
local CALL, CALLM = op_at(function() g() end, 2), op_at(function(...) g(...) end, 3)
local CALLT, CALLMT = last_op(function(f) return f() end), last_op(function(f, ...) return f(...) end)
local MODE_DST, MODE_BASE, MODE_JUMP = 1, 2, 13
local MAX_DEPTH = 8
local UNKNOWN = {}  -- a value that cannot be told

local function a_of(ins) return band(rshift(ins, 8), 0xff) end
local function d_of(ins) return rshift(ins, 16) end

-- Calls visit(pc, ins, mode) for each instruction of fn, in order: the one walk of a function's
-- bytecode that the caches below are filled by.
local function each_instruction(fn, visit)
  local pc = 1
  while true do
    local ins, mode = funcbc(fn, pc)
    if not ins then return end
    visit(pc, ins, mode)
    pc = pc + 1
  end
end

local targets_of = setmetatable({}, {__mode = "k"})  -- a cache: rule code never sees it
-- The set of pcs of fn that a jump lands on. A jump to the next instruction joins no other path
-- (the UCLO that closes upvalues before a function's return, `local function g ... return g(x)`).
local function jump_targets(fn)
  local targets = targets_of[fn]
  if targets then return targets end
  targets = {}
  each_instruction(fn, function(pc, ins, mode)
    local target = pc + d_of(ins) - 0x7fff
    if band(rshift(mode, 7), 15) == MODE_JUMP and target ~= pc + 1 then targets[target] = true end
  end)
  targets_of[fn] = targets
  return targets
end

-- t[key] as the VM reads it, calling no metamethod. A table that cannot be told is taken to be a
-- string (`s:find` on a parameter s) when the string table has the key.
local function lookup(t, key)
  if t == UNKNOWN then
    local v = rawget(strings, key)
    if v ~= nil then return v end
    return UNKNOWN
  end
  if type(t) == "string" then t = strings end
  for _ = 1, MAX_DEPTH do
    if type(t) ~= "table" then return UNKNOWN end
    local v = rawget(t, key)
    if v ~= nil then return v end
    local meta = getmetatable(t)
    t = meta and rawget(meta, "__index")
    if t == nil then return nil end
  end
  return UNKNOWN
end

-- How to find the value a slot held at pc of fn, worked out once per function and kept: UNKNOWN,
-- {"live", n} (register n of fn's frame, still on the stack: slots below `below`), {"global",
-- key}, {"upvalue", index}, {"field", key, the table's recipe} or {"proto", p} (a closure made
-- there, by FNEW, of prototype p: `local function g` whose frame is gone, so only its code is
-- known, which is what the search reads).
local function recipe(fn, pc, slot, below, depth)
  if below and slot < below then return {"live", slot + 1} end
  if depth > MAX_DEPTH then return UNKNOWN end
  local targets = jump_targets(fn)
  for p = pc - 1, 1, -1 do
    if targets[p + 1] then return UNKNOWN end
    local ins, mode = funcbc(fn, p)
    local a, ma = a_of(ins), band(mode, 7)
    if (ma == MODE_DST and a == slot) or (ma == MODE_BASE and a <= slot) then
      local op = band(ins, 0xff)
      if op == MOV then return recipe(fn, p, d_of(ins), below, depth + 1) end
      if op == GGET then return {"global", funck(fn, -d_of(ins) - 1)} end
      if op == UGET then return {"upvalue", d_of(ins) + 1} end
      if op == FNEW then return {"proto", funck(fn, -d_of(ins) - 1)} end
      if op == TGETS then
        return {"field", funck(fn, -band(d_of(ins), 0xff) - 1), recipe(fn, p, rshift(ins, 24), below, depth + 1)}
      end
      return UNKNOWN
    end
  end
  return UNKNOWN  -- a parameter
end

-- A prototype's code is searched as a function's (its closure's frame is gone); its globals are
-- read from the environment its closure took, its parent's (FNEW), noted when the search enters it.
-- Its upvalues cannot be told.
local proto_env = setmetatable({}, {__mode = "k"})
local function is_proto(v) return type(v) == "proto" end
local function env_of(fn)
  if is_proto(fn) then return proto_env[fn] or UNKNOWN end
  return getfenv(fn)
end
-- short_src and linedefined of a function or a prototype.
local function defined(fn)
  if is_proto(fn) then
    local info = funcinfo(fn)
    return {short_src = strings.match(info.loc, "^(.*):%d+$") or "?", linedefined = info.linedefined}
  end
  return getinfo(fn, "S")
end

-- The value a recipe finds now for fn (live: the registers of its frame), and the name it was
-- read by (a global's, an upvalue's or a key).
local function evaluate(r, fn, live)
  if r == UNKNOWN then return UNKNOWN end
  local kind = r[1]
  if kind == "live" then return live[r[2]] end
  if kind == "proto" then return r[2] end
  if kind == "global" then
    local env = env_of(fn)
    if env == UNKNOWN then return UNKNOWN end
    return lookup(env, r[2]), r[2]
  end
  if kind == "upvalue" then
    if is_proto(fn) then return UNKNOWN end
    local name, value = getupvalue(fn, r[2])
    return value, name
  end
  return lookup(evaluate(r[3], fn, live), r[2]), r[2]
end

local tails_of = setmetatable({}, {__mode = "k"})
-- The tail calls (CALLT, CALLMT) of fn: {line, the callee's recipe} each.
local function tail_calls(fn)
  local tails = tails_of[fn]
  if tails then return tails end
  tails = {}
  each_instruction(fn, function(pc, ins)
    local op = band(ins, 0xff)
    if op == CALLT or op == CALLMT then tails[#tails + 1] = {funcinfo(fn, pc).currentline, recipe(fn, pc, a_of(ins), nil, 0)} end
  end)
  tails_of[fn] = tails
  return tails
end

local field_calls_of = setmetatable({}, {__mode = "k"})
-- The recipes of the callees of fn's calls (CALL, CALLM) on a line that were read as a field or
-- method.
local function field_calls(fn, line)
  local by_line = field_calls_of[fn]
  if not by_line then
    by_line = {}
    field_calls_of[fn] = by_line
  end
  local calls = by_line[line]
  if calls then return calls end
  calls = {}
  each_instruction(fn, function(pc, ins)
    local op = band(ins, 0xff)
    if (op == CALL or op == CALLM) and funcinfo(fn, pc).currentline == line then
      local a = a_of(ins)
      local r = recipe(fn, pc, a, a, 0)
      if r ~= UNKNOWN and r[1] == "field" then calls[#calls + 1] = r end
    end
  end)
  by_line[line] = calls
  return calls
end

local is_lua_of = setmetatable({}, {__mode = "k"})
local function is_lua_function(v)
  if type(v) ~= "function" then return false end
  local lua = is_lua_of[v]
  if lua == nil then
    lua = getinfo(v, "S").what ~= "C"
    is_lua_of[v] = lua
  end
  return lua
end

-- Is the closure running made of prototype p (an FNEW's, `local function check` of a frame that
-- is gone)? Lua cannot reach a closure's prototype, so they are compared by what jit.util tells of
-- both: source, lines, parameters and size (two functions alike in all of these are one line's
-- twins, `local function a(x) end local function b(x) end`, and either line is the tail call's).
local function made_of(p, running)
  if not is_lua_function(running) then return false end
  local a, b = funcinfo(p), funcinfo(running)
  return a.source == b.source and a.linedefined == b.linedefined and a.lastlinedefined == b.lastlinedefined and
    a.params == b.params and a.bytecodes == b.bytecodes and a.upvalues == b.upvalues
end

-- Adds to hits and maybes the tail calls of fn (named fname) and of the chain below them that
-- may have called running.
local function search(running, fn, fname, hits, maybes, seen, depth)
  if seen[fn] or depth > MAX_DEPTH then return end
  seen[fn] = true
  local tails = tail_calls(fn)
  for i = 1, #tails do
    local callee, name = evaluate(tails[i][2], fn, nil)
    local place = {fn = fn, name = fname, line = tails[i][1]}
    if callee == running or (is_proto(callee) and made_of(callee, running)) then hits[#hits + 1] = place
    elseif callee == UNKNOWN then maybes[#maybes + 1] = place
    elseif is_lua_function(callee) then search(running, callee, name or "?", hits, maybes, seen, depth + 1)
    elseif is_proto(callee) then
      proto_env[callee] = env_of(fn)
      search(running, callee, name or "?", hits, maybes, seen, depth + 1)
    end
  end
end

-- The Lua functions the caller (at level, its frame live) may have called by the field or method
-- name on its current line; nil when such a call reads the running function (a direct call);
-- and whether one of them could not be told.
local function called_by_name(running, caller, level, name)
  local calls, found, unknown, live = field_calls(caller.func, caller.currentline), {}, false, nil
  for i = 1, #calls do
    if calls[i][2] == name then
      live = live or {}
      local r = calls[i]  -- the register the table chain starts from, if a live one
      while r ~= UNKNOWN and r[1] == "field" do r = r[3] end
      if r ~= UNKNOWN and r[1] == "live" then
        local _, value = getlocal(level + 1, r[2])  -- + 1: this function's frame
        live[r[2]] = value
      end
      local value = evaluate(calls[i], caller.func, live)
      if value == running then return nil end
      if is_lua_function(value) then found[#found + 1] = value
      else unknown = true end
    end
  end
  return found, unknown
end

local label_of = setmetatable({}, {__mode = "k"})
-- "file:line: " of a line of fn, made once.
local function label(fn, line)
  local labels = label_of[fn]
  if not labels then
    labels = {}
    label_of[fn] = labels
  end
  local text = labels[line]
  if not text then
    text = defined(fn).short_src .. ":" .. line .. ": "
    labels[line] = text
  end
  return text
end

-- running: the pattern function; found: the Lua function the caller called by a local, upvalue
-- or global name, or nil for a field or method name; name: that name. With `called` (the function
-- the host called, whose frame the tail call replaced: there is no caller frame), the line of its
-- tail call (or its chain's) that reached running, when one line can be told; else nil. Without,
-- the place and the Lua function that made the tail call (nil when none can be told).
return function(running, found, name, called)
  if called then
    local hits, maybes = {}, {}
    search(running, called, name, hits, maybes, {}, 0)
    local places = #hits > 0 and hits or maybes
    local first = places[1] and label(places[1].fn, places[1].line)
    for i = 2, #places do
      if label(places[i].fn, places[i].line) ~= first then return nil end
    end
    return first
  end
  local level = 3  -- this function, the running C function, its caller
  local info = getinfo(2, "f")
  if not info or info.func ~= running then
    level = 1
    repeat
      info = getinfo(level, "f")
      if not info then return nil end
      level = level + 1
    until info.func == running
  end
  local caller = getinfo(level, "fl")
  if not caller or caller.currentline <= 0 or not is_lua_function(caller.func) then return nil end
  local starts, unknown = {found}, false
  if not found then
    starts, unknown = called_by_name(running, caller, level, name)
    if not starts then return nil end
    if #starts == 0 then
      return unknown and (label(caller.func, caller.currentline) .. "in a call of " .. name .. ", ") or nil
    end
  end
  local hits, maybes, seen = {}, {}, {}
  for i = 1, #starts do search(running, starts[i], name, hits, maybes, seen, 0) end
  local places = #hits > 0 and hits or maybes
  local first = places[1] and label(places[1].fn, places[1].line)
  local one_place, one_fn = first ~= nil, places[1] and places[1].fn
  for i = 2, #places do
    if label(places[i].fn, places[i].line) ~= first then one_place = false end
    if places[i].fn ~= one_fn then one_fn = nil end
  end
  if one_place then return first, places[1].fn end
  local fn, fname = starts[1], name
  if one_fn then fn, fname = one_fn, places[1].name end
  local where, from = defined(fn), getinfo(caller.func, "S")
  local file = where.short_src == from.short_src and "line " or (where.short_src .. ":")
  local text = label(caller.func, caller.currentline) .. "in a tail call from " .. fname .. " (defined at " ..
    file .. where.linedefined .. ")"
  if one_fn then
    local lines, sorted = {}, {}
    for i = 1, #places do
      if not lines[places[i].line] then sorted[#sorted + 1] = places[i].line end
      lines[places[i].line] = true
    end
    sort(sorted)
    text = text .. " on line " .. concat(sorted, " or ")
  end
  return text .. ", ", fn
end
)lua";
constexpr const char* kLocatorKey = "umpire.tail_call_locator";

// What the C function at `level` was called by (its caller's call instruction names it), when that
// may be a tail call.
enum class Callee { direct, named, by_field };

// For a local, upvalue or global name that holds a Lua function other than the running one,
// pushes it (named). For a field or method name, pushes nothing (by_field): the locator reads the
// caller's bytecode. Else (a direct call, a metamethod,
// no name) pushes nothing (direct).
Callee push_named_callee(lua_State* L, const lua_Debug& self, const lua_Debug& caller, int level) {
    const int top = lua_gettop(L);
    lua_Debug running;
    if (std::strcmp(self.namewhat, "method") == 0 || std::strcmp(self.namewhat, "field") == 0) {
        // Even under the running function's own name: `s:find(p)` reads the running function from
        // the string table, but `M.find(s)` may be a Lua function ending in `return s:find(p)`,
        // and only the table the caller read it from tells them apart (the locator reads it).
        return Callee::by_field;
    }
    lua_Debug at = caller;  // lua_getlocal and lua_getinfo take a non-const record
    if (std::strcmp(self.namewhat, "local") == 0) {
        lua_pushnil(L);
        for (int i = 1;; ++i) {
            const char* name = lua_getlocal(L, &at, i);
            if (!name) break;
            if (std::strcmp(name, self.name) == 0) lua_replace(L, top + 1);  // the last active is in scope
            else lua_pop(L, 1);
        }
    } else if (std::strcmp(self.namewhat, "upvalue") == 0 || std::strcmp(self.namewhat, "global") == 0) {
        lua_getinfo(L, "f", &at);
        if (std::strcmp(self.namewhat, "global") == 0) {
            lua_getfenv(L, -1);
            lua_pushstring(L, self.name);
            lua_rawget(L, -2);
        } else {
            lua_pushnil(L);
            for (int i = 1;; ++i) {
                const char* name = lua_getupvalue(L, top + 1, i);
                if (!name) break;
                if (std::strcmp(name, self.name) == 0) {
                    lua_replace(L, top + 2);
                    break;
                }
                lua_pop(L, 1);
            }
        }
    } else {
        return Callee::direct;  // a metamethod, an iterator: no name to follow
    }
    bool found = lua_type(L, -1) == LUA_TFUNCTION && !lua_iscfunction(L, -1) && lua_getstack(L, level, &running);
    if (found) {
        lua_getinfo(L, "f", &running);
        found = !lua_rawequal(L, -1, -2);
        lua_pop(L, 1);
    }
    if (!found) {
        lua_settop(L, top);
        return Callee::direct;
    }
    if (lua_gettop(L) > top + 1) lua_replace(L, top + 1);  // the value, over the caller's function
    lua_settop(L, top + 1);
    return Callee::named;
}

}  // namespace

void make_locator(lua_State* L) {
    if (luaL_loadbuffer(L, kLocatorNeeds, std::strlen(kLocatorNeeds), "=(tail call locator)") != 0 ||
        lua_pcall(L, 0, 1, 0) != 0)
        throw Error(std::string("cannot make the tail-call locator: ") + lua_tostring(L, -1));
    lua_setfield(L, LUA_REGISTRYINDEX, kLocatorKey);  // the needs, until the first use
}

namespace {

// Pushes the locator, compiling it on first use; false (nothing pushed) if that failed. A stop
// raised meanwhile goes on.
bool push_locator(lua_State* L) {
    const int top = lua_gettop(L);
    lua_getfield(L, LUA_REGISTRYINDEX, kLocatorKey);
    if (lua_type(L, -1) == LUA_TFUNCTION) return true;
    const std::string locator = bytecode::with_opcode_readers(kLocatorHeader, kLocatorBody);
    int status = luaL_loadbuffer(L, locator.data(), locator.size(), "=(tail call locator)");
    if (status == 0) {
        lua_insert(L, -2);  // the chunk, then the needs
        status = lua_pcall(L, 1, 1, 0);
        if (status == 0 && lua_type(L, -1) == LUA_TFUNCTION) {
            lua_pushvalue(L, -1);
            lua_setfield(L, LUA_REGISTRYINDEX, kLocatorKey);
            return true;
        }
    }
    if (status != 0) LuaHost::raise_if_stopped(L, status);
    lua_settop(L, top);
    return false;
}

}  // namespace

namespace {

// push_caller_where for the C function at `level`. With `rule_code_only`, a place is pushed only
// when the Lua function that made the tail call is rule code: of a file ("@..." chunk), or of the
// chunk its caller runs in. A Lua front of the host's (an embedded chunk, `return c(...)`) keeps its
// caller's line, the rule code's, where the binding's error belongs.
bool push_where(lua_State* L, int level, bool rule_code_only) {
    lua_Debug self, caller;
    if (!lua_checkstack(L, 8) || !lua_getstack(L, level, &self) || !lua_getinfo(L, "n", &self) || !self.name ||
        !self.namewhat || !lua_getstack(L, level + 1, &caller))
        return false;
    const int top = lua_gettop(L);
    const Callee callee = push_named_callee(L, self, caller, level);
    if (callee == Callee::direct) return false;
    if (callee == Callee::by_field) lua_pushnil(L);
    if (!push_locator(L)) {
        lua_settop(L, top);
        return false;
    }
    lua_insert(L, top + 1);
    lua_getinfo(L, "f", &self);  // the running function
    lua_insert(L, top + 2);
    lua_pushstring(L, self.name);
    const int status = lua_pcall(L, 3, 2, 0);
    // (from a message handler, nothing may be raised: a stop raised meanwhile is raised again by
    // the next hook)
    if (status != 0 && !rule_code_only) LuaHost::raise_if_stopped(L, status);
    bool found = status == 0 && lua_type(L, -2) == LUA_TSTRING;
    if (found && rule_code_only) {
        lua_Debug maker;
        found = false;
        if (lua_type(L, -1) == LUA_TFUNCTION) {
            lua_pushvalue(L, -1);
            found = lua_getinfo(L, ">S", &maker) && lua_getinfo(L, "S", &caller) &&
                    (maker.source[0] == '@' || std::strcmp(maker.source, caller.source) == 0);
        }
    }
    lua_pop(L, 1);  // the function that made the tail call
    if (found) return true;
    lua_settop(L, top);
    return false;
}

}  // namespace

bool push_caller_where(lua_State* L) { return push_where(L, 0, false); }

bool push_rule_tail_caller_where(lua_State* L, int level) { return push_where(L, level, true); }

bool push_called_where(lua_State* L, int running, int called) {
    if (!lua_checkstack(L, 8)) return false;
    running = running < 0 ? lua_gettop(L) + running + 1 : running;
    called = called < 0 ? lua_gettop(L) + called + 1 : called;
    const int top = lua_gettop(L);
    if (lua_type(L, called) != LUA_TFUNCTION || lua_iscfunction(L, called) || !push_locator(L)) {
        lua_settop(L, top);
        return false;
    }
    lua_pushvalue(L, running);
    lua_pushnil(L);
    lua_pushliteral(L, "?");
    lua_pushvalue(L, called);
    if (lua_pcall(L, 4, 1, 0) == 0 && lua_type(L, -1) == LUA_TSTRING) return true;
    lua_settop(L, top);  // (a stop raised meanwhile is raised again by the next hook)
    return false;
}

}  // namespace umpire::tail_call
