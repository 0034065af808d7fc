-- One shot: the percentage chance to hit (SK Range, SK Sniper Scope, SK Elite), the d20 and d6
-- rolled together (SK To Hit), and the hit location with its modifiers, cover and effect
-- (SK Hit Location, SK Animal Hit Location, SK Location Modifiers, SK Cover, SK Firer Above).
local R = {}
local function T() return umpire.rules.tables end
local function F() return umpire.rules.figures end

-- The percentage chance to hit of `firer` with weapon `wid` at `range_m` metres; nil and a
-- reason if the weapon does not reach. Returns pct, the modifier pipeline, the band index.
function R.to_hit(firer, wid, range_m)
  local w = T().weapon(wid)
  local band, i = T().band(w, range_m)
  if not band then return nil, ("%s reaches %d m, target at %.1f m"):format(w.name, w.bands[#w.bands].max_m, range_m) end
  local moving = F().moved(firer)
  local m = umpire.bus.modifiers("% to hit")
  -- the flag is the row's own: a house rule that replaced this row un-marks it, and only it
  local example = w.example and " (EXAMPLE to-hit table)" or ""
  -- the mark goes into the modifier's source, the part of the line the journal prints
  m:add(moving and band.moving or band.stationary,
        ("%s at %.0f m, band %d, %s%s"):format(w.name, range_m, i, moving and "firer moved" or "stationary", example),
        "SK Range")
  for _, s in ipairs(F().worn(firer, "scope")) do
    m:add(s.def.to_hit_pct, s.def.name, "SK Sniper Scope")
  end
  local lv = F().level(firer)
  if lv > 0 then
    m:add(lv * T().troops().to_hit_pct_per_level, ("elite level %d"):format(lv), "SK Elite")
  end
  return m:total(), m, i
end

-- SK To Hit: the d20 read as percentages, 5% a face: a hit if face * 5 <= percentage.
function R.hits(d20, pct)
  return d20 * T().troops().percent_per_face <= pct
end

-- SK Location Modifiers: the modifiers to a hit location roll on `target` by `ctx.weapon`.
-- Only infantrymen wear armour and helmets ("Troops not wearing a steel or ballistic helmet");
-- the red zone and the firer above apply to every figure.
function R.location_modifiers(target, ctx, m)
  local E = umpire.data.equipment
  local w = ctx.weapon
  m = m or umpire.bus.modifiers("hit location")
  if not F().is_animal(target) and not ctx.no_armour then
    local best
    for _, a in ipairs(F().worn(target, "body_armour")) do
      local stops = a.def.stops
      local works = stops == "all"
      if type(stops) == "table" then
        for _, c in ipairs(stops) do if c == w.class then works = true end end
      end
      if works then
        if not best or a.def.location_mod > best.def.location_mod then best = a end
      else
        umpire.cite("SK Location Modifiers", ("%s does not stop %s rounds (soft body armour only stops pistol, SMG and shrapnel)"):format(a.def.name, w.class))
      end
    end
    if best then m:add(best.def.location_mod, best.def.name, "SK Location Modifiers") end
    local helmet
    for _, h in ipairs(F().worn(target, "helmet")) do
      if not helmet or h.def.location_mod > helmet.def.location_mod then helmet = h end
    end
    if helmet then
      if helmet.def.location_mod ~= 0 then m:add(helmet.def.location_mod, helmet.def.name, "SK Location Modifiers")
      else umpire.cite("SK Location Modifiers", ("%s wears a %s: no -1"):format(target.id, helmet.def.name)) end
    else
      m:add(E.no_helmet_mod, "no steel or ballistic helmet", "SK Location Modifiers")
    end
  end
  if ctx.red_zone then
    if not w.artillery then error(("SK Location Modifiers: the red zone +1 is for artillery effects; %s is not artillery"):format(w.name), 0) end
    m:add(E.red_zone_mod, "artillery, red zone", "SK Location Modifiers")
  end
  if ctx.firer_above then
    if target.overhead_protection then
      umpire.cite("SK Firer Above", ("firer above %s, but it has overhead protection: no +1"):format(target.id))
    else
      m:add(E.firer_above_mod, "firer above the target", "SK Firer Above")
    end
  end
  return m
end

-- Reads a modified roll on a hit-location table: a row, "no effect" (7 or more), or what
-- options.modified_below_one says for less than 1.
local function read(kind, modified, who)
  local O = T().options()
  if modified >= 7 then
    umpire.cite("SK Location Modifiers", ("%s: modified %d: no effect"):format(who, modified))
    return nil, "no_effect", modified
  end
  if modified < 1 then
    if O.modified_below_one == "no_effect" then
      umpire.cite("SK Location Modifiers", ("%s: modified %d is below the table: no effect (options.modified_below_one)"):format(who, modified))
      return nil, "no_effect", modified
    end
    umpire.cite("SK Location Modifiers", ("%s: modified %d is below the table: read as 1 (options.modified_below_one)"):format(who, modified))
    modified = 1
  end
  local row = T().location_row(kind, modified)
  return row, row.effect, modified
end

-- Is the number `n` exposed in cover row `row_id`?
local function exposed(row_id, n)
  for _, e in ipairs(T().cover(row_id).exposed) do if e == n then return true end end
  return false
end

-- SK Hit Location: where the hit landed and what it did. `d6` is the location die already
-- rolled with the d20 ("Roll both dice"). ctx: weapon (definition), firer, red_zone,
-- firer_above, from_front. Returns {roll, modified, location, effect, stopped, modifiers}.
function R.locate(target, d6, ctx)
  local O = T().options()
  local kind = F().kind(target)
  local rule = kind == "animal" and "SK Animal Hit Location" or "SK Hit Location"
  local res = { hit = true, roll = d6 }
  umpire.cite(rule, ("%s hit: location die %d (%s)"):format(target.id, d6, T().location_row(kind, d6).location))
  local m = R.location_modifiers(target, ctx)
  local modified = d6 + m:total()
  res.modifiers = tostring(m)
  local row_id = F().exposure(target)
  local cover_applies = O.cover_stops == "all" or ctx.weapon.small_arms
  local function covered(n, how)
    if exposed(row_id, n) then
      umpire.cite("SK Cover", ("%s %s: %d is exposed (%s)"):format(target.id, how, n, T().cover(row_id).name))
      return false
    end
    if not cover_applies then
      umpire.cite("SK Cover", ("%d is covered (%s), but cover protects from small arms fire and %s is not (options.cover_stops)"):format(n, T().cover(row_id).name, ctx.weapon.name))
      return false
    end
    umpire.cite("SK Cover", ("%s %s: %d is covered (%s): protected"):format(target.id, how, n, T().cover(row_id).name))
    return true
  end
  if O.cover_check == "natural" and covered(d6, "natural roll") then
    res.stopped, res.effect, res.modified = true, "stopped_by_cover", modified
    return res
  end
  local row, effect, used = read(kind, modified, target.id)
  res.modified = modified
  if O.cover_check == "modified" and row and covered(used, "modified roll") then
    res.stopped, res.effect = true, "stopped_by_cover"
    return res
  end
  res.effect = effect
  if row then
    res.location = row.location
    if used == 1 and kind == "human" and ctx.from_front then
      res.location = "face"
      umpire.cite("SK Location Modifiers", "a hit in the 1 Head from the direct front is a Face hit")
    end
    umpire.cite(rule, ("%s: die %d, %s: modified %d: %s, %s"):format(target.id, d6, res.modifiers, modified, res.location, effect))
  end
  return res
end

-- The location die alone, for odds scripts and rider rolls (the hit is given).
function R.hit_location(target, ctx)
  return R.locate(target, umpire.dice.d6(), ctx)
end

-- SK To Hit: roll the d20 and the d6 together; a hit is located (the d6) and applied.
-- Returns the shot record {pct, d20, d6, hit, ...locate fields}.
function R.shot(firer, target, wid, range_m, ctx)
  ctx = ctx or {}
  ctx.weapon = T().weapon(wid)
  local pct, why = R.to_hit(firer, wid, range_m)
  if not pct then
    umpire.cite("SK Designation", ("%s at %s: out of range (%s): the weapon missed"):format(firer.id, target.id, why))
    return { hit = false, out_of_range = true }
  end
  local d20 = umpire.dice.d(20)
  local d6 = umpire.dice.d6()
  local hit = R.hits(d20, pct)
  umpire.cite("SK To Hit", ("%s (%s) at %s: d20 %d (%d%%) vs %d%%: %s"):format(firer.id, ctx.weapon.name, target.id, d20,
    d20 * T().troops().percent_per_face, pct, hit and "hit" or "miss"))
  local rec
  if hit then
    rec = R.locate(target, d6, ctx)
    umpire.rules.casualties.apply(target, rec, ctx)
  else
    rec = { hit = false }
  end
  rec.pct, rec.d20, rec.d6 = pct, d20, d6
  return rec
end

-- SK Animals: "If cavalry are on their mounts and the animal is killed, roll a six sided die to
-- see if the rider is injured, with a DM of +1." Read on the human table (7+: unhurt); with
-- options.rider_injury_modifiers = all the rider's helmet and armour count as well.
function R.rider_injury(rider)
  local E = umpire.data.equipment
  local d6 = umpire.dice.d6()
  local m = umpire.bus.modifiers("rider injury")
  m:add(E.rider_injury_dm, "mount killed under the rider", "SK Animals")
  if T().options().rider_injury_modifiers == "all" then
    R.location_modifiers(rider, { weapon = { class = "fall", name = "fall" } }, m)
  end
  local modified = d6 + m:total()
  local row, effect = read("human", modified, rider.id)
  umpire.cite("SK Animals", ("%s's mount was killed: injury roll %d %s = %d: %s"):format(rider.id, d6, tostring(m), modified,
    row and (row.location .. ", " .. effect) or "uninjured"))
  return { roll = d6, modified = modified, effect = effect, location = row and row.location }
end

return R
