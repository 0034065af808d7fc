-- A9.5 EX and A9.51-A9.52.
local function setup()
  local sc = umpire.data.scenario("a9_5")
  return umpire.rules.map_los.map(sc.map), sc
end
test("A9.5 EX: 5-4-8 + LMG in 1G4 spray H3 (8 FP PBF, +2 TEM) and I4 (4 FP, no DRM) with one Original DR", function()
  local map, sc = setup()
  umpire.dice.fix{3, 4}
  local r = umpire.rules.spraying_fire.fire({firer_hex = "G4", targets = {"H3", "I4"}, map = map,
    firers = {{name = "German 5-4-8", fp = 5, range = 4}, {name = "German LMG", fp = 3, range = 8}}})
  eq(r.attacks[1].fp, 8); eq(r.attacks[1].drm, 2)
  eq(r.attacks[2].fp, 4); eq(r.attacks[2].drm, 0)
  eq(r.attacks[1].original, r.attacks[2].original)
  ok(umpire.journal.cited("A9.5"))
end)
test("A9.5/A9.52: restrictions", function()
  local map = setup()
  local f = {{name = "x", fp = 4, range = 8}}
  raises(function() umpire.rules.spraying_fire.fire({firer_hex = "G4", targets = {"G4", "H3"}, map = map, firers = f}) end, "own hex")
  raises(function() umpire.rules.spraying_fire.fire({firer_hex = "G4", targets = {"H3", "I5"}, map = map, firers = f}) end, "common hexside")
  raises(function() umpire.rules.spraying_fire.fire({firer_hex = "G4", targets = {"H3", "I4"}, map = map, firers = f, marked_first_fire = true}) end, "adjacent")
  raises(function() umpire.rules.spraying_fire.fire({firer_hex = "G4", targets = {"H3", "I4"}, map = map, firers = {{fp = 2, vehicular = true}}}) end, "vehicular")
  raises(function() umpire.rules.spraying_fire.fire({firer_hex = "G4", targets = {"H3", "I4"}, map = map, firers = f, paratroops = true}) end, "paratroops")
  umpire.dice.fix{3, 4}
  local r = umpire.rules.spraying_fire.fire({firer_hex = "G4", targets = {"H3", "I4"}, map = map, firers = f, moving = {true, false}, vs_afv = {false, false}})
  eq(r.attacks[2].fp, 1)  -- 4 FP, halved (Spraying), halved again (no moving unit)
  umpire.dice.fix{3, 4}
  r = umpire.rules.spraying_fire.fire({firer_hex = "G4", targets = {"H3", "I4"}, map = map, firers = f, vs_afv = {true, false}})
  eq(r.attacks[1], nil)
  ok(umpire.journal.cited("A9.51"))
end)
