-- vehicle_reverse.lua: Reverse Movement (D2.2-D2.24): who may reverse, the multiplier applied to
-- the WHOLE entry cost (D2.21), and the two rear Target Facing hexes (D2.22).
local R = {}

local function G() return umpire.rules.vehicle_geometry end

--- D2.2: motorcycles and vehicles towing Guns or trailers may not use Reverse Movement (nor,
-- D2.24, Reverse Motion). Returns nil when allowed, else the reason.
function R.prohibited(v)
  if v.class == "motorcycle" then return "D2.2: motorcycles may not use Reverse Movement" end
  if v.towing then return "D2.2: a vehicle towing a Gun or trailer may not use Reverse Movement" end
  return nil
end

--- D2.21: the Reverse MP multiplier: "REV x#" on the counter, else quadruple for tracked
-- vehicles, triple for trucks, double for (most) armored cars.
function R.multiplier(v)
  if v.rev then return v.rev, ("REV x%d [counter]"):format(v.rev) end
  local m = umpire.data.vehicles.reverse_multiplier[v.class]
  if not m then
    error(("D2.21: no Reverse Movement multiplier for a %s: give the counter `rev:` in vehicles.yaml"):format(tostring(v.class)), 2)
  end
  return m, "Reverse Movement"
end

--- D2.22: the hexes a vehicle may enter by Reverse Movement: the two hexes of its rear vehicular
-- Target Facing (in a hex), or the hex to its rear (in Bypass, D2.33).
function R.rear_hexes(v)
  if v.bypass then
    local f = G().bypass_frame(v.bypass.a, v.bypass.b, v.heading)
    return { f.rear_hex }
  end
  return G().rear_hexes(v.hex, v.heading)
end

--- D2.22: the only hexside a Reverse Move may Bypass: the one joining the two rear hexes.
function R.rear_hexside(v)
  local r = G().rear_hexes(v.hex, v.heading)
  return r[1], r[2]
end

return R
