-- spraying_fire.lua: A9.5 Spraying Fire, A9.51 vs vehicles, A9.52 restrictions.
local sp = {}
local function R() return umpire.rules end
local function hx(h) if type(h) == "string" then return umpire.hex.asl(h) end return h end

--- spec = {firers = {{name, fp, range, mg = bool or the SW MG table, weapon = SW table, user = unit firing it,
--   vehicular, main_armament, can_spray}}, firer_hex, targets = {h1, h2}, map, moving = {true/false per target},
--   marked_first_fire, dr, paratroops, vs_afv = {bool per target}, phase, sustained, breakdown = {001 rows}}
-- Returns {attacks = {per target: attack or nil}, mg = {[name] = {malfunctioned, removed, keeps_rof}}} using ONE
-- Original DR for both. A9.7: "Anytime a SW participates in an attack" it is checked for malfunction, so a
-- spraying SW MG (given as a table in `mg` or `weapon`) is checked once on that one Original DR, and keeps or
-- loses its Multiple ROF on its coloured dr (A9.2).
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
  umpire.cite("A9.5", "Spraying Fire at %s and %s: always Area Fire; each hex its own TEM and Hindrances; one Original DR",
    tostring(t1), tostring(t2))
  local weapons = {}
  for _, f in ipairs(spec.firers) do
    local w = type(f.mg) == "table" and f.mg or f.weapon
    if w then
      if w.removed then error("A9.7: " .. w.name .. " has been removed") end
      if w.malfunctioned then error("A9.7: " .. w.name .. " is malfunctioned: no fire until repaired") end
      weapons[#weapons + 1] = {w = w, user = f.user}
    end
  end
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
      -- A9.3: a MG using Sustained Fire also has its FP halved as Area Fire (as in mg_attack, each reason halves)
      if spec.sustained then area[#area + 1] = {why = "Sustained Fire", rule = "A9.3"} end
      if spec.moving and spec.moving[i] == false then
        area[#area + 1] = {why = "Location without a moving unit", rule = "A9.52"}
      end
      local list = {}
      local tem, why = R().map_los.tem(spec.map, o, t, tr)
      if tem ~= 0 then list[#list + 1] = R().ift.drm_entry("tem", tem, why .. " TEM") end
      for _, hi in ipairs(tr.hindrances) do list[#list + 1] = R().ift.drm_entry("hindrance", hi.value, hi.terrain .. " Hindrance") end
      local firers = {}
      for _, f in ipairs(spec.firers) do
        local w = type(f.mg) == "table" and f.mg or f.weapon or {}
        firers[#firers + 1] = {name = f.name or w.name, fp = f.fp or w.fp, range = f.range or w.range}
      end
      out.attacks[i] = R().ift.resolve({label = "Spraying Fire vs " .. tostring(t), firers = firers,
        range = umpire.hex.distance(o, t), area = area, drm = list, dr = dr})
    end
  end
  -- A9.7/A9.71 and A9.2 on the one Original DR of both attacks
  out.mg = {}
  if #weapons > 0 then
    local function ctx(e)
      local c = {}
      for k, v in pairs(spec.breakdown or {}) do c[k] = v end
      c.sustained, c.user = spec.sustained, e.user
      return c
    end
    local res = {}
    if #weapons >= 2 then
      local entries = {}
      for _, e in ipairs(weapons) do entries[#entries + 1] = {mg = e.w, ctx = ctx(e)} end
      res = R().sw_malfunction.check_fg(entries, dr)
    else
      res[weapons[1].w.name] = R().sw_malfunction.check(weapons[1].w, dr, ctx(weapons[1]))
    end
    for _, e in ipairs(weapons) do
      local r, keep = res[e.w.name], false
      if not (e.w.malfunctioned or e.w.removed) then
        keep = R().mg_rof.after_attack(e.w, dr.colored, {phase = spec.phase, sustained = spec.sustained})
      end
      out.mg[e.w.name] = {malfunctioned = r.malfunctioned, removed = r.removed, keeps_rof = keep}
    end
  end
  return out
end

return sp
