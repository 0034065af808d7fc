-- SK Range, SK To Hit, SK Sniper Scope, SK Elite, SK Designation (out of range).
local R = umpire.rules.resolution

local function soldier(t)
  t.side = t.side or "blue"
  t.equipment = t.equipment or { "steel_helmet" }
  return t
end

test("SK To Hit: the d20 is read 5% a face: 50% hits on 10, misses on 11", function()
  local a, b = soldier{ id = "a" }, soldier{ id = "b", side = "red" }
  umpire.dice.fix{ 10, 6,  11, 6 }
  local r1 = R.shot(a, b, "rifle", 100)
  eq(r1.pct, 50)
  eq(r1.hit, true)
  local b2 = soldier{ id = "b2", side = "red" }
  local r2 = R.shot(a, b2, "rifle", 100)
  eq(r2.hit, false)
  eq(b2.status, nil)
  ok(umpire.journal.cited("SK To Hit"))
  ok(umpire.journal.cited("SK Range"))
end)

test("SK To Hit: a percentage between faces: 62% hits on 12 (60%), not on 13", function()
  eq(R.hits(12, 62), true)
  eq(R.hits(13, 62), false)
  eq(R.hits(20, 100), true)
  eq(R.hits(1, 4), false)
end)

test("SK To Hit: both dice are rolled together, the d6 locates the hit", function()
  local a, b = soldier{ id = "a" }, soldier{ id = "b", side = "red" }
  umpire.dice.fix{ 1, 5 }
  local r = R.shot(a, b, "rifle", 40)
  eq(r.d20, 1); eq(r.d6, 5)
  eq(r.location, "upper_leg")
  eq(b.status, "walking_wounded")
end)

test("SK Range: a firer who moved uses the moving percentage; one who only turned is stationary", function()
  eq((R.to_hit(soldier{ id = "a", moved = "walk" }, "rifle", 100)), 30)
  eq((R.to_hit(soldier{ id = "a", moved = "turned" }, "rifle", 100)), 50)
  eq((R.to_hit(soldier{ id = "a", moved = "none" }, "rifle", 100)), 50)
end)

test("SK Sniper Scope: +5% to hit", function()
  local pct = R.to_hit(soldier{ id = "s", equipment = { "sniper_scope" } }, "sniper_rifle", 300)
  eq(pct, 60)
  ok(umpire.journal.cited("SK Sniper Scope"))
end)

test("SK Elite: +5% per level of elite (level by number or by troop name)", function()
  eq((R.to_hit(soldier{ id = "e", elite = 2 }, "rifle", 100)), 60)
  eq((R.to_hit(soldier{ id = "e", troops = "crack" }, "rifle", 100)), 65)
  eq((R.to_hit(soldier{ id = "e", troops = "regular" }, "rifle", 100)), 50)
  ok(umpire.journal.cited("SK Elite"))
  raises(function() R.to_hit(soldier{ id = "e", troops = "demigods" }, "rifle", 100) end, "unknown troop level")
end)

test("SK Designation: a weapon found out of range missed, and no dice are rolled", function()
  local a, b = soldier{ id = "a" }, soldier{ id = "b", side = "red" }
  umpire.dice.fix{ 7 }
  local r = R.shot(a, b, "pistol", 51)
  eq(r.hit, false)
  eq(r.out_of_range, true)
  eq(umpire.dice.d(20), 7)
  ok(umpire.journal.cited("SK Designation"))
end)

test("SK Range: measured head to head after designation (positions in inches, options.metres_per_inch)", function()
  local P = umpire.rules.fire_phase
  local a = soldier{ id = "a", x = 0, y = 0 }
  local b = soldier{ id = "b", side = "red", x = 30, y = 0 }
  eq(P.range(a, b, {}), 60)
  local c = soldier{ id = "c", side = "red", x = 30, y = 0, posture = "prone" }
  -- standing head 1.7 m, prone head 0.3 m: sqrt(60^2 + 1.4^2)
  ok(math.abs(P.range(a, c, {}) - math.sqrt(3600 + 1.96)) < 1e-9)
  raises(function() P.range(soldier{ id = "p" }, soldier{ id = "q" }, {}) end, "no range from p to q")
end)
