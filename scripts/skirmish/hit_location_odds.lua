-- Effect of one hit on a soldier, by position and kit (SK Hit Location, SK Location Modifiers,
-- SK Cover). The hit is given: only the location die is rolled (6 branches).
--   umpire odds --ruleset rulesets/skirmish scripts/skirmish/hit_location_odds.lua
-- Change the case here:
local POSITION = "standing_in_the_open" -- standing_in_the_open | kneeling_in_the_open |
                                        -- prone_in_the_open | low_wall | firing_port | any
                                        -- other position of data/cover.yaml
local KIT = { "steel_helmet" }          -- {} (no helmet: -1) | { "steel_helmet" } |
                                        -- { "ballistic_helmet" } | { "steel_helmet", "soft_body_armour" } |
                                        -- { "ballistic_helmet", "hard_body_armour" } ...
local WEAPON = "rifle"                  -- soft body armour counts against pistol, smg, shrapnel
local FIRER_ABOVE = false               -- SK Firer Above
-- Outcomes: death | litter_case | walking_wounded | no_effect (modified 7+) | stopped_by_cover

local open = { standing_in_the_open = "standing", kneeling_in_the_open = "kneeling", prone_in_the_open = "prone" }
local soldier = { id = "target", side = "red", equipment = KIT, posture = open[POSITION] or "standing",
                  cover = (not open[POSITION]) and POSITION or nil }
local r = umpire.rules.resolution.hit_location(soldier, {
  weapon = umpire.rules.tables.weapon(WEAPON), firer_above = FIRER_ABOVE })
return r.effect
