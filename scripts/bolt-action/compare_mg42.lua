-- Compare: an MG42 LMG team (4 shots in bolt-action, 5 in the bolt-action-mg42 house rule)
-- firing at a regular squad in the open at 20".
-- umpire odds scripts/bolt-action/compare_mg42.lua --ruleset rulesets/bolt-action --compare rulesets/bolt-action-mg42
local SC, S = umpire.rules.scenario, umpire.rules.shooting
local team = SC.line("mg42", "axis", 2, nil, { type = "support_team" })
team.models[1].weapon, team.models[1].role = "mg42", "firer"
team.models[2].role = "crew"
local target = SC.line("gis", "allies", 10, "rifle", { y = 21 })
local r = S.fire{ shooter = team, target = target }
return { casualties = r.units.gis and r.units.gis.casualties or 0, pins = target.pins }
