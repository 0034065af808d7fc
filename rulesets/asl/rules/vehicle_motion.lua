-- vehicle_motion.lua: Motion status at the end of the MPh (D2.4, D2.24 Reverse Motion), Motion
-- attempts by DEFENDING vehicles (D2.401), and what Motion means for targets and firers
-- (D2.41-D2.42, C.8 moving target as D2.13/D2.51 use it).
local Mo = {}

local function G() return umpire.rules.vehicle_geometry end
local function T() return umpire.rules.vehicle_terrain end
local function VM() return umpire.rules.vehicle_movement end

--- D2.13/C.8: is the vehicle a moving target (entered a new hex/hexside this Player Turn, began its
-- MPh in Motion, or is in Motion)?
function Mo.is_moving_target(v)
  return (v.motion or v.began_in_motion or v.entered_new) and true or false
end

--- D2.41: To Hit / attack DRM a Motion (or non-stopped) target earns. `attack` is "ordnance"
-- (Case J, any fire phase), "dc", "mol", "ovr", "cc" (+2 vs Motion/non-stopped), or "ift" (none).
function Mo.target_drm(v, attack)
  local moving = v.motion or v.moving
  if attack == "ordnance" then
    if v.motion then return 2, "D2.41: Case J Motion Target +2" end
    return 0
  end
  if attack == "dc" or attack == "mol" or attack == "ovr" or attack == "cc" then
    if moving then return 2, ("D2.41: +2 vs a Motion/non-stopped vehicle (%s)"):format(attack:upper()) end
    return 0
  end
  return 0, "D2.41: no Motion DRM for other IFT attacks"
end

--- D2.42: firing consequences for a Motion/non-stopped vehicle. `weapon` is "ordnance", "thrown_dc"
-- or anything else (MG, IFE, FT, canister, Passengers/Riders). Returns a table:
-- { case = "C4" } (ordnance), { drm = 3 } (thrown DC), { fp_factor = 0.5 } (all other FP, cumulative).
function Mo.firing(v, weapon)
  local moving = v.motion or v.moving
  if not moving then return { fp_factor = 1 } end
  if weapon == "ordnance" then return { case = "C4", rule = "D2.42", fp_factor = 1 } end
  if weapon == "thrown_dc" then return { drm = 3, rule = "D2.42", fp_factor = 1 } end
  return { fp_factor = 0.5, rule = "D2.42" }
end

--- D2.6: is there an enemy AFV in the vehicle's hex that bars it from stopping/ending in Motion?
-- Exceptions: out of that AFV's LOS (both Bypassing opposite hexsides of the hex), or the mover
-- declares it can destroy/shock it with an Original TK/IFT DR of 5 (`can_kill_on_5`).
function Mo.enemy_afv_bar(v, opts)
  opts = opts or {}
  for _, o in pairs(umpire.state.vehicles or {}) do
    if o.id ~= v.id and o.side ~= v.side and o.afv and not o.removed and o.hex == v.hex then
      local out_of_los = false
      if v.bypass and o.bypass then
        local ja = G().side_dir(v.hex, G().same(v.bypass.a, v.hex) and v.bypass.b or v.bypass.a)
        local jb = G().side_dir(o.hex, G().same(o.bypass.a, o.hex) and o.bypass.b or o.bypass.a)
        out_of_los = ja and jb and (ja - jb) % 6 == 3
      end
      local can = opts.can_kill_on_5 == true or (type(opts.can_kill_on_5) == "table" and opts.can_kill_on_5[o.id])
      if not out_of_los and not can then return o end
    end
  end
  return nil
end

--- D2.4 / D2.24: end the vehicle's MPh. opts.next names the hex it wished to enter next (to end
-- in Motion without having spent all its MP). Returns "motion", "reverse_motion", "stopped" or
-- "immobile"; raises (state unchanged) when the vehicle must still stop.
function Mo.end_mph(v, opts)
  opts = opts or {}
  if v.immobile then v.motion = false; return "immobile" end
  if v.pending then
    error("D2.33: a VBM vehicle making a VCA change cannot end its MPh in that position: it must move to the next CAFP or reverse", 3)
  end
  if v.began_in_motion and v.mp_spent_h == 0 then
    error("D2.4: a vehicle that starts its Player Turn in Motion must expend at least one MP (even if just to stop)", 3)
  end
  if not v.moving then v.motion = false; v.reverse_motion = false; return "stopped" end
  local available = v.mp_h + v.esb_h
  local remaining = available - v.mp_spent_h
  if not v.min_move and remaining > 0 then
    if not opts.next then
      error(("D2.4: %s has %s MP left: it must expend a Stopping MP, or name the hex it wishes to enter next to end in Motion"):format(v.name, T().fmt(remaining)), 3)
    end
    local cost = VM().cost_to_enter(v, opts.next)
    if cost ~= "ALL" and cost <= remaining then
      error(("D2.4: %s still has %s MP, enough to enter %s (%s MP): it may not end its MPh in Motion"):format(
        v.name, T().fmt(remaining), G().name(opts.next), T().fmt(cost)), 3)
    end
  end
  if Mo.enemy_afv_bar(v, opts) then
    error(("D2.6: %s cannot end its MPh in Motion in enemy AFV %s's hex %s"):format(v.name, Mo.enemy_afv_bar(v, opts).id, v.hex), 3)
  end
  local reverse = v.direction == "reverse"
  if reverse then
    local why = umpire.rules.vehicle_reverse.prohibited(v)
    if why then error("D2.24: Reverse Motion is NA: " .. why, 3) end
  end
  v.motion, v.reverse_motion = true, reverse
  umpire.cite(reverse and "D2.24" or "D2.4", ("%s ends its MPh in %s with %s MP unspent%s"):format(
    v.name, reverse and "Reverse Motion" or "Motion", T().fmt(math.max(remaining, 0)),
    (remaining > 0 and not v.min_move) and (", not enough to enter " .. G().name(opts.next)) or ""))
  return reverse and "reverse_motion" or "motion"
end

--- D2.401: a DEFENDING Mobile vehicle's Motion attempt during an enemy MPh.
-- opts: mp_in_los (MF/MP the enemy unit has expended in its LOS this MPh), seen_before (the unit
-- had been in its LOS earlier this Player Turn: automatic failure), heading (new VCA on success).
function Mo.motion_attempt(v, opts)
  if v.immobile then error("D2.401: only a Mobile vehicle may attempt Motion status", 2) end
  if v.motion_attempted then error("D2.401: a vehicle may attempt Motion status only once per enemy MPh", 2) end
  if v.first_fire or v.final_fire then
    error("D2.401: a vehicle marked with a First Fire (or Final/Intensive Fire) counter may not attempt Motion", 2)
  end
  v.motion_attempted = true
  local dr = umpire.dice.d6()
  if opts.seen_before then
    umpire.cite("D2.401", ("Motion attempt dr %d: the unit had been in LOS earlier this Player Turn: automatic failure"):format(dr))
    return { success = false, dr = dr }
  end
  if dr > (opts.mp_in_los or 0) then
    umpire.cite("D2.401", ("Motion attempt dr %d > %s MF/MP expended in LOS: fails"):format(dr, tostring(opts.mp_in_los)))
    return { success = false, dr = dr }
  end
  local E = umpire.rules.vehicle_esb
  if E.needs_reliability_dr(v) then
    local mdr = umpire.dice.dr()
    if E.reliability_fails(mdr) then
      v.immobile = true
      umpire.cite("D2.51", ("Motion attempt dr %d succeeds, but Mechanical Reliability DR 12: immobilized; no Motion, no VCA change"):format(dr))
      return { success = false, dr = dr, immobilized = true }
    end
  end
  v.motion = true
  if opts.heading then v.heading = opts.heading % 6 end
  if opts.tca then v.tca = opts.tca end
  umpire.cite("D2.401", ("Motion attempt dr %d <= %s MF/MP expended in LOS: %s gains Motion and may change VCA/TCA freely"):format(
    dr, tostring(opts.mp_in_los), v.name))
  return { success = true, dr = dr }
end

return Mo
