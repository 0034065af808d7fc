-- BA One-shot.
local SC, S = umpire.rules.scenario, umpire.rules.shooting

local function grens()
  local u = SC.line("grens", "axis", 4, "rifle")
  u.models[4].weapon, u.models[4].other_weapon = "panzerfaust", "rifle"
  return u
end
local function tank() return { id = "tank", side = "allies", vehicle = { armour = "medium_tank" },
  models = { { id = "sherman", x = 10, y = 8, base_mm = 60 } } } end

test("BA One-shot: a panzerfaust fires at its own target, declared with the unit's", function()
  local g, inf, t = grens(), SC.line("inf", "allies", 3, "rifle", { y = 20 }), tank()
  -- rifles 3 shots at inf: 1,1,1; panzerfaust at tank: 6 hit, pen 6+6 = 12 vs 9, damage 6
  umpire.dice.fix{ 1, 1, 1,  6,  6, 6 }
  local r = S.fire{ shooter = g, target = inf, split = { grens_4 = t } }
  eq(t.damage_results, { "knocked_out" })
  eq(g.models[4].weapon, "rifle")          -- replaced by a model without it
  ok(umpire.journal.cited("BA One-shot"))
end)

test("BA One-shot: kept for a later turn unless named", function()
  local g, inf = grens(), SC.line("inf", "allies", 3, "rifle", { y = 10 })
  umpire.dice.fix{ 1, 1, 1 }
  local r = S.fire{ shooter = g, target = inf }
  eq(r.groups[1].shots, 3)
  eq(g.models[4].weapon, "panzerfaust")
end)

test("BA One-shot: other weapons cannot split their fire", function()
  local g, inf, t = grens(), SC.line("inf", "allies", 3, "rifle", { y = 20 }), tank()
  raises(function() S.fire{ shooter = g, target = inf, split = { grens_1 = t } } end, "only one%-shot weapons")
end)
