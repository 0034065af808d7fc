-- SK Casualties: death, litter cases, walking wounded; removal at the end of the phase.
local C, FG, P = umpire.rules.casualties, umpire.rules.figures, umpire.rules.fire_phase

local function soldier(t)
  t.equipment = t.equipment or { "steel_helmet" }
  t.weapons = t.weapons or { "rifle" }
  return t
end
local function with_option(k, v, fn)
  local o = umpire.data.options
  local old = o[k]
  o[k] = v
  local okay, err = pcall(fn)
  o[k] = old
  if not okay then error(err, 0) end
end

test("SK Casualties: walking wounded may move up to 50 m, and may not fire if they moved", function()
  local w = soldier{ id = "w", side = "blue", status = "walking_wounded" }
  eq(C.max_move(w), 50)
  eq(FG.cannot_fire(w), nil)
  w.moved = "walk"
  ok(FG.cannot_fire(w))
  local e = soldier{ id = "e", side = "red", range_m = 10 }
  raises(function()
    P.run{ figures = { w, e }, moved_first = "blue", designations = { blue = { { firer = "w", target = "e", range_m = 10 } } } }
  end, "walking wounded and moved")
  w.moved = "turned"
  eq(FG.cannot_fire(w), nil)
  ok(umpire.journal.cited("SK Casualties"))
end)

test("SK Casualties: a litter case does not fire (options.litter_case_may_fire) and does not move", function()
  local l = soldier{ id = "l", side = "blue", status = "litter_case" }
  ok(FG.cannot_fire(l))
  eq(C.max_move(l), 0)
  with_option("litter_case_may_fire", true, function() eq(FG.cannot_fire(l), nil) end)
end)

test("SK Casualties: litter cases may be given assistance during the next turn by non-injured infantrymen", function()
  local l = soldier{ id = "l", side = "blue", status = "litter_case", wounded_turn = 3 }
  local h = soldier{ id = "h", side = "blue" }
  raises(function() C.assist(h, l, 3) end, "during the next turn")
  raises(function() C.assist(soldier{ id = "ww", status = "walking_wounded" }, l, 4) end, "only non%-injured infantrymen")
  raises(function() C.assist(h, soldier{ id = "fine" }, 4) end, "not a litter case")
  ok(C.assist(h, l, 4))
  eq(l.assisted_by, "h")
end)

test("SK Casualties: the dead are removed at the end of the phase, not before", function()
  local a = soldier{ id = "a", side = "blue" }
  local b = soldier{ id = "b", side = "red" }
  -- both fire at 10 m (70%): a hits b in the head (1), b hits a in the shoulders (2): both fire, both die
  umpire.dice.fix{ 5, 1,  5, 2 }
  local out = P.run{ figures = { a, b }, moved_first = "blue",
    designations = { blue = { { firer = "a", target = "b", range_m = 10 } }, red = { { firer = "b", target = "a", range_m = 10 } } } }
  eq(#out.shots, 2)
  eq(out.removed, { "a", "b" })
  ok(a.removed and b.removed)
end)

test("SK Casualties (options.wound_stacking): a second wound keeps the worst, or escalates", function()
  eq(C.combine("walking_wounded", "walking_wounded"), "walking_wounded")
  eq(C.combine("walking_wounded", "litter_case"), "litter_case")
  eq(C.combine("ok", "death"), "dead")
  with_option("wound_stacking", "escalate", function()
    eq(C.combine("walking_wounded", "walking_wounded"), "litter_case")
    eq(C.combine("litter_case", "walking_wounded"), "dead")
  end)
end)

test("SK Animals: the Medical Treatment chart is not in the text", function()
  raises(function() C.medical_treatment() end, "not implemented: SK Medical Treatment")
end)
