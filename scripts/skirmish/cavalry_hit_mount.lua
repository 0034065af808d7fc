-- One rifle hit on the horse of a mounted cavalryman (steel helmet).
--   umpire odds --ruleset rulesets/skirmish scripts/skirmish/cavalry_hit_mount.lua
-- SK Animal Hit Location / SK Animals: a killed mount makes the rider roll d6 +1 on the human
-- table; a shoulder hit charges, fights and dies either way. The rider is exposed as
-- options.mounted_exposure says. Outcome: {mount=, rider=}. The other case: cavalry_hit_*.lua.
return umpire.rules.situations.cavalry_hit{ hit = "mount", kit = { "steel_helmet" } }
