-- D2.32 / D2.321 EX: the PSW 234/2 in Bypass at 23BB3: its front and rear Target Facing hexes and
-- the Case A To Hit DRM of its Bypass TCA changes.
local function VM() return umpire.rules.vehicle_movement end
local function F() return umpire.rules.afv_facing end

test("D2.321 EX: BB4, AA5, BB5, Z5, AA6, BB6 are the first six hexes of the front Target Facing and VCA", function()
  VM().setup("d2_321_psw")
  local v = VM().vehicle("psw")
  for _, h in ipairs({ "23BB4", "23AA5", "23BB5", "23Z5", "23AA6", "23BB6" }) do
    eq(F().target_facing(v, h), "front", h)
    ok(F().in_ca(v, h), h .. " in the Bypass VCA")
  end
  for _, h in ipairs({ "23CC6", "23CC5", "23AA4", "23CC4" }) do
    ok(not F().in_ca(v, h), h .. " outside the Bypass VCA")
  end
end)

test("D2.321 EX: CC3, CC2, DD2, CC1, DD1, EE2 are the first six hexes of its rear Target Facing", function()
  VM().setup("d2_321_psw")
  local v = VM().vehicle("psw")
  for _, h in ipairs({ "23CC3", "23CC2", "23DD2", "23CC1", "23DD1", "23EE2" }) do
    eq(F().target_facing(v, h), "rear", h)
  end
end)

test("D2.321 EX: all other hexes are side; a shot from the Bypassed hex strikes the side (D2.32)", function()
  VM().setup("d2_321_psw")
  local v = VM().vehicle("psw")
  for _, h in ipairs({ "23AA4", "23BB2", "23CC4", "23DD3", "23AA3", "23Z4" }) do
    eq(F().target_facing(v, h), "side", h)
  end
  eq(F().target_facing(v, "23BB3"), "side")
  eq(F().target_facing(v, "23BB3", { weapon = "ft" }), "rear", "FT from the same hex: rear, even vs Bypass (D3.2)")
end)

test("D2.321 EX: TCA to the side for the 4-4-7 in AA4: +3 (+2 ST +1 side); 6-2-8 in BB2: +2; again AA4 acquired: 0", function()
  VM().setup("d2_321_psw")
  local v = VM().vehicle("psw")
  eq(F().bypass_case_a(v, "23AA4"), 3)
  eq(F().bypass_case_a(v, "23BB2"), 2)
  ok(umpire.journal.cited("D2.321"))
  VM().setup("d2_321_psw")
  v = VM().vehicle("psw")
  eq(F().bypass_case_a(v, "23AA4"), 3)
  eq(F().bypass_case_a(v, "23AA4", { acquired = true }), 0, "had it continued firing on the 4-4-7")
end)

test("D2.321 EX: TCA from front to rear to fire on DD1: +4 (+3 ST two Target Facings +1 through side)", function()
  VM().setup("d2_321_psw")
  local v = VM().vehicle("psw")
  eq(F().bypass_case_a(v, "23DD1"), 4)
end)

test("D2.35: a vehicle in Bypass may not fire bow-mounted armament outside its VCA", function()
  VM().setup("d2_321_psw")
  local v = VM().vehicle("psw")
  ok(F().bow_may_fire(v, "23BB5"))
  local can, why = F().bow_may_fire(v, "23AA4")
  eq(can, false); ok(why:find("D2%.35"))
end)
