-- Odds: a light mortar ranging in on a single enemy model that does not move, firing every
-- turn for five turns (6, 5+, 4+, 3+, 2+). Outcome: the turn of the first hit, or "no hit".
-- The turns are played by indirect_fire.fire_turns, which folds them under `umpire odds`.
-- umpire odds scripts/bolt-action/light_mortar_ranging.lua --ruleset rulesets/bolt-action
local SC, IF = umpire.rules.scenario, umpire.rules.indirect_fire
local mortar = SC.line("mortar", "allies", 2, nil, { type = "support_team" })
mortar.models[1].weapon, mortar.models[1].role = "light_mortar", "firer"
mortar.models[2].role = "crew"
-- A one-man target: the first hit ends the script (its pin and damage dice are rolled once).
local target = { id = "sniper", side = "axis", pins = 0, models = { { id = "s", x = 0, y = 20 } } }
local r = IF.fire_turns({ shooter = mortar, target = target, world = {} }, { turns = 5, until_hit = true })
return r.first_hit and "turn " .. r.first_hit or "no hit"
