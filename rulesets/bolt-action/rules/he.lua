-- BA HE, BA HE chart, BA Multiple HE hits (Diagrams 9A, 9B, 10).
local HE = {}
local RULE = "BA HE"

-- Is this shot HE? Weapons with Pen "HE" always are; weapons with both (AT guns, cannons)
-- fire what the player declares with the target, or what was loaded for an Ambush.
function HE.shot_type(unit, f, o)
  local W = umpire.rules.weapons
  local p = f.profile
  if not W.has(p, "he") then
    if o.shot == "he" then error(("%s (%s) cannot fire HE"):format(f.model.id, p.name), 0) end
    return false
  end
  if p.pen == "HE" then return true end
  if o.order == "ambush" then
    local loaded = HE.ambush_round(unit, p)
    if o.shot and o.shot ~= loaded then
      error(("BA HE: %s is in Ambush with %s rounds loaded and cannot change to %s until a further order"):format(unit.id, loaded, o.shot), 0)
    end
    return loaded == "he"
  end
  if o.shot ~= "he" and o.shot ~= "ap" then
    error(("BA HE: declare the kind of shot for %s (%s) with the target: shot = \"he\" or \"ap\""):format(f.model.id, p.name), 0)
  end
  umpire.cite(RULE, ("%s declares a%s shot with its target"):format(f.model.id, o.shot == "he" and "n HE" or "n anti-tank"))
  return o.shot == "he"
end

-- Ambush: the round must be declared; "If this is forgotten then the default position is that
-- anti-tank guns will load anti-tank rounds, whilst other guns will load HE rounds."
function HE.ambush(unit, round)
  unit.ambush_round = round
  unit.order = "ambush"
  if round then umpire.cite(RULE, unit.id .. " goes into Ambush with " .. round .. " rounds loaded") end
end

function HE.ambush_round(unit, profile)
  if unit.ambush_round then return unit.ambush_round end
  -- the weapon's class as data (gun: anti_tank, inherited through `as`), never a guess from its id
  local is_at = profile.gun == "anti_tank"
  local r = is_at and "ap" or "he"
  umpire.cite(RULE, ("Ambush round not declared: %s loads %s rounds by default"):format(profile.name, is_at and "anti-tank" or "HE"))
  return r
end

local function enemies_and_friends(shooter, target, world)
  local others, friends = {}, {}
  for _, u in ipairs(world or {}) do
    if u ~= target and u ~= shooter and not u.destroyed then
      if u.side == shooter.side then friends[#friends + 1] = u else others[#others + 1] = u end
    end
  end
  if shooter.side ~= nil then friends[#friends + 1] = shooter end
  return others, friends
end

local function models_of(units)
  local out = {}
  for _, u in ipairs(units) do
    for _, m in ipairs(umpire.rules.core.alive(u)) do out[#out + 1] = m end
    if u.spotter and not u.spotter.removed then out[#out + 1] = u.spotter end
  end
  return out
end

-- "A unit shot at by HE can react by taking an immediate Down action ... Once the unit has gone
-- Down, roll to hit" - so before the to-hit roll (and the Down to-hit modifier applies).
function HE.react_down(o, firers)
  if not o.target_goes_down or o.target.down then return end
  for _, f in ipairs(firers) do
    if f.he_shot and f.target == o.target then
      o.target.down = true
      umpire.cite(RULE, o.target.id .. " reacts to the HE shot by going Down")
      return
    end
  end
  error("BA HE: only a unit shot at by HE can react by going Down", 0)
end

-- Count HE hits per unit for `n` templates of `diameter` on `target`.
-- Returns { {unit=, hits=} ... } target first, and the centres.
function HE.templates(shooter, target, diameter, n, world)
  local G = umpire.rules.geometry
  local others, friends = enemies_and_friends(shooter, target, world)
  local tm = umpire.rules.core.alive(target)
  local centres, under
  if n <= 1 then
    local c
    local om = {}
    for _, u in ipairs(others) do
      for _, m in ipairs(umpire.rules.core.alive(u)) do om[#om + 1] = m end
    end
    c, under = G.place_template(diameter, tm, models_of(friends), om)
    centres = { c }
    umpire.cite(RULE, ("%d\" template placed to cover as many models of %s as possible without clipping a friend: %d under it"):format(diameter, target.id, #under))
  else
    centres, under = G.place_templates(n, diameter, tm, models_of(friends))
    umpire.cite("BA Multiple HE hits", ("%d templates of %d\" in contact without overlapping; a model covered twice is hit once: %d models of %s"):format(n, diameter, #under, target.id))
  end
  local out = { { unit = target, hits = #under } }
  for _, u in ipairs(others) do
    local hit = G.union_under(centres, diameter, umpire.rules.core.alive(u))
    if #hit > 0 then
      out[#out + 1] = { unit = u, hits = #hit }
      umpire.cite(RULE, ("the template also covers %d models of %s"):format(#hit, u.id))
    end
  end
  return out, centres
end

-- Resolve `hits` HE hits of firer f: templates, Down halving, buildings, pins, damage.
function HE.resolve_hits(shooter, f, hits, o, res)
  local W = umpire.rules.weapons
  local row = W.he_row(f.profile.he)
  local target = f.target
  if hits > 1 then
    umpire.cite("BA Multiple HE hits", ("%d HE hits from %s: one template per hit, placed together"):format(hits, f.model.id))
  end
  local per_unit = HE.templates(shooter, target, row.diameter, hits, o.world)
  local halve_all = umpire.data.options.options.he_down_halves_all_units_hit
  local pen = W.pen(f.profile, true)
  local how = { he = true, indirect = f.mode == "indirect", long_range = f.distance > f.range / 2 }
  for i, e in ipairs(per_unit) do
    local u, n = e.unit, e.hits
    if u.in_building then
      n = 0
      for _ = 1, hits do n = n + umpire.dice.roll(row.building_hits) end
      umpire.cite("BA HE chart", ("%s is in a building: %s hits per HE hit instead of the template: %d"):format(u.id, row.building_hits, n))
    elseif u.down and (i == 1 or halve_all) then
      local d = umpire.data.special_rules.he.down_divisor
      local h = math.ceil(n / d)
      umpire.cite(RULE, ("%s is Down: %d hits halved, rounding up, to %d"):format(u.id, n, h))
      n = h
    end
    local r = umpire.rules.shooting.result_for(res, u)
    r.hits = r.hits + n
    -- "Units hit by multiple HE hits like this only suffer a single batch of multiplied pin
    -- markers" - one pin roll per unit for this weapon's hits.
    if n > 0 or i == 1 then
      local pins = umpire.dice.roll(row.pins)
      umpire.cite(RULE, ("%s hit by HE (%d\"): %s = %d pins%s"):format(u.id, row.diameter, row.pins, pins,
        hits > 1 and " (one batch for all the HE hits)" or ""))
      r.pins = r.pins + pins
      r.he_pins = true
    end
    -- "Roll to damage as normal, starting from the target unit"
    r.casualties = r.casualties + umpire.rules.shooting.damage(u, n, pen, how, o)
  end
end

return HE
