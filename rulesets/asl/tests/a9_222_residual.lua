-- A9.222 EX (scenarios/a9_222.yaml), all three paragraphs.
-- The extracted EX lists "four Residual FP in AA6, BB5, CC6 and AA6": the geometry of the left Alternate Hex
-- Grain from Y6 to EE6 (Z5, AA6, BB5, CC6, DD5, EE6) and the rest of the EX (a target in EE6) give
-- AA6, BB5, CC6 and EE6; we follow the rule, not the typo.
local FL = function() return umpire.rules.fire_lane end
local function setup(extra)
  local sc = umpire.data.scenario("a9_222")
  local m = {hexes = {}, hexsides = sc.map.hexsides}
  for k, v in pairs(sc.map.hexes) do m.hexes[k] = v end
  for k, v in pairs(extra or {}) do m.hexes[k] = v end
  local u = sc.units
  local s = {map = umpire.rules.map_los.map(m), sc = sc,
    mmg = umpire.rules.mg_usage.counter(u.mmg.counter, {hex = "X3"}),
    hmg = umpire.rules.mg_usage.counter(u.hmg.counter, {hex = "Y6"}),
    squad = {name = u.squad.name, kind = "squad", fp = u.squad.fp, range = u.squad.range, cx = false},
    leader = {name = u.leader.name, kind = "leader", leadership = u.leader.leadership},
    crew2 = {name = u.crew2.name, kind = "squad", fp = u.crew2.fp, range = u.crew2.range}}
  return s
end

-- the First Fire attack of paragraph 1: squad + MMG at an Assault-Moving target in AA5
local function first_fire(s, cx, dice)
  local ift = umpire.rules.ift
  FL().declare(s.mmg, {side = "DEFENDER", phase = "MPh", crew = {s.squad}, range = 3})
  local tr = umpire.rules.map_los.trace(s.map, "X3", "AA5")
  local drm = {}
  for _, h in ipairs(tr.hindrances) do drm[#drm + 1] = ift.drm_entry("hindrance", h.value, h.terrain .. " Hindrance") end
  drm[#drm + 1] = ift.drm_entry("leadership", s.leader.leadership, "leadership (8-1)")
  if cx then drm[#drm + 1] = ift.drm_entry("cx") end
  umpire.dice.fix(dice or {4, 5})
  local a = umpire.rules.mg_attack.fire({label = "First Fire vs AA5", phase = "MPh", side = "DEFENDER",
    crew = {s.squad}, units = {s.squad}, mgs = {s.mmg}, range = 3, drm = drm, residual = true,
    target = {units = {{name = "target"}}, location = "AA5", mf = 1}})
  local l = FL().place(s.mmg, {mg_hex = "X3", target = "AA5", counter = "BB5", map = s.map, crew = {s.squad}})
  return a, l
end

test("A9.222 EX: 8 FP and a 0 DRM (+1 grain Hindrance -1 leadership); 2 FP lane in Z4, AA5, BB5 plus 4 in Y4", function()
  local s = setup()
  local a, l = first_fire(s)
  eq(a.column, 8); eq(a.drm, 0)
  eq(FL().fp_in(l, "Y4"), 4); eq(FL().fp_in(l, "Z4"), 2); eq(FL().fp_in(l, "AA5"), 2); eq(FL().fp_in(l, "BB5"), 2)
  eq(s.mmg.fire_counter, "First Fire")
  ok(umpire.journal.cited("A9.22")); ok(umpire.journal.cited("A7.31"))
end)

test("A9.222 EX: the squad's FP leaves one normal Residual FP in AA5 (8.21; 8.26)", function()
  local s = setup()
  local a = first_fire(s)
  eq(a.residual, 1)
  ok(umpire.journal.cited("A8.21"))
end)

test("A9.222 EX: a CX 4-6-7 gives +1 DRM, the squad's Residual FP drops to zero, the Fire Lane is unaffected", function()
  local s = setup()
  local a, l = first_fire(s, true)
  eq(a.drm, 1); eq(a.residual, 0)
  eq(FL().fp_in(l, "AA5"), 2); eq(FL().fp_in(l, "BB5"), 2)
end)

test("A9.222 EX: non-Assault movement in AA5: first the 1 Residual FP (-1 FFNAM), then the lane's 2 FP (-1 FFNAM)", function()
  local s = setup()
  local a, l = first_fire(s)
  local unit = {name = "Russian 4-4-7", morale = 7}
  local ift = umpire.rules.ift
  umpire.dice.fix{4, 4, 4, 4}
  local out = FL().resolve_location({unit}, "AA5", {fp = a.residual, drm = {ift.drm_entry("ffnam")}},
    {{lane = l, mg = s.mmg, opts = {movement = {"ffnam", "ffmo"}}}}, s.map)
  eq(#out, 2)
  eq(out[1].fp, 1); eq(out[1].drm, -1)
  eq(out[2].fp, 2); eq(out[2].drm, -1) -- grain: no DRM to the lane, but cancels FFMO
  ok(umpire.journal.cited("A9.222"))
end)

test("A9.222 EX: a +3 SMOKE in X3 does not affect the two Fire Lane Residual FP in BB5", function()
  local s = setup({X3 = "smoke"})
  local a, l = first_fire(s)
  eq(FL().fp_in(l, "BB5"), 2)
  -- the SMOKE and grain DRM from X3 to BB5 would total +4 here (the EX's +6 counts more Hindrances)
  local tr = umpire.rules.map_los.trace(s.map, "X3", "BB5")
  local sum = 0
  for _, h in ipairs(tr.hindrances) do sum = sum + h.value end
  ok(sum >= 4)
end)

local function hmg_lane(s, side, counter)
  FL().declare(s.hmg, {side = "DEFENDER", phase = "MPh", crew = {s.crew2}, range = 3})
  return FL().place(s.hmg, {mg_hex = "Y6", target = "BB5", counter = counter or "EE6", side = side, map = s.map, crew = {s.crew2}})
end

test("A9.222 EX: a Fire Lane vs BB5 from Y6 must use the left Alternate Hex Grain", function()
  local s = setup()
  eq(umpire.hex.grain(umpire.hex.asl("Y6"), umpire.hex.asl("BB5")), false)
  local l, why = hmg_lane(s, "right")
  eq(l, nil); ok(why:find("does not include"))
  local s2 = setup()
  ok(hmg_lane(s2, "left"))
end)

test("A9.222 EX: counter in EE6: 4 Residual FP in AA6, BB5, CC6 and EE6 (text typo 'AA6'), 8 in Z5, none in DD5 (woods BB5)", function()
  local s = setup()
  local l = hmg_lane(s, "left")
  eq(FL().fp_in(l, "Z5"), 8)
  eq(FL().fp_in(l, "AA6"), 4); eq(FL().fp_in(l, "BB5"), 4); eq(FL().fp_in(l, "CC6"), 4); eq(FL().fp_in(l, "EE6"), 4)
  eq(FL().fp_in(l, "DD5"), 0)
  ok(umpire.journal.cited("A9.22"))
end)

test("A9.222 EX: +1 wreck Hindrance DRM vs a target in EE6; +1 wreck TEM vs Infantry in CC6", function()
  local s = setup()
  local l = hmg_lane(s, "left")
  local ift = umpire.rules.ift
  eq(ift.drm(FL().drm(l, s.map, umpire.hex.asl("EE6"), {name = "u"}, {})), 1)
  eq(ift.drm(FL().drm(l, s.map, umpire.hex.asl("CC6"), {name = "u"}, {})), 1)
  local list = FL().drm(l, s.map, umpire.hex.asl("EE6"), {name = "u"}, {})
  eq(list[1].kind, "hindrance")
  list = FL().drm(l, s.map, umpire.hex.asl("CC6"), {name = "u"}, {})
  eq(list[1].kind, "tem")
end)

test("A9.222 EX: a wreck in DD5 would give no Hindrance DRM vs a target in EE6 (D9.4)", function()
  local s = setup({CC6 = "open", DD5 = "wreck"})
  local l = hmg_lane(s, "left")
  eq(umpire.rules.ift.drm(FL().drm(l, s.map, umpire.hex.asl("EE6"), {name = "u"}, {})), 0)
end)

test("A9.222 EX: two Fire Lanes merge in BB5: both are resolved unless the first eliminates all targets", function()
  local s = setup()
  local _, l1 = first_fire(s)
  local l2 = hmg_lane(s, "left")
  local unit = {name = "Russian 4-4-7", morale = 7}
  umpire.dice.fix{4, 4, 4, 4}
  local out = FL().resolve_location({unit}, "BB5", nil, {{lane = l1, mg = s.mmg}, {lane = l2, mg = s.hmg}}, s.map)
  eq(#out, 2); eq(out[1].fp, 2); eq(out[2].fp, 4)
  local s2 = setup({BB5 = "open"}) -- (in the open, so that one Fire Lane attack can eliminate the target)
  local _, m1 = first_fire(s2)
  local m2 = hmg_lane(s2, "left")
  local dead = {name = "x", morale = 7}
  umpire.dice.fix{1, 1}   -- DR 2 -2 (FFNAM, FFMO) on the 2 column: 2KIA eliminates the lone unit
  local mv = {movement = {"ffnam", "ffmo"}}
  out = FL().resolve_location({dead}, "BB5", nil, {{lane = m1, mg = s2.mmg, apply = true, opts = mv}, {lane = m2, mg = s2.hmg, apply = true, opts = mv}}, s2.map)
  eq(dead.eliminated, true); eq(#out, 1)
end)

test("A9.222 EX: obstacles in Z5 do not prevent the lane to EE6 but prohibit attacks where Y6 has no LOS", function()
  local s = setup({Z5 = "woods"})
  local l = hmg_lane(s, "left")
  ok(l)
  eq(FL().fp_in(l, "AA6"), 4); eq(FL().fp_in(l, "CC6"), 4); eq(FL().fp_in(l, "EE6"), 4)
  eq(FL().fp_in(l, "BB5"), 0); eq(FL().fp_in(l, "DD5"), 0)
end)

test("A9.222: Fire Lane Residual FP is never reduced by DRM and takes no CX/leader DRM", function()
  local s = setup()
  local l = hmg_lane(s, "left")
  local list = FL().drm(l, s.map, umpire.hex.asl("AA6"), {name = "u", cx = true}, {})
  eq(#list, 0)
  ok(umpire.journal.cited("A9.222"))
end)

test("A9.222/A9.223: a unit moving along the Fire Lane is attacked in each Location until the MG malfunctions", function()
  local s = setup()
  local _, l = first_fire(s)
  local unit = {name = "Russian 4-4-7", morale = 7}
  local path = {{hex = "Y4", movement = {"ffnam"}}, {hex = "Z4", movement = {"ffnam"}}, {hex = "AA5", movement = {"ffnam"}}}
  -- Y4: 4 FP, DR 4+5 = 9 -1 FFNAM = 8 on the 4 column: No Effect; Z4: DR 6+5 = 11 >= B11: the MMG malfunctions and
  -- the lane is removed (A9.223), the attack still resolved: Final DR 10, No Effect; AA5 is never attacked.
  umpire.dice.fix{4, 5, 6, 5}
  local run = FL().move_through(l, s.mmg, s.map, unit, path)
  eq(run.entered, 2)
  eq(run.attacks, 2)
  eq(run.lane_removed, true)
  eq(l.active, false)
  eq(s.mmg.malfunctioned, true)
  ok(umpire.journal.cited("A9.223"))
  -- a unit that breaks stops where it broke
  local s2 = setup()
  local _, l2 = first_fire(s2)
  local u2 = {name = "Russian 4-4-7", morale = 7}
  -- Y4: DR 3+2 = 5 -1 = 4 on the 4 column: 1MC; MC DR 6+1 = 7 +1 = 8 > 7: broken, so it enters no further
  umpire.dice.fix{3, 2, 6, 1}
  local run2 = FL().move_through(l2, s2.mmg, s2.map, u2, path)
  eq(run2.entered, 1)
  eq(u2.broken, true)
  eq(run2.lane_removed, false)
end)
