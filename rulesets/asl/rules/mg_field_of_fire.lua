-- mg_field_of_fire.lua: A9.21. A SW MMG/HMG (and INF, RCL, 20L ATR SW) in a woods/rubble/building hex that fires
-- and is entitled to another shot may fire again that phase only inside the CA of the prior shot; that CA
-- includes the MG's own Location. The CA is declared as the vertex direction of the MG's hex it faces
-- ("NE", "E", "SE", "SW", "W", "NW"; umpire.hex.in_covered_arc), and must contain the prior target.
local fof = {}
local TYPES = {MMG = true, HMG = true, INF = true, RCL = true, ATR20L = true}
local TERRAIN = {woods = true, rubble = true, building = true, stone_building = true, wooden_building = true}

local function hx(h) if type(h) == "string" then return umpire.hex.asl(h) end return h end

function fof.restricted(mg)
  return TYPES[mg.type] and TERRAIN[mg.location_terrain or ""] and mg.hex ~= nil
end

--- After a shot: fix the CA if the MG keeps ROF. facing: the vertex direction the CA faces.
function fof.after_shot(mg, target, facing, opts)
  if opts and opts.stairwell then error("not implemented: A9.21 (vertical CA after firing up/down a stairwell)") end
  if not fof.restricted(mg) or not mg.rof_kept or mg.fixed_ca then return end
  if not facing then error("A9.21: " .. mg.name .. " in " .. mg.location_terrain .. " keeps ROF: declare the CA of its shot (facing = \"NW\"...)") end
  local o = hx(mg.hex)
  local v = facing
  local t = hx(target)
  if not (t.q == o.q and t.r == o.r) and not umpire.hex.in_covered_arc(o, v, t) then
    error("A9.21: the declared CA does not contain the target " .. tostring(t))
  end
  mg.fixed_ca = {vertex = v, facing = facing}
  umpire.cite("A9.21", "%s fired from %s and keeps ROF: further shots this phase only inside the CA of that shot (and its own Location)",
    mg.name, mg.location_terrain)
end

function fof.check_target(mg, target)
  if not mg.fixed_ca then return true end
  local o, t = hx(mg.hex), hx(target)
  if t.q == o.q and t.r == o.r then return true end
  if umpire.hex.in_covered_arc(o, mg.fixed_ca.vertex, t) then return true end
  error(string.format("A9.21: %s has a fixed CA this phase: %s is outside it", mg.name, tostring(t)))
end

--- End of phase: remove the CA counter [EXC: an operator pinned in the PFPh/MPh keeps it until the end of the DFPh].
function fof.end_phase(mg, phase, operator_pinned)
  if not mg.fixed_ca then return end
  if operator_pinned and (phase == "PFPh" or phase == "MPh") then
    umpire.cite("A9.21", mg.name .. "'s operator is pinned: the fixed CA is kept until the end of the DFPh")
    return
  end
  mg.fixed_ca = nil
end

return fof
