-- SK Hit Location, SK Location Modifiers, SK Firer Above.
local R, TB = umpire.rules.resolution, umpire.rules.tables

local function soldier(t)
  t.side = t.side or "red"
  t.equipment = t.equipment or { "steel_helmet" }
  return t
end
local function ctx(wid, extra)
  local c = { weapon = TB.weapon(wid) }
  for k, v in pairs(extra or {}) do c[k] = v end
  return c
end
local function with_option(k, v, fn)
  local o = umpire.data.options
  local old = o[k]
  o[k] = v
  local okay, err = pcall(fn)
  o[k] = old
  if not okay then error(err, 0) end
end

test("SK Hit Location: the human table, standing in the open with a steel helmet", function()
  local want = { { "head", "death" }, { "shoulders", "death" }, { "chest", "litter_case" },
                 { "abdomen", "litter_case" }, { "upper_leg", "walking_wounded" }, { "lower_leg", "walking_wounded" } }
  for roll = 1, 6 do
    local r = R.locate(soldier{ id = "t" .. roll }, roll, ctx("rifle"))
    eq({ r.location, r.effect }, want[roll], "roll " .. roll)
  end
  ok(umpire.journal.cited("SK Hit Location"))
end)

test("SK Location Modifiers: body armour +1 (the text's example: a 4 becomes a 5)", function()
  local r = R.locate(soldier{ id = "t", equipment = { "steel_helmet", "hard_body_armour" } }, 4, ctx("rifle"))
  eq(r.modified, 5)
  eq(r.effect, "walking_wounded")
end)

test("SK Location Modifiers: ballistic helmet +1; with body armour cumulative; a 7 is no effect", function()
  local t = soldier{ id = "t", equipment = { "ballistic_helmet", "hard_body_armour" } }
  local r = R.locate(t, 5, ctx("rifle"))
  eq(r.modified, 7)
  eq(r.effect, "no_effect")
  local r2 = R.locate(soldier{ id = "u", equipment = { "ballistic_helmet" } }, 6, ctx("rifle"))
  eq(r2.effect, "no_effect")
  local r3 = R.locate(soldier{ id = "v", equipment = { "ballistic_helmet" } }, 2, ctx("rifle"))
  eq(r3.location, "chest")
end)

test("SK Location Modifiers: no steel or ballistic helmet is -1", function()
  local r = R.locate(soldier{ id = "t", equipment = {} }, 3, ctx("rifle"))
  eq(r.modified, 2)
  eq(r.effect, "death")
end)

test("SK Location Modifiers (options.modified_below_one): a 1 without a helmet reads as 1, or no effect", function()
  local r = R.locate(soldier{ id = "t", equipment = {} }, 1, ctx("rifle"))
  eq(r.modified, 0)
  eq(r.location, "head")
  eq(r.effect, "death")
  with_option("modified_below_one", "no_effect", function()
    local r2 = R.locate(soldier{ id = "u", equipment = {} }, 1, ctx("rifle"))
    eq(r2.effect, "no_effect")
  end)
end)

test("SK Location Modifiers: soft body armour counts against pistols, SMGs and shrapnel only", function()
  local function soft(id) return soldier{ id = id, equipment = { "steel_helmet", "soft_body_armour" } } end
  eq(R.locate(soft("a"), 4, ctx("pistol")).modified, 5)
  eq(R.locate(soft("b"), 4, ctx("smg")).modified, 5)
  eq(R.locate(soft("c"), 4, ctx("hand_grenade")).modified, 5)
  eq(R.locate(soft("d"), 4, ctx("rifle")).modified, 4)
  eq(R.locate(soft("e"), 4, ctx("lmg")).modified, 4)
end)

test("SK Location Modifiers: +1 for artillery effects in the red zone; not for a rifle", function()
  eq(R.locate(soldier{ id = "a" }, 4, ctx("mortar_60mm", { red_zone = true })).modified, 5)
  eq(R.locate(soldier{ id = "b" }, 4, ctx("mortar_60mm")).modified, 4)
  raises(function() R.locate(soldier{ id = "c" }, 4, ctx("rifle", { red_zone = true })) end, "red zone %+1 is for artillery")
end)

test("SK Firer Above: +1 unless the target has overhead protection", function()
  eq(R.locate(soldier{ id = "a" }, 2, ctx("rifle", { firer_above = true })).modified, 3)
  ok(umpire.journal.cited("SK Firer Above"))
  eq(R.locate(soldier{ id = "b", overhead_protection = true }, 2, ctx("rifle", { firer_above = true })).modified, 2)
end)

test("SK Location Modifiers: a hit in the 1 Head from the direct front is a Face hit", function()
  eq(R.locate(soldier{ id = "a" }, 1, ctx("rifle", { from_front = true })).location, "face")
  eq(R.locate(soldier{ id = "b" }, 1, ctx("rifle")).location, "head")
  -- from positions and facing: the target at (0,0) faces 0 degrees (towards +x)
  local P = umpire.rules.fire_phase
  local firer = { id = "f", side = "blue", x = 20, y = 1, weapons = { "rifle" } }
  local t = soldier{ id = "c", x = 0, y = 0, facing = 0 }
  umpire.dice.fix{ 1, 1 }
  local out = P.run{ figures = { firer, t }, moved_first = "red", designations = { blue = { { firer = "f", target = "c" } } } }
  eq(out.shots[1].results[1].location, "face")
end)
