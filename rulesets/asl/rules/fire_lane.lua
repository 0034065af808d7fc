-- fire_lane.lua: A9.22 Fire Lanes, A9.221 Alternate Hex Grain and Snap Shots, A9.222 Fire Lane Residual FP,
-- A9.223 cancellation. A lane is a plain table kept with the MG (mg.fire_lane) so it lives in umpire.state.
local lane_m = {}
local function R() return umpire.rules end
local function hx(h) if type(h) == "string" then return umpire.hex.asl(h) end return h end
local function same(a, b) return a.q == b.q and a.r == b.r end
local function name(h) return tostring(h) end

-- axial steps along a hexspine (the directions of an Alternate Hex Grain)
local SPINES = {{2, -1}, {1, 1}, {-1, 2}, {-2, 1}, {-1, -1}, {1, -2}}
local function on_hexspine(a, b)
  local dq, dr = b.q - a.q, b.r - a.r
  for _, d in ipairs(SPINES) do
    local k = d[1] ~= 0 and dq / d[1] or dr / d[2]
    if k >= 1 and k == math.floor(k) and d[1] * k == dq and d[2] * k == dr then return true end
  end
  return false
end

--- A9.22: may the DEFENDER declare a Fire Lane with this MG for this Defensive First Fire attack?
-- ctx: {side, phase, crew = {units}, range, target_level, mg_level}. Raises an error naming the condition, else
-- marks the MG with a First Fire counter (the attack is then resolved normally).
function lane_m.declare(mg, ctx)
  local function no(why) error("A9.22: no Fire Lane: " .. why) end
  if ctx.side ~= "DEFENDER" or ctx.phase ~= "MPh" then no("only with a DEFENDER Defensive First Fire attack") end
  if mg.malfunctioned or mg.removed then no(mg.name .. " is not a Good Order SW MG") end
  for _, u in ipairs(ctx.crew or {}) do
    if u.broken or u.pinned then no("the MG must be manned by unpinned Good Order Infantry") end
  end
  if mg.fire_counter == "First Fire" or mg.fire_counter == "Final Fire" then no(mg.name .. " is already marked with a " .. mg.fire_counter .. " counter") end
  if ctx.range == 0 then no("not when using TPBF") end
  if ctx.range > mg.range then no(string.format("target at range %d is beyond Normal Range %d", ctx.range, mg.range)) end
  if (ctx.target_level or 0) ~= (ctx.mg_level or 0) then no("the target must be at the same level (B.5)") end
  mg.fire_lane_declared = true
  mg.fire_counter = "First Fire"
  umpire.cite("A9.22", mg.name .. " declares a Fire Lane: First Fire counter placed; the First Fire attack is resolved normally")
  return true
end

--- A9.22/A9.221: place the Fire Lane Residual FP counter after the First Fire attack.
-- p = {mg_hex, target, counter, side = nil (Hex Grain) | "left" | "right" (Alternate Hex Grain), map,
--      cowered, subsequent_first_fire, fpf, crew,
--      impulse = {{unit =, hex =, movement = {"ffnam"|"ffmo"}, dr =}...}: the OTHER elements of the target's
--      Impulse (A13.62, A25.231, D14.2, E11.2, 11.52) and where they are}
-- Returns the lane (with lane.impulse_attacks), or nil and the reason (an illegally placed counter is removed;
-- the First Fire counter stays).
function lane_m.place(mg, p)
  local mh, t, c = hx(p.mg_hex), hx(p.target), hx(p.counter)
  if p.cowered or p.subsequent_first_fire or p.fpf then
    umpire.cite("A9.22", "no Fire Lane is placed: the manning Infantry Cowered or used Subsequent First Fire/FPF")
    mg.fire_lane_declared = nil
    return nil, "cowered/SFF/FPF"
  end
  local function illegal(why)
    umpire.cite("A9.22", "illegally placed Fire Lane counter is removed (" .. why .. "); " .. mg.name .. " keeps its First Fire counter")
    mg.fire_lane_declared = nil
    return nil, why
  end
  local grain_hexes
  if not p.side then
    if not umpire.hex.grain(mh, c) then return illegal(name(c) .. " is not on a Hex Grain from " .. name(mh)) end
    grain_hexes = {}
    for _, h in ipairs(umpire.hex.line(mh, c)) do if not same(h, mh) then grain_hexes[#grain_hexes + 1] = h end end
  else
    if p.side ~= "left" and p.side ~= "right" then error("A9.221: declare the Alternate Hex Grain 'left' or 'right'") end
    if not on_hexspine(mh, c) then return illegal(name(c) .. " has no hexspine pointing directly back to the MG (A9.221)") end
    grain_hexes = {}
    for _, h in ipairs(umpire.hex.alt_grain(mh, c, p.side)) do
      grain_hexes[#grain_hexes + 1] = h
      if same(h, c) then break end
    end
  end
  local found, tpos, cpos = false, 0, 0
  for i, h in ipairs(grain_hexes) do
    if same(h, t) then found, tpos = true, i end
    if same(h, c) then cpos = i end
  end
  if not found then return illegal(string.format("the %s from %s to %s does not include the target hex %s",
    p.side and (p.side .. " Alternate Hex Grain") or "Hex Grain", name(mh), name(c), name(t))) end
  if cpos < tpos then return illegal("the counter must be placed in or beyond the target hex") end
  local base = R().ift.column_left(R().ift.column(mg.fp))
  umpire.cite("A9.22", string.format("%s Fire Lane along the %s %s-%s: Residual FP is the column left of its %d FP column: %d",
    mg.name, p.side and (p.side .. " Alternate Hex Grain") or "Hex Grain", name(mh), name(c), R().ift.column(mg.fp), base))
  local lane = {mg = mg.name, mg_hex = mh, counter = c, side = p.side, hexes = {}, grain = grain_hexes, attacked = {}, base = base,
    crew = p.crew, active = true}
  local mlevel = R().map_los.hex_info(p.map, mh).level
  for _, h in ipairs(grain_hexes) do
    local d = umpire.hex.distance(mh, h)
    local info = R().map_los.hex_info(p.map, h)
    local fp, why = base, nil
    if d > mg.range then fp, why = 0, string.format("beyond Normal Range %d", mg.range)
    elseif info.level ~= mlevel then fp, why = 0, "not a same-level Location (B.5)"
    else
      local tr = R().map_los.trace(p.map, mh, h)
      if not tr.clear then fp, why = 0, "no LOS to its centre dot: blocked by " .. tr.blocked_by end
    end
    if fp > 0 and d == 1 then
      fp = 2 * fp
      umpire.cite("A9.22", string.format("%s is ADJACENT to the MG: PBF doubles the Fire Lane Residual FP to %d", name(h), fp))
    end
    lane.hexes[#lane.hexes + 1] = {hex = h, fp = fp}
    if fp > 0 then
      umpire.cite("A9.22", string.format("Fire Lane Residual FP %d in %s", fp, name(h)))
    else
      umpire.cite("A9.22", string.format("no Fire Lane Residual FP in %s: %s", name(h), why))
    end
  end
  mg.fire_lane = lane
  -- A9.222: "When a Fire Lane is placed due to a First Fire attack vs a unit using some form of Impulse movement
  -- ..., its Fire Lane Residual FP immediately attacks all other elements of that Impulse currently in any
  -- Location(s) where that Residual FP now exists."
  if p.impulse then
    lane.impulse_attacks = {}
    for _, e in ipairs(p.impulse) do
      if lane.active and lane_m.fp_in(lane, e.hex) > 0 then
        umpire.cite("A9.222", string.format("%s is an element of the Impulse in %s, where the new Fire Lane exerts Residual FP: attacked at once",
          e.unit.name, name(hx(e.hex))))
        local a = lane_m.attack(lane, mg, p.map, e.unit, e.hex, {movement = e.movement, dr = e.dr})
        lane.impulse_attacks[#lane.impulse_attacks + 1] = {unit = e.unit, attack = a}
      end
    end
  end
  return lane
end

--- Fire Lane Residual FP in a hex (0 if none).
function lane_m.fp_in(lane, h)
  h = hx(h)
  if not lane.active then return 0 end
  for _, e in ipairs(lane.hexes) do if same(e.hex, h) then return e.fp end end
  return 0
end

--- A9.222: the DRM of a Fire Lane Residual FP attack vs a unit in hex `h`. Hindrance/hexside DRM are traced from
-- the MG; SMOKE/grain/brush/marsh/FFE/Heavy Dust/hut apply no DRM but cancel FFMO; LV/DLV apply no DRM;
-- no CX/leader/hero DRM. movement = list of "ffnam"/"ffmo".
function lane_m.drm(lane, map, h, unit, movement)
  local tr = R().map_los.trace(map, lane.mg_hex, h)
  local list = {}
  local tem, why = R().map_los.tem(map, lane.mg_hex, h, tr)
  if tem ~= 0 then list[#list + 1] = R().ift.drm_entry("tem", tem, why .. " TEM") end
  local cancel_ffmo = false
  for _, hi in ipairs(tr.hindrances) do
    if hi.lane == "drm" then
      local e = R().ift.drm_entry("hindrance", hi.value, hi.terrain .. " Hindrance in " .. name(hi.hex))
      e.rule = "A9.222"
      list[#list + 1] = e
    elseif hi.lane == "no_drm_cancels_ffmo" then
      cancel_ffmo = true
      umpire.cite("A9.222", hi.terrain .. " Hindrance in " .. name(hi.hex) .. " is no DRM to a Fire Lane attack but cancels FFMO")
    else
      umpire.cite("A9.222", hi.terrain .. " Hindrance in " .. name(hi.hex) .. " is no DRM to a Fire Lane attack")
    end
  end
  for _, m in ipairs(movement or {}) do
    if m == "ffmo" and cancel_ffmo then
      umpire.cite("A4.6", "FFMO cancelled by the Hindrance")
    elseif m == "ffmo" and tem > 0 then
      -- FFMO is for movement in Open Ground only: a Location with a positive TEM is not Open Ground
      umpire.cite("A4.6", string.format("FFMO does not apply in %s: +%d TEM, not Open Ground", name(hx(h)), tem))
    else
      if not unit.pinned then list[#list + 1] = R().ift.drm_entry(m) end
    end
  end
  umpire.cite("A9.222", "no CX/leader/hero DRM applies to a Fire Lane Residual FP attack in " .. name(hx(h)))
  return list
end

--- Cite a rule unless the journal already holds that very line (a general statement the log needs once).
local function cite_once(rule, text)
  local line = "[" .. rule .. "] " .. text
  for _, l in ipairs(umpire.journal.lines(1)) do
    if l == line then return end
  end
  umpire.cite(rule, text)
end

local function check_malfunction(lane, mg, dr)
  -- A9.223: the MG malfunctions whenever its Fire Lane Residual FP attack DR is also an Original Malfunction DR.
  local r = R().sw_malfunction.check(mg, dr, {})
  if r.malfunctioned or r.removed then
    umpire.cite("A9.223", mg.name .. " malfunctions on its Fire Lane Residual FP attack DR: the Fire Lane is removed")
    lane_m.cancel(lane, "MG malfunctioned")
  end
  return r
end

--- A9.222: a Fire Lane Residual FP attack on a unit in hex `h` (entering it, or spending MF in it).
-- opts: {movement = {"ffnam"|"ffmo"}, dr, mf}. Fire Lane Residual FP is never reduced by DRM and cannot Cower.
function lane_m.attack(lane, mg, map, unit, h, opts)
  opts = opts or {}
  h = hx(h)
  local fp = lane_m.fp_in(lane, h)
  if fp == 0 then
    umpire.cite("A9.22", "no Fire Lane Residual FP in " .. name(h))
    return nil
  end
  local k = unit.name .. "@" .. name(h)
  if lane.snapped and lane.snapped[k] and not opts.further_mf then
    umpire.cite("A9.221", unit.name .. " was Snap-Shot entering " .. name(h) .. ": no further attack there unless it expends further MF")
    return nil
  end
  local list = lane_m.drm(lane, map, h, unit, opts.movement)
  local a = R().ift.resolve({label = "Fire Lane Residual FP in " .. name(h), fp = fp, drm = list, dr = opts.dr})
  -- said once per game log: it holds for every Fire Lane attack, repeating it adds nothing
  cite_once("A9.222", "Fire Lane Residual FP attacks cannot cause the firer to Cower")
  lane.attacked[k] = true
  a.lane_malfunction = check_malfunction(lane, mg, a.dr)
  return a
end

-- The MG's fields without its Fire Lane (which holds hexes): what a Fire Lane attack may change.
local function mg_fields(mg)
  local t = {}
  for k, v in pairs(mg) do if k ~= "fire_lane" then t[k] = v end end
  return t
end

--- A9.22/A9.222: a unit moving along a Fire Lane. path = {{hex =, movement = {"ffnam"|"ffmo"}, further_mf =}...}:
-- the Locations it enters (or spends further MF in), in order. Fire Lane Residual FP "is treated as normal
-- Residual FP" (A9.222), so it attacks the unit in each Location of the path where it exists (lane_m.attack),
-- and the result applies at once (ift.apply). The unit goes on until the path ends, the lane is removed (A9.223:
-- the MG malfunctions on a Fire Lane attack DR), or the unit is eliminated, broken or pinned.
-- The seed texts do not say when a moving unit stops: a pinned unit may move no further (A7.8) and a broken one
-- ends its move (A10.5); both are standard ASL, not quoted in the seeds. opts.stops_on = {eliminated = true,
-- broken = true, pinned = true} is that choice (a group that plays it otherwise sets its own).
--
-- The attacks are an umpire.odds.chain: a plain loop in a game; under `umpire odds` folded over the distinct
-- states, so a path of n hexes costs n times the states instead of 36^n (and more for Morale Checks). The state
-- is what an attack changes: the unit, the MG's fields and the lane's active/attacked/snapped marks. The lane and
-- MG tables themselves hold hexes (not plain data), so the step keeps them but gives them the state's values
-- before each attack; the caller's unit, MG and lane take the end state.
-- The state holds no history of the attacks (only their number): states that differ only in how they were
-- reached merge, which is what keeps the fold small; the journal tells the story in a game.
-- Returns {attacks = number of Fire Lane attacks, entered = Locations entered, lane_removed =}.
function lane_m.move_through(lane, mg, map, unit, path, opts)
  opts = opts or {}
  local stops_on = opts.stops_on or {eliminated = true, broken = true, pinned = true}
  local function stopped(u)
    for k, on in pairs(stops_on) do if on and u[k] then return true end end
    return false
  end
  local state = umpire.odds.chain{
    state = {unit = unit, mg = mg_fields(mg), active = lane.active, attacked = lane.attacked, snapped = lane.snapped or false,
      entered = 0, attacks = 0},
    step = function(s)
      lane.active, lane.attacked, lane.snapped = s.active, s.attacked, s.snapped or nil
      umpire.odds.write_back(mg, s.mg, "fire_lane")
      s.entered = s.entered + 1
      local e = path[s.entered]
      local a = lane_m.attack(lane, mg, map, s.unit, e.hex, {movement = e.movement, further_mf = e.further_mf})
      if a then
        s.attacks = s.attacks + 1
        if a.effect then R().ift.apply(a, {s.unit}) end
      end
      s.active, s.attacked, s.snapped, s.mg = lane.active, lane.attacked, lane.snapped or false, mg_fields(mg)
    end,
    stop = function(s) return s.entered >= #path or not s.active or stopped(s.unit) end,
    max_steps = #path,
  }
  umpire.odds.write_back(unit, state.unit)
  umpire.odds.write_back(mg, state.mg, "fire_lane")
  lane.active, lane.attacked, lane.snapped = state.active, state.attacked, state.snapped or nil
  return {attacks = state.attacks, entered = state.entered, lane_removed = not state.active}
end

--- A9.221 Snap Shot: a unit crossing hexside from-to that lies along the Alternate Hex Grain's LOF.
-- opts: {movement, dr}. Returns the attack or nil (and cites why it is NA).
function lane_m.snap_shot(lane, mg, map, unit, from, to, opts)
  opts = opts or {}
  from, to = hx(from), hx(to)
  if not lane.side then umpire.cite("A9.221", "Snap Shots need an Alternate Hex Grain Fire Lane"); return nil end
  if not R().map_los.hexside_on_line(from, to, lane.mg_hex, lane.counter) then
    umpire.cite("A9.221", string.format("hexside %s-%s does not lie along the Fire Lane's LOF: no Snap Shot", name(from), name(to)))
    return nil
  end
  if lane.attacked[unit.name .. "@" .. name(from)] then
    umpire.cite("A9.221", string.format("the Fire Lane already attacked %s in %s: Snap Shot NA", unit.name, name(from)))
    return nil
  end
  -- the hexside is on the lane's LOF, so one of its hexes is a lane hex; its FP is not halved as Area Fire
  local fp = math.max(lane_m.fp_in(lane, to), lane_m.fp_in(lane, from), lane.base)
  local list = {}
  local hs = R().map_los.hexside_kind(map, from, to)
  if hs then
    list[#list + 1] = R().ift.drm_entry("tem", hs.type.tem, hs.kind .. " TEM (A8.15)")
  else
    for _, m in ipairs(opts.movement or {}) do list[#list + 1] = R().ift.drm_entry(m) end
  end
  umpire.cite("A9.221", string.format("Snap Shot at hexside %s-%s with %d Fire Lane Residual FP (not halved as Area Fire)", name(from), name(to), fp))
  local a = R().ift.resolve({label = string.format("Fire Lane Snap Shot at %s-%s", name(from), name(to)), fp = fp, drm = list, dr = opts.dr})
  lane.snapped = lane.snapped or {}
  lane.snapped[unit.name .. "@" .. name(to)] = true
  a.lane_malfunction = check_malfunction(lane, mg, a.dr)
  return a
end

--- A9.223: remove the Fire Lane.
function lane_m.cancel(lane, why)
  if not lane.active then return end
  lane.active = false
  umpire.cite("A9.223", "Fire Lane Residual FP counter removed: " .. why)
end

--- A9.223: check the cancellation conditions. ev: {kind = "crew"|"end_mph"|"tpbf", armored_no_prc}
function lane_m.on_event(lane, mg, ev)
  if ev.kind == "end_mph" then lane_m.cancel(lane, "end of the MPh")
  elseif ev.kind == "crew" then
    for _, u in ipairs(lane.crew or {}) do
      if u.broken or u.pinned or u.eliminated then lane_m.cancel(lane, "its manning Infantry are broken/pinned/eliminated"); return end
    end
  elseif ev.kind == "tpbf" then
    if ev.armored_no_prc then
      umpire.cite("A9.223", "an armored vehicle with no PRC (A7.212) does not force the Fire Lane to be canceled")
      return
    end
    lane_m.cancel(lane, "a TPBF situation (A8.312): the MG regains freedom to fire")
    mg.fire_lane = nil
    mg.fire_lane_declared = nil
  elseif ev.kind == "malfunction" then
    lane_m.cancel(lane, "the MG malfunctioned")
  end
end

--- A9.222: all attacks on a unit in a Location: other Residual FP first, then each Fire Lane separately (in the
-- firer's order) unless an earlier one eliminates all targets. residual = {fp, drm} of a non-lane source.
function lane_m.resolve_location(units, h, residual, lanes, map)
  local out = {}
  if residual and residual.fp > 0 then
    umpire.cite("A9.222", "Residual FP from a source other than a Fire Lane is resolved first")
    local a = R().ift.resolve({label = "Residual FP in " .. name(hx(h)), fp = residual.fp, drm = residual.drm, dr = residual.dr})
    out[#out + 1] = a
    if residual.apply then R().ift.apply(a, units) end
  end
  if #lanes > 1 then
    umpire.cite("A9.222", string.format("%d Fire Lanes exert Residual FP in %s: each attack is resolved separately, in the firer's order",
      #lanes, name(hx(h))))
  end
  for _, l in ipairs(lanes) do
    local alive = false
    for _, u in ipairs(units) do if not u.eliminated then alive = true end end
    if not alive then umpire.cite("A9.222", "all targets eliminated: no further Fire Lane attack"); break end
    local a = lane_m.attack(l.lane, l.mg, map, units[1], h, l.opts)
    out[#out + 1] = a
    if a and l.apply then R().ift.apply(a, units) end
  end
  return out
end

--- `umpire draw SCENARIO --fire-lane`: each hex of each declared lane (scenario `lane:`/`lanes:`,
-- {mg = unit id, target, counter, side}) labelled with its Fire Lane Residual FP, as place()
-- computes it after the First Fire attack (A9.22: the column left of the MG's FP, doubled when
-- ADJACENT, 0 beyond Normal Range, off-level or out of LOS). A lane place() refuses gets no labels;
-- the map shading still shows where it was declared.
umpire.hooks.on("draw", function(scenario, overlay)
  if not overlay.fire_lane then return end
  local lanes = scenario.lanes or {scenario.lane}
  if #lanes == 0 or not scenario.units then return end
  local map = R().map_los.map(scenario.map or {})
  for _, l in ipairs(lanes) do
    local unit = scenario.units[l.mg or "mg"]
    if unit and unit.counter and unit.hex then
      local mg = R().mg_usage.counter(unit.counter, {hex = unit.hex})
      local lane = lane_m.place(mg, {mg_hex = unit.hex, target = l.target, counter = l.counter or l.target,
        side = l.side, map = map})
      for _, e in ipairs(lane and lane.hexes or {}) do
        overlay.notes[#overlay.notes + 1] = {hex = tostring(e.hex), text = e.fp .. " FP"}
      end
    end
  end
end)

return lane_m
