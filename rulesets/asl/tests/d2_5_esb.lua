-- D2.5-D2.52: Excessive Speed Breakdown and Mechanical Reliability.
local function VM() return umpire.rules.vehicle_movement end
local function E() return umpire.rules.vehicle_esb end

local function moving_bt7()
  VM().setup("d2_24_bt7_reverse")
  return VM().begin_mph("bt7")
end

test("D2.5: ESB for 3 MP by the (Russian) BT-7 M37: DR 7 +3 +1 = 11 succeeds and gains 3 MP", function()
  local v = moving_bt7()
  umpire.dice.fix{ 4, 3 }
  VM().step("bt7", { kind = "esb", mp = 3 })
  eq(v.esb_h, 6); eq(v.immobile, false)
  eq(VM().remaining_h(v), 26 * 2)
  ok(umpire.journal.cited("D2.5"))
end)

test("D2.5: Final ESB DR >= 12 immobilizes the vehicle where it is", function()
  local v = moving_bt7()
  umpire.dice.fix{ 5, 3 }             -- 8 + 3 + 1 = 12
  VM().step("bt7", { kind = "esb", mp = 3 })
  eq(v.immobile, true); eq(v.esb_h, 0)
  raises(function() VM().step("bt7", { kind = "vca", turn = 1 }) end, "immobilized")
end)

test("D2.5: once per MPh (error, state unchanged); at most one-fourth (FRD) of the allotment", function()
  local v = moving_bt7()
  raises(function() VM().step("bt7", { kind = "esb", mp = 6 }) end, "D2%.5.*one%-fourth")   -- 23/4 FRD = 5
  umpire.dice.fix{ 1, 1 }
  VM().step("bt7", { kind = "esb", mp = 5 })
  local before = { v.esb_h, v.mp_spent_h, v.esb_used }
  raises(function() VM().step("bt7", { kind = "esb", mp = 1 }) end, "D2%.5.*once per MPh")
  eq({ v.esb_h, v.mp_spent_h, v.esb_used }, before)
end)

test("D2.5: +1 per MP sought FRD, FRU for a red MP allotment; manufacturer nationality DRM", function()
  VM().setup("d2_misc")
  local red = VM().place("red", { type = "test_red_tank", hex = "A1", heading = 0 })   -- French, red MP
  local bt7 = VM().place("bt7", { type = "bt7_m37", hex = "A2", heading = 0 })         -- Russian
  eq(E().drm(bt7, 3), 1 + 1, "1½ MP FRD: +1, Russian +1")
  eq(E().drm(red, 3), 2 + 3, "1½ MP FRU (red): +2, French +3")
  local tiger = VM().vehicle("tank")
  eq(E().drm(tiger, 4), 2 + 2, "German +2")
  eq(E().max_gain_h(tiger), 6, "12/4 = 3 MP")
end)

test("D2.5: only tracked vehicles may attempt ESB", function()
  VM().setup("d2_misc")
  VM().place("psw", { type = "psw_234_2", hex = "A3", heading = 0, motion = true })
  VM().begin_mph("psw")
  raises(function() VM().step("psw", { kind = "esb", mp = 1 }) end, "D2%.5.*tracked")
end)

test("D2.51: a red-MP AFV rolls for Mechanical Reliability on each start; a 12 immobilizes it (the Starting MP is spent)", function()
  VM().setup("d2_misc")
  local v = VM().place("red", { type = "test_red_tank", hex = "A1", heading = 0 })
  VM().begin_mph("red")
  local dff = 0
  umpire.bus.on("defensive_first_fire_opportunity", function() dff = dff + 1 end)
  umpire.dice.fix{ 6, 5 }
  VM().step("red", { kind = "start" })
  eq(v.immobile, false)
  VM().step("red", { kind = "stop" })
  umpire.dice.fix{ 6, 6 }
  VM().step("red", { kind = "start" })
  eq(v.immobile, true); eq(v.mp_spent_h, 6)
  eq(dff, 3, "subject to Defensive First Fire after the Starting MP")
  ok(umpire.journal.cited("D2.51"))
end)

test("D2.52: Axis vehicles in North Africa before October 1941 count as red MP", function()
  VM().setup("d2_misc")
  local v = VM().vehicle("tank")
  eq(E().needs_reliability_dr(v), false)
  umpire.state.vehicle_map.north_africa_pre_oct41 = true
  eq(E().needs_reliability_dr(v), true)
  eq(E().needs_reliability_dr(VM().vehicle("enemy")), false, "a Russian BT-7 is not Axis")
end)
