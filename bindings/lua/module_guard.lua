-- The walks of the module guard (host/ModuleGuard.hpp): the record a seal keeps of a module table,
-- and the check that finds the first sealed table no longer as recorded. Run once per Lua state
-- with the full library (never in reach of rule code, which cannot get at these functions or at
-- the library they captured); host/ModuleGuard.cpp calls what it returns, and does the rest (the
-- exact comparison that names a changed field, putting a table back) in C on the rare tables
-- that fail here.
--
-- Why in Lua: the guard records and compares every field of every module of a load (asl: about
-- 450), once per reload and once per run. Through the C API each field cost a lua_next (which
-- finds the key it stopped at by a hash look-up before it steps on, about 90 instructions) and a
-- stack shuffle: seals and check were 18% of a reload with nothing changed. These loops are
-- compiled by LuaJIT like the host's other Lua (data_copy.lua, fast_dice.lua: only rule code is
-- kept interpreted), and compiled they cost about a third of that. Interpreted they would not
-- pay (measured: the walk alone about 170 instructions a field, rawequal being a C function).
--
-- The algorithm. A record is the table's fields as `next` gives them, {k1, v1, k2, v2, ...}. A
-- table nothing wrote to gives the same pairs in the same order again (the order follows the
-- table's slots, which only a write changes), so one walk compares each pair with the record by
-- identity, with no look-up. Equal walks mean equal tables. A table that differs, or only gives
-- its pairs in another order (a key added and removed again can move them), fails the walk and
-- is left to the exact comparison in C, which decides; so what the guard answers never depends
-- on the order. A NaN field equals itself here, as there.
local next, rawequal, raw_metatable = next, rawequal, debug.getmetatable
local new_table = require("table.new")

-- The record of table t.
local function record(t)
  local n = 0
  for _ in next, t do n = n + 1 end
  local r = new_table(2 * n, 0)
  local i = 1
  for k, v in next, t do
    r[i], r[i + 1] = k, v
    i = i + 2
  end
  return r
end

-- Does table t give the pairs of record r, in r's order?
local function same_in_next_order(t, r)
  local i = 1
  for k, v in next, t do
    if not rawequal(k, r[i]) then return false end
    local was = r[i + 1]
    -- (a different object: `v == v` compares an object with itself, which calls no __eq)
    if not rawequal(v, was) and (v == v or was == was) then return false end
    i = i + 2
  end
  return r[i] == nil
end

-- Appends to `list` the entry of the sealed table t ("umpire.rules.<name>" as `path`):
-- {t or false, path, record, metatable or false}. t is false for umpire.rules itself. The record
-- is of `expected` when given (what the loader put in umpire.rules), else of t as it is now.
local function seal(list, t, live, path, expected)
  list[#list + 1] = { t, path, record(expected or live), raw_metatable(live) or false }
end

-- The index of the first entry of `list`, from `from` on, whose table (entry[1], or `rules` for
-- false) does not give its record's pairs in order or has another metatable; nil if none.
local function first_unlike(list, rules, from)
  for i = from, #list do
    local entry = list[i]
    local live = entry[1] or rules
    if not same_in_next_order(live, entry[3]) or not rawequal(raw_metatable(live) or false, entry[4]) then
      return i
    end
  end
  return nil
end

return seal, first_unlike, record
