-- A9.8 dismantled SW.
local DM = function() return umpire.rules.sw_dismantle end
local C = function(k, f) return umpire.rules.mg_usage.counter(k, f) end
test("A9.8: non-Russian HMG/MMG and the Russian .50 cal may be dm; other Russian MMG/HMG and LMG may not", function()
  eq(DM().eligible(C("ger_mmg")), true); eq(DM().eligible(C("rus_mmg")), false)
  eq(DM().eligible(C("rus_50cal")), true); eq(DM().eligible(C("ger_lmg")), false)
  eq(DM().pp(C("ger_hmg")), 3)
end)
test("A9.8: conversion counts as use incl. all ROF; not when marked with a fire counter; a German dm MMG fires as a LMG", function()
  local sq = {name = "sq", kind = "squad", fp = 4, range = 6}
  local m = C("ger_mmg")
  DM().convert(sq, {m}, true, "PFPh")
  eq(m.dismantled, true); eq(m.fire_counter, "Prep Fire")
  raises(function() DM().convert(sq, {m}, false, "PFPh") end, "A9.8")
  local r = C("rus_50cal", {dismantled = true})
  raises(function() DM().check_fire(r) end, "reassembled")
  local g = C("ger_hmg", {dismantled = true})
  umpire.dice.fix{3, 3}
  local a = umpire.rules.mg_attack.fire({phase = "DFPh", crew = {sq}, mgs = {g}, range = 3})
  eq(a.fp, 3)
  ok(umpire.journal.cited("A9.8"))
end)
