-- BA HE, BA HE chart, BA Multiple HE hits, BA Diagrams 9A, 9B, 10.
local SC, S, HE = umpire.rules.scenario, umpire.rules.shooting, umpire.rules.he

test("BA Diagram 9A: the best 3\" template scores three hits on the squad", function()
  local u, world = SC.load("diagram_9a")
  local hits = HE.templates(u.howitzer, u.squad, 3, 1, world)
  eq(hits[1].hits, 3)
  ok(umpire.journal.cited("BA HE"))
end)

test("BA Diagram 9A: fired by the howitzer over open sights, 3 hits, D3 pins, Pen +3", function()
  local u, world = SC.load("diagram_9a")
  -- to hit 3+ (no modifiers: 39.5" of 60" is long range -1 -> 4+): 4; pins D3: 6 -> 3;
  -- damage 5+ -3 = 2+: 2, 1, 6 -> 2 casualties
  umpire.dice.fix{ 4,  6,  2, 1, 6 }
  local r = S.fire{ shooter = u.howitzer, target = u.squad, world = world, mode = "direct" }
  eq(r.groups[1].need, 4)
  eq(r.units.squad.hits, 3)
  eq(r.units.squad.pins, 3)
  eq(r.units.squad.casualties, 2)
  ok(umpire.journal.cited("BA Howitzer"))
  ok(umpire.journal.cited("BA HE chart"))
end)

test("BA Diagram 9B: crew without bases count as 25 mm bases; the 3\" template scores two hits", function()
  local u, world = SC.load("diagram_9b")
  local enemy = { id = "mortar", side = "allies", models = { { id = "m", x = 0, y = -40 } } }
  local hits = HE.templates(enemy, u.pak, 3, 1, world)
  eq(hits[1].hits, 2)
end)

test("BA Diagram 10: two HE (1\") hits from a light automatic cannon: two touching templates, three hits", function()
  local u, world = SC.load("diagram_10")
  local hits = HE.templates(u.flak, u.squad, 1, 2, world)
  eq(hits[1].hits, 3)
  local one = HE.templates(u.flak, u.squad, 1, 1, world)
  eq(one[1].hits, 2)
  ok(umpire.journal.cited("BA Multiple HE hits"))
end)

test("BA Diagram 10: fired: one batch of D2 pins for both hits", function()
  local u, world = SC.load("diagram_10")
  -- 2 shots at 3+ (long range: 29" of 48" -1 -> 4+): 5, 6 -> 2 hits; pins D2: 4 -> 2 (one roll);
  -- damage 5+ - Pen 1 (HE 1") = 4+: 4, 4, 1 -> 2
  umpire.dice.fix{ 5, 6,  4,  4, 4, 1 }
  local r = S.fire{ shooter = u.flak, target = u.squad, world = world, shot = "he" }
  eq(r.units.squad.hits, 3)
  eq(r.units.squad.pins, 2)
  eq(u.squad.pins, 2)
  eq(r.units.squad.casualties, 2)
end)

test("BA HE: a unit that goes Down halves the hits, rounding up (3 -> 2)", function()
  local u, world = SC.load("diagram_9a")
  -- Down: -2 to hit as well: 3 +1 (long -1, Down -2) = 6+
  umpire.dice.fix{ 6,  1,  1, 1 }
  local r = S.fire{ shooter = u.howitzer, target = u.squad, world = world, mode = "direct", target_goes_down = true }
  eq(r.groups[1].need, 6)
  eq(r.units.squad.hits, 2)
  ok(u.squad.down)
end)

test("BA HE: the template cannot clip a friendly model", function()
  local u, world = SC.load("diagram_9a")
  -- a friend (of the howitzer) standing in the middle of the squad's best spots
  local friends = { id = "patrol", side = "allies", models = {
    { id = "p1", x = 1.5, y = 0.8 }, { id = "p2", x = 4.5, y = 0.8 }, { id = "p3", x = 7.5, y = 0.8 },
    { id = "p4", x = 10.5, y = 0.8 }, { id = "p5", x = 13.5, y = 0.8 } } }
  world[#world + 1] = friends
  local hits = HE.templates(u.howitzer, u.squad, 3, 1, world)
  ok(hits[1].hits < 3, "hits " .. hits[1].hits)
  for _, m in ipairs(friends.models) do ok(not m.removed) end
end)

test("BA HE: other enemy units under the template are hit too", function()
  local u, world = SC.load("diagram_9a")
  world[#world + 1] = { id = "hmg", side = "axis", models = { { id = "h1", x = 1.5, y = 0.8 } } }
  local hits = HE.templates(u.howitzer, u.squad, 3, 1, world)
  eq(hits[1].hits, 3)
  eq(hits[2].unit.id, "hmg")
end)

test("BA HE chart: units in buildings take the building hits (2D6 for 3\")", function()
  local u, world = SC.load("diagram_9a")
  u.squad.in_building = true
  umpire.dice.fix{ 6,  3, 4,  1,  1, 1, 1, 1, 1, 1, 1 }
  local r = S.fire{ shooter = u.howitzer, target = u.squad, world = world, mode = "direct" }
  eq(r.units.squad.hits, 7)
end)

test("BA HE: no -1 Pen at long range against armour", function()
  local gun = SC.line("pak", "axis", 2, nil, { type = "artillery", facing = 90 })
  gun.models[1].weapon, gun.models[1].role = "medium_at_gun", "firer"
  local halftrack = { id = "ht", side = "allies", vehicle = { armour = "armoured_carrier" },
    models = { { id = "ht", x = 0, y = 40, base_mm = 50 } } }
  -- 4+ at long range: 4; HE (1") Pen +1: 6+1 = 7 vs 7: penetrates, damage 1; pins D2: 1
  umpire.dice.fix{ 4,  1,  6, 1 }
  S.fire{ shooter = gun, target = halftrack, shot = "he", world = {} }
  eq(#halftrack.damage_results, 1)
  ok(umpire.journal.cited("BA HE"))
end)

test("BA HE: the shot type must be declared for guns that fire both", function()
  local gun = SC.line("pak", "axis", 2, nil, { type = "artillery", facing = 90 })
  gun.models[1].weapon, gun.models[1].role = "light_at_gun", "firer"
  local t = SC.line("t", "allies", 2, "rifle", { y = 20 })
  raises(function() S.fire{ shooter = gun, target = t } end, "declare the kind of shot")
end)

test("BA HE: in Ambush an AT gun loads AT rounds unless told otherwise, and cannot switch", function()
  local gun = SC.line("pak", "axis", 2, nil, { type = "artillery", facing = 90 })
  gun.models[1].weapon, gun.models[1].role = "light_at_gun", "firer"
  local t = SC.line("t", "allies", 2, "rifle", { y = 20 })
  HE.ambush(gun, nil)
  umpire.dice.fix{ 1 }
  S.fire{ shooter = gun, target = t, order = "ambush" }
  ok(umpire.journal.cited("BA HE"))
  HE.ambush(gun, "he")
  raises(function() S.fire{ shooter = gun, target = t, order = "ambush", shot = "ap" } end, "cannot change")
end)

test("BA Multiple HE hits: the templates cover as many models as possible, not just greedily", function()
  -- three 1" templates: a greedy layout (best first template, then touching ones) covers 4 of
  -- these; 5 fit (the cluster of four plus the man at 5.02, 1.15)
  local u = { id = "u", side = "axis", models = {} }
  for i, p in ipairs{ {2.10, 1.21}, {1.27, 1.16}, {5.13, 2.25}, {5.89, 0.03}, {5.29, 1.28},
                      {2.37, 1.95}, {1.41, 0.74}, {5.02, 1.15} } do
    u.models[i] = { id = "m" .. i, x = p[1], y = p[2] }
  end
  local gun = { id = "gun", side = "allies", models = { { id = "g", x = 3, y = -30 } } }
  local hits, centres = HE.templates(gun, u, 1, 3, { u, gun })
  eq(hits[1].hits, 5)
  eq(#centres, 3)
  -- in contact, not overlapping: every template touches another, none closer than 1"
  local T = umpire.table
  for i, a in ipairs(centres) do
    local touches = false
    for j, b in ipairs(centres) do
      if i ~= j then
        local d = T.distance(a, b)
        ok(d >= 1 - 1e-6, "overlap " .. d)
        if d <= 1 + 1e-6 then touches = true end
      end
    end
    ok(touches)
  end
end)
