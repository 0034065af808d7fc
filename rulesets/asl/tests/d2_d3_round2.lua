-- Issue 17 (rules fidelity, round 2), seed 004 (D2/D3): configurations no worked example reaches.
local function VM() return umpire.rules.vehicle_movement end
local function F() return umpire.rules.afv_facing end
local function E() return umpire.rules.vehicle_esb end
local function BF() return umpire.rules.bounding_first_fire end

test("D3.12: a tca step in woods costs 2 MP (doubled) and sets the TCA (item 9)", function()
  VM().setup("d2_24_bt7_reverse")
  VM().place("tank", { type = "pzkpfw_vie", hex = "2FF6", heading = 0 })
  local v = VM().begin_mph("tank")
  VM().step("tank", { kind = "tca", to = 3 })
  eq(v.mp_spent_h, 4); eq(v.tca, 3); eq(v.heading, 0)
  ok(umpire.journal.cited("D3.12"))
end)

test("D3.12: in open ground the tca step is 1 Delay MP; only while stopped (D2.17)", function()
  VM().setup("d2_misc")
  local v = VM().begin_mph("tank")
  VM().step("tank", { kind = "tca", to = 2 })
  eq(v.mp_spent_h, 2); eq(v.tca, 2)
  VM().step("tank", { kind = "start" })
  raises(function() VM().step("tank", { kind = "tca", to = 4 }) end, "D2%.17")
  eq(v.tca, 2)
end)

test("D2.52 with D2.5: a German tank in North Africa before October 1941 seeking 1½ MP: +2 (FRU) +2 German = +4 (item 10)", function()
  VM().setup("d2_misc")
  local v = VM().vehicle("tank")
  eq(E().drm(v, 3), 3, "not in North Africa: FRD, +1 +2")
  umpire.state.vehicle_map.north_africa_pre_oct41 = true
  eq(E().drm(v, 3), 4)
  ok(umpire.journal.cited("D2.52"))
end)

test("D2.321: a TCA change from a side Target Facing to the front is not 'to or through' a side: +2 (ST), not +3 (item 11)", function()
  VM().setup("d2_321_psw")
  local v = VM().vehicle("psw")
  v.tca_bypass = "side_left"
  local front = "23BB4"
  local drm = F().bypass_case_a(v, front, { commit = false })
  eq(drm, 2)
  -- front -> rear passes through a side: +1 on top of the two Target Facings
  v.tca_bypass = "front"
  eq((F().bypass_case_a(v, "23DD1", { commit = false })), F().case_a(v.turret, 2) + 1)
end)

test("D3.32: a MG that kept its Multiple ROF in the MPh may fire again in the AFPh at halved FP (item 12)", function()
  VM().setup("d2_misc")
  VM().begin_mph("tank")
  BF().fire("tank", { weapon = "CMG", fp = 4, multiple_rof_kept = true })
  local a = BF().afph("tank")
  eq(a.may_fire, true); eq(a.weapon, "CMG"); eq(a.rule, "D3.32"); eq(a.fp_factor, 0.5)
end)

describe("missing rules: implemented, or they say 'not implemented' (item 13)", function()
  test("D2.37: fire from a vehicle in Bypass is traced from its CAFP, not its hex centre", function()
    VM().setup("d2_misc")
    -- firer Bypassing L3 along hexside L3-L4, facing E: CAFP = vertex L3-L4-M4. Target in N3 facing NE.
    -- By hand (x = 1.5q, y = -sqrt3 (r + q/2)): from N3's centre the CAFP lies at 199.1 degrees, 139.1 from
    -- the NE heading: rear. From L3's centre (180 degrees, 120 from NE) the line would run along a hexspine
    -- and strike the side (least favourable to the attacker).
    local fv = {id = "f", name = "firer", hex = "L3", heading = 0, bypass = {a = "L3", b = "L4"}}
    local v = {id = "t", name = "target", hex = "N3", heading = 1, tca = 1}
    eq(F().target_facing(v, "L3"), "side")
    eq(F().target_facing(v, "L3", { firer_vehicle = fv }), "rear")
    ok(umpire.journal.cited("D2.37"))
  end)
  test("C.5B/D2.36: a CAFP between two Target Facings, and fire at PRC of a Bypass vehicle, say 'not implemented'", function()
    VM().setup("d2_321_psw")
    local v = VM().vehicle("psw")
    VM().place("other", { type = "pzkpfw_vie", hex = "23DD3", heading = 0 })
    raises(function() F().target_facing(v, "23DD3", { firer_vehicle = { id = "b", hex = "23DD3", heading = 0, bypass = { a = "23DD3", b = "23DD4" } } }) end,
      "not implemented: D2%.37/C%.5B")
    raises(function() F().target_facing(VM().vehicle("other"), "23BB3", { firer_cafp = true }) end, "not implemented: C%.5B")
    raises(function() F().embark_fire_point(v) end, "not implemented: D2%.36")
  end)
  test("D2.38: a vehicle in Bypass gets no beneficial TEM of the hex it Bypasses, except vs Residual FP", function()
    VM().setup("d2_321_psw")
    local v = VM().vehicle("psw")
    eq(F().tem(v, 1), 0); eq(F().tem(v, 1, { residual = true }), 1); eq(F().tem(v, -1), -1)
    ok(umpire.journal.cited("D2.38"))
  end)
  test("D2.4: a vehicle that starts its Player Turn in Motion may not Prep Fire", function()
    VM().setup("d2_24_bt7_reverse")
    raises(function() BF().prep_fire("bt7") end, "D2%.4")
    VM().setup("d2_misc")
    ok(BF().prep_fire("tank"))
    eq(BF().afph("tank").may_fire, false)
  end)
  test("A9.222: a Fire Lane placed vs Impulse movement attacks the other elements of the Impulse in its Locations at once", function()
    -- the A9.222 EX lane: MMG in X3, target in AA5, counter in BB5 (2 FP in Z4, AA5, BB5; 4 in Y4)
    local sc = umpire.data.scenario("a9_222")
    local map = umpire.rules.map_los.map(sc.map)
    local squad = {name = "4-6-7", kind = "squad", fp = 4, range = 6}
    local mg = umpire.rules.mg_usage.counter("ger_mmg", {hex = "X3"})
    umpire.rules.fire_lane.declare(mg, {side = "DEFENDER", phase = "MPh", crew = {squad}, range = 3})
    local e1, e2, e3 = {name = "truck 1"}, {name = "truck 2"}, {name = "truck 3"}
    local lane = umpire.rules.fire_lane.place(mg, {mg_hex = "X3", target = "AA5", counter = "BB5", map = map, crew = {squad},
      impulse = {{unit = e1, hex = "Y4", dr = {colored = 1, white = 1, total = 2, doubles = true}},
                 {unit = e2, hex = "BB5", dr = {colored = 3, white = 3, total = 6, doubles = true}},
                 {unit = e3, hex = "CC5", dr = {colored = 1, white = 1, total = 2, doubles = true}}}})
    eq(#lane.impulse_attacks, 2)
    eq(lane.impulse_attacks[1].unit, e1); eq(lane.impulse_attacks[1].attack.fp, 4)
    eq(lane.impulse_attacks[2].unit, e2); eq(lane.impulse_attacks[2].attack.fp, 2)
    ok(umpire.journal.cited("A9.222"))
  end)
end)
