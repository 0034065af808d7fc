-- SK Designation and SK Elite: the fire phase as a bus procedure.
local P = umpire.rules.fire_phase

local function soldier(t)
  t.equipment = t.equipment or { "steel_helmet" }
  t.weapons = t.weapons or { "rifle" }
  return t
end

-- Bus handlers registered by these tests act only while their own test runs.
local active = nil

test("SK Designation: the side that moved first designates second and sees the other's designations", function()
  local token = {}
  active = token
  local seen = {}
  umpire.bus.on("sk.designate", function(ev)
    if active ~= token then return end
    seen[#seen + 1] = { ev.payload.side, #ev.payload.earlier }
  end)
  local figs = { soldier{ id = "b1", side = "blue" }, soldier{ id = "r1", side = "red" } }
  umpire.dice.fix{ 20, 1,  20, 1 }
  local out = P.run{ figures = figs, moved_first = "blue",
    designations = { blue = { { firer = "b1", target = "r1", range_m = 100 } }, red = { { firer = "r1", target = "b1", range_m = 100 } } } }
  active = nil
  eq(out.order, { "red", "blue" })
  eq(seen, { { "red", 0 }, { "blue", 1 } })
  ok(umpire.journal.cited("SK Designation"))
end)

test("SK Designation: a handler may designate for its side (an AI player)", function()
  local token = {}
  active = token
  umpire.bus.on("sk.designate", function(ev)
    if active ~= token or ev.payload.side ~= "red" then return end
    table.insert(ev.payload.designations, { firer = "r1", target = "b1", range_m = 20 })
  end)
  local figs = { soldier{ id = "b1", side = "blue" }, soldier{ id = "r1", side = "red" } }
  umpire.dice.fix{ 1, 6 }
  local out = P.run{ figures = figs, moved_first = "red", designations = {} }
  active = nil
  eq(#out.shots, 1)
  eq(figs[1].status, "walking_wounded")
end)

test("SK Designation: all targets are designated before any range is measured", function()
  local token = {}
  active = token
  local log = {}
  umpire.bus.on("sk.designate", function(ev) if active == token then log[#log + 1] = "designate " .. ev.payload.side end end)
  umpire.bus.on("sk.designated", function() if active == token then log[#log + 1] = "locked" end end)
  umpire.bus.on("sk.measure", function(ev) if active == token then log[#log + 1] = "measure " .. ev.payload.firer.id end end)
  local figs = { soldier{ id = "b1", side = "blue", x = 0, y = 0 }, soldier{ id = "r1", side = "red", x = 10, y = 0 } }
  umpire.dice.fix{ 20, 1,  20, 1 }
  P.run{ figures = figs, moved_first = "blue",
    designations = { blue = { { firer = "b1", target = "r1" } }, red = { { firer = "r1", target = "b1" } } } }
  active = nil
  eq(log, { "designate red", "designate blue", "locked", "measure r1", "measure b1" })
end)

test("SK Designation: a weapon later found out of range missed (and is spent)", function()
  local figs = { soldier{ id = "b1", side = "blue", weapons = { "pistol" }, x = 0, y = 0 },
                 soldier{ id = "r1", side = "red", x = 40, y = 0 } }
  umpire.dice.fix{}
  local out = P.run{ figures = figs, moved_first = "red", designations = { blue = { { firer = "b1", target = "r1" } } } }
  eq(out.shots[1].results[1].out_of_range, true)
  eq(figs[2].status, nil)
end)

test("SK Designation: weapons after the one that destroyed the target have no additional effect", function()
  local figs = { soldier{ id = "b1", side = "blue" }, soldier{ id = "b2", side = "blue" }, soldier{ id = "b3", side = "blue" },
                 soldier{ id = "r1", side = "red" } }
  -- b1 hits the leg (walking wounded), b2 kills (head), b3's weapon is wasted: no dice
  umpire.dice.fix{ 1, 6,  1, 1,  9 }
  local out = P.run{ figures = figs, moved_first = "red", designations = { blue = {
    { firer = "b1", target = "r1", range_m = 30 }, { firer = "b2", target = "r1", range_m = 30 }, { firer = "b3", target = "r1", range_m = 30 } } } }
  eq(out.shots[3].wasted, true)
  eq(umpire.dice.d(20), 9)
  eq(out.removed, { "r1" })
end)

test("SK Designation (options.target_destroyed_when = out_of_action): a litter case counts as destroyed", function()
  local o = umpire.data.options
  o.target_destroyed_when = "out_of_action"
  local okay, err = pcall(function()
    local figs = { soldier{ id = "b1", side = "blue" }, soldier{ id = "b2", side = "blue" }, soldier{ id = "r1", side = "red" } }
    umpire.dice.fix{ 1, 3 }
    local out = P.run{ figures = figs, moved_first = "red", designations = { blue = {
      { firer = "b1", target = "r1", range_m = 30 }, { firer = "b2", target = "r1", range_m = 30 } } } }
    eq(out.shots[2].wasted, true)
  end)
  o.target_destroyed_when = "dead"
  if not okay then error(err, 0) end
end)

test("SK Elite: three levels above the target fire first; only the survivors return fire", function()
  local figs = { soldier{ id = "sf", side = "blue", elite = 3 }, soldier{ id = "r1", side = "red" } }
  -- red designates first (blue moved first) but sf fires first: head shot; r1 does not fire
  umpire.dice.fix{ 2, 1,  1, 1 }
  local out = P.run{ figures = figs, moved_first = "blue", designations = {
    red = { { firer = "r1", target = "sf", range_m = 30 } }, blue = { { firer = "sf", target = "r1", range_m = 30 } } } }
  eq(out.shots[1].step, "elite_first")
  eq(out.shots[1].firer, "sf")
  ok(out.shots[2].did_not_fire)
  eq(figs[1].status, nil)
  eq(umpire.dice.d(20), 1)
  ok(umpire.journal.cited("SK Elite"))
end)

test("SK Elite: a wounded survivor of the elite fire still returns fire", function()
  local figs = { soldier{ id = "sf", side = "blue", elite = 4 }, soldier{ id = "r1", side = "red", elite = 1 } }
  umpire.dice.fix{ 2, 6,  1, 5 }
  local out = P.run{ figures = figs, moved_first = "blue", designations = {
    red = { { firer = "r1", target = "sf", range_m = 30 } }, blue = { { firer = "sf", target = "r1", range_m = 30 } } } }
  eq(figs[2].status, "walking_wounded")
  eq(out.shots[2].results[1].effect, "walking_wounded")
  eq(figs[1].status, "walking_wounded")
end)

test("SK Elite: two levels above is not enough: simultaneous fire, both die", function()
  local figs = { soldier{ id = "sf", side = "blue", elite = 2 }, soldier{ id = "r1", side = "red" } }
  umpire.dice.fix{ 1, 1,  1, 1 }
  local out = P.run{ figures = figs, moved_first = "blue", designations = {
    red = { { firer = "r1", target = "sf", range_m = 30 } }, blue = { { firer = "sf", target = "r1", range_m = 30 } } } }
  eq(out.shots[1].step, "main")
  eq(out.removed, { "sf", "r1" })
end)

test("SK Designation: infantry weapons may only be fired at targets that can be seen", function()
  local figs = { soldier{ id = "b1", side = "blue" }, soldier{ id = "r1", side = "red", hidden = true } }
  raises(function()
    P.run{ figures = figs, moved_first = "red", designations = { blue = { { firer = "b1", target = "r1", range_m = 30 } } } }
  end, "cannot see r1")
end)

test("SK Designation: a figure designates one target a phase (options.one_weapon_per_figure)", function()
  local figs = { soldier{ id = "b1", side = "blue", weapons = { "rifle", "pistol" } }, soldier{ id = "r1", side = "red" }, soldier{ id = "r2", side = "red" } }
  raises(function()
    P.run{ figures = figs, moved_first = "red", designations = { blue = {
      { firer = "b1", target = "r1", range_m = 30 }, { firer = "b1", target = "r2", weapon = "pistol", range_m = 30 } } } }
  end, "already designated")
  raises(function()
    P.run{ figures = figs, moved_first = "red", designations = { blue = { { firer = "b1", target = "r1", weapon = "lmg" } } } }
  end, "does not carry a lmg")
end)

test("SK Designation: the text orders two sides; three is not implemented", function()
  local figs = { soldier{ id = "a", side = "a" }, soldier{ id = "b", side = "b" }, soldier{ id = "c", side = "c" } }
  raises(function() P.run{ figures = figs, moved_first = "a" } end, "not implemented: SK Designation with 3 sides")
end)

test("bus: a house-rule handler at a higher priority may cancel a shot", function()
  local token = {}
  active = token
  umpire.bus.on("sk.shot", function(ev) if active == token then ev:cancel() end end, { priority = 10 })
  local figs = { soldier{ id = "b1", side = "blue" }, soldier{ id = "r1", side = "red" } }
  umpire.dice.fix{ 13 }
  local out = P.run{ figures = figs, moved_first = "red", designations = { blue = { { firer = "b1", target = "r1", range_m = 30 } } } }
  active = nil
  eq(#out.shots, 0)
  eq(umpire.dice.d(20), 13)
end)

test("SK Target Choice: the nearest target in the open", function()
  local me = soldier{ id = "me", side = "blue", x = 0, y = 0 }
  local figs = { me, soldier{ id = "near", side = "red", x = 5, y = 0, cover = "low_wall" },
                 soldier{ id = "open", side = "red", x = 9, y = 0 }, soldier{ id = "far", side = "red", x = 20, y = 0 } }
  eq(P.suggest_target(me, figs).id, "open")
  ok(umpire.journal.cited("SK Target Choice"))
end)
