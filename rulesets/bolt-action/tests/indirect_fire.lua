-- BA Indirect fire, BA Howitzer.
local SC, S, IF = umpire.rules.scenario, umpire.rules.shooting, umpire.rules.indirect_fire

local function mortar(weapon, n)
  local u = SC.line("mortar", "allies", n or 2, nil, { type = "support_team", facing = 90 })
  u.models[1].weapon, u.models[1].role = weapon or "light_mortar", "firer"
  for i = 2, #u.models do u.models[i].role = "crew" end
  return u
end
local function squad(y) return SC.line("sq", "axis", 5, "rifle", { y = y or 20, cover = "hard" }) end

test("BA Indirect fire: 6, then 5+, 4+, 3+, 2+ on the same unmoved target", function()
  local m, t = mortar(), squad()
  local needs = {}
  for turn = 1, 6 do
    umpire.dice.fix{ 1 }
    local r = S.fire{ shooter = m, target = t, turn = turn }
    needs[turn] = r.groups[1].need
  end
  eq(needs, { 6, 5, 4, 3, 2, 2 })
  ok(umpire.journal.cited("BA Indirect fire"))
end)

test("BA Indirect fire: a hit zeroes in: 2+ from then on", function()
  local m, t = mortar(), squad()
  umpire.dice.fix{ 6,  1,  1, 1 }  -- hit; pins D2; two men under the 1" template: 1, 1 fail
  S.fire{ shooter = m, target = t, turn = 1, world = {} }
  umpire.dice.fix{ 1 }
  local r = S.fire{ shooter = m, target = t, turn = 2 }
  eq(r.groups[1].need, 2)
  ok(IF.ranging(m, m.models[1]).zeroed)
end)

test("BA Indirect fire: the target moving 2\" away, or the mortar moving, starts again at 6", function()
  local m, t = mortar(), squad()
  umpire.dice.fix{ 1 }; S.fire{ shooter = m, target = t, turn = 1 }
  for _, x in ipairs(t.models) do x.y = x.y + 1 end       -- not the entire unit 2" away
  umpire.dice.fix{ 1 }; eq(S.fire{ shooter = m, target = t, turn = 2 }.groups[1].need, 5)
  for _, x in ipairs(t.models) do x.y = x.y - 4 end       -- now 3" from where it was: moved
  umpire.dice.fix{ 1 }; eq(S.fire{ shooter = m, target = t, turn = 3 }.groups[1].need, 6)
  umpire.dice.fix{ 1 }; eq(S.fire{ shooter = m, target = t, turn = 4, order = "advance" }.groups[1].need, 6)
end)

test("BA Indirect fire: a target inside the minimum range is missed automatically", function()
  local m, t = mortar(), squad(8)
  local r = S.fire{ shooter = m, target = t, turn = 1 }
  eq(r.hits, 0)
  eq(#r.groups, 0)
  ok(umpire.journal.cited("BA Indirect fire"))
end)

test("BA Indirect fire: no indirect fire by a unit in Ambush that turn", function()
  local m, t = mortar("medium_mortar"), squad(30)
  raises(function() S.fire{ shooter = m, target = t, turn = 1, order = "ambush" } end, "Ambush")
end)

test("BA Indirect fire: against vehicles, top armour +1 Pen, open-topped +1 on the damage results", function()
  local m = mortar("medium_mortar")
  local ht = { id = "ht", side = "axis", vehicle = { armour = "armoured_carrier", open_topped = true },
    models = { { id = "ht", x = 0, y = 30, base_mm = 50 } } }
  -- hit on 6; pins D3; pen: 4 +2 (HE 2") +1 top = 7 vs 7; damage result 2 +1 = 3: on fire
  umpire.dice.fix{ 6,  1,  4, 2 }
  S.fire{ shooter = m, target = ht, turn = 1, world = {} }
  eq(ht.damage_results, { "on_fire" })
end)

test("BA Indirect fire: the top-armour Pen is special_rules.indirect_fire.top_armour_pen, not the core value", function()
  local sr = umpire.data.special_rules.indirect_fire
  local was = sr.top_armour_pen
  sr.top_armour_pen = 0
  local m = mortar("medium_mortar")
  local ht = { id = "ht", side = "axis", vehicle = { armour = "armoured_carrier", open_topped = true },
    models = { { id = "ht", x = 0, y = 30, base_mm = 50 } } }
  -- as above, but pen 4 +2 +0 = 6 vs 7: no penetration, so no damage result
  umpire.dice.fix{ 6,  1,  4 }
  local ok_, err = pcall(S.fire, { shooter = m, target = ht, turn = 1, world = {} })
  sr.top_armour_pen = was
  ok(ok_, tostring(err))
  eq(#(ht.damage_results or {}), 0)
end)

test("BA Indirect fire: each mortar in a squad ranges in on its own", function()
  local sq = SC.line("sq", "allies", 3, "rifle")
  sq.models[2].weapon = "light_mortar"; sq.models[3].weapon = "light_mortar"
  local a, b = squad(20), SC.line("other", "axis", 3, "rifle", { x = 5, y = 22 })
  umpire.dice.fix{ 1 }; S.fire{ shooter = sq, target = a, models = { "sq_2" }, turn = 1 }
  umpire.dice.fix{ 1 }; S.fire{ shooter = sq, target = b, models = { "sq_3" }, turn = 1 }
  umpire.dice.fix{ 1, 1 }
  local r = S.fire{ shooter = sq, target = a, models = { "sq_2", "sq_3" }, turn = 2 }
  eq(r.groups[1].need, 5)   -- sq_2 keeps ranging on a
  eq(r.groups[2].need, 6)   -- sq_3 switched target
end)

test("BA Howitzer: over open sights no minimum range; indirect it has one", function()
  local h = mortar("light_howitzer", 3)
  local t = SC.line("t", "axis", 2, "rifle", { y = 10 })
  umpire.dice.fix{ 1 }
  eq(#S.fire{ shooter = h, target = t, mode = "direct" }.groups, 1)
  eq(#S.fire{ shooter = h, target = t, mode = "indirect", turn = 1 }.groups, 0)
end)

test("BA Howitzer: indirect, direct, indirect against the same target resets the zeroing-in", function()
  local h = mortar("light_howitzer", 3)
  local t = SC.line("t", "axis", 2, "rifle", { y = 30 })
  umpire.dice.fix{ 1 }; S.fire{ shooter = h, target = t, mode = "indirect", turn = 1 }
  umpire.dice.fix{ 1 }; eq(S.fire{ shooter = h, target = t, mode = "indirect", turn = 2 }.groups[1].need, 5)
  umpire.dice.fix{ 1 }; S.fire{ shooter = h, target = t, mode = "direct", turn = 3 }
  umpire.dice.fix{ 1 }; eq(S.fire{ shooter = h, target = t, mode = "indirect", turn = 4 }.groups[1].need, 6)
  ok(umpire.journal.cited("BA Howitzer"))
end)

test("BA Indirect fire: a shot refused (nothing to aim at) starts no ranging-in sequence", function()
  local b = SC.line("guns", "allies", 3, nil, { type = "artillery", facing = 90, experience = "inexperienced" })
  b.models[1].weapon, b.models[1].role = "medium_howitzer", "firer"
  b.models[2].role, b.models[3].role = "crew", "crew"
  b.spotter = { id = "fo", x = 0, y = 30, role = "spotter" }
  local t = squad(50)
  raises(function()
    S.fire{ shooter = b, target = t, mode = "indirect", turn = 1, crew_can_see = false, spotter_can_see = true }
  end, "choose a different target")
  eq(IF.ranging(b, b.models[1]), nil)
end)

test("BA Indirect fire: fire_turns ranges in turn after turn, the fixed dice being the real faces", function()
  local m, t = mortar(), squad()
  -- turn 1 needs 6: 5 misses; turn 2 needs 5+: 4 misses; turn 3 needs 4+: 4 hits (then pins D2 and damage)
  umpire.dice.fix{ 5, 4, 4, 1, 1, 1 }
  local r = IF.fire_turns({ shooter = m, target = t, world = {} }, { turns = 5, until_hit = true })
  eq(r.first_hit, 3)
  eq(r.turn, 3)
  eq(r.hits, 1)
  ok(IF.ranging(m, m.models[1]).zeroed)
  eq(IF.ranging(m, m.models[1]).shots, 3)
  ok(t.pins >= 1)  -- the caller's target table took the end state
  -- without until_hit it fires every turn: two misses at 6 and 5+
  local m2, t2 = mortar(), squad()
  umpire.dice.fix{ 1, 1 }
  local r2 = IF.fire_turns({ shooter = m2, target = t2, world = {}, turn = 4 }, { turns = 2 })
  eq(r2.first_hit, false)
  eq(r2.turn, 5)
  raises(function() IF.fire_turns({ shooter = m2, target = t2, world = { t2 } }, { turns = 2 }) end, "not implemented")
end)
