-- D2.33 EX: the PzKpfw VIE's four alternatives from CAFP K2-J1-J2 (6½, 9½, 6½, 9½ MP), and the
-- two things it cannot do there.
local function VM() return umpire.rules.vehicle_movement end
local function G() return umpire.rules.vehicle_geometry end
local function N(x) return G().name(x) end
local function vid(...) local t = {} for i, n in ipairs({ ... }) do t[i] = N(n) end table.sort(t) return table.concat(t, "-") end

-- ½ MP along the road into K1, one MP to turn from J0-J1 to J1-K2, two MP of VBM into K2 along K2-J1.
local function to_first_cafp()
  VM().setup("d2_33_pzkpfw")
  local v = VM().begin_mph("tiger")
  VM().step("tiger", { kind = "enter", to = "K1" })
  eq(v.mp_spent_h, 1, "½ MP along the road (D2.16, CE)")
  eq(VM().vca_name(v), N("J0") .. "-" .. N("J1"))
  VM().step("tiger", { kind = "vca", to = { "J1", "K2" } })
  eq(v.mp_spent_h, 3)
  VM().step("tiger", { kind = "bypass", hex = "K2" })
  eq(v.mp_spent_h, 7, "3½ MP so far")
  eq(v.bypass.cafp, vid("K2", "J1", "J2"), "CAFP K2-J1-J2")
  return v
end

test("D2.33 EX: road ½ + VCA change 1 + VBM 2 along K2-J1 reaches CAFP K2-J1-J2 for 3½ MP", function()
  local v = to_first_cafp()
  eq(VM().fmt(v.mp_spent_h), "3½")
  ok(umpire.journal.cited("D2.16")); ok(umpire.journal.cited("D2.3"))
end)

test("D2.33 EX (a): VCA change + VBM along K2-J2 to CAFP K2-K3-J2: 6½ MP", function()
  local v = to_first_cafp()
  VM().step("tiger", { kind = "vca", hexside = "K2-J2" })
  VM().step("tiger", { kind = "bypass", hex = "K2" })
  eq(VM().fmt(v.mp_spent_h), "6½")
  eq(v.bypass.cafp, vid("K2", "K3", "J2"))
  eq(N(v.hex), N("K2"))
end)

test("D2.33 EX (b): become BU and enter the building in J2 for half the MP allotment + Bog Check +5: 9½ MP", function()
  local v = to_first_cafp()
  local bog
  umpire.bus.on("bog_check_required", function(ev) bog = ev.payload end)
  VM().step("tiger", { kind = "enter", to = "J2", bu = true })
  eq(VM().fmt(v.mp_spent_h), "9½")
  eq(N(v.hex), N("J2")); eq(v.bypass, nil); eq(v.bu, true)
  eq(bog.drm, 5)
end)

test("D2.33 EX (c): VCA change to J2-J1, VBM into J2 to CAFP J2-J1-I2 (\"J2-J1-J2\" in the text): 6½ MP", function()
  local v = to_first_cafp()
  VM().step("tiger", { kind = "vca", hexside = "J2-J1" })
  VM().step("tiger", { kind = "bypass", hex = "J2" })
  eq(VM().fmt(v.mp_spent_h), "6½")
  eq(N(v.hex), N("J2"))
  eq(v.bypass.cafp, vid("J2", "J1", "I2"))
end)

test("D2.33 EX (d): Stop, Start in Reverse, Reverse into K1 (4 x 1): 9½ MP", function()
  local v = to_first_cafp()
  VM().move("tiger", { { kind = "stop" }, { kind = "start", reverse = true }, { kind = "reverse", to = "K1" } })
  eq(VM().fmt(v.mp_spent_h), "9½")
  eq(N(v.hex), N("K1")); eq(v.bypass, nil)
end)

test("D2.33 EX: it cannot VBM in J2 along J2-K2 (too close to the building, D2.3): MP announced are lost, plus a stop", function()
  local v = to_first_cafp()
  local B = umpire.rules.vehicle_bypass
  local can, why = B.can(v, G().hex("J2"), G().hex("J2"), G().hex("K2"))
  eq(can, false); ok(why:find("D2%.3"))
  VM().step("tiger", { kind = "vca", hexside = "K2-J2" })
  VM().step("tiger", { kind = "bypass", hex = "J2" })
  -- D2.3: clearance is measured after the announcement: 2 MP spent where it is + 1 MP to stop
  eq(VM().fmt(v.mp_spent_h), "7½")
  eq(v.bypass.cafp, vid("K2", "J1", "J2"), "still at its CAFP")
  eq(v.moving, false)
end)

test("D2.33 EX / D2.31: nor can it use Bypass in J1, not a woods/building hex (error, state unchanged)", function()
  local v = to_first_cafp()
  VM().step("tiger", { kind = "vca", hexside = "J2-J1" })
  raises(function() VM().step("tiger", { kind = "bypass", hex = "J1" }) end, "D2%.31")
  eq(VM().fmt(v.mp_spent_h), "4½")
end)

test("D2.33: a Bypassing vehicle continues VBM only after a VCA change; never ends its MPh mid-change", function()
  local v = to_first_cafp()
  raises(function() VM().step("tiger", { kind = "bypass", hex = "K2" }) end, "D2%.33")
  raises(function() VM().step("tiger", { kind = "vca", hexside = "K2-J1" }) end, "D2%.33")
  VM().step("tiger", { kind = "vca", hexside = "K2-J2" })
  raises(function() VM().end_mph("tiger") end, "D2%.33")
  raises(function() VM().step("tiger", { kind = "stop" }) end, "D2%.33")
  eq(VM().fmt(v.mp_spent_h), "4½")
end)

test("D2.33: DFF during a Bypass VCA change sees the vehicle at its last CAFP", function()
  local v = to_first_cafp()
  local seen
  umpire.bus.on("defensive_first_fire_opportunity", function(ev) seen = ev.payload end)
  VM().step("tiger", { kind = "vca", hexside = "K2-J2" })
  eq(seen.cafp, vid("K2", "J1", "J2")); eq(seen.mp, 1); eq(seen.mp_remaining, 12 - 4.5)
end)

test("D2.34: a vehicle may end its MPh in stationary Bypass", function()
  local v = to_first_cafp()
  VM().step("tiger", { kind = "stop" })
  eq(VM().end_mph("tiger"), "stopped")
  eq(v.bypass.cafp, vid("K2", "J1", "J2"))
end)
