-- One hit on a mounted cavalryman: on the rider (mounted: options.mounted_exposure) or on his
-- mount (SK Animal Hit Location; a killed mount makes the rider roll d6 +1 on the human table,
-- SK Animals; a shoulder hit charges, fights and dies, and the rider rolls then).
--   umpire odds --ruleset rulesets/skirmish scripts/skirmish/cavalry_odds.lua
local HIT = "mount"                     -- "mount" | "rider"
local KIT = { "steel_helmet" }          -- the rider's equipment
local WEAPON = "rifle"
local WINS_CLOSE_COMBAT = false         -- a charging mount dies either way

local R = umpire.rules
local rider = { id = "trooper", side = "red", mount = "horse", equipment = KIT }
local horse = { id = "horse", side = "red", kind = "animal", rider = "trooper" }
local ctx = { weapon = R.tables.weapon(WEAPON), firer = { id = "firer", side = "blue" },
              by_id = { trooper = rider, horse = horse } }
local target = HIT == "rider" and rider or horse
local r = R.resolution.hit_location(target, ctx)
R.casualties.apply(target, r, ctx)
if horse.status == "charging" then R.animals.after_close_combat(horse, WINS_CLOSE_COMBAT, ctx) end
return {
  mount = horse.status or "ok",
  rider = (rider.status or "ok") .. (rider.dismounted and ", dismounted" or ""),
}
