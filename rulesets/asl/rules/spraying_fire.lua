-- spraying_fire.lua: A9.5 Spraying Fire, A9.51 vs vehicles, A9.52 restrictions.
local sp = {}
local function R() return umpire.rules end
local function hx(h) if type(h) == "string" then return umpire.hex.asl(h) end return h end

--- spec = {firers = {{name, fp, range, mg = bool, vehicular, main_armament, can_spray}}, firer_hex, targets = {h1, h2},
--   map, moving = {true/false per target}, marked_first_fire, dr, paratroops, vs_afv = {bool per target}}
-- Returns {attacks = {per target: attack or nil}} using ONE Original DR for both.
function sp.fire(spec)
  local o = hx(spec.firer_hex)
  local t1, t2 = hx(spec.targets[1]), hx(spec.targets[2])
  if spec.paratroops then error("A9.52: Spraying Fire cannot be used vs descending paratroops") end
  for _, f in ipairs(spec.firers) do
    if f.vehicular and not f.main_armament then error("A9.5: a vehicular MG (except MA) cannot use Spraying Fire") end
    if f.can_spray == false then error("A9.52: every member of a Spraying Fire FG must be capable of it and opt to use it") end
  end
  for _, t in ipairs({t1, t2}) do
    if t.q == o.q and t.r == o.r then error("A9.5: Spraying Fire may not target the firer's own hex (A7.212)") end
  end
  if umpire.hex.distance(t1, t2) ~= 1 then error("A9.5: the two target hexes must share a common hexside") end
  if spec.marked_first_fire and (umpire.hex.distance(o, t1) ~= 1 or umpire.hex.distance(o, t2) ~= 1) then
    error("A9.52: a unit marked with a First Fire counter may use Spraying Fire in Final Fire only if both hexes are adjacent to it")
  end
  umpire.cite("A9.5", string.format("Spraying Fire at %s and %s: always Area Fire; each hex its own TEM and Hindrances; one Original DR",
    tostring(t1), tostring(t2)))
  local dr = spec.dr or umpire.dice.dr()
  local out = {attacks = {}, dr = dr}
  for i, t in ipairs({t1, t2}) do
    local tr = R().map_los.trace(spec.map, o, t)
    if not tr.clear then
      umpire.cite("A9.5", tostring(t) .. " is not in the firer's LOS (" .. tr.blocked_by .. "): unaffected by the Spraying Fire")
    elseif spec.vs_afv and spec.vs_afv[i] then
      umpire.cite("A9.51", "Spraying Fire (Area Fire) has no effect vs an AFV (only Vulnerable PRC / unarmored vehicles)")
    else
      local area = {{why = "Spraying Fire", rule = "A9.5"}}
      if spec.moving and spec.moving[i] == false then
        area[#area + 1] = {why = "Location without a moving unit", rule = "A9.52"}
      end
      local list = {}
      local tem, why = R().map_los.tem(spec.map, o, t, tr)
      if tem ~= 0 then list[#list + 1] = R().ift.drm_entry("tem", tem, why .. " TEM") end
      for _, hi in ipairs(tr.hindrances) do list[#list + 1] = R().ift.drm_entry("hindrance", hi.value, hi.terrain .. " Hindrance") end
      local firers = {}
      for _, f in ipairs(spec.firers) do firers[#firers + 1] = {name = f.name, fp = f.fp, range = f.range} end
      out.attacks[i] = R().ift.resolve({label = "Spraying Fire vs " .. tostring(t), firers = firers,
        range = umpire.hex.distance(o, t), area = area, drm = list, dr = dr})
    end
  end
  return out
end

return sp
