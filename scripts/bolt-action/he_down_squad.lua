-- Odds: an HE (3") shot (medium howitzer over open sights) at a 10-model regular squad that
-- goes Down in reaction (Diagram 9A's squad: the template covers 3, halved rounding up to 2).
-- umpire odds scripts/bolt-action/he_down_squad.lua --ruleset rulesets/bolt-action
local SC, S = umpire.rules.scenario, umpire.rules.shooting
local u, world = SC.load("diagram_9a")
local r = S.fire{ shooter = u.howitzer, target = u.squad, world = world, mode = "direct",
                  target_goes_down = true }
local s = r.units.squad
return { hits = s and s.hits or 0, casualties = s and s.casualties or 0, pins = u.squad.pins }
