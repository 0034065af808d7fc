-- vehicle_esb.lua: Excessive Speed Breakdown (D2.5) and Mechanical Reliability (D2.51-D2.52).
-- Both are pure functions of the vehicle table and a DR, so odds scripts can enumerate them.
local E = {}

local function D() return umpire.data.esb end
local function T() return umpire.rules.vehicle_terrain end

--- D2.5: the most MP (in half MP) an ESB attempt may seek: one-fourth (FRD) of the printed
-- allotment, in whole MP.
function E.max_gain_h(v)
  return math.floor(v.mp_h / 2 * D().max_gain_fraction) * 2
end

--- D2.5: the ESB DRM for seeking `sought_h` half MP: +1 per MP sought, FRD (FRU for a red MP
-- allotment), plus the manufacturer's nationality DRM. Returns total and a list of parts.
--- Is the MP allotment red: printed so (D2.5), or assumed so (D2.52: Axis vehicles [EXC: motorcycles]
-- in North Africa before October 1941 "are assumed to have their MP allotments printed in red (2.5-.51)").
-- Returns the answer and the rule that makes it so.
function E.red_mp(v)
  if v.red_mp then return true, "D2.5" end
  local m = umpire.state.vehicle_map
  if m and m.north_africa_pre_oct41 and v.class ~= "motorcycle" then
    for _, n in ipairs(D().axis_manufacturers) do
      if n == v.manufacturer then return true, "D2.52" end
    end
  end
  return false
end

function E.drm(v, sought_h)
  local mp = sought_h / 2
  local red, why = E.red_mp(v)
  if red and why == "D2.52" and mp ~= math.floor(mp) then
    umpire.cite("D2.52", ("%s: Axis vehicle in North Africa before October 1941: MP assumed red, the ESB DRM rounds up"):format(v.name))
  end
  local per = red and math.ceil(mp) or math.floor(mp)
  local nat = v.manufacturer or "other"
  local nd = D().nationality_drm[nat]
  if nd == nil then nat, nd = "other", D().nationality_drm.other end
  local parts = {
    { value = per * D().drm_per_mp, label = ("+%d [%s MP sought, %s]"):format(per * D().drm_per_mp, T().fmt(sought_h), red and "FRU: red MP" or "FRD") },
    { value = nd, label = ("+%d [%s manufacture]"):format(nd, D().nationality_names[nat] or nat) },
  }
  return per * D().drm_per_mp + nd, parts
end

--- Why this vehicle may not attempt ESB now (nil if it may). D2.5 once per MPh, tracked only,
-- the ¼ cap; D2.6 barred in an enemy AFV's hex; D2.7 no further movement after an ALL entry.
function E.prohibited(v, sought_h)
  if v.immobile then return "D2.5: an Immobile vehicle cannot attempt ESB" end
  if v.class ~= "tracked" then return ("D2.5: only a tracked vehicle may attempt ESB (%s is %s)"):format(v.name, v.class) end
  if v.esb_used then return "D2.5: ESB may be attempted only once per MPh" end
  if sought_h <= 0 then return "D2.5: state a positive number of MP to gain" end
  local cap = E.max_gain_h(v)
  if sought_h > cap then
    return ("D2.5: the ESB gain is limited to one-fourth (FRD) of the printed MP allotment: at most %s MP for %s"):format(T().fmt(cap), v.name)
  end
  if v.all_mp then return "D2.7: further movement is NA after an ALL-MP entry, even if ESB is declared" end
  return nil
end

--- Resolve an ESB DR (a table from umpire.dice.dr()). Returns { success=, immobilized=, final=,
-- drm=, parts= } without touching the vehicle.
function E.resolve(v, sought_h, dr)
  local drm, parts = E.drm(v, sought_h)
  local final = dr.total + drm
  return { success = final <= D().success_max, immobilized = final >= D().immobilized_min,
           final = final, drm = drm, parts = parts, original = dr.total }
end

--- D2.51/D2.52: must this vehicle make a Mechanical Reliability DR when it starts?
function E.needs_reliability_dr(v)
  if v.red_mp and v.afv then return true, "D2.51" end
  local red, why = E.red_mp(v)
  if red and why == "D2.52" then return true, "D2.52" end
  return false
end

--- D2.51: a DR of 12 is a mechanical breakdown (immobilized).
function E.reliability_fails(dr) return dr.total == D().mechanical_reliability_dr end

return E
