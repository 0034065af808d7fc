-- D2.2-D2.24: Reverse Movement, its restriction to the rear Target Facing hexes, Reverse Motion.
local function VM() return umpire.rules.vehicle_movement end
local function G() return umpire.rules.vehicle_geometry end
local function N(x) return G().name(x) end

test("D2.22: the rear Target Facing hexes of the BT-7 M37 in 2FF5 with VCA FF4-GG5 are FF6 and EE6", function()
  VM().setup("d2_24_bt7_reverse")
  local v = VM().vehicle("bt7")
  eq(VM().vca_name(v), N("2FF4") .. "-" .. N("2GG5"))
  local r = umpire.rules.vehicle_reverse.rear_hexes(v)
  local names = { N(r[1]), N(r[2]) }; table.sort(names)
  local want = { N("2EE6"), N("2FF6") }; table.sort(want)
  eq(names, want)
end)

test("D2.24 EX: stop 1 + start 1 + Reverse into hill hex EE6 4 x (1 + 4) = 20: 22 MP, then one more MP to stop", function()
  VM().setup("d2_24_bt7_reverse")
  local v = VM().begin_mph("bt7")
  VM().move("bt7", { { kind = "stop" }, { kind = "start", reverse = true }, { kind = "reverse", to = "2EE6" } })
  eq(v.mp_spent_h, 44)                        -- 22 MP
  eq(N(v.hex), N("2EE6"))
  eq(VM().vca_name(v), N("2EE5") .. "-" .. N("2FF5"), "the VCA keeps its direction when backing")
  ok(umpire.journal.cited("D2.21"))
  ok(umpire.journal.cited("D2.23"))
  VM().step("bt7", { kind = "stop" })
  eq(v.mp_spent_h, 46)                        -- "plus one more MP to stop"
  eq(VM().end_mph("bt7"), "stopped")
end)

test("D2.24 EX: ... or end the MPh in Reverse Motion without the Stopping MP, lacking MP for the next hex", function()
  VM().setup("d2_24_bt7_reverse")
  local v = VM().begin_mph("bt7")
  VM().move("bt7", { { kind = "stop" }, { kind = "start", reverse = true }, { kind = "reverse", to = "2EE6" } })
  -- the next hex it wants is EE7 behind it: 4 x 1 = 4 MP, more than it has left
  eq(VM().end_mph("bt7", { next = "2EE7" }), "reverse_motion")
  ok(v.motion and v.reverse_motion)
  ok(umpire.journal.cited("D2.24"))
end)

test("D2.23: forward-to-Reverse needs a stop and a new start (error, state unchanged)", function()
  VM().setup("d2_24_bt7_reverse")
  local v = VM().begin_mph("bt7")
  local before = v.mp_spent_h
  raises(function() VM().step("bt7", { kind = "reverse", to = "2EE6" }) end, "D2%.23")
  eq(v.mp_spent_h, before); eq(N(v.hex), N("2FF5"))
end)

test("D2.22: Reverse Movement into a hex outside the rear Target Facing is illegal (state unchanged)", function()
  VM().setup("d2_24_bt7_reverse")
  local v = VM().begin_mph("bt7")
  raises(function()
    VM().move("bt7", { { kind = "stop" }, { kind = "start", reverse = true }, { kind = "reverse", to = "2GG6" } })
  end, "D2%.22")
  eq(v.mp_spent_h, 0); eq(N(v.hex), N("2FF5")); eq(v.moving, true); eq(v.direction, "forward")
end)

test("D2.22 EX: the BT-7 M37 cannot Bypass hexside FF6-GG6 in Reverse, only FF6-EE6", function()
  VM().setup("d2_24_bt7_reverse")
  local v = VM().begin_mph("bt7")
  VM().move("bt7", { { kind = "stop" }, { kind = "start", reverse = true } })
  raises(function() VM().step("bt7", { kind = "bypass", hex = "2FF6", hexside = "2FF6-2GG6" }) end, "D2%.22")
  raises(function() VM().step("bt7", { kind = "bypass", hex = "2GG6", hexside = "2FF6-2GG6" }) end, "D2%.22")
  eq(v.mp_spent_h, 4)
  -- along FF6-EE6, Bypassing the woods in FF6: 4 [Reverse] x (1 [Open Ground] x 2 [VBM]) = 8 MP
  VM().step("bt7", { kind = "bypass", hex = "2FF6", hexside = "2FF6-2EE6" })
  eq(v.mp_spent_h, 4 + 16)
  eq(N(v.hex), N("2FF6"))
  ok(umpire.journal.cited("D2.22"))
end)

test("D2.2: a motorcycle may not use Reverse Movement; D2.21: REV x# overrides the class multiplier", function()
  VM().setup("d2_misc")
  VM().place("moto", { type = "test_motorcycle", hex = "B8", vca = { "C8", "C9" } })
  VM().begin_mph("moto")
  raises(function() VM().step("moto", { kind = "start", reverse = true }) end, "D2%.2")
  local R = umpire.rules.vehicle_reverse
  eq(R.multiplier(VM().place("ac", { type = "test_rev3_ac", hex = "B9", vca = { "C9", "C10" } })), 3)
  eq(R.multiplier(VM().place("tr", { type = "test_truck", hex = "B6", vca = { "C6", "C7" } })), 3)
  eq(R.multiplier(VM().place("psw", { type = "psw_234_2", hex = "A10", vca = { "B9", "B10" } })), 2)
  eq(R.multiplier(VM().vehicle("tank")), 4)
end)
