-- Odds: an LMG team fires at regulars in soft cover at long range (25" of 36").
-- umpire odds scripts/bolt-action/lmg_soft_cover_long_range.lua --ruleset rulesets/bolt-action
-- Needs 5+ to hit (3+, long range -1, soft cover -1), 5+ to damage; one pin if hit.
local SC, S = umpire.rules.scenario, umpire.rules.shooting
local team = SC.line("bren", "allies", 2, nil, { type = "support_team" })
team.models[1].weapon, team.models[1].role = "lmg", "firer"
team.models[2].role = "crew"
local target = SC.line("grens", "axis", 10, "rifle", { y = 26, cover = "soft" })
local r = S.fire{ shooter = team, target = target }
local u = r.units.grens
return { casualties = u and u.casualties or 0, pins = target.pins }
