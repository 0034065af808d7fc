-- BA Shaped charge vs the core long-range Pen penalty.
local SC, S = umpire.rules.scenario, umpire.rules.shooting

local function tank() return { id = "tank", side = "axis", pins = 0, vehicle = { armour = "medium_tank" },
  models = { { id = "hull", x = 0, y = 20, base_mm = 100 } } } end

local function team(weapon)
  local u = SC.line("team", "allies", 2, nil)
  u.type = "support_team"; u.models[1].weapon, u.models[1].role = weapon, "firer"; u.models[2].role = "crew"
  return u
end

test("BA Shaped charge: no -1 Pen at long range (bazooka 5+5 = 10 beats 9)", function()
  umpire.dice.fix{ 6,  5, 2 }
  local t = tank()
  local r = S.fire{ shooter = team("bazooka"), target = t }
  eq(r.hits, 1)
  eq(#t.damage_results, 1)
  ok(umpire.journal.cited("BA Shaped charge"))
end)

test("BA core: an AT rifle does take -1 Pen at long range (5+2-1 = 6 < 9)", function()
  umpire.dice.fix{ 6,  5 }
  local t = tank()
  S.fire{ shooter = team("at_rifle"), target = t }
  eq(#t.damage_results, 0)
end)
