-- One rifle hit on a soldier prone in the open with a steel helmet.
--   umpire odds --ruleset rulesets/skirmish scripts/skirmish/hit_location_prone.lua
-- The hit is scored: only the location die is rolled. Outcomes: death | litter_case |
-- walking_wounded | no_effect (modified 7+) | stopped_by_cover. Other cases: the other
-- hit_location_*.lua; umpire.rules.situations.one_hit takes position, kit, weapon, firer_above.
return umpire.rules.situations.one_hit{ position = "prone_in_the_open", kit = { "steel_helmet" } }
