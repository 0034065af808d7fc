-- breakdown.lua: effective B#, X# and LA# of a SW/Gun under any combination of the rows of the
-- Table of Support/Gun Breakdown Modifiers (seed 001), with its notes as rules:
--  * the original B# is transformed into an X# (A.11) and the new B# is found by subtracting the modifiers;
--  * a counter printed with an X# (a Flamethrower) has the modifiers applied to its X# (it cannot be repaired);
--  * an X# always takes precedence; B# and LA# can apply together;
--  * Ammunition Shortage (A19.131): a SW gets -1; a Gun is treated as circled with B# one lower than printed
--    (a Gun already circled gets a Low Ammo counter instead); further penalties apply to the B#, not the X#;
--  * Low Ammo (D3.71) changes a circled B# into an X# and creates a new B# one less;
--  * captured equipment never suffers Ammunition Shortage (A21.11).
-- All rolls compare the Original DR with ">=" (001 note "Roll >= X#, B# or LA#").
local breakdown = {}
-- umpire.cite and umpire.data are fixed for the load generation that loads this module: kept in a local, since every
-- look-up through the read-only `umpire` view costs an attack time (issue 18).
local cite, data = umpire.cite, umpire.data
-- Whether the journal is on (an odds run turns it off): breakdown.check cites only then (a call of
-- umpire.cite still cost ~250 machine instructions with the journal off, bench/per_call.sh).
local journal_on = umpire.journal.on

-- the rows that are plain penalties (modifier to B#, or to X# of an X#-only counter)
local PENALTIES = {"sustained_fire", "intensive_fire", "captured", "non_qualified", "extreme_winter_axis",
  "extreme_winter_russian", "inexperienced", "x_heavy_dust"}
local IS_PENALTY = {}
for _, k in ipairs(PENALTIES) do IS_PENALTY[k] = true end
-- What a missing condition set reads as: one shared empty table, never written.
local NONE = {}

local function row(key)
  return data.breakdown_modifiers.rows[key] or error("breakdown: no row '" .. key .. "' in data/breakdown_modifiers.yaml")
end

local function unknown_condition(k)
  error("breakdown: unknown condition '" .. tostring(k) .. "' (rows of data/breakdown_modifiers.yaml)")
end

-- The effective numbers of a weapon under a condition set whose keys have been checked against
-- the rows (see breakdown.effective). penalties_left: how many PENALTIES rows hold at most; the
-- walk of PENALTIES stops after that many.
local function effective_numbers(weapon, cond, rows, penalties_left)
  local name = weapon.name or "weapon"
  local penalty = 0
  for i = 1, #PENALTIES do
    if penalties_left == 0 then break end
    local k = PENALTIES[i]
    if cond[k] then
      penalties_left = penalties_left - 1
      local r = rows[k]  -- there: every condition that holds was checked above
      penalty = penalty - r.modifier
      cite(r.cite, "%s: %s, %d to B#", name, r.text, r.modifier)
    end
  end
  local shortage = cond.ammunition_shortage
  if shortage and cond.captured then
    shortage = false
    cite("A21.11", "%s: captured equipment does not suffer Ammunition Shortage", name)
  end
  local low_ammo = cond.low_ammo

  -- A counter printed with an X# only (Flamethrower): the modifiers apply to its X#.
  if weapon.X and not weapon.B then
    if shortage then penalty = penalty - row("ammunition_shortage").modifier end
    local X = weapon.X - penalty
    cite("A.11", "%s: printed X%d, modifiers apply to the X# (cannot be repaired): X%d", name, weapon.X, X)
    return {X = X}
  end

  local B = weapon.B or 12
  local circled = weapon.circled
  local base = B              -- the number that becomes the X# (A.11)
  local LA
  if shortage then
    local r = row("ammunition_shortage")
    if not weapon.gun then
      penalty = penalty - r.modifier
      cite(r.cite, "%s: Ammunition Shortage, SW B# %d", name, r.modifier)
    elseif circled then
      low_ammo = true
      cite(r.cite, "%s: Ammunition Shortage on a circled B#: a Low Ammo counter is placed", name)
    else
      circled = true
      B = B + r.modifier
      cite(r.cite, "%s: Ammunition Shortage: Gun treated as having a circled B%d; printed B%d becomes X%d",
        name, B, base, base)
    end
  end

  local out
  if low_ammo then
    -- D3.71: the circled B# becomes an X#, new B# one less (then any penalty, applied to the B#).
    local r = row("low_ammo")
    out = {X = B, B = B + r.modifier - penalty}
    cite(r.cite, "%s: Low Ammo: B%d becomes X%d, new B%d", name, B, out.X, out.B)
  elseif circled then
    LA = B
    if shortage and weapon.gun and not weapon.circled then
      -- a printed B# made circled by Ammunition Shortage: X# is the printed B#
      local pb = data.options.ammo_shortage_penalty_base == "twelve" and 12 or base
      out = {LA = LA, X = base, B = penalty > 0 and (pb - penalty) or nil}
    else
      out = {LA = LA, B = 12 - penalty, X = penalty > 0 and 12 or nil}
      if penalty > 0 then
        -- A.11 (001 circled-B# "Example" row): the circled counter's B12 is what the penalty transforms
        cite("A.11", "%s: circled B# under a penalty: its B12 is transformed into X12; new B%d", name, out.B)
      end
    end
    cite(row("circled").cite, "%s: circled B#: Low Ammo on DR >= %d", name, LA)
  elseif penalty > 0 then
    out = {X = base, B = base - penalty}
    cite("A.11", "%s: original B%d is transformed into X%d; new B%d", name, base, base, out.B)
  else
    out = {B = B}
  end
  if out.B and out.X and out.B > out.X then out.B = nil end -- an X# always takes precedence
  return out
end

-- Every row sw_malfunction.conditions can set, sorted as `pairs` walks a set's keys (bytewise).
local CONDITION_ROWS = {"ammunition_shortage", "captured", "extreme_winter_axis", "extreme_winter_russian",
  "inexperienced", "intensive_fire", "low_ammo", "non_qualified", "sustained_fire", "x_heavy_dust"}
-- Which of them the loaded data lacks (none in the shipped data): found once per rows table
-- (data is read-only once loaded; a reload brings a new table), so that a condition set made of
-- these keys is checked without a `pairs` walk each attack (about a thousand instructions in the
-- sandbox, issue 18).
local rows_seen, rows_missing

local function missing_condition_rows(rows)
  if rows ~= rows_seen then
    rows_seen, rows_missing = rows, {}
    for _, k in ipairs(CONDITION_ROWS) do
      if not rows[k] then rows_missing[#rows_missing + 1] = k end
    end
  end
  return rows_missing
end

-- How many PENALTIES rows hold in `cond`, read with constant keys (≈ 45 instructions each in the
-- sandbox against ≈ 130 for `cond[k]` with a key held in a variable, bench/per_call.sh), so that the
-- walk of PENALTIES in effective_numbers stops after the last row that holds (Sustained Fire, the
-- usual one, is the first). The keys are those of PENALTIES; the specs compare this path with the
-- walked one over random condition sets (rulesets/asl/tests/a9_breakdown_001.lua).
local function held_penalties(cond)
  local n = 0
  if cond.sustained_fire then n = n + 1 end
  if cond.intensive_fire then n = n + 1 end
  if cond.captured then n = n + 1 end
  if cond.non_qualified then n = n + 1 end
  if cond.extreme_winter_axis then n = n + 1 end
  if cond.extreme_winter_russian then n = n + 1 end
  if cond.inexperienced then n = n + 1 end
  if cond.x_heavy_dust then n = n + 1 end
  return n
end

--- Effective numbers. weapon: {name, B, X, circled, gun}; cond: set of row keys that apply
-- ({sustained_fire = true, captured = true, low_ammo = true, ammunition_shortage = true, ...}).
-- rows_known: true when cond was made by sw_malfunction.conditions, so that its keys are all rows
-- of CONDITION_ROWS above: they are then checked against the data once per load, not walked each
-- call (the same numbers, citations and errors; a house rule overriding this function still sees
-- every call). Returns {B =, X =, LA =} (nil when that number does not apply).
function breakdown.effective(weapon, cond, rows_known)
  cond = cond or NONE
  local rows = data.breakdown_modifiers.rows
  if rows_known then
    local missing = missing_condition_rows(rows)
    if missing[1] ~= nil then
      for _, k in ipairs(missing) do
        if cond[k] then unknown_condition(k) end
      end
    end
    return effective_numbers(weapon, cond, rows, held_penalties(cond))
  end
  -- the penalty rows that apply are counted while the conditions are checked, so that the walk
  -- of PENALTIES stops at the last of them (most attacks have one, Sustained Fire, first)
  local penalties_left = 0
  for k in pairs(cond) do
    if cond[k] then
      if not rows[k] then unknown_condition(k) end
      if IS_PENALTY[k] then penalties_left = penalties_left + 1 end
    end
  end
  return effective_numbers(weapon, cond, rows, penalties_left)
end

-- breakdown.effective as written here. sw_malfunction keeps effective numbers in a memo only
-- while rules.breakdown.effective is this function: a house rule that replaces it (its module
-- extends this one, so it inherits this field) may read values the memo's key lacks.
breakdown.effective_as_written = breakdown.effective

--- What an Original DR does to a weapon with effective numbers `eff` (001 notes: ">=", X# precedence,
-- B# and LA# together). Returns {eliminated, malfunction, low_ammo}, a table of the caller's own.
-- (a function of its own, not a closure made per check: one allocation less an attack)
local function hit(n, cmp, original_dr)
  if not n then return false end
  if cmp == ">=" then return original_dr >= n end
  return original_dr <= n
end

-- What a DR does to a weapon. Each check returns a table of its own: breakdown.check is public
-- (umpire.rules), and a house rule may well write the result it was given (`r.malfunction = true`
-- for a rule of its own), so a table shared between checks, as these once were to save an
-- allocation, would carry that write into every later check of the state's life.
--
-- `outcome` is the same answer as three values (eliminated, malfunction, low_ammo), with no
-- table and no citation: for sw_malfunction.check_outcome, which an attack from mg_attack's memo
-- calls while rules.breakdown.check is the function written here (a table per check cost an
-- attack ≈ 350 machine instructions, its share of the collector included: bench/per_call.sh).
local function outcome(eff, original_dr)
  local cmp = data.options.malfunction_compare or ">="
  if cmp == ">=" then
    -- (`hit` written out for the comparison the 001 notes print, the shipped option: its three
    -- calls cost an attack ≈ 300 machine instructions, bench/per_call.sh; the same values)
    local X, B, LA = eff.X, eff.B, eff.LA
    local eliminated = X and original_dr >= X or false
    return eliminated, (not eliminated) and (B and original_dr >= B or false),
      (LA and original_dr >= LA or false) and not eliminated
  end
  local eliminated = hit(eff.X, cmp, original_dr)
  local malfunction = (not eliminated) and hit(eff.B, cmp, original_dr)
  local low_ammo = hit(eff.LA, cmp, original_dr) and not eliminated
  return eliminated, malfunction, low_ammo
end

function breakdown.check(eff, original_dr, name)
  local eliminated, malfunction, low_ammo = outcome(eff, original_dr)
  local r = {eliminated = eliminated, malfunction = malfunction, low_ammo = low_ammo}
  if not journal_on() then return r end
  if r.eliminated then
    cite("A9.7", "%s: Original DR %d >= X%d: permanently malfunctioned, removed (an X# takes precedence)", name or "weapon", original_dr, eff.X)
  elseif r.malfunction then
    cite("A9.7", "%s: Original DR %d >= B%d: malfunctions", name or "weapon", original_dr, eff.B)
  end
  if r.low_ammo then
    cite("D3.71", "%s: Original DR %d >= LA%d: Low Ammo counter placed", name or "weapon", original_dr, eff.LA)
  end
  return r
end

-- breakdown.check as written here, and its answer as values (`outcome` above, not a rule of its
-- own: nothing calls it through umpire.rules, so a house rule has only breakdown.check to replace):
-- sw_malfunction.check_outcome calls the second only while rules.breakdown.check is the first.
breakdown.check_as_written, breakdown.outcome_as_written = breakdown.check, outcome

--- The table's own presentation: "B10/X12", "LA11/B10/X12", "X8".
function breakdown.format(eff)
  local p = {}
  if eff.LA then p[#p + 1] = "LA" .. eff.LA end
  if eff.B then p[#p + 1] = "B" .. eff.B end
  if eff.X then p[#p + 1] = "X" .. eff.X end
  return table.concat(p, "/")
end

return breakdown
