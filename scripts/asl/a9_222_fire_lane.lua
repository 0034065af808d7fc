-- The A9.222 EX, played: umpire run --ruleset rulesets/asl scripts/asl/a9_222_fire_lane.lua --explain
-- (The extracted EX lists "AA6" twice; the geometry gives AA6, BB5, CC6 and EE6 - we follow the rule.)
local R, ift = umpire.rules, umpire.rules.ift
local sc = umpire.data.scenario("a9_222")
local map = R.map_los.map(sc.map)
local u = sc.units
local mmg = R.mg_usage.counter(u.mmg.counter, {hex = "X3"})
local hmg = R.mg_usage.counter(u.hmg.counter, {hex = "Y6"})
local squad = {name = u.squad.name, kind = "squad", fp = u.squad.fp, range = u.squad.range}
local crew2 = {name = u.crew2.name, kind = "squad", fp = u.crew2.fp, range = u.crew2.range}

umpire.note("3X3 declares First Fire vs an Assault-Moving unit in AA5, and a Fire Lane with the MMG.")
R.fire_lane.declare(mmg, {side = "DEFENDER", phase = "MPh", crew = {squad}, range = 3})
local drm = {}
for _, h in ipairs(R.map_los.trace(map, "X3", "AA5").hindrances) do drm[#drm + 1] = ift.drm_entry("hindrance", h.value, h.terrain .. " Hindrance") end
drm[#drm + 1] = ift.drm_entry("leadership", u.leader.leadership, "leadership")
umpire.dice.fix{4, 5}
local a = R.mg_attack.fire({label = "First Fire vs AA5", phase = "MPh", side = "DEFENDER", crew = {squad}, units = {squad},
  mgs = {mmg}, range = 3, drm = drm, residual = true, target = {units = {}, location = "AA5", mf = 1}})
local l1 = R.fire_lane.place(mmg, {mg_hex = "X3", target = "AA5", counter = "BB5", map = map, crew = {squad}})
umpire.note(string.format("Squad Residual FP in AA5: %d. Fire Lane: Y4=%d Z4=%d AA5=%d BB5=%d", a.residual,
  R.fire_lane.fp_in(l1, "Y4"), R.fire_lane.fp_in(l1, "Z4"), R.fire_lane.fp_in(l1, "AA5"), R.fire_lane.fp_in(l1, "BB5")))

umpire.note("A unit then uses non-Assault movement in AA5.")
umpire.dice.fix{4, 4, 5, 5}
R.fire_lane.resolve_location({{name = "Russian 4-4-7", morale = 7}}, "AA5", {fp = a.residual, drm = {ift.drm_entry("ffnam")}},
  {{lane = l1, mg = mmg, opts = {movement = {"ffnam", "ffmo"}}}}, map)

umpire.note("Y6: the HMG declares First Fire vs BB5 and a Fire Lane; only the left Alternate Hex Grain includes BB5.")
R.fire_lane.declare(hmg, {side = "DEFENDER", phase = "MPh", crew = {crew2}, range = 3})
umpire.dice.fix{4, 6}
R.mg_attack.fire({label = "First Fire vs BB5", phase = "MPh", side = "DEFENDER", crew = {crew2}, mgs = {hmg}, range = 3,
  drm = {ift.drm_entry("tem", 1, "woods TEM")}, target = {units = {}, location = "BB5", mf = 1}})
local l2 = R.fire_lane.place(hmg, {mg_hex = "Y6", target = "BB5", counter = "EE6", side = "left", map = map, crew = {crew2}})
local t = {}
for _, e in ipairs(l2.hexes) do t[#t + 1] = tostring(e.hex) .. "=" .. e.fp end
umpire.note("HMG Fire Lane Residual FP: " .. table.concat(t, ", "))
umpire.note(string.format("DRM vs a unit in EE6: %+d (wreck Hindrance); in CC6: %+d (wreck TEM)",
  ift.drm(R.fire_lane.drm(l2, map, umpire.hex.asl("EE6"), {name = "u"}, {}), "HMG Fire Lane Residual FP in EE6 DRM"),
  ift.drm(R.fire_lane.drm(l2, map, umpire.hex.asl("CC6"), {name = "u"}, {}), "HMG Fire Lane Residual FP in CC6 DRM")))
umpire.note("Both Fire Lanes merge in BB5: each is resolved separately.")
umpire.dice.fix{5, 4, 4, 5}
R.fire_lane.resolve_location({{name = "Russian 4-4-7", morale = 7}}, "BB5", nil, {{lane = l1, mg = mmg}, {lane = l2, mg = hmg}}, map)
return {mmg_lane = R.fire_lane.fp_in(l1, "BB5"), hmg_lane_EE6 = R.fire_lane.fp_in(l2, "EE6"), hmg_lane_DD5 = R.fire_lane.fp_in(l2, "DD5")}
