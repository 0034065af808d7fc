-- Odds: a light mortar ranging in on a single enemy model that does not move, firing every
-- turn for five turns (6, 5+, 4+, 3+, 2+). Outcome: the turn of the first hit, or "no hit".
-- umpire odds scripts/bolt-action/light_mortar_ranging.lua --ruleset rulesets/bolt-action
local SC, S = umpire.rules.scenario, umpire.rules.shooting
local mortar = SC.line("mortar", "allies", 2, nil, { type = "support_team" })
mortar.models[1].weapon, mortar.models[1].role = "light_mortar", "firer"
mortar.models[2].role = "crew"
-- A one-man target: the first hit ends the script (its pin and damage dice are rolled once).
local target = { id = "sniper", side = "axis", pins = 0, models = { { id = "s", x = 0, y = 20 } } }
for turn = 1, 5 do
  local r = S.fire{ shooter = mortar, target = target, turn = turn, world = {} }
  if r.hits > 0 then return "turn " .. turn end
end
return "no hit"
