-- umpire.bus.modifiers: modifier pipelines as plain Lua tables whose total is computed through the
-- LuaJIT FFI (see bindings/wrap_ModifierPipeline.cpp for why). Runs once per API generation with
-- the full library; rules only see the functions it installs.
local bus, game, render, journal, steps = ...
local ffi = require("ffi")
ffi.cdef[[
uint32_t umpire_ffi_pipeline_total(const int32_t* ops, const int64_t* operands, int32_t n,
                                   int64_t* total);
uint32_t umpire_ffi_journaling(void* game);
const char* umpire_ffi_error(void);
]]
local C = ffi.C
local error, type, floor, tostring, tonumber, setmetatable = error, type, math.floor, tostring, tonumber, setmetatable
game = ffi.cast("void*", game)

-- Op codes; keep in step with the Op enum of wrap_ModifierPipeline.cpp.
local START, ADD, SET, AT_MOST, AT_LEAST, HALVE_DOWN, HALVE_UP, MULTIPLY = 0, 1, 2, 3, 4, 5, 6, 7

-- A pipeline keeps its ops and operands in FFI arrays, so total() is one FFI call with no loop
-- (a loop there would be a nested loop inside every rule loop, which LuaJIT will not compile
-- into the outer trace). The labels stay in Lua tables; the classic functions that need them
-- (tostring, steps, journaling: not hot) get a plain view.
local total_out = ffi.new("int64_t[1]")

local Pipeline = {}

local function view(self)
  local ops, values = {}, {}
  for i = 1, self.n do
    ops[i], values[i] = self.ops[i - 1], tonumber(self.values[i - 1])
  end
  return { name = self.name, kind = self.kind, ops = ops, values = values,
           sources = self.sources, rules = self.rules, notes = self.notes }
end

local meta = {
  __index = Pipeline,
  __tostring = function(self) return render(view(self)) end,
  __metatable = "ModifierPipeline",
}

local function whole(value, method)
  if type(value) ~= "number" or value ~= floor(value) then
    error("ModifierPipeline:" .. method .. ": a whole number expected, got " .. tostring(value), 3)
  end
  return value
end

local function grow(self)
  local capacity = self.capacity * 2
  local ops, values = ffi.new("int32_t[?]", capacity), ffi.new("int64_t[?]", capacity)
  ffi.copy(ops, self.ops, self.n * 4)
  ffi.copy(values, self.values, self.n * 8)
  self.ops, self.values, self.capacity = ops, values, capacity
end

local function push(self, op, value, source, rule, note)
  local n = self.n
  if n == self.capacity then grow(self) end
  self.ops[n], self.values[n] = op, value
  n = n + 1
  self.n = n
  self.sources[n], self.rules[n], self.notes[n] = source or "", rule or "", note or ""
  self.journaled = false
  return self
end

function Pipeline:add(value, source, rule, note) return push(self, ADD, whole(value, "add"), source, rule, note) end
function Pipeline:start(base, source, rule, note) return push(self, START, whole(base, "start"), source, rule, note) end
function Pipeline:set(value, source, rule, note) return push(self, SET, whole(value, "set"), source, rule, note) end
function Pipeline:at_most(limit, source, rule, note) return push(self, AT_MOST, whole(limit, "at_most"), source, rule, note) end
function Pipeline:at_least(limit, source, rule, note) return push(self, AT_LEAST, whole(limit, "at_least"), source, rule, note) end
function Pipeline:multiply(factor, source, rule, note) return push(self, MULTIPLY, whole(factor, "multiply"), source, rule, note) end
function Pipeline:halve(rounding, source, rule, note)
  local op = rounding == "down" and HALVE_DOWN or rounding == "up" and HALVE_UP
  if not op then
    error('ModifierPipeline:halve: rounding must be "down" or "up", got ' .. tostring(rounding), 2)
  end
  return push(self, op, 0, source, rule, note)
end

function Pipeline:total()
  if C.umpire_ffi_pipeline_total(self.ops, self.values, self.n, total_out) == 0 then
    error(ffi.string(C.umpire_ffi_error()), 2)
  end
  if not self.journaled then
    self.journaled = true
    if C.umpire_ffi_journaling(game) ~= 0 then journal(view(self)) end
  end
  return tonumber(total_out[0])
end

function Pipeline:steps() return steps(view(self)) end

function bus.modifiers(name, kind)
  if type(name) ~= "string" then
    error("umpire.bus.modifiers: name must be a string (what the total is, e.g. \"IFT DRM\")", 2)
  end
  return setmetatable({ name = name, kind = kind or "DRM", n = 0, capacity = 8,
                        ops = ffi.new("int32_t[8]"), values = ffi.new("int64_t[8]"),
                        sources = {}, rules = {}, notes = {}, journaled = false }, meta)
end
