-- SK Templates: automatic and explosive/incendiary weapons fire once at each target under the
-- template.
local P = umpire.rules.fire_phase

local function soldier(t)
  t.equipment = t.equipment or { "steel_helmet" }
  return t
end

test("SK Templates: an LMG fires once at every enemy figure listed under its template", function()
  local figs = {
    soldier{ id = "mg", side = "blue", weapons = { "lmg" } },
    soldier{ id = "r1", side = "red" }, soldier{ id = "r2", side = "red" }, soldier{ id = "r3", side = "red" },
  }
  -- 50 m, 55%: r1 d20 3 hit, d6 1 death; r2 d20 12 miss; r3 d20 11 hit, d6 6 walking wounded
  umpire.dice.fix{ 3, 1,  12, 4,  11, 6 }
  local out = P.run{ figures = figs, moved_first = "red",
    designations = { blue = { { firer = "mg", target = "r1", under = { "r1", "r2", "r3" }, range_m = 50 } } } }
  local res = out.shots[1].results
  eq(#res, 3)
  eq({ res[1].target, res[1].effect }, { "r1", "death" })
  eq(res[2].hit, false)
  eq({ res[3].target, res[3].effect }, { "r3", "walking_wounded" })
  ok(umpire.journal.cited("SK Templates"))
end)

test("SK Templates: with positions, umpire.table finds the figures under a template centred on the target", function()
  local figs = {
    soldier{ id = "g", side = "blue", weapons = { "hand_grenade" }, x = 0, y = 0 },
    soldier{ id = "r1", side = "red", x = 10, y = 0 },
    soldier{ id = "r2", side = "red", x = 10, y = 1.5 },
    soldier{ id = "r3", side = "red", x = 10, y = 6 },
  }
  -- 3" template on r1: r1 and r2 (1.5" apart), not r3; 20 m, 60%
  umpire.dice.fix{ 1, 6,  1, 6 }
  local out = P.run{ figures = figs, moved_first = "red",
    designations = { blue = { { firer = "g", target = "r1" } } } }
  local res = out.shots[1].results
  eq(#res, 2)
  eq(res[1].target, "r1"); eq(res[2].target, "r2")
end)

test("SK Templates: friends under the template are not targets", function()
  local figs = {
    soldier{ id = "mg", side = "blue", weapons = { "lmg" } }, soldier{ id = "b2", side = "blue" },
    soldier{ id = "r1", side = "red" },
  }
  umpire.dice.fix{ 20, 1 }
  local out = P.run{ figures = figs, moved_first = "red",
    designations = { blue = { { firer = "mg", target = "r1", under = { "r1", "b2" }, range_m = 50 } } } }
  eq(#out.shots[1].results, 1)
end)

test("SK Templates: artillery in the red zone adds +1 for the figures named", function()
  local figs = {
    soldier{ id = "m", side = "blue", weapons = { "mortar_60mm" } },
    soldier{ id = "r1", side = "red" }, soldier{ id = "r2", side = "red" },
  }
  umpire.dice.fix{ 1, 4,  1, 4 }
  local out = P.run{ figures = figs, moved_first = "red",
    designations = { blue = { { firer = "m", target = "r1", under = { "r1", "r2" }, red_zone = { "r1" }, range_m = 500 } } } }
  eq(out.shots[1].results[1].modified, 5)
  eq(out.shots[1].results[2].modified, 4)
end)

test("SK Templates: without positions or a list the template cannot be placed", function()
  local figs = { soldier{ id = "mg", side = "blue", weapons = { "lmg" } }, soldier{ id = "r1", side = "red" } }
  raises(function()
    P.run{ figures = figs, moved_first = "red", designations = { blue = { { firer = "mg", target = "r1", range_m = 50 } } } }
  end, "give the figures under the template")
end)
