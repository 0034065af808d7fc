-- BA Fixed, BA Diagram 8.
local SC, S, F = umpire.rules.scenario, umpire.rules.shooting, umpire.rules.fixed

test("BA Diagram 8: field gun and squad are in the MMG's front arc, the officer is not", function()
  local u = SC.load("diagram_8")
  local mg = u.us_mmg
  ok(F.in_front_arc(mg, mg.models[1], u.german_field_gun), "field gun")
  ok(F.in_front_arc(mg, mg.models[1], u.german_squad), "squad (partially)")
  ok(not F.in_front_arc(mg, mg.models[1], u.german_officer), "officer")
end)

test("BA Diagram 8: a Fire order at the officer is refused", function()
  local u = SC.load("diagram_8")
  raises(function() S.fire{ shooter = u.us_mmg, target = u.german_officer } end, "outside its front arc")
  ok(umpire.journal.cited("BA Fixed"))
end)

test("BA Diagram 8: a Fire order at the squad is allowed", function()
  local u = SC.load("diagram_8")
  umpire.dice.fix{ 1, 1, 1, 1, 1 }
  local r = S.fire{ shooter = u.us_mmg, target = u.german_squad }
  eq(r.groups[1].shots, 5)
  eq(r.hits, 0)
end)

test("BA Fixed: Advance rotates on the spot, then fires at -1", function()
  local u = SC.load("diagram_8")
  local gunner = u.us_mmg.models[1]
  umpire.dice.fix{ 4, 4, 4, 4, 4,  6, 6, 6, 6, 6 }
  local r = S.fire{ shooter = u.us_mmg, target = u.german_officer, order = "advance" }
  eq(gunner.x, 0); eq(gunner.y, 0)
  ok(math.abs(gunner.facing - 68.2) < 0.1, "facing " .. tostring(gunner.facing))
  -- 3+, long range? officer 10.3" of 36": no; moving -1: 4+
  eq(r.groups[1].need, 4)
  eq(r.hits, 5)
end)

test("BA Fixed: Run moves the normal 12\", Advance does not move", function()
  eq(F.move_distance("run"), 12)
  eq(F.move_distance("advance"), 0)
  ok(umpire.journal.cited("BA Fixed"))
end)

test("BA Fixed: the Advance penalty is special_rules.fixed.advance_to_hit (a house rule can change it)", function()
  local sr = umpire.data.special_rules.fixed
  local was = sr.advance_to_hit
  sr.advance_to_hit = -2
  local u = SC.load("diagram_8")
  umpire.dice.fix{ 4, 4, 4, 4, 4 }
  local ok_, r = pcall(S.fire, { shooter = u.us_mmg, target = u.german_officer, order = "advance" })
  sr.advance_to_hit = was
  ok(ok_, tostring(r))
  eq(r.groups[1].need, 5)   -- 3+ base, -2: 5+; the core -1 is not added as well
  eq(r.hits, 0)
end)
