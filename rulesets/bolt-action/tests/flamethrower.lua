-- BA Flamethrower.
local SC, S = umpire.rules.scenario, umpire.rules.shooting

local function flamer()
  local u = SC.line("flame", "allies", 2, nil, { experience = "veteran" })
  u.type = "support_team"; u.models[1].weapon, u.models[1].role = "flamethrower_infantry", "firer"
  u.models[2].role = "crew"
  return u
end

test("BA Flamethrower: no cover or Down penalty; a hit becomes D6 hits; D3+1 pins; morale check; fuel", function()
  local t = SC.line("bunker", "axis", 6, "rifle", { y = 4, cover = "hard", down = true })
  -- to hit 3+ (5" of 6" is long range -1, point blank +1): 4; D6 hits: 4; damage 5+ (regular)
  -- with Pen +3: 2+: 6,5,2,1 -> 3; pins D3+1: die 5 -> D3 3 -> 4 pins; morale 2D6 3+4 = 7 vs 9-4 = 5: fails
  umpire.dice.fix{ 4,  4,  6, 5, 2, 1,  5,  3, 4,  2 }
  local r = S.fire{ shooter = flamer(), target = t }
  eq(r.groups[1].need, 3)
  eq(r.units.bunker.hits, 4)
  eq(r.units.bunker.casualties, 3)
  eq(t.pins, 4)
  eq(r.units.bunker.morale_passed, false)
  eq(t.destroyed, true)
  ok(umpire.journal.cited("BA Flamethrower"))
end)

test("BA Flamethrower: morale is checked even with no casualties; out of fuel on a 1 removes the team", function()
  local t = SC.line("sq", "axis", 3, "rifle", { y = 2 })
  local f = flamer()
  -- hit (2+), D6 = 1 hit, damage fails (1), pins D3+1 (die 1 -> 2), morale 2D6 = 2 passes, fuel 1
  umpire.dice.fix{ 2,  1,  1,  1,  1, 1,  1 }
  local r = S.fire{ shooter = f, target = t }
  eq(r.units.sq.casualties, 0)
  eq(t.pins, 2)
  eq(r.units.sq.morale_passed, true)
  eq(f.destroyed, true)
  eq(r.out_of_fuel, true)
end)

test("BA Flamethrower: vehicle flamethrower D6+1 hits, top armour, no long-range Pen penalty", function()
  local croc = { id = "croc", side = "allies", pins = 0,
    models = { { id = "hull", x = 0, y = 0, base_mm = 60, weapon = "flamethrower_vehicle" } } }
  local tank = { id = "tank", side = "axis", pins = 0, vehicle = { armour = "heavy_tank" },
    models = { { id = "t", x = 0, y = 10, base_mm = 60 } } }
  -- hit 4+ (long range -1): 4; D6+1 = 1+1 = 2 hits; pen: 6 +3 +1 top = 10 >= 10 -> damage roll 6;
  -- second hit: 5+4 = 9 no; pins 1 -> 2; morale 6+6; fuel 6
  umpire.dice.fix{ 4,  1,  6, 6,  5,  1,  6, 6,  6 }
  local r = S.fire{ shooter = croc, target = tank }
  eq(r.units.tank.hits, 2)
  eq(tank.damage_results, { "knocked_out" })
  ok(umpire.journal.cited("BA Flamethrower"))
end)

test("BA Flamethrower: +1 on the damage results against a vehicle carrying flamethrowers", function()
  local croc = { id = "croc", side = "allies", pins = 0, vehicle = { armour = "medium_tank", flamethrowers = 1 },
    models = { { id = "hull", x = 0, y = 0, base_mm = 60 } } }
  umpire.dice.fix{ 6, 2 }
  S.damage(croc, 1, 4, {}, {})
  eq(croc.damage_results, { "on_fire" })   -- 2 + 1 = 3
end)
