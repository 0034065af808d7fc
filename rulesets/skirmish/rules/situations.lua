-- Ready-made situations for odds scripts (scripts/skirmish/*.lua), so that each script states one
-- case in a few words. Not a rule of the text: it only builds the figures and calls the rules
-- (SK Hit Location, SK Location Modifiers, SK Cover, SK Firer Above, SK Animals).
local SIT = {}
local function R() return umpire.rules end

-- One hit on a soldier, the hit already scored: only the location die is rolled.
--   position:    standing_in_the_open | kneeling_in_the_open | prone_in_the_open, or any cover
--                position of data/cover.yaml (low_wall, firing_port, ...)
--   kit:         equipment ids (default {steel_helmet}; {} = no helmet, -1)
--   weapon:      data/to_hit.yaml id (default rifle: soft body armour works only against some)
--   firer_above: SK Firer Above
-- Returns the effect: death | litter_case | walking_wounded | no_effect | stopped_by_cover.
local OPEN = { standing_in_the_open = "standing", kneeling_in_the_open = "kneeling", prone_in_the_open = "prone" }
function SIT.one_hit(case)
  local position = case.position or "standing_in_the_open"
  R().tables.cover(position) -- an unknown position is an error here, not a silent "standing"
  local soldier = { id = "target", side = "red", equipment = case.kit or { "steel_helmet" },
                    posture = OPEN[position] or "standing", cover = (not OPEN[position]) and position or nil }
  local r = R().resolution.hit_location(soldier, {
    weapon = R().tables.weapon(case.weapon or "rifle"), firer_above = case.firer_above == true })
  return r.effect
end

-- One hit on a mounted cavalryman: on the rider (mounted: options.mounted_exposure) or on his
-- mount (SK Animal Hit Location; a killed mount makes the rider roll d6 +1 on the human table;
-- a shoulder hit charges, fights and dies either way, SK Animals).
--   hit: "mount" | "rider";  kit: the rider's equipment;  weapon;  wins_close_combat
-- Returns {mount=, rider=} ("ok", a casualty status; ", dismounted" when the rider is afoot).
function SIT.cavalry_hit(case)
  local rider = { id = "trooper", side = "red", mount = "horse", equipment = case.kit or { "steel_helmet" } }
  local horse = { id = "horse", side = "red", kind = "animal", rider = "trooper" }
  local ctx = { weapon = R().tables.weapon(case.weapon or "rifle"), firer = { id = "firer", side = "blue" },
                by_id = { trooper = rider, horse = horse } }
  if case.hit ~= "mount" and case.hit ~= "rider" then
    error("situations.cavalry_hit: hit must be \"mount\" or \"rider\", not " .. tostring(case.hit), 2)
  end
  local target = case.hit == "rider" and rider or horse
  local r = R().resolution.hit_location(target, ctx)
  R().casualties.apply(target, r, ctx)
  if horse.status == "charging" then R().animals.after_close_combat(horse, case.wins_close_combat == true, ctx) end
  return {
    mount = horse.status or "ok",
    rider = (rider.status or "ok") .. (rider.dismounted and ", dismounted" or ""),
  }
end

return SIT
