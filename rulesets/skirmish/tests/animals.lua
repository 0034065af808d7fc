-- SK Animal Hit Location and SK Animals.
local R, TB, A, C = umpire.rules.resolution, umpire.rules.tables, umpire.rules.animals, umpire.rules.casualties

local function horse(t) t.kind = "animal"; t.side = t.side or "red"; return t end
local function rifle(firer) return { weapon = TB.weapon("rifle"), firer = firer } end
local function hit(target, roll, c)
  local r = R.locate(target, roll, c or rifle())
  C.apply(target, r, c or rifle())
  return r
end

test("SK Animal Hit Location: the animal table", function()
  local want = { "death", "charge_then_die", "litter_case", "litter_case", "walking_wounded", "walking_wounded" }
  local loc = { "head", "shoulders", "chest", "abdomen", "front_legs", "rear_legs" }
  for roll = 1, 6 do
    local r = R.locate(horse{ id = "h" .. roll }, roll, rifle())
    eq({ r.location, r.effect }, { loc[roll], want[roll] }, "roll " .. roll)
  end
  ok(umpire.journal.cited("SK Animal Hit Location"))
end)

test("SK Animals: animals wear no helmet, so no -1 (the -1 is for troops)", function()
  eq(R.locate(horse{ id = "h" }, 3, rifle()).modified, 3)
end)

test("SK Animals: a shoulder hit charges the attacker, fights, and dies even if it wins", function()
  local h = horse{ id = "h" }
  hit(h, 2, rifle({ id = "shooter" }))
  eq(h.status, "charging")
  eq(h.charge_target, "shooter")
  raises(function() A.close_combat(h) end, "not implemented: SK Animals close combat")
  A.after_close_combat(h, true)
  eq(h.status, "dead")
  ok(umpire.journal.cited("SK Animals"))
end)

test("SK Animals: walking-wounded animals only walk and cannot carry loads or riders", function()
  local rider = { id = "trooper", side = "red", mount = "h", equipment = { "steel_helmet" } }
  local h = horse{ id = "h", rider = "trooper", loads = { "ammunition" } }
  hit(h, 5, { weapon = TB.weapon("rifle"), by_id = { trooper = rider, h = h } })
  eq(h.status, "walking_wounded")
  eq(A.max_move(h), "walk")
  eq(A.can_carry(h), false)
  eq(h.loads, nil)
  eq(rider.dismounted, true)
  eq(rider.status, nil)
end)

test("SK Animals: the owner may destroy litter-case animals (only those, only his own)", function()
  local h = horse{ id = "h" }
  hit(h, 4)
  eq(h.status, "litter_case")
  raises(function() A.destroy(h, "blue") end, "belongs to red")
  A.destroy(h, "red")
  eq(h.status, "dead")
  raises(function() A.destroy(horse{ id = "fit" }, "red") end, "only litter%-case animals")
end)

test("SK Animals: a mount killed under its rider: injury roll at +1 (6+1 = 7: unhurt)", function()
  local rider = { id = "trooper", side = "red", mount = "h", equipment = { "steel_helmet" } }
  local h = horse{ id = "h", rider = "trooper" }
  local c = { weapon = TB.weapon("rifle"), by_id = { trooper = rider, h = h } }
  umpire.dice.fix{ 6 }
  local r = hit(h, 1, c)
  eq(h.status, "dead")
  eq(r.rider.modified, 7)
  eq(r.rider.effect, "no_effect")
  eq(rider.status, nil)
  eq(rider.dismounted, true)
end)

test("SK Animals: the rider's injury roll is read on the human table (3+1 = 4: litter case; 1+1: shoulders, death)", function()
  local function ride()
    local rider = { id = "trooper", side = "red", mount = "h", equipment = {} }
    local h = horse{ id = "h", rider = "trooper" }
    return rider, h, { weapon = TB.weapon("rifle"), by_id = { trooper = rider, h = h } }
  end
  local rider, h, c = ride()
  umpire.dice.fix{ 3 }
  hit(h, 1, c)
  eq(rider.status, "litter_case")
  rider, h, c = ride()
  umpire.dice.fix{ 1 }
  hit(h, 1, c)
  eq(rider.status, "dead")
end)

test("SK Animals: the charging animal's rider rolls when it dies after the close combat", function()
  local rider = { id = "trooper", side = "red", mount = "h", equipment = { "steel_helmet" } }
  local h = horse{ id = "h", rider = "trooper" }
  local c = { weapon = TB.weapon("rifle"), by_id = { trooper = rider, h = h }, firer = { id = "f" } }
  hit(h, 2, c)
  eq(rider.dismounted, nil)
  umpire.dice.fix{ 4 }
  local r = A.after_close_combat(h, false, c)
  eq(r.modified, 5)
  eq(rider.status, "walking_wounded")
end)

test("SK Animals (options.rider_injury_modifiers = all): the rider's helmet and armour count", function()
  local o = umpire.data.options
  o.rider_injury_modifiers = "all"
  local okay, err = pcall(function()
    local rider = { id = "trooper", side = "red", mount = "h", equipment = { "ballistic_helmet" } }
    local h = horse{ id = "h", rider = "trooper" }
    umpire.dice.fix{ 5 }
    local r = hit(h, 1, { weapon = TB.weapon("rifle"), by_id = { trooper = rider, h = h } })
    eq(r.rider.modified, 7)
  end)
  o.rider_injury_modifiers = "dm_only"
  if not okay then error(err, 0) end
end)
