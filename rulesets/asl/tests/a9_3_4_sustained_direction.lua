-- A9.3 Sustained Fire and A9.4 Mandatory Fire Direction.
test("A9.3: a MG marked First Fire firing in the DFPh uses Sustained Fire: FP halved, B# -2, Final Fire counter", function()
  local m = umpire.rules.mg_usage.counter("ger_mmg", {fire_counter = "First Fire"})
  umpire.dice.fix{4, 6}   -- DR 10 >= B9 (B11 -2)
  local a = umpire.rules.mg_attack.fire({phase = "DFPh", crew = {{name = "sq", kind = "squad"}}, mgs = {m}, range = 1})
  eq(a.fp, 5)  -- 5 FP, PBF x2, halved
  eq(a.mg[m.name].malfunctioned, true)
  ok(umpire.journal.cited("A9.3"))
end)
test("A9.3: Sustained Fire forfeits additional shots regardless of the coloured dr", function()
  local m = umpire.rules.mg_usage.counter("ger_mmg", {fire_counter = "First Fire"})
  umpire.dice.fix{1, 1}
  local a = umpire.rules.mg_attack.fire({phase = "MPh", side = "DEFENDER", subsequent_first_fire = true,
    crew = {{name = "sq", kind = "squad"}}, mgs = {m}, range = 2, target = {units = {}, location = "X"}})
  eq(a.mg[m.name].keeps_rof, false); eq(m.fire_counter, "Final Fire")
end)
test("A9.3: not by a lone SMC, a vehicular MG (not MA), or as ordnance", function()
  local S = umpire.rules.sustained_fire
  raises(function() S.check({name = "m"}, {firers = {{kind = "leader"}}}) end, "lone SMC")
  raises(function() S.check({name = "m", vehicular = true}, {firers = {}}) end, "vehicular")
  raises(function() S.check({name = "m"}, {as_ordnance = true}) end, "ordnance")
end)
test("A9.4: beyond 16 hexes only with a directing leader; unconcealed Infantry treated as concealed; no effect vs armor; CMG exempt", function()
  local D = umpire.rules.fire_direction
  local m = umpire.rules.mg_usage.counter("ger_hmg", {range = 16})
  eq(D.check(m, {range = 17}).allowed, false)
  local r = D.check(m, {range = 17, leader_directing = true, target = {infantry = true}})
  eq(r.treat_concealed, true)
  eq(D.check(m, {range = 20, leader_directing = true, target = {infantry = true, broken = true}}).treat_concealed, false)
  eq(D.check(m, {range = 20, leader_directing = true, target = {armored = true}}).no_effect, true)
  local c = {name = "CMG", cmg = true}
  local rc = D.check(c, {range = 20, target = {infantry = true}})
  eq(rc.allowed, true); eq(rc.treat_concealed, false)
  eq(D.check(m, {range = 16}).allowed, true)
  ok(umpire.journal.cited("A9.4"))
end)
