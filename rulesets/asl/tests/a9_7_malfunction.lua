-- A9.7-A9.74 spec tests, including the A9.71 EX.
local function fg()
  local hmg = umpire.rules.mg_usage.counter("ger_hmg")
  local lmg = umpire.rules.mg_usage.counter("ger_lmg")
  return hmg, lmg
end
local function fire(hmg, lmg, dice)
  umpire.dice.fix(dice)
  -- HMG using Sustained Fire (Subsequent First Fire) in a FG with a LMG firing normally
  return umpire.rules.sw_malfunction.check_fg({{mg = hmg, ctx = {sustained = true}}, {mg = lmg, ctx = {}}}, umpire.dice.dr())
end

test("A9.71 EX: the Sustained-Fire HMG is B10/X12, the LMG B12", function()
  local hmg, lmg = fg()
  eq(umpire.rules.sw_malfunction.numbers(hmg, {sustained = true}), {B = 10, X = 12})
  eq(umpire.rules.sw_malfunction.numbers(lmg, {}), {B = 12})
end)

test("A9.71 EX: Original IFT DR 10: the HMG automatically malfunctions", function()
  local hmg, lmg = fg()
  local r = fire(hmg, lmg, {4, 6})
  eq(r[hmg.name].malfunctioned, true); eq(r[hmg.name].removed, false); eq(r[lmg.name].malfunctioned, false)
  ok(umpire.journal.cited("A9.71"))
end)

test("A9.71 EX: Original IFT DR 11: the HMG automatically malfunctions", function()
  local hmg, lmg = fg()
  local r = fire(hmg, lmg, {5, 6})
  eq(r[hmg.name].malfunctioned, true); eq(lmg.malfunctioned, nil)
end)

test("A9.71 EX: DR 12: Random Selection: the LMG malfunctions", function()
  local hmg, lmg = fg()
  local r = fire(hmg, lmg, {6, 6, 2, 5})
  eq(r[lmg.name].malfunctioned, true); eq(r[hmg.name].removed, false); eq(hmg.removed, nil)
  ok(umpire.journal.cited("A.9"))
end)

test("A9.71 EX: DR 12: Random Selection: the HMG is removed", function()
  local hmg, lmg = fg()
  local r = fire(hmg, lmg, {6, 6, 5, 2})
  eq(r[hmg.name].removed, true); eq(r[lmg.name].malfunctioned, false)
end)

test("A9.71 EX: DR 12: Random Selection tie: both (the LMG malfunctions and the HMG is removed)", function()
  local hmg, lmg = fg()
  local r = fire(hmg, lmg, {6, 6, 4, 4})
  eq(r[hmg.name].removed, true); eq(r[lmg.name].malfunctioned, true)
end)

test("A9.7: malfunction on an Original DR >= B# (the extracted '<=' is a typo); the attack is still resolved", function()
  local mmg = umpire.rules.mg_usage.counter("ger_mmg") -- B11
  umpire.dice.fix{5, 5}
  local a = umpire.rules.mg_attack.fire({phase = "PFPh", mgs = {mmg}, crew = {{name = "sq", kind = "squad"}}, range = 3})
  eq(a.mg[mmg.name].malfunctioned, false)
  local m2 = umpire.rules.mg_usage.counter("ger_mmg")
  umpire.dice.fix{5, 6}
  local a2 = umpire.rules.mg_attack.fire({phase = "PFPh", mgs = {m2}, crew = {{name = "sq", kind = "squad"}}, range = 3})
  eq(a2.mg[m2.name].malfunctioned, true); eq(a2.result, "-"); eq(a2.final_dr, 11)
  raises(function() umpire.rules.mg_attack.fire({phase = "PFPh", mgs = {m2}, range = 3}) end, "malfunctioned")
  ok(umpire.journal.cited("A9.7"))
end)

test("A9.72: repair dr <= R# repairs, 6 eliminates, otherwise no change; captured SW cannot be repaired", function()
  local sq = {name = "sq", kind = "squad", side = "german"}
  local m = umpire.rules.mg_usage.counter("ger_mmg", {malfunctioned = true}) -- R4
  umpire.dice.fix{4}
  eq(umpire.rules.sw_malfunction.repair(sq, {m}, "RPh")[1].outcome, "repaired")
  m.malfunctioned = true
  umpire.dice.fix{5}
  eq(umpire.rules.sw_malfunction.repair(sq, {m}, "RPh")[1].outcome, "no change")
  umpire.dice.fix{6}
  eq(umpire.rules.sw_malfunction.repair(sq, {m}, "RPh")[1].outcome, "eliminated"); eq(m.removed, true)
  local cap = umpire.rules.mg_usage.counter("rus_mmg", {malfunctioned = true})
  eq(umpire.rules.sw_malfunction.repair(sq, {cap}, "RPh")[1].outcome, "not allowed")
  local a, b, c = umpire.rules.mg_usage.counter("ger_lmg", {malfunctioned = true}), umpire.rules.mg_usage.counter("ger_lmg", {malfunctioned = true}), umpire.rules.mg_usage.counter("ger_lmg", {malfunctioned = true})
  raises(function() umpire.rules.sw_malfunction.repair(sq, {a, b, c}, "RPh") end, "A9.72")
  raises(function() umpire.rules.sw_malfunction.repair(sq, {a}, "PFPh") end, "RPh")
  raises(function() umpire.rules.sw_malfunction.repair({name = "hs", kind = "hs"}, {umpire.rules.mg_usage.counter("gun_b12", {malfunctioned = true, R = 3})}, "RPh") end, "crew")
end)

test("A9.73: self-destruction instead of firing, within the unit's firing capacity", function()
  local sq = {name = "sq", kind = "squad"}
  local m = umpire.rules.mg_usage.counter("ger_mmg")
  umpire.rules.sw_malfunction.self_destruct(sq, {m}, "destroy", "PFPh")
  eq(m.removed, true)
  local l = umpire.rules.mg_usage.counter("ger_lmg")
  raises(function() umpire.rules.sw_malfunction.self_destruct(sq, {l}, "destroy", "MPh") end, "A9.73")
  l.fire_counter = "Prep Fire"
  raises(function() umpire.rules.sw_malfunction.self_destruct(sq, {l}, "malfunction", "PFPh") end, "A9.73")
end)

test("A9.74: a Final KIA makes a dr on the same column for each SW of the eliminated unit: KIA eliminates, K malfunctions", function()
  local ift = umpire.rules.ift
  local lmg = umpire.rules.mg_usage.counter("ger_lmg")
  local mmg = umpire.rules.mg_usage.counter("ger_mmg")
  local unit = {name = "German 4-6-7", morale = 7, sw = {lmg, mmg}}
  umpire.dice.fix{1, 1, 1, 2}         -- DR 2 on the 4 column, -2 DRM: Final 0 -> 2KIA; SW dr 1 (KIA), 2 (K/2)
  local a = ift.resolve({label = "test", fp = 4, drm = {ift.drm_entry("ffnam"), ift.drm_entry("ffmo")}})
  eq(a.result, "2KIA")
  ift.apply(a, {unit})
  eq(unit.eliminated, true); eq(lmg.removed, true); eq(mmg.malfunctioned, true)
  ok(umpire.journal.cited("A9.74"))
  local m3 = umpire.rules.mg_usage.counter("ger_mmg", {malfunctioned = true})
  umpire.dice.fix{2}
  eq(umpire.rules.sw_malfunction.random_destruction(m3, 4), "eliminated")
  umpire.dice.fix{3}  -- dr 3 -1 (fully-tracked AFV OVR) = 2 on the 4 column: K/2
  eq(umpire.rules.sw_malfunction.random_destruction(umpire.rules.mg_usage.counter("ger_lmg"), 4, {tracked_ovr = true}), "malfunctioned")
  raises(function() umpire.rules.sw_malfunction.random_destruction(m3, 4, {ordnance = true}) end, "not implemented: C11")
end)
