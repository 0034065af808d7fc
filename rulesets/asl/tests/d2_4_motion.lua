-- D2.4-D2.42: Motion status, Motion attempts and their consequences; D2.6 enemy AFV hex.
local function VM() return umpire.rules.vehicle_movement end
local function G() return umpire.rules.vehicle_geometry end
local function Mo() return umpire.rules.vehicle_motion end

-- A PzKpfw VIE in A8 facing the E vertex, driven east along row 8 (Open Ground, 1 MP a hex).
local function drive(n)
  VM().setup("d2_misc")
  local v = VM().place("t", { type = "pzkpfw_vie", hex = "A8", heading = 0 })
  VM().begin_mph("t")
  VM().step("t", { kind = "start" })
  for i = 1, n do
    local f = G().front_hexes(v.hex, v.heading)
    VM().step("t", { kind = "enter", to = f[(i % 2 == 1) and 1 or 2] })
  end
  return v
end

test("D2.4: a vehicle that uses its entire MP allotment without a Stopping MP ends in Motion", function()
  local v = drive(11)
  eq(v.mp_spent_h, 24)
  eq(VM().end_mph("t"), "motion")
  ok(v.motion); ok(umpire.journal.cited("D2.4"))
end)

test("D2.4: with MP left it must stop, unless too few remain to enter the next hex it wishes to enter", function()
  local v = drive(3)
  raises(function() VM().end_mph("t") end, "D2%.4")
  local f = G().front_hexes(v.hex, v.heading)
  raises(function() VM().end_mph("t", { next = f[1] }) end, "D2%.4.*enough")
  eq(v.motion, false)
  VM().step("t", { kind = "stop" })
  eq(VM().end_mph("t"), "stopped")
end)

test("D2.4: a Motion vehicle pays no Starting MP, is a moving target, and must spend at least one MP", function()
  VM().setup("d2_24_bt7_reverse")
  local v = VM().begin_mph("bt7")
  ok(Mo().is_moving_target(v))
  raises(function() VM().end_mph("bt7") end, "D2%.4.*at least one MP")
  VM().step("bt7", { kind = "enter", to = "2FF4" })
  eq(v.mp_spent_h, 2, "no Starting MP")
end)

test("D2.6: a vehicle may not stop (nor attempt ESB) in an enemy AFV's hex unless it can kill it on a 5", function()
  VM().setup("d2_misc")
  local v = VM().place("t", { type = "pzkpfw_vie", hex = "G5", heading = 0, motion = true })
  VM().begin_mph("t")
  VM().step("t", { kind = "enter", to = "H5" })
  eq(v.mp_spent_h, 4, "1 [Open Ground] + 1 [vehicle in the hex] (D2.14)")
  local before = v.mp_spent_h
  raises(function() VM().step("t", { kind = "stop" }) end, "D2%.6")
  raises(function() VM().step("t", { kind = "esb", mp = 1 }) end, "D2%.6")
  eq(v.mp_spent_h, before); eq(v.moving, true); eq(v.esb_used, false)
  VM().step("t", { kind = "stop", can_kill_on_5 = true })
  eq(v.moving, false)
end)

test("D2.401: a DEFENDING vehicle gains Motion on a dr <= the MP spent in its LOS, once per enemy MPh", function()
  VM().setup("d2_misc")
  local v = VM().vehicle("enemy")
  umpire.dice.fix{ 3 }
  local r = Mo().motion_attempt(v, { mp_in_los = 4, heading = 3 })
  eq(r.success, true); eq(v.motion, true); eq(v.heading, 3)
  raises(function() Mo().motion_attempt(v, { mp_in_los = 6 }) end, "D2%.401.*once")
  VM().setup("d2_misc")
  v = VM().vehicle("enemy")
  umpire.dice.fix{ 5 }
  eq(Mo().motion_attempt(v, { mp_in_los = 4 }).success, false)
  VM().setup("d2_misc")
  v = VM().vehicle("enemy"); v.first_fire = true
  raises(function() Mo().motion_attempt(v, { mp_in_los = 4 }) end, "First Fire")
  VM().setup("d2_misc")
  v = VM().vehicle("enemy")
  umpire.dice.fix{ 1 }
  eq(Mo().motion_attempt(v, { mp_in_los = 4, seen_before = true }).success, false)
end)

test("D2.401/D2.51: a successful Motion attempt by a red-MP AFV that rolls a 12 gives neither Motion nor VCA change", function()
  VM().setup("d2_misc")
  local v = VM().place("red", { type = "test_red_tank", side = "DEFENDER", hex = "A1", heading = 0 })
  umpire.dice.fix{ 2, 6, 6 }
  local r = Mo().motion_attempt(v, { mp_in_los = 3, heading = 2 })
  eq(r.success, false); eq(v.immobile, true); eq(v.motion, false); eq(v.heading, 0)
end)

test("D2.41/D2.42: Motion target Case J +2; a Motion firer uses Case C4 for ordnance and halves other FP", function()
  VM().setup("d2_misc")
  local v = VM().vehicle("enemy")
  eq(Mo().target_drm(v, "ordnance"), 0)
  v.motion = true
  eq(Mo().target_drm(v, "ordnance"), 2)
  eq(Mo().target_drm(v, "cc"), 2)
  eq(Mo().target_drm(v, "ift"), 0)
  eq(Mo().firing(v, "ordnance").case, "C4")
  eq(Mo().firing(v, "mg").fp_factor, 0.5)
  eq(Mo().firing(v, "thrown_dc").drm, 3)
end)
