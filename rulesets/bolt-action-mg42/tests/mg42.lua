-- House rule: the MG42 fires 5 shots; everything else is bolt-action's.
local W, SC, S = umpire.rules.weapons, umpire.rules.scenario, umpire.rules.shooting

test("MG42 house rule: 5 shots, the rest of the LMG profile inherited", function()
  local p = W.profile("mg42")
  eq({ p.shots, p.range, p.pen }, { 5, 36, 0 })
  ok(W.has(p, "team"))
  eq(W.profile("lmg").shots, 4)
end)

test("MG42 house rule: a team fires five dice (long range 20\": 4+)", function()
  local team = SC.line("mg42", "axis", 2, nil, { type = "support_team" })
  team.models[1].weapon, team.models[1].role = "mg42", "firer"
  team.models[2].role = "crew"
  local target = SC.line("gis", "allies", 10, "rifle", { y = 21 })
  -- to hit: 4, 4, 4, 4, 4 -> 5 hits; damage 5+: 5, 5, 1, 1, 1 -> 2 casualties
  umpire.dice.fix{ 4, 4, 4, 4, 4,  5, 5, 1, 1, 1 }
  local r = S.fire{ shooter = team, target = target }
  eq(r.units.gis.hits, 5)
  eq(r.units.gis.casualties, 2)
end)
