-- SK Animals: wounded animals, the shoulder hit's charge, and cavalry whose mount is killed.
local A = {}
local function F() return umpire.rules.figures end

local function rider_of(animal, ctx)
  local r = animal.rider
  if type(r) == "table" then return r end
  if r == nil then return nil end
  local by = ctx and ctx.by_id
  local f = by and by[r]
  if not f then error(("SK Animals: %s carries rider '%s', who is not among the figures given"):format(animal.id, tostring(r)), 0) end
  return f
end

local function mounted_rider(animal, ctx)
  local r = rider_of(animal, ctx)
  if r and F().mounted(r) then return r end
  return nil
end

-- The rider gets off (an animal that cannot carry riders any more).
local function dismount(animal, ctx, why)
  local r = mounted_rider(animal, ctx)
  if r then
    r.dismounted = true
    umpire.cite("SK Animals", ("%s dismounts: %s"):format(r.id, why))
  end
end

-- "If cavalry are on their mounts and the animal is killed, roll a six sided die to see if the
-- rider is injured, with a DM of +1."
function A.killed(animal, ctx)
  local r = mounted_rider(animal, ctx)
  if not r then return nil end
  local rec = umpire.rules.resolution.rider_injury(r)
  r.dismounted = true
  umpire.rules.casualties.apply(r, rec, ctx)
  return rec
end

function A.apply(animal, rec, ctx)
  local e = rec.effect
  local old = F().status(animal)
  local new = umpire.rules.casualties.combine(old, e)
  animal.status = new
  animal.wounded_turn = animal.wounded_turn or ctx.turn
  if new == "dead" then
    umpire.cite("SK Animals", animal.id .. " is killed")
    rec.rider = A.killed(animal, ctx)
  elseif new == "charging" then
    -- "results in the animal charging the attacker ... conducting a close combat and then dying"
    animal.charge_target = ctx.firer and ctx.firer.id
    umpire.cite("SK Animals", ("%s is hit in the shoulders: it charges %s, fights a close combat, then dies"):format(
      animal.id, tostring(animal.charge_target)))
  elseif new == "walking_wounded" then
    umpire.cite("SK Animals", animal.id .. " is walking wounded: only moves at a walk and cannot carry any loads or riders")
    animal.loads = nil
    dismount(animal, ctx, "a walking-wounded animal cannot carry riders")
  elseif new == "litter_case" then
    umpire.cite("SK Animals", animal.id .. " is a litter case: its owner may destroy it")
    -- The text is silent on riders of litter-case animals; what a walking-wounded animal
    -- cannot carry, a litter case cannot either. No injury roll: the animal was not killed.
    animal.loads = nil
    dismount(animal, ctx, "a litter-case animal cannot carry riders (as a walking-wounded one)")
  end
  umpire.bus.emit("sk.casualty", { figure = animal, status = new, was = old, hit = rec })
end

-- The close combat itself is not in the text.
function A.close_combat()
  error("not implemented: SK Animals close combat (the close combat rules are not in the text; play it, then call animals.after_close_combat)", 0)
end

-- "The animal will die even if it wins the close combat."
function A.after_close_combat(animal, won, ctx)
  if F().status(animal) ~= "charging" then
    error(("SK Animals: %s is not a charging animal"):format(animal.id), 0)
  end
  animal.status = "dead"
  umpire.cite("SK Animals", ("%s %s the close combat and dies"):format(animal.id, won and "wins" or "loses"))
  return A.killed(animal, ctx)
end

-- "Owner may destroy 'Litter case' animals."
function A.destroy(animal, by_side)
  if F().status(animal) ~= "litter_case" then
    error(("SK Animals: only litter-case animals may be destroyed by their owner; %s is %s"):format(animal.id, F().status(animal)), 0)
  end
  if by_side and animal.side and by_side ~= animal.side then
    error(("SK Animals: %s belongs to %s, not %s"):format(animal.id, animal.side, by_side), 0)
  end
  animal.status = "dead"
  umpire.cite("SK Animals", ("%s destroys its litter-case animal %s"):format(animal.side or by_side or "the owner", animal.id))
end

function A.max_move(animal)
  local s = F().status(animal)
  if s == "walking_wounded" then
    umpire.cite("SK Animals", animal.id .. " is walking wounded: only at a walk")
    return umpire.data.troops.animal_walking_wounded_pace
  end
  if s == "litter_case" then return 0 end
  return nil
end

-- "can not carry any loads or riders"
function A.can_carry(animal)
  local s = F().status(animal)
  if s == "walking_wounded" or s == "litter_case" or s == "dead" then
    umpire.cite("SK Animals", animal.id .. " cannot carry loads or riders")
    return false
  end
  return true
end

return A
