-- The FFI fast paths of umpire.dice (see bindings/wrap_DieSource.cpp for why).
-- Runs once per API generation with the full library; rules only ever see the functions it
-- installs, never `ffi` itself.
local dice, game = ...
local ffi = require("ffi")
-- ffi.cdef adds its declarations to the state's table of C types at every call, the same ones
-- again included, and that table holds at most 65,536 types: so they are declared once per state,
-- not once per API generation (every reload), which ended a long session of hot reloads in "table
-- overflow" after about 6,000 of them.
if not pcall(function() return ffi.C.umpire_ffi_count end) then
  ffi.cdef[[
  uint32_t umpire_ffi_die(void* game, uint32_t sides);
  uint32_t umpire_ffi_dr(void* game, uint32_t* out);
  uint32_t umpire_ffi_count(void* game, uint32_t n, uint32_t sides, int32_t lo, int32_t hi);
  const char* umpire_ffi_error(void);
  ]]
end
local C = ffi.C
local error, floor, type, tostring = error, math.floor, type, tostring
game = ffi.cast("void*", game)

local function fail(level)
  error(ffi.string(C.umpire_ffi_error()), level + 1)
end

local function roll(sides)
  local face = C.umpire_ffi_die(game, sides)
  if face == 0 then fail(2) end
  return face
end

local function check_sides(sides, name)
  if type(sides) ~= "number" or sides < 1 or sides > 1000000 or sides ~= floor(sides) then
    error(name .. ": sides must be a whole number from 1 to 1000000, got " .. tostring(sides), 3)
  end
end

---@lua umpire.dice.d(sides)
function dice.d(sides)
  if sides == nil then sides = 6 else check_sides(sides, "umpire.dice.d") end
  return roll(sides)
end

-- The doc blocks below ("---@lua name(params)" then LuaLS lines) are read by scripts/gen_stubs.lua.
---@lua umpire.dice.d6()
---One d6 through the game's generator (journaled like every die).
---@return integer face 1..6
function dice.d6() return roll(6) end
---@lua umpire.dice.d2()
---A D2 read off a d6 (1-3 -> 1, 4-6 -> 2).
---@return integer face 1..2
function dice.d2() return roll(6) <= 3 and 1 or 2 end
---@lua umpire.dice.d3()
---A D3 read off a d6 (1-2 -> 1, 3-4 -> 2, 5-6 -> 3).
---@return integer face 1..3
function dice.d3() return floor((roll(6) + 1) / 2) end
---@lua umpire.dice.d100()
---A d% (1-100).
---@return integer face 1..100
function dice.d100() return roll(100) end

--- An ASL DR, coloured die first.
local dr_out = ffi.new("uint32_t[2]")
function dice.dr()
  if C.umpire_ffi_dr(game, dr_out) == 0 then fail(1) end
  local colored, white = dr_out[0], dr_out[1]
  return { colored = colored, white = white, total = colored + white, doubles = colored == white }
end

--- How many of n dice meet the target (">=" default, or "<="). A die table or a test function
--- goes to the classic entry (wrap_DieSpec.cpp): that path is a folded roll, not a fast path.
local spec_count = dice.count
function dice.count(n, sides, target, how)
  if type(sides) == "table" or type(target) == "function" then return spec_count(n, sides, target, how) end
  if type(n) ~= "number" or n < 0 or n > 1000 or n ~= floor(n) then
    error("umpire.dice.count: pool size must be a whole number from 0 to 1000, got " .. tostring(n), 2)
  end
  check_sides(sides, "umpire.dice.count")
  if type(target) ~= "number" then
    error("umpire.dice.count: target must be a number, got " .. tostring(target), 2)
  end
  -- A whole number (as the classic entry asks, bindings/WholeNumber.hpp), clamped into
  -- [0, sides + 1], which counts the same: the FFI bounds are int32, and a target of 4.5 was
  -- counted as 4, NaN as -2^31 (every die), 2^32 + 4 as 4 (session 35's attacks).
  if target ~= floor(target) or target > 2 ^ 53 or target < -2 ^ 53 then
    error("umpire.dice.count: target must be a whole number from -9007199254740992 to 9007199254740992, got "
          .. tostring(target), 2)
  end
  if target < 0 then target = 0 elseif target > sides + 1 then target = sides + 1 end
  local lo, hi
  if how == nil or how == ">=" then lo, hi = target, sides
  elseif how == "<=" then lo, hi = 1, target
  else error('umpire.dice.count: how must be ">=" or "<=", got ' .. tostring(how), 2) end
  local r = C.umpire_ffi_count(game, n, sides, lo, hi)
  if r == 0 then fail(1) end
  return r - 1
end
