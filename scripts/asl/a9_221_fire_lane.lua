-- The A9.221 EX, played: umpire run --ruleset rulesets/asl scripts/asl/a9_221_fire_lane.lua --explain
local R = umpire.rules
local sc = umpire.data.scenario("a9_221")
local map = R.map_los.map(sc.map)
local out = {}
for _, side in ipairs({"left", "right"}) do
  local mg = R.mg_usage.counter(sc.units.mg.counter, {hex = sc.units.mg.hex})
  local crew = {name = sc.units.crew.name, kind = "squad", fp = sc.units.crew.fp, range = sc.units.crew.range}
  umpire.note(string.format("%s in 21L8 declares a Fire Lane with its First Fire at K7 (%s Alternate Hex Grain).", mg.name, side))
  R.fire_lane.declare(mg, {side = "DEFENDER", phase = "MPh", crew = {crew}, range = 2})
  umpire.dice.fix{4, 4}
  R.mg_attack.fire({label = "First Fire vs K7", phase = "MPh", side = "DEFENDER", crew = {crew}, mgs = {mg}, range = 2,
    target = {units = {}, location = "K7", mf = 1}})
  local lane = R.fire_lane.place(mg, {mg_hex = "L8", target = "K7", counter = "J5", side = side, map = map, crew = {crew}})
  local t = {}
  for _, e in ipairs(lane.hexes) do t[#t + 1] = tostring(e.hex) .. "=" .. e.fp end
  umpire.note("Fire Lane Residual FP: " .. table.concat(t, ", "))
  out[side] = table.concat(t, " ")
  if side == "right" then
    local drm = R.ift.drm(R.fire_lane.drm(lane, map, umpire.hex.asl("K6"), {name = "unit in K6"}, {}),
      "Fire Lane Residual FP in K6 DRM")
    umpire.note(string.format("A unit attacked in K6 receives %+d (wall TEM).", drm))
  else
    umpire.note("A unit Assault Moving from K6 to J6: the Defender compares a Snap Shot and a normal attack in J6.")
    umpire.dice.fix{3, 4}
    local snap = R.fire_lane.snap_shot(lane, mg, map, {name = "German 4-6-7"}, "K6", "J6", {movement = {"ffmo"}})
    local lane2 = {} for k, v in pairs(lane) do lane2[k] = v end
    lane2.attacked, lane2.snapped = {}, {}
    umpire.dice.fix{3, 4}
    local normal = R.fire_lane.attack(lane2, mg, map, {name = "German 4-6-7 (alternative)"}, "J6", {movement = {"ffmo"}})
    umpire.note(string.format("Snap Shot: %d FP %+d DRM; normal attack in J6: %d FP %+d DRM (the better attack).", snap.fp, snap.drm, normal.fp, normal.drm))
  end
end
return out
