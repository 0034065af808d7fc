-- umpire.bus.modifiers: modifier pipelines as plain Lua tables whose total is computed through the
-- LuaJIT FFI (see bindings/wrap_ModifierPipeline.cpp for why). Runs once per API generation with
-- the full library; rules only see the functions it installs.
local bus, game, render, journal, steps, journaling = ...
local ffi = require("ffi")
-- ffi.cdef adds its declarations to the state's table of C types at every call, the same ones
-- again included, and that table holds at most 65,536 types: so they are declared once per state,
-- not once per API generation (every reload), which ended a long session of hot reloads in "table
-- overflow" after about 6,000 of them.
if not pcall(function() return ffi.C.umpire_ffi_pipeline_total end) then
  ffi.cdef[[
  uint32_t umpire_ffi_pipeline_total(const int32_t* ops, const int64_t* operands, int32_t n,
                                     int64_t* total);
  const char* umpire_ffi_error(void);
  ]]
end
local C = ffi.C
local error, type, floor, tostring, tonumber, setmetatable, ipairs =
  error, type, math.floor, tostring, tonumber, setmetatable, ipairs

-- Op codes; keep in step with the Op enum of wrap_ModifierPipeline.cpp.
local START, ADD, SET, AT_MOST, AT_LEAST, HALVE_DOWN, HALVE_UP, MULTIPLY = 0, 1, 2, 3, 4, 5, 6, 7

-- A pipeline keeps its ops, operands and labels in Lua tables. Most pipelines only add whole
-- numbers (an IFT DRM, a to-hit roll), so the running total of such a pipeline is kept as it is
-- built, in plain Lua arithmetic that the interpreter runs fast and the JIT compiles; it is exact
-- while every operand and partial sum stays within 2^52 (doubles hold every integer up to 2^53).
-- Any other step (set, caps, halving, multiplying, a start that is not first) or a larger number
-- makes the pipeline "general": total() then replays the steps through core's ModifierPipeline
-- with one FFI call (the arithmetic, overflow checks and errors of record). Both paths give the
-- same totals, and the general path gives the same errors as before.
local EXACT = 2 ^ 52
local total_out = ffi.new("int64_t[1]")

local Pipeline = {}

-- A method called with a self that is no pipeline (`m.add({}, 1)`, `m.add(5, 1)` for `m:add(5, 1)`)
-- failed inside this file ("fast_modifiers.lua:74: attempt to perform arithmetic on field 'n'").
-- Raised at `level`, counted as error counts it from the function that calls this one: the level
-- of the rule code that called the method.
local function not_a_pipeline(self, method, level)
  error("ModifierPipeline:" .. method .. ": called on a " .. type(self) .. " value, not a pipeline (write m:" .. method ..
        "(...), with a colon)", level + 1)
end

-- The steps live in one flat array, five slots a step (op, operand, source, rule, note): the
-- pipeline table's own array part, made with room for two steps. A pipeline is made for every
-- attack: five arrays, each grown from empty, were a dozen allocations of it, and a separate step
-- array one more table. The C++ side (render, journal, steps) is given the five arrays it reads,
-- built only when it is called.
local OP, VALUE, SOURCE, RULE, NOTE, SLOTS = 1, 2, 3, 4, 5, 5

local function view(self, level)
  if type(self) ~= "table" or type(self.n) ~= "number" then not_a_pipeline(self, "steps", level) end
  local s = self
  local ops, values, sources, rules, notes = {}, {}, {}, {}, {}
  for i = 1, self.n do
    local at = (i - 1) * SLOTS
    ops[i], values[i] = s[at + OP], s[at + VALUE]
    sources[i], rules[i], notes[i] = s[at + SOURCE], s[at + RULE], s[at + NOTE]
  end
  return { name = self.name, kind = self.kind, ops = ops, values = values,
           sources = sources, rules = rules, notes = notes }
end

local meta = {
  __index = Pipeline,
  __tostring = function(self) return render(view(self)) end,
  __metatable = "ModifierPipeline",
}

-- Values are whole numbers within 2^53, where doubles count exactly: C++ sums them as int64, and
-- 1e300 (or math.huge) cast to one became -2^63 in the journal's line (session 35's attacks).
local LIMIT = 2 ^ 53

local function whole(value, method, level)
  if type(value) ~= "number" or value ~= floor(value) or value > LIMIT or value < -LIMIT then
    error("ModifierPipeline:" .. method .. ": a whole number from -2^53 to 2^53 expected, got " .. tostring(value),
          level or 3)
  end
  return value
end

-- The method's name by op, for the error of a call with a wrong self.
local METHOD = { [START] = "start", [ADD] = "add", [SET] = "set", [AT_MOST] = "at_most", [AT_LEAST] = "at_least",
                 [HALVE_DOWN] = "halve", [HALVE_UP] = "halve", [MULTIPLY] = "multiply" }

-- Every step's method ends in `return push(...)`, a tail call: push's caller (level 2) is the rule
-- code that called the method. A self that is no pipeline is told by its `n`, which the step reads
-- anyway: one bytecode, +0.4% on an interpreted pipeline of three additions and a total, where
-- type() tests cost +7.7% (callgrind of `luajit -joff`, 200,000 pipelines). It tells a table or a
-- string; a number or a boolean self still fails in the index, in LuaJIT's words.
local function push(self, op, value, source, rule, note)
  local n = self.n
  if not n then not_a_pipeline(self, METHOD[op], 2) end
  n = n + 1
  self.n = n
  local s, at = self, (n - 1) * SLOTS
  s[at + OP], s[at + VALUE] = op, value
  s[at + SOURCE], s[at + RULE], s[at + NOTE] = source or "", rule or "", note or ""
  self.journaled = false
  if self.simple then
    local sum
    if op == ADD then sum = self.sum + value
    elseif op == START and n == 1 then sum = 0 + value end  -- 0 + x: never a -0
    if sum and value < EXACT and value > -EXACT and sum < EXACT and sum > -EXACT then
      self.sum = sum
    else
      self.simple = false
    end
  end
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

-- The general path: the steps through core's ModifierPipeline (one FFI call). Its errors are raised
-- at `level` (of the caller to blame, counted from here) and name the pipeline: core's messages
-- start with the pipeline's name, which the FFI's pipeline has not (it read ": total overflows
-- int64", naming nothing; session 37).
local function general_total(self, level)
  local n = type(self) == "table" and self.n
  if type(n) ~= "number" then not_a_pipeline(self, "total", level) end
  local ops, values = ffi.new("int32_t[?]", n + 1), ffi.new("int64_t[?]", n + 1)
  local s = self
  for i = 1, n do
    local at = (i - 1) * SLOTS
    ops[i - 1], values[i - 1] = s[at + OP], s[at + VALUE]
  end
  if C.umpire_ffi_pipeline_total(ops, values, n, total_out) == 0 then
    local message = ffi.string(C.umpire_ffi_error())
    if message:sub(1, 2) == ": " then message = self.name .. message end
    error(message, level)
  end
  return tonumber(total_out[0])
end

function Pipeline:total()
  if not self then not_a_pipeline(self, "total", 2) end  -- (`m.total()`: one bytecode; a table self is told below)
  local total
  if self.simple then total = self.sum else total = general_total(self, 3) end
  if not self.journaled then
    self.journaled = true
    if journaling[1] then journal(view(self)) end
  end
  return total
end

function Pipeline:steps() return steps(view(self, 3)) end

local function modifiers(name, kind)
  return setmetatable({ nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,  -- room for 4 steps
                        nil, nil, nil, nil, nil, nil, nil, nil, nil, nil,
                        name = name, kind = kind or "DRM", n = 0, simple = true, sum = 0,
                        journaled = false }, meta)
end

function bus.modifiers(name, kind)
  if type(name) ~= "string" then
    error("umpire.bus.modifiers: name must be a string (what the total is, e.g. \"IFT DRM\")", 2)
  end
  return modifiers(name, kind)
end

-- The pipeline of a list of modifiers, each added in turn (entries of value 0 left out), and its
-- total: what bus.total_of gives when it needs the pipeline.
-- Its errors are raised at level 2: total_of's caller, since total_of tail-calls it (they named
-- this file's lines before; session 37).
local function total_through_pipeline(name, entries, kind)
  local m = modifiers(name, kind)
  for _, e in ipairs(entries) do
    local value = e.value
    if value ~= 0 then m:add(whole(value, "add", 3), e.source, e.rule, e.note) end
  end
  if not m.simple then general_total(m, 3) end  -- its errors, here; the total again below (rare)
  return m:total(), m
end

-- The total of a list of added modifiers without the pipeline object (issue 18: an IFT attack
-- made a pipeline, its step array and its metatable, ~2,500 machine instructions, only to read its
-- total back while the journal was off). With the journal off nothing reads the steps' labels, and
-- a pipeline of whole-number additions totals them as the plain sum below (Pipeline:total's
-- simple path, the same additions in the same order); anything else (a value that is not a whole
-- number, or a value or partial sum at 2^52 or past it) goes through the pipeline for its errors
-- and its general total, as before. With the journal on the pipeline is made, journaled by its
-- total and returned, so `--explain` and replays read the same lines.
function bus.total_of(name, entries, kind)
  if type(name) ~= "string" then
    error("umpire.bus.total_of: name must be a string (what the total is, e.g. \"IFT DRM\")", 2)
  end
  if journaling[1] then return total_through_pipeline(name, entries, kind) end
  local sum = 0
  for _, e in ipairs(entries) do
    local value = e.value
    if value ~= 0 then
      if type(value) ~= "number" or value ~= floor(value) then
        return total_through_pipeline(name, entries, kind)
      end
      sum = sum + value
      if value >= EXACT or value <= -EXACT or sum >= EXACT or sum <= -EXACT then
        return total_through_pipeline(name, entries, kind)
      end
    end
  end
  return sum
end
