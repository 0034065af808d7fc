-- Odds: an infantry flamethrower team against a regular squad of 6 in a bunker (hard cover,
-- inside a building for extra protection), 4" away. Flamethrowers ignore the cover to-hit penalty
-- and the building's extra protection; the target takes D3+1 pins and must test morale.
-- umpire odds scripts/bolt-action/flamethrower_bunker.lua --ruleset rulesets/bolt-action
local SC, S = umpire.rules.scenario, umpire.rules.shooting
local team = SC.line("flame", "allies", 2, nil, { type = "support_team" })
team.models[1].weapon, team.models[1].role = "flamethrower_infantry", "firer"
team.models[2].role = "crew"
local bunker = SC.line("bunker", "axis", 6, "rifle", { y = 5, spacing = 1.2, cover = "hard" })
bunker.in_building = true
local r = S.fire{ shooter = team, target = bunker }
return {
  casualties = r.units.bunker and r.units.bunker.casualties or 0,
  bunker_destroyed = bunker.destroyed == true,
  flamethrower_out_of_fuel = r.out_of_fuel == true,
}
