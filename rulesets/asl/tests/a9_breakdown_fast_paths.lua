-- The shortcuts the MG attack takes through the 001 breakdown table (issue 18) give what the long
-- way gives: breakdown.effective on a set made by sw_malfunction.conditions (rows_known, no `pairs`
-- walk) against the same call without it, and breakdown.check (one shared result for a DR that
-- harms nothing) against the 001 notes' comparisons written out here.
local function breakdown() return umpire.rules.breakdown end

-- A small generator of our own (a linear congruential one), so the cases are the same every run.
local function generator(seed)
  local state = seed
  return function(n)
    state = (state * 1103515245 + 12345) % 2147483648
    return state % n + 1
  end
end

-- Every row sw_malfunction.conditions can set.
local ROWS = {"ammunition_shortage", "captured", "extreme_winter_axis", "extreme_winter_russian",
  "inexperienced", "intensive_fire", "low_ammo", "non_qualified", "sustained_fire", "x_heavy_dust"}

local function random_weapon(pick)
  local w = {name = "W" .. pick(100)}
  local kind = pick(4)
  if kind == 1 then w.X = 6 + pick(6)                     -- printed X# only (a Flamethrower)
  elseif kind == 2 then w.B = 8 + pick(4); w.circled = true
  else w.B = 8 + pick(4) end
  if pick(3) == 1 then w.gun = true end
  return w
end

local function random_conditions(pick)
  local c = {}
  for _, k in ipairs(ROWS) do
    if pick(4) == 1 then c[k] = true end
  end
  return c
end

test("breakdown.effective with rows_known: the same numbers and journal lines as without, 400 random cases", function()
  local pick = generator(20261124)
  local lines = 0
  for case = 1, 400 do
    local w, cond = random_weapon(pick), random_conditions(pick)
    local from = umpire.journal.size() + 1
    local walked = breakdown().effective(w, cond)
    local walked_lines = umpire.journal.lines(from)
    from = umpire.journal.size() + 1
    local known = breakdown().effective(w, cond, true)
    eq(known, walked, "case " .. case)
    eq(umpire.journal.lines(from), walked_lines, "case " .. case)
    lines = lines + #walked_lines
  end
  ok(lines > 400, "the citations were journaled and compared (" .. lines .. " lines)")
end)

test("breakdown.effective: an unknown condition is still an error without rows_known", function()
  assert_error(function() breakdown().effective({B = 11}, {no_such_row = true}) end, "unknown condition 'no_such_row'")
end)

test("breakdown.check: eliminated / malfunction / low ammo as the 001 notes compare them (>=), every DR 2..12", function()
  local pick = generator(7)
  for case = 1, 200 do
    local eff = {}
    if pick(2) == 1 then eff.B = 5 + pick(7) end
    if pick(2) == 1 then eff.X = 7 + pick(5) end
    if pick(3) == 1 then eff.LA = 8 + pick(4) end
    for dr = 2, 12 do
      local eliminated = eff.X ~= nil and dr >= eff.X
      local expected = {eliminated = eliminated,
        malfunction = (not eliminated) and eff.B ~= nil and dr >= eff.B,
        low_ammo = (not eliminated) and eff.LA ~= nil and dr >= eff.LA}
      eq(breakdown().check(eff, dr, "W"), expected, "case " .. case .. ", DR " .. dr)
    end
  end
end)
