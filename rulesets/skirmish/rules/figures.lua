-- Figures: every figure is one soldier or one animal, a plain table in the game state.
--
--   id, side            names
--   kind                "human" (default) | "animal"
--   status              "ok" (default) | "walking_wounded" | "litter_case" | "charging" | "dead"
--   posture             "standing" (default) | "kneeling" | "prone"
--   moved               this turn's movement: nil/"none", "turned" (changed direction only),
--                       "crawl", "walk", "run", ...
--   cover               a data/cover.yaml position id (firing_port, low_wall, ...); nil = in the open
--   overhead_protection true when something is over the figure's head (SK Firer Above)
--   equipment           list of data/equipment.yaml ids (steel_helmet, soft_body_armour, ...)
--   weapons             list of data/to_hit.yaml ids the figure carries
--   elite / troops      elite level (number) or a data/troops.yaml level name
--   x, y                table position in inches (optional); level_m: ground height in metres
--   facing              degrees (optional, for the Face hit)
--   mount / rider       a mounted cavalryman names his animal in `mount`, the animal its `rider`
--   removed             true once taken off the board (SK Casualties)
local F = {}
local function T() return umpire.rules.tables end

function F.kind(f) return f.kind or "human" end
function F.status(f) return f.status or "ok" end
function F.is_animal(f) return F.kind(f) == "animal" end

function F.has(f, equipment_id)
  for _, e in ipairs(f.equipment or {}) do if e == equipment_id then return true end end
  return false
end

-- The equipment of one kind the figure wears (validated against data/equipment.yaml).
function F.worn(f, kind)
  local out = {}
  for _, id in ipairs(f.equipment or {}) do
    local e = T().equipment(id)
    if e.kind == kind then out[#out + 1] = { id = id, def = e } end
  end
  return out
end

-- SK Elite: the figure's elite level.
function F.level(f)
  if type(f.elite) == "number" then return f.elite end
  local name = f.troops or f.elite
  if name == nil then return 0 end
  local lv = T().troops().levels[name]
  if lv == nil then error(("figure '%s': unknown troop level '%s' (data/troops.yaml)"):format(tostring(f.id), tostring(name)), 0) end
  return lv
end

-- SK Posture: the posture the rules use. "A kneeling figure, which moved at crawling speed, is
-- assumed to have been in a prone position."
function F.posture(f)
  local p = f.posture or "standing"
  if p == "kneeling" and f.moved == "crawl" then
    umpire.cite("SK Posture", ("%s knelt after crawling: treated as prone"):format(f.id))
    return "prone"
  end
  return p
end

-- SK Posture / SK Cover: the row of the cover table the figure is in.
-- Behind cover the cover's row applies whatever the pose ("assumed to have taken advantage of any
-- hard cover available, regardless of whatever the pose of the figure"; "A standing figure placed
-- behind a low wall is assumed to be kneeling behind the wall" - the low wall row).
function F.exposure(f)
  local D = umpire.data
  if f.mount and not F.is_animal(f) and F.mounted(f) then
    local row = D.options.mounted_exposure
    umpire.cite("SK Cover", ("%s is mounted: no row of the cover table; uses '%s' (options.mounted_exposure)"):format(f.id, row))
    return row
  end
  if f.cover and f.cover ~= "open" then
    T().cover(f.cover)
    if f.cover == "low_wall" and (f.posture or "standing") == "standing" then
      umpire.cite("SK Posture", ("%s stands behind a low wall: assumed kneeling behind it"):format(f.id))
    else
      umpire.cite("SK Posture", ("%s uses the %s whatever its pose"):format(f.id, T().cover(f.cover).name))
    end
    return f.cover
  end
  if F.is_animal(f) then return "standing_in_the_open" end
  local row = D.cover.open_by_posture[F.posture(f)]
  if not row then error(("figure '%s': unknown posture '%s' (standing, kneeling, prone)"):format(tostring(f.id), tostring(f.posture)), 0) end
  return row
end

function F.mounted(f) return f.mount ~= nil and not f.dismounted end

-- SK Range: height of the top of the head above the datum, metres.
function F.head_m(f)
  local h = umpire.data.cover.head_height_m
  local k
  if F.is_animal(f) then k = "animal"
  elseif F.mounted(f) then k = "mounted"
  else k = F.posture(f) end
  return (f.level_m or 0) + (h[k] or 0)
end

-- SK Range: "Infantry who simply change direction without moving are considered stationary."
function F.moved(f)
  local m = f.moved
  if m == nil or m == false or m == "none" then return false end
  if m == "turned" then
    umpire.cite("SK Range", ("%s only changed direction: stationary"):format(f.id))
    return false
  end
  return true
end

-- Why the figure may not fire now, or nil.
function F.cannot_fire(f)
  local s = F.status(f)
  if f.removed or s == "dead" then return "is dead" end
  if s == "charging" then return "is a wounded animal charging" end
  if s == "litter_case" and not umpire.data.options.litter_case_may_fire then
    return "is a litter case (options.litter_case_may_fire = false)"
  end
  if s == "walking_wounded" and F.moved(f) then
    umpire.cite("SK Casualties", ("%s is walking wounded and moved: may not fire"):format(f.id))
    return "is walking wounded and moved this turn (SK Casualties)"
  end
  return nil
end

-- A list of figures -> id index (errors on duplicates).
function F.index(list)
  local by = {}
  for _, f in ipairs(list) do
    if f.id == nil then error("a figure has no id", 0) end
    if by[f.id] then error(("two figures are called '%s'"):format(tostring(f.id)), 0) end
    by[f.id] = f
  end
  return by
end

return F
