-- umpire.copy, umpire.copy_chain and umpire.copier: shallow copies of tables, made fast for the read-only tables
-- of umpire.data (see bindings/api_data.cpp for why); umpire.merge, fields written over a table
-- without the sandbox's sorted walk when their order cannot matter. Runs once per API generation
-- with the full library; rules only see the functions it installs. `ordered_pairs` is the pairs
-- rule code sees (the sandbox's, in deterministic order).
local umpire, read_only_marker, ordered_pairs = ...
local error, type, select, next, tostring, tonumber, rawget, unpack = error, type, select, next, tostring, tonumber, rawget, unpack
local getmetatable = getmetatable
local format, concat, load = string.format, table.concat, load
local raw_metatable = debug.getmetatable
local new_table = require("table.new")

-- The algorithm. Rule code copies the same data tables on every attack (an MG counter, a weapon
-- profile over its `as` chain), and a copy grown key by key with `pairs` costs a hash insertion
-- and a rehash at every power of two, besides the sandbox's sorted iteration. A read-only data
-- table keeps its keys for as long as its load generation lives (host/DataGuard.hpp: a new key is
-- refused, and any other write is undone after the run that made it; a reload makes new tables, or
-- keeps the same sealed ones when no data file changed, and opens this module again, with an empty
-- cache). So the first copy of a data table, or of a chain
-- of them, compiles a table constructor naming each key once, `{["B"] = c1["B"], ["fp"] =
-- c2["fp"], ...}`, with each key read from the last table of the chain that has it; LuaJIT makes
-- that table at its final size from a template in one step, then fills its slots. The copier is
-- kept, keyed by the tables, and every later copy calls it: values are read on each call, only the
-- keys are fixed. Tables that are not read-only data can change their keys, so they are copied
-- by a `next` loop each time, never cached. umpire.copier hands the rule the compiled copier with
-- its tables bound, for rule code that keeps it (no look-up of the copier at each copy). Key order never matters: each key is written once,
-- with the value of the last table that has it.

-- The largest constructor compiled; a larger table is copied by a loop into a table of its size.
local MAX_COMPILED_KEYS = 500

local function is_read_only_data(t)
  local mt = raw_metatable(t)
  return mt ~= nil and rawget(mt, read_only_marker) == true
end

-- The source text of key k in a constructor, or nil if it has none (a table, a function, a
-- number whose text would not read back as itself); the same text spells a constant value.
local function key_text(k)
  local kind = type(k)
  if kind == "string" then return format("%q", k) end
  if kind == "boolean" then return tostring(k) end
  if kind == "number" and k == k and k ~= 1 / 0 and k ~= -1 / 0 then
    local text = format("%.17g", k)
    if tonumber(text) == k then return "(" .. text .. ")" end
  end
  return nil
end

-- A copier by loop: for the tables t1..tn, into a table made at the size of the keys they had
-- (used for tables whose keys a constructor cannot name, and for the largest ones).
local function copy_by_loop(...)
  local n, keys = select("#", ...), 0
  local tables = { ... }
  for i = 1, n do for _ in next, tables[i] do keys = keys + 1 end end
  local out = new_table(0, keys)
  for i = 1, n do for k, v in next, tables[i] do out[k] = v end end
  return out
end

-- The source of the copier of tables t1..tn (all read-only data), see the paragraph at the top:
-- "local c1, ..., cn = ...\n" and then `body` with the constructor in place of its "%s"; nil when
-- no constructor is compiled for them.
local function copier_source(body, ...)
  local n = select("#", ...)
  local tables = { ... }
  local source_of, keys = {}, {}
  for i = 1, n do
    for k in next, tables[i] do
      if source_of[k] == nil then keys[#keys + 1] = k end
      source_of[k] = i
    end
  end
  if #keys > MAX_COMPILED_KEYS then return nil end
  local fields = new_table(#keys, 0)
  for i, k in ipairs(keys) do
    local text = key_text(k)
    if not text then return nil end
    fields[i] = format("[%s] = c%d[%s]", text, source_of[k], text)
  end
  local args = new_table(n, 0)
  for i = 1, n do args[i] = "c" .. i end
  return "local " .. concat(args, ", ") .. " = ...\n" .. format(body, "{" .. concat(fields, ", ") .. "}")
end

-- Compiles the copier of tables t1..tn (all read-only data). The copier takes the same tables as
-- its arguments.
local function compile(...)
  local code = copier_source("return %s", ...)
  return code and load(code, "=umpire.copy") or copy_by_loop
end

-- The same copier with the tables bound as its upvalues: it takes no argument (umpire.copier).
local function compile_bound(...)
  local code = copier_source("return function() return %s end", ...)
  local make = code and load(code, "=umpire.copier")
  if make then return make(...) end
  local n, tables = select("#", ...), { ... }
  return function() return copy_by_loop(unpack(tables, 1, n)) end
end

-- The copiers made so far: of one table, copier_of[t]; of a list of tables t1..tn, the node
-- chain_copier[t1][t2]...[tn] holds it at [COPIER], a key no list can hold (a table of this chunk
-- that rule code never sees). Only read-only data tables are ever keys of a node, so a copier
-- found is one compiled for data. (The copier was kept at [1], and a list that went on with the
-- number 1 walked from a node into its copier: `umpire.copy_chain({d, 1})`, after a copy of {d},
-- ended in "data_copy.lua:143: attempt to index local 'node' (a function value)".) Both are data
-- caches (umpire.data_cache): a copier compiled while a run had removed a key from a data table
-- would copy without that key for the rest of the load generation, once the key is back; the
-- host empties them after each run, and the next copy compiles again.
local copier_of, chain_copier = umpire.data_cache(), umpire.data_cache()
local COPIER = {}

local function check_table(t, what, level)
  if type(t) ~= "table" then error(format("%s must be a table, got %s", what, type(t)), level + 1) end
end

-- A list of tables is handed on as arguments (unpack), of which LuaJIT passes some 8,000 at most:
-- past that the error named this file's line ("data_copy.lua:157: too many results to unpack"),
-- not the rule code's. A chain is a profile over the ones it starts from, a few tables long, so a
-- bound far below LuaJIT's is no limit on rule code, and is refused at the caller's line.
local MAX_CHAIN = 1000
local function check_chain_length(n, what, level)
  if n > MAX_CHAIN then
    error(format("%s: a list of %d tables (a chain holds at most %d)", what, n, MAX_CHAIN), level + 1)
  end
end

---@lua umpire.copy(t)
---A fresh shallow copy of a table: a plain table (no metatable) made at its final size, and
---independent of `t`: changing it changes nothing else, though tables held as values are shared.
---Fast for the tables of `umpire.data`, whose keys are fixed: their first copy compiles a
---constructor kept for every later copy (hot rule code copies its counters with it, not with
---`pairs`).
---@param t table
---@return table copy
function umpire.copy(t)
  local copier = copier_of[t]
  if copier then return copier(t) end
  check_table(t, "umpire.copy: the argument", 2)
  if not is_read_only_data(t) then return copy_by_loop(t) end
  copier = compile(t)
  copier_of[t] = copier
  return copier(t)
end

---@lua umpire.copy_chain(tables)
---A fresh shallow copy of several tables merged: every key of the tables of the list, with the
---value of the last table that has it (a profile over the one it starts from: `{rifle,
---sniper_rifle}`). The copy is made as umpire.copy makes one, and is as fast for data tables.
---@param tables table[] a list of at most 1000 tables, the one merged over first
---@return table copy
function umpire.copy_chain(tables)
  check_table(tables, "umpire.copy_chain: the argument", 2)
  local n = #tables
  check_chain_length(n, "umpire.copy_chain", 2)
  local node = chain_copier
  for i = 1, n do
    node = node[tables[i]]
    if not node then break end
  end
  local copier = node and node[COPIER]
  if copier then return copier(unpack(tables, 1, n)) end
  local all_data = true
  for i = 1, n do
    check_table(tables[i], format("umpire.copy_chain: table #%d of the list", i), 2)
    if not is_read_only_data(tables[i]) then all_data = false end
  end
  if not all_data then return copy_by_loop(unpack(tables, 1, n)) end
  node = chain_copier
  for i = 1, n do
    local child = node[tables[i]]
    if not child then
      child = {}
      node[tables[i]] = child
    end
    node = child
  end
  copier = compile(unpack(tables, 1, n))
  node[COPIER] = copier
  return copier(unpack(tables, 1, n))
end

-- umpire.merge. A loop `for k, v in pairs(over) do t[k] = v end` writes each key of `over` once,
-- so the order of the writes cannot change what `t` holds; the sandbox's pairs still sorts the
-- keys (or, for one key, makes a state table and steps twice), which cost a counter with one
-- override ~1,600 machine instructions, more than copying its thirteen fields (issue 18). The order
-- could still show in one place: a write that makes `t` rehash moves integer keys between its array
-- and hash parts by the keys present at that moment, so `#t` (any border, for a table with holes)
-- could differ between two orders of integer keys. Writes of string keys only cannot: they add no
-- integer key, so every rehash sees the same integer keys whatever their order. And a metatable
-- would show it: `t`'s __newindex sees the writes in order (a read-only data table refuses the
-- first one, by name), and a read-only view `over` is walked through to its real table by pairs.
-- So when neither table has a metatable and `over`'s keys are all strings, `over` is written in
-- the raw `next` order; anything else goes through the sandbox's pairs, exactly as the loop above
-- (its errors raised at the caller's line).

---@lua umpire.merge(t, over)
---Writes every field of `over` into `t` (`t[k] = v`) and returns `t`: what
---`for k, v in pairs(over) do t[k] = v end` does, but without the sandbox's
---sorted walk when `over` is a plain table with string keys only (options and overrides), whose
---order cannot change the result. An `over` that is no table, or that pairs cannot walk (a key that
---is a table or a function), is an error at the caller's line.
---@param t table the table written to
---@param over table the fields to write
---@return table t
function umpire.merge(t, over)
  -- (written out, not called: a Lua call costs ~100 machine instructions here. The base
  -- getmetatable is nil exactly for a value without a metatable, and is a fast function where
  -- debug.getmetatable is not.)
  if getmetatable(over) == nil and getmetatable(t) == nil and type(over) == "table" then
    local k, v = next(over)
    if k == nil then return t end
    -- (one key, the usual override: written with no second walk; each `next` costs ~130)
    if type(k) == "string" and next(over, k) == nil then
      t[k] = v
      return t
    end
    while k ~= nil and type(k) == "string" do k = next(over, k) end
    if k == nil then
      for key, value in next, over do t[key] = value end
      return t
    end
  end
  if type(over) ~= "table" then
    error("bad argument #2 to 'umpire.merge' (table expected, got " .. type(over) .. ")", 2)
  end
  -- (the keys pairs refuses, refused here so that the error names the caller's line; a view's
  -- real table is pairs' to check)
  if getmetatable(over) == nil then
    for k in next, over do
      local kind = type(k)
      if kind ~= "string" and kind ~= "number" and kind ~= "boolean" then
        error("umpire.merge: a key of type " .. kind .. " has no stable order (key sets by string or number ids instead)", 2)
      end
    end
  end
  for k, v in ordered_pairs(over) do t[k] = v end
  return t
end

-- umpire.snapshot_copier. A copier still reads every value from the data on each copy, which
-- costs a copy a load and a store per field; LuaJIT makes a table whose constructor holds only
-- constant keys and constant values from its template in one step, with no store at all (a
-- 12-field MG counter: ~730 machine instructions against ~1,250 through a copier, issue 18). So a
-- snapshot copier writes the values the tables hold when it is made into its constructor: strings,
-- booleans and numbers whose text reads back as themselves as constants, any other value (a table,
-- a function, an infinity, a NaN) as the same value bound to the copier (shared by every copy, as a
-- shallow copy shares it). What it copies is the tables as they were then, whatever happens to them
-- later; rule code that keeps one for data keeps it in a data cache (umpire.data_cache), which the
-- host empties after each run, so a copy answers from the data of the run that made it.

-- The snapshot copier of tables t1..tn (see above), or nil when no constructor can be compiled for
-- them (a key no constructor can name, or more than MAX_COMPILED_KEYS keys).
local function compile_snapshot(...)
  local n = select("#", ...)
  local tables = { ... }
  local value_of, keys = {}, {}
  for i = 1, n do
    for k, v in next, tables[i] do
      if value_of[k] == nil then keys[#keys + 1] = k end
      value_of[k] = v
    end
  end
  if #keys > MAX_COMPILED_KEYS then return nil end
  local fields, bound = new_table(#keys, 0), {}
  for i, k in ipairs(keys) do
    local key = key_text(k)
    if not key then return nil end
    local value = key_text(value_of[k])
    if not value then
      bound[#bound + 1] = value_of[k]
      value = format("bound[%d]", #bound)
    end
    fields[i] = format("[%s] = %s", key, value)
  end
  local make = load("local bound = ...\nreturn function() return {" .. concat(fields, ", ") .. "} end",
    "=umpire.snapshot_copier")
  return make and make(bound)
end

---@lua umpire.snapshot_copier(tables)
---A function that makes, at each call (with no argument), a fresh copy of the tables of the list
---merged as they are now: each key from the last table that has it, with the value it has at the
---time of this call, whatever happens to the tables later. Its copies are cheaper than
---umpire.copier's (the values are constants of a compiled constructor, not read at each copy). For
---rule code that copies the same data tables on every attack: keep it in a data cache
---(umpire.data_cache), so that a copy never outlives the run whose data it was made from.
---@param tables table[] a list of at most 1000 tables, the one merged over first
---@return fun(): table copier
function umpire.snapshot_copier(tables)
  check_table(tables, "umpire.snapshot_copier: the argument", 2)
  local n = #tables
  check_chain_length(n, "umpire.snapshot_copier", 2)
  local list = new_table(n, 0)
  for i = 1, n do
    check_table(tables[i], format("umpire.snapshot_copier: table #%d of the list", i), 2)
    list[i] = tables[i]
  end
  local copier = compile_snapshot(unpack(list, 1, n))
  if copier then return copier end
  -- (keys no constructor names, or too many: the merged table kept as it is now, copied by a loop)
  local kept = copy_by_loop(unpack(list, 1, n))
  return function() return copy_by_loop(kept) end
end

---@lua umpire.copier(tables)
---A function that makes a fresh copy of the tables of the list merged, as umpire.copy_chain(tables)
---does, each time it is called (with no argument). For rule code that copies the same tables on
---every attack and can keep the function (a weapon profile over its `as` chain): for tables of
---`umpire.data` it is the compiled copier itself, so a copy costs no look-up of the copier and no
---call besides its own. The list is read once, here; tables that are not read-only data are
---copied by a loop at each call, with the keys they have then.
---@param tables table[] a list of at most 1000 tables, the one merged over first
---@return fun(): table copier
function umpire.copier(tables)
  check_table(tables, "umpire.copier: the argument", 2)
  local n = #tables
  check_chain_length(n, "umpire.copier", 2)
  local list = new_table(n, 0)
  local all_data = true
  for i = 1, n do
    check_table(tables[i], format("umpire.copier: table #%d of the list", i), 2)
    list[i] = tables[i]
    if not is_read_only_data(list[i]) then all_data = false end
  end
  if not all_data then return function() return copy_by_loop(unpack(list, 1, n)) end end
  return compile_bound(unpack(list, 1, n))
end
