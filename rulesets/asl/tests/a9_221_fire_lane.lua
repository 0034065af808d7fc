-- A9.22/A9.221/A9.223 spec tests, built on the A9.221 EX (scenarios/a9_221.yaml).
local function setup(extra)
  local sc = umpire.data.scenario("a9_221")
  local m = {hexes = {}, hexsides = sc.map.hexsides}
  for k, v in pairs(sc.map.hexes) do m.hexes[k] = v end
  for k, v in pairs(extra or {}) do m.hexes[k] = v end
  local map = umpire.rules.map_los.map(m)
  local mg = umpire.rules.mg_usage.counter(sc.units.mg.counter, {hex = "L8"})
  local crew = {name = sc.units.crew.name, kind = "squad"}
  return map, mg, crew
end
local FL = function() return umpire.rules.fire_lane end
local function lane(side, extra)
  local map, mg, crew = setup(extra)
  FL().declare(mg, {side = "DEFENDER", phase = "MPh", crew = {crew}, range = 2})
  local l = FL().place(mg, {mg_hex = "L8", target = "K7", counter = "J5", side = side, map = map, crew = {crew}})
  return l, mg, map, crew
end

test("A9.221 EX: left Alternate Hex Grain: 4 Residual FP in 21K8 (PBF), 2 in K7 and J6, none in J5 (wall vertex)", function()
  local l = lane("left")
  ok(l, "lane placed")
  eq(FL().fp_in(l, "K8"), 4); eq(FL().fp_in(l, "K7"), 2); eq(FL().fp_in(l, "J6"), 2); eq(FL().fp_in(l, "J5"), 0)
  eq(FL().fp_in(l, "L7"), 0); eq(FL().fp_in(l, "K6"), 0)
  ok(umpire.journal.cited("A9.22")); ok(umpire.journal.cited("A7.3") == false or true)
end)

test("A9.221 EX: right Alternate Hex Grain: 4 in L7, 2 in K7 and K6 (K6 with wall TEM), none in J5", function()
  local l, mg, map, crew = lane("right")
  eq(FL().fp_in(l, "L7"), 4); eq(FL().fp_in(l, "K7"), 2); eq(FL().fp_in(l, "K6"), 2); eq(FL().fp_in(l, "J5"), 0)
  local drm = umpire.rules.ift.drm(FL().drm(l, map, umpire.hex.asl("K6"), {name = "u"}, {}))
  eq(drm, 2, "wall TEM in K6")
end)

test("A9.221 EX: the K6-J6-K7 wall vertex blocks the LOS from L8 to J5", function()
  local map = setup()
  local tr = umpire.rules.map_los.trace(map, "L8", "J5")
  eq(tr.clear, false)
  ok(tr.blocked_by:find("wall"))
  eq(umpire.rules.map_los.trace(map, "L8", "J6").clear, true)
end)

test("A9.221 EX: Assault Moving K6 -> J6: Snap Shot at the K6-J6 hexside with Wall TEM, or a normal attack in J6 with -1 FFMO", function()
  local l, mg, map = lane("left")
  local unit = {name = "German 4-6-7", morale = 7}
  umpire.dice.fix{3, 4}
  local snap = FL().snap_shot(l, mg, map, unit, "K6", "J6", {movement = {"ffmo"}})
  eq(snap.fp, 2); eq(snap.drm, 2)
  ok(umpire.journal.cited("A9.221"))
  -- the normal attack instead (a fresh lane: the Snap Shot forbids a second attack in J6)
  local l2, mg2, map2 = lane("left")
  umpire.dice.fix{3, 4}
  local a = FL().attack(l2, mg2, map2, {name = "German 4-6-7b", morale = 7}, "J6", {movement = {"ffmo"}})
  eq(a.fp, 2); eq(a.drm, -1)
end)

test("A9.221: after a Snap Shot the unit cannot be attacked again by that lane in the Location it enters unless it expends further MF", function()
  local l, mg, map = lane("left")
  local unit = {name = "u", morale = 7}
  umpire.dice.fix{3, 4, 3, 4}
  ok(FL().snap_shot(l, mg, map, unit, "K6", "J6", {}))
  eq(FL().attack(l, mg, map, unit, "J6", {}), nil)
  ok(FL().attack(l, mg, map, unit, "J6", {further_mf = true}))
end)

test("A9.221 EX: a unit starting in J6 and moving to K6 can only be Snap-Shot; NA if the lane already attacked it in J6", function()
  local l, mg, map = lane("left")
  local unit = {name = "u", morale = 7}
  umpire.dice.fix{3, 4}
  ok(FL().snap_shot(l, mg, map, unit, "J6", "K6", {}))
  eq(FL().fp_in(l, "K6"), 0)
  local l2, mg2, map2 = lane("left")
  local unit2 = {name = "v", morale = 7}
  umpire.dice.fix{3, 4}
  FL().attack(l2, mg2, map2, unit2, "J6", {})
  eq(FL().snap_shot(l2, mg2, map2, unit2, "J6", "K6", {}), nil)
end)

test("A9.221 EX: with an obstacle in K8 there is no LOS to J6, but the Snap Shot at J6-K6 still occurs", function()
  local l, mg, map = lane("left", {K8 = "woods"})
  eq(FL().fp_in(l, "J6"), 0)
  eq(FL().fp_in(l, "K7"), 2)
  umpire.dice.fix{3, 4}
  ok(FL().snap_shot(l, mg, map, {name = "u", morale = 7}, "J6", "K6", {}))
end)

test("A9.221: a hexside not on the LOF gives no Snap Shot; Hex-Grain lanes have none", function()
  local l, mg, map = lane("left")
  eq(FL().snap_shot(l, mg, map, {name = "u"}, "K7", "J6", {}), nil)
end)

test("A9.22: Fire Lane declaration conditions", function()
  local map, mg, crew = setup()
  raises(function() FL().declare(mg, {side = "ATTACKER", phase = "PFPh", crew = {crew}, range = 2}) end, "A9.22")
  raises(function() FL().declare(mg, {side = "DEFENDER", phase = "MPh", crew = {crew}, range = 0}) end, "TPBF")
  raises(function() FL().declare(mg, {side = "DEFENDER", phase = "MPh", crew = {crew}, range = 11}) end, "Normal Range")
  raises(function() FL().declare(mg, {side = "DEFENDER", phase = "MPh", crew = {{name = "p", pinned = true}}, range = 2}) end, "unpinned")
  raises(function() FL().declare(mg, {side = "DEFENDER", phase = "MPh", crew = {crew}, range = 2, target_level = 1}) end, "same level")
  mg.fire_counter = "First Fire"
  raises(function() FL().declare(mg, {side = "DEFENDER", phase = "MPh", crew = {crew}, range = 2}) end, "already marked")
end)

test("A9.22: no lane if the crew Cowered/used SFF; an illegal counter is removed but the First Fire counter stays", function()
  local map, mg, crew = setup()
  FL().declare(mg, {side = "DEFENDER", phase = "MPh", crew = {crew}, range = 2})
  eq(FL().place(mg, {mg_hex = "L8", target = "K7", counter = "J5", side = "left", map = map, cowered = true}), nil)
  eq(mg.fire_counter, "First Fire")
  local map2, mg2, crew2 = setup()
  FL().declare(mg2, {side = "DEFENDER", phase = "MPh", crew = {crew2}, range = 2})
  local l, why = FL().place(mg2, {mg_hex = "L8", target = "K7", counter = "K6", side = "left", map = map2})
  eq(l, nil); ok(why:find("hexspine"))
  eq(mg2.fire_counter, "First Fire")
end)

test("A9.223: the lane is removed when the MG malfunctions on a Fire Lane Residual FP attack DR, crew pinned, end of MPh, TPBF", function()
  local l, mg, map = lane("left")
  umpire.dice.fix{6, 5} -- Original DR 11 >= B11 of the Russian MMG
  local a = FL().attack(l, mg, map, {name = "u", morale = 7}, "K7", {})
  eq(a.lane_malfunction.malfunctioned, true)
  eq(l.active, false)
  ok(umpire.journal.cited("A9.223"))
  local l2, mg2, map2, crew2 = lane("left")
  crew2.pinned = true
  FL().on_event(l2, mg2, {kind = "crew"})
  eq(l2.active, false)
  local l3, mg3 = lane("left")
  FL().on_event(l3, mg3, {kind = "tpbf", armored_no_prc = true})
  eq(l3.active, true)
  FL().on_event(l3, mg3, {kind = "tpbf"})
  eq(l3.active, false); eq(mg3.fire_lane, nil)
  local l4, mg4 = lane("left")
  FL().on_event(l4, mg4, {kind = "end_mph"}); eq(l4.active, false)
end)

test("A9.22: a MG that established a Fire Lane may not fire again until the DFPh", function()
  local l, mg = lane("left")
  raises(function() umpire.rules.mg_attack.fire({phase = "MPh", side = "DEFENDER", mgs = {mg}, range = 2}) end, "A9.22")
end)
