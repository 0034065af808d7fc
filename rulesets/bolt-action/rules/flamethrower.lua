-- BA Flamethrower.
local FT = {}
local RULE = "BA Flamethrower"
local function sr() return umpire.data.special_rules.flamethrower end

-- "Flamethrowers never suffer the to-hit penalties for cover and if the target is Down."
function FT.ignores_cover_and_down(f)
  local t = f.target
  if t.cover == "soft" or t.cover == "hard" or t.down then
    umpire.cite(RULE, "no to-hit penalty for cover or a Down target")
  end
  return true, true
end

-- "the number of hits is multiplied into D6 (or D6+1 in the case of vehicle-mounted
-- flamethrower)": each hit becomes D6 (D6+1) hits.
function FT.hits(profile, hits)
  local expr = profile.vehicle and sr().vehicle_hits or sr().infantry_hits
  local total = 0
  for i = 1, hits do
    local n = umpire.dice.roll(expr)
    umpire.cite(RULE, ("hit %d multiplied into %s: %d hits"):format(i, expr, n))
    total = total + n
  end
  return total
end

-- "1 pin marker because it has been hit, and a further D3 ... a total of D3+1".
function FT.pins(unit)
  local n = umpire.dice.roll(sr().pins)
  umpire.cite(RULE, ("%s hit by a flamethrower: %s = %d pins"):format(unit.id, sr().pins, n))
  return n
end

-- "must always check its morale once firing has been worked out and pin markers allocated ...
-- A unit failing this check is destroyed immediately ... Vehicles ... abandoned and destroyed."
function FT.morale(unit, u)
  if unit.destroyed then return end
  local passed = umpire.rules.core.morale_check(unit, "flamethrower")
  umpire.cite(RULE, ("%s must check morale after a flamethrower attack: %s"):format(unit.id, passed and "passed" or "failed, destroyed"))
  u.morale_passed = passed
  if not passed then
    unit.destroyed = true
    if unit.vehicle then unit.abandoned = true end
    for _, m in ipairs(unit.models) do m.removed = true end
  end
end

-- After shooting: infantry - D6, on a 1 out of fuel and the whole team removed; vehicle - a D6
-- per flamethrower, on a 1 that flamethrower is useless.
function FT.fuel(shooter, f, res)
  local k = sr().out_of_fuel_on
  local n = f.profile.vehicle and (f.model.mount or 1) or 1
  for i = 1, n do
    local d = umpire.dice.d6()
    if d <= k then
      if f.profile.vehicle then
        umpire.cite(RULE, ("fuel roll %d: vehicle flamethrower %d of %s out of fuel, useless"):format(d, i, f.model.id))
        f.model.flamethrowers_empty = (f.model.flamethrowers_empty or 0) + 1
        if f.model.flamethrowers_empty >= (f.model.mount or 1) then f.model.spent = true end
      else
        umpire.cite(RULE, ("fuel roll %d: out of fuel, the flamethrower team %s is removed"):format(d, shooter.id))
        shooter.destroyed = true
        for _, m in ipairs(shooter.models) do m.removed = true end
        res.out_of_fuel = true
      end
    else
      umpire.cite(RULE, ("fuel roll %d: the flamethrower keeps working"):format(d))
    end
  end
end

return FT
