-- D3.1-D3.2: VCA, TCA and Target Facing of a vehicle in a hex.
local function VM() return umpire.rules.vehicle_movement end
local function F() return umpire.rules.afv_facing end

local function tank()
  VM().setup("d2_24_bt7_reverse")          -- BT-7 M37 in 2FF5, VCA FF4-GG5 (facing the NE vertex)
  return VM().vehicle("bt7")
end

test("D3.2: the hexsides either side of the VCA vertex are front, the two opposite rear, the others side", function()
  local v = tank()
  eq(F().target_facing(v, "2FF4"), "front")
  eq(F().target_facing(v, "2GG5"), "front")
  eq(F().target_facing(v, "2FF6"), "rear")
  eq(F().target_facing(v, "2EE6"), "rear")
  eq(F().target_facing(v, "2EE5"), "side")
  eq(F().target_facing(v, "2GG6"), "side")
end)

test("D3.2: a LOS exactly along a hexspine takes the facing least favourable to the attacker", function()
  local v = tank()
  -- along the NW hexspine of FF5 (between the front hexside to FF4 and the side hexside to EE5): front
  eq(F().target_facing(v, "2EE4"), "front")
  -- along the W hexspine (between the side hexside to EE5 and the rear hexside to EE6): side
  eq(F().target_facing(v, "2DD5"), "side")
  -- along the SE hexspine (rear hexside to FF6 / side hexside to GG6): side
  eq(F().target_facing(v, "2GG7"), "side")
end)

test("D3.2: fire from within the target hex: coloured dr 1-2 rear, 3-4 side, 5-6 front", function()
  local v = tank()
  eq(F().target_facing(v, "2FF5", { colored_dr = 1 }), "rear")
  eq(F().target_facing(v, "2FF5", { colored_dr = 2 }), "rear")
  eq(F().target_facing(v, "2FF5", { colored_dr = 3 }), "side")
  eq(F().target_facing(v, "2FF5", { colored_dr = 4 }), "side")
  eq(F().target_facing(v, "2FF5", { colored_dr = 5 }), "front")
  eq(F().target_facing(v, "2FF5", { colored_dr = 6 }), "front")
  ok(umpire.journal.cited("D3.2"))
end)

test("D3.11/D3.12: the VCA is the C3.2 Covered Arc; turret hits use the TCA", function()
  local v = tank()
  ok(F().in_ca(v, "2FF3")); ok(F().in_ca(v, "2GG4")); ok(F().in_ca(v, "2EE4"), "centre on the bounding hexspine: inside")
  ok(not F().in_ca(v, "2DD5"))
  ok(not F().in_ca(v, "2FF6")); ok(not F().in_ca(v, "2EE5"))
  v.tca = (v.heading + 3) % 6            -- turret turned to the rear
  eq(F().target_facing(v, "2FF6", { turret = true }), "front")
  eq(F().target_facing(v, "2FF6"), "rear", "hull hits still use the VCA")
end)

test("D3.2/C3.2/D2.32: vehicle_geometry agrees with umpire.hex where the kernel offers the function", function()
  local hx = umpire.hex
  if type(hx.target_facing) ~= "function" or type(hx.range) ~= "function" then return end  -- not bound yet
  local G = umpire.rules.vehicle_geometry
  VM().setup("d2_24_bt7_reverse")
  local t = G.hex("2P5")
  for k = 0, 5 do
    for _, h in ipairs(hx.range(t, 3)) do
      if not G.same(h, t) then
        eq(G.target_facing_lua(t, k, h), hx.target_facing(t, G.vertex_names[k], h), ("facing %s, firer %s"):format(G.vertex_names[k], G.name(h)))
        eq(G.in_ca_lua(t, k, h), hx.in_covered_arc(t, G.vertex_names[k], h), ("CA %s, %s"):format(G.vertex_names[k], G.name(h)))
      end
    end
  end
  if type(hx.bypass_facing) == "function" then
    VM().setup("d2_321_psw")
    local v = VM().vehicle("psw")
    for _, h in ipairs(hx.range(G.hex("23BB4"), 3)) do
      F().target_facing(v, h)   -- raises if kernel and Lua disagree
    end
  end
end)
