-- Generates LuaLS stubs of the umpire API from the doc blocks of every C++ file that gives Lua a
-- function: the Lua face of the kernel (bindings/*.cpp) and the ruleset loader (ruleset/*.cpp:
-- umpire.data.scenario); from the "---@lua" blocks of the FFI fast paths (bindings/lua/*.lua:
-- umpire.dice.d6, ...); and, written below (MANUAL), what no single function declares: the Hex
-- class, umpire.data/rules/state/ruleset, umpire.dice.classic and the spec-test functions.
-- tests/cli/stubs_complete_test.sh walks the live `umpire` table and fails for anything missing.
-- Usage (from the repository root): luajit scripts/gen_stubs.lua > docs/stubs/umpire.lua
-- Format: docs/conventions.md ("/// @lua name(params)" then "/// ---..." lines).
local files = {}
local list = io.popen("ls bindings/*.cpp ruleset/*.cpp")
for f in list:lines() do files[#files + 1] = f end
list:close()
table.sort(files)

local blocks, tables = {}, { umpire = true }
for _, file in ipairs(files) do
  local block
  for line in io.lines(file) do
    local doc = line:match("^%s*/// ?(.*)$")
    if doc then
      -- "umpire.dice.roll(expr)" or a method "Distribution:p(op, value)"
      local name, params = doc:match("^@lua%s+([%w_%.:]+)%((.-)%)")
      if name then
        block = { name = name, params = params, lines = {}, file = file }
      elseif block and doc:match("^%-%-%-") then
        block.lines[#block.lines + 1] = doc
      end
    elseif block then
      blocks[#blocks + 1] = block
      block = nil
    end
  end
end
-- The Lua files: "---@lua name(params)", then "---" lines, then the function. A name the C++
-- already documents (umpire.dice.d: the classic entry the fast path replaces) is kept once.
local documented = {}
for _, b in ipairs(blocks) do documented[b.name] = true end
local lua_files = {}
list = io.popen("ls bindings/lua/*.lua")
for f in list:lines() do lua_files[#lua_files + 1] = f end
list:close()
table.sort(lua_files)
for _, file in ipairs(lua_files) do
  local block
  for line in io.lines(file) do
    local name, params = line:match("^%s*%-%-%-@lua%s+([%w_%.:]+)%((.-)%)")
    if name then
      block = { name = name, params = params, lines = {}, file = file }
    elseif block and line:match("^%s*%-%-%-") then
      block.lines[#block.lines + 1] = line:match("^%s*(.*)$")
    elseif block then
      if not documented[block.name] and #block.lines > 0 then blocks[#blocks + 1] = block end
      block = nil
    end
  end
end
table.sort(blocks, function(a, b) return a.name < b.name end)

-- What no single function declares: first what the generated blocks build on, then the rest.
local MANUAL_TOP = [==[

---A hex: axial coordinates; `tostring(hex)` gives its ASL name again ("21K8"). Functions that
---take a hex also take an ASL name string.
---@class Hex
---@field q integer axial column (0 = column A)
---@field r integer axial row
Hex = {}

---Each data/<file>.yaml of the loaded rulesets, by base name, merged over what it extends.
---@type table<string, table>
umpire.data = {}

---The table each rules/<module>.lua returned, by base name; a house rule's module of the same
---name falls back to the parent's. Reach other modules through it at call time.
---@type table<string, table>
umpire.rules = {}

---The game state: plain data (strings, numbers, booleans, sequences, string-keyed tables) that
---survives reloads, saves (--save-state) and loads (--state).
---@type table
umpire.state = {}

---The parameters the script was given: `umpire run|odds|watch --set name=value` (repeatable), or
---the cell of `umpire sweep --grid`. Values are booleans, numbers or strings; read-only.
---Example: `local range = umpire.args.range or 6`.
---@type table<string, boolean|number|string>
umpire.args = {}

---The active ruleset's manifest (the last one loaded).
---@class RulesetInfo
---@field name string
---@field version string
---@field turn_sequence table the manifest's turn_sequence, as written

---@type RulesetInfo
umpire.ruleset = {}
]==]

local MANUAL_END = [==[

---The classic lua_CFunction entries that the FFI fast paths replace (benchmarks, reference).
umpire.dice.classic = {}

---umpire.dice.d through the classic C API.
---@param sides? integer
---@return integer face
function umpire.dice.classic.d(sides) end

---umpire.dice.dr through the classic C API.
---@return {colored: integer, white: integer, total: integer, doubles: boolean}
function umpire.dice.classic.dr() end

---umpire.dice.count through the classic C API.
---@param n integer
---@param sides integer
---@param target integer
---@param how? '">="'|'"<="'
---@return integer successes
function umpire.dice.classic.count(n, sides, target, how) end

-- Spec tests (rulesets/<name>/tests/*.lua, run by `umpire test`): these globals exist there only.

---Declares a test; it runs with an empty journal, the starting game state and its own fixed dice.
---@param name string
---@param fn fun()
function test(name, fn) end

---Same as test.
---@param name string
---@param fn fun()
function it(name, fn) end

---Groups tests: their names are prefixed with `name / `.
---@param name string
---@param fn fun()
function describe(name, fn) end

---Fails unless actual equals expected (deep equality for tables).
---@param actual any
---@param expected any
---@param message? string
function eq(actual, expected, message) end

---Same as eq.
---@param actual any
---@param expected any
---@param message? string
function assert_eq(actual, expected, message) end

---Fails unless value is true (not nil or false).
---@param value any
---@param message? string
function ok(value, message) end

---Fails unless fn raises an error (matching the Lua pattern, if given).
---@param fn fun()
---@param pattern? string
function raises(fn, pattern) end

---Fails unless fn raises an error containing plain_text (if given).
---@param fn fun()
---@param plain_text? string
function assert_error(fn, plain_text) end

---Fails unless |actual - expected| <= tolerance (default 1e-9).
---@param actual number
---@param expected number
---@param tolerance? number
---@param message? string
function assert_near(actual, expected, tolerance, message) end

---seeded_random(seed): a generator of random cases that are the same on every run (Park and
---Miller's minimal standard, exact in doubles): `local pick = seeded_random(7); pick(6)` gives a
---whole number from 1 to 6. For tests that check rule code against a brute force over many
---random configurations.
---@param seed integer not a multiple of 2^31 - 1
---@return fun(n: integer): integer
function seeded_random(seed) end

---house_rule(module, overrides, fn): runs fn with `umpire.rules[module]` replaced as a house
---rule's module of that name replaces it (a table of `overrides` falling back to the module), then
---puts the module back, whether fn passes or fails. A module's table cannot be changed in place
---(host/ModuleGuard.hpp): this is how a spec tries a house rule.
---@param module string the module's name (`"breakdown"` for `umpire.rules.breakdown`)
---@param overrides table the replaced fields (`{effective = function(...) ... end}`)
---@param fn fun() the test's code run under the house rule
function house_rule(module, overrides, fn) end

---@class Expectation
---@field to_be fun(expected: any) fails unless the value equals expected (deep)
---@field to_equal fun(expected: any) same as to_be

---expect(v).to_be(x): fails unless v equals x (deep equality).
---@param actual any
---@return Expectation
function expect(actual) end
]==]

print("---@meta")
print("-- Generated by scripts/gen_stubs.lua from bindings/*.cpp, ruleset/*.cpp and bindings/lua/*.lua;")
print("-- do not edit.")
print("umpire = {}")
io.write(MANUAL_TOP)
local declared = { umpire = true, ["umpire.data"] = true, ["umpire.rules"] = true }
for _, b in ipairs(blocks) do
  -- Declare the intermediate tables (umpire.dice, umpire.hooks, ...) once.
  local class = b.name:match("^([%w_]+):")
  if class and not declared[class] then
    declared[class] = true
    print("")
    print("---@class " .. class)
    print(class .. " = {}")
  end
  local prefix = ""
  for part in b.name:gmatch("([%w_]+)%.") do
    prefix = prefix == "" and part or (prefix .. "." .. part)
    if not declared[prefix] then
      declared[prefix] = true
      print(prefix .. " = {}")
    end
  end
  print("")
  for _, l in ipairs(b.lines) do print(l) end
  print(("function %s(%s) end"):format(b.name, b.params))
end
io.write(MANUAL_END)
