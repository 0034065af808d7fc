-- bounding_first_fire.lua: a vehicle firing in its own MPh (D3.3-D3.32) and what that leaves it
-- for the AFPh. The To Hit Cases themselves (C5.3-C5.35) are chapter C; this module only says
-- which are allowed and what the FP becomes.
local BF = {}

local function VM() return umpire.rules.vehicle_movement end
local function Mo() return umpire.rules.vehicle_motion end

local CASE_C = { C = true, C1 = true, C2 = true, C4 = true }

--- D3.3/D3.31/D2.42: Bounding First Fire by a vehicle during its MPh.
-- shot = { weapon = "MA"|..., ordnance = bool, case = "C"|"C1"|"C2"|"C4" (ordnance),
--          multiple_rof_kept = bool (fired and did not exhaust its Multiple ROF),
--          ft = bool, gyro_cmg_acquired = bool, fp = number (non-ordnance) }
-- Returns { fp = modified FP (non-ordnance), counter = "Bounding Fire" | nil, case = ... }.
function BF.fire(id, shot)
  local v = VM().vehicle(id)
  if shot.ordnance then
    if not CASE_C[shot.case or ""] then
      error("D3.3: vehicular ordnance using Bounding First Fire must use a Case C To Hit DRM (C, C1, C2 or C4)", 2)
    end
    if (v.motion or v.moving) and shot.case ~= "C4" then
      error("D2.42: a Motion/non-stopped vehicle firing ordnance must use Case C4 (Motion)", 2)
    end
  end
  local r = { weapon = shot.weapon }
  if not shot.ordnance then
    local fp = shot.fp or 0
    local notes = {}
    if not shot.ft and not shot.gyro_cmg_acquired then fp = fp / 2; notes[#notes + 1] = "halved [Bounding First Fire, D3.31]" end
    local m = Mo().firing(v, shot.weapon == "thrown_dc" and "thrown_dc" or "other")
    if m.fp_factor ~= 1 then fp = fp * m.fp_factor; notes[#notes + 1] = "halved [Motion Fire, D2.42]" end
    r.fp = fp
    umpire.cite("D3.31", ("%s fires %s with %s FP (%s)"):format(v.name, tostring(shot.weapon), tostring(fp), #notes > 0 and table.concat(notes, ", ") or "unmodified"))
  else
    r.case = shot.case
    umpire.cite("D3.3", ("%s Bounding First Fires its %s using To Hit Case %s"):format(v.name, tostring(shot.weapon), shot.case))
  end
  v.bff = v.bff or { weapons = {}, rof_kept = true, all_same = true }
  if v.bff.weapons[1] and v.bff.weapons[1] ~= shot.weapon then v.bff.all_same = false end
  v.bff.weapons[#v.bff.weapons + 1] = shot.weapon
  if shot.weapon ~= "MA" then v.bff.other_than_ma = true end
  if not shot.multiple_rof_kept then v.bff.rof_kept = false end
  -- D3.3: marked with a Bounding Fire counter unless the only weapon fired kept its Multiple ROF.
  local only_rof = v.bff.all_same and v.bff.rof_kept
  v.bounding_fire = not only_rof
  r.counter = v.bounding_fire and "Bounding Fire" or nil
  return r
end

--- D2.4: Prep Fire by a vehicle (and its PRC) in its PFPh. "A vehicle (and its PRC) which starts its
-- Player Turn in Motion may not Prep Fire". Call before its MPh (the Motion counter is still on it).
function BF.prep_fire(id)
  local v = VM().vehicle(id)
  if v.motion or v.reverse_motion then
    error(("D2.4: %s started its Player Turn in Motion: it (and its PRC) may not Prep Fire"):format(v.name), 2)
  end
  v.prep_fire = true
  umpire.cite("D3.3", ("%s Prep Fires: no fire in its AFPh"):format(v.name))
  return true
end

--- D3.32/D3.3/D3.31: what the vehicle may fire in its AFPh after Bounding First Fire.
-- Returns { may_fire = bool, weapon =, case = "C"|"C4", fp_factor =, rule = }.
function BF.afph(id)
  local v = VM().vehicle(id)
  if v.prep_fire then return { may_fire = false, rule = "D3.3" } end
  if not v.bff then return { may_fire = true, rule = "D3.3" } end
  -- D3.32: the one Multiple ROF weapon that did not exhaust its ROF, if no other weapon fired, may fire
  -- once more: a MG as much as the MA ("Case C ... for ordnance, or halved FP for MG/IFE"). D3.31 bars the
  -- vehicle's OTHER weapons/PRC after a non-MA weapon fired, not that weapon's D3.32 shot.
  if v.bff.rof_kept and v.bff.all_same and #v.bff.weapons >= 1 then
    local motion = v.motion
    local w = v.bff.weapons[1]
    umpire.cite("D3.32", ("%s kept its Multiple ROF with its %s and fired nothing else: it may fire that weapon (only) once in the AFPh%s"):format(
      v.name, tostring(w), w ~= "MA" and "; its other weapons/PRC may not (D3.31)" or ""))
    return { may_fire = true, weapon = w, once = true, rule = "D3.32",
             case = motion and "C4" or "C", fp_factor = motion and 0.25 or 0.5 }
  end
  if v.bff.other_than_ma then return { may_fire = false, rule = "D3.31" } end
  return { may_fire = false, rule = "D3.3" }
end

return BF
