-- D2.3-D2.31: Vehicular Bypass Movement cost and restrictions.
local function VM() return umpire.rules.vehicle_movement end
local function N(x) return umpire.rules.vehicle_geometry.name(x) end

test("D2.3 EX: VBM into 3I10 from J10 costs ((4 [higher elevation] + 1 [Open Ground]) x 2 = 10 MP", function()
  VM().setup("d2_3_vbm_i10")
  local v = VM().begin_mph("mover")
  VM().step("mover", { kind = "bypass", hex = "3I10" })
  eq(v.mp_spent_h, 20)
  eq(N(v.hex), N("3I10"))
  ok(v.bypass ~= nil)
  ok(umpire.journal.cited("D2.3"))
end)

test("D2.3 EX / D2.31: a vehicle in I10 may not Bypass the building along I10-J10 while another Bypasses J10 along it", function()
  VM().setup("d2_3_vbm_i10")
  -- a vehicle Bypassing I10 along I10-J9 with its CAFP at the I10/J9/J10 vertex turns onto I10-J10
  VM().place("other", { type = "pzkpfw_vie", side = "ATTACKER", bypass = { hex = "3I10", hexside = "3I10-3J9", front = "3J10" }, motion = true })
  local v = VM().begin_mph("other")
  VM().step("other", { kind = "vca", hexside = "3I10-3J10" })
  local snapshot = { v.mp_spent_h, v.hex, v.bypass.cafp, v.pending.a }
  raises(function() VM().step("other", { kind = "bypass", hex = "3I10" }) end, "D2%.31")
  eq({ v.mp_spent_h, v.hex, v.bypass.cafp, v.pending.a }, snapshot, "state unchanged")
end)

test("D2.31: VBM only in woods/building hexes, never in rubble or a Blaze hex", function()
  VM().setup("d2_3_vbm_i10")
  local v = VM().begin_mph("mover")
  raises(function() VM().step("mover", { kind = "bypass", hex = "4I1" }) end, "D2%.31")
  umpire.state.vehicle_map.hexes[N("3I10")].rubble = true
  raises(function() VM().step("mover", { kind = "bypass", hex = "3I10" }) end, "D2%.31.*rubble")
  umpire.state.vehicle_map.hexes[N("3I10")].rubble = nil
  umpire.state.vehicle_map.hexes[N("3I10")].blaze = true
  raises(function() VM().step("mover", { kind = "bypass", hex = "3I10" }) end, "D2%.31.*Blaze")
  eq(v.mp_spent_h, 0)
end)

test("D2.31: no VBM across a hexside connected directly to a roadblock hexside", function()
  VM().setup("d2_3_vbm_i10")
  local v = VM().begin_mph("mover")
  -- I10-4I1 ends at the I10/4I1/J10 vertex, where hexside 4I1-J10 also meets (4I1: the hex below
  -- 3I10 on the next board, see scenarios/d2_3_vbm_i10.yaml)
  umpire.state.vehicle_map.roadblocks[umpire.rules.vehicle_geometry.hexside_id("4I1", "3J10")] = true
  raises(function() VM().step("mover", { kind = "bypass", hex = "3I10" }) end, "D2%.31.*roadblock")
  eq(v.mp_spent_h, 0)
end)
