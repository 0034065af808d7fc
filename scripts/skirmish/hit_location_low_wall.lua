-- One rifle hit on a soldier behind a low wall with a steel helmet.
--   umpire odds --ruleset rulesets/skirmish scripts/skirmish/hit_location_low_wall.lua
-- The hit is scored: only the location die is rolled. Outcomes: death | litter_case |
-- walking_wounded | no_effect (modified 7+) | stopped_by_cover. Other cases: the other
-- hit_location_*.lua; umpire.rules.situations.one_hit takes position, kit, weapon, firer_above.
return umpire.rules.situations.one_hit{ position = "low_wall", kit = { "steel_helmet" } }
