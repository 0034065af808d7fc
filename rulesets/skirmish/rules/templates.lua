-- SK Templates: "Automatic weapons and explosive/incendiary weapons may hit more than one target.
-- These weapons use a template, the size of which is determined by the rate of fire or area
-- covered by the weapon. These types of weapons may fire once at any target within the template."
--
-- The figures under the template come from umpire.table when the figures have positions (x, y in
-- inches), otherwise from the designation's own list (`under = {ids}`). Every enemy of the firer
-- under it gets one shot (d20 and d6, SK To Hit); friends under it are not targets ("fire once at
-- any target within the template").
local TP = {}
local function F() return umpire.rules.figures end

function TP.uses_template(w) return (w.automatic or w.explosive) and true or false end

local function kmodel(f) return { x = f.x, y = f.y, base_mm = f.base_mm or 25 } end

local function kmodels(list)
  local out = {}
  for i, f in ipairs(list) do out[i] = kmodel(f) end
  return out
end

-- umpire.table answers with 1-based indices into the list it was given: the figures at them.
local function pick(list, indices)
  local out = {}
  for i, k in ipairs(indices) do out[i] = list[k] end
  return out
end

local function has_pos(f) return type(f.x) == "number" and type(f.y) == "number" end

-- The figures the template weapon of designation `d` fires at, the designated target first.
function TP.targets(d, firer, target, w, figures, by_id)
  local enemies, friends = {}, {}
  for _, f in ipairs(figures) do
    if not f.removed and F().status(f) ~= "dead" then
      if f.side == firer.side then friends[#friends + 1] = f else enemies[#enemies + 1] = f end
    end
  end
  local under
  if d.under then
    under = {}
    for _, id in ipairs(d.under) do
      local f = by_id[id] or error(("SK Templates: '%s' under the template is not a figure"):format(tostring(id)), 0)
      under[#under + 1] = f
    end
    umpire.cite("SK Templates", ("%s template (%s\"): figures under it as given: %d"):format(w.name, tostring(w.template_in), #under))
  else
    for _, f in ipairs(enemies) do
      if not has_pos(f) then
        error(("SK Templates: %s has no position: give the figures under the template (designation.under = {ids})"):format(f.id), 0)
      end
    end
    if not has_pos(target) then error("SK Templates: the target has no position", 0) end
    local km = kmodels(enemies)
    local placement = umpire.data.options.template_placement
    if placement == "best" then
      local kf = {}
      for _, f in ipairs(friends) do if has_pos(f) then kf[#kf + 1] = kmodel(f) end end
      local centre, u = umpire.table.place_template(w.template_in, km, kf)
      if centre then under = pick(enemies, u) end
      local has_target = false
      for _, f in ipairs(under or {}) do if f == target then has_target = true end end
      if has_target then
        umpire.cite("SK Templates", ("%s template (%s\") placed over as many enemies as possible without a friend: %d (options.template_placement = best)"):format(w.name, w.template_in, #under))
      else
        under = nil
        umpire.cite("SK Templates", "the best placement leaves out the designated target: centred on the target instead")
      end
    end
    if not under then
      local centre = umpire.table.point(target.x, target.y)
      under = pick(enemies, umpire.table.under_template(centre, w.template_in, km))
      umpire.cite("SK Templates", ("%s template (%s\") centred on %s: %d enemy figures under it"):format(w.name, w.template_in, target.id, #under))
    end
  end
  -- designated target first, then the others in the order given; enemies only
  local out, seen = { target }, { [target.id] = true }
  for _, f in ipairs(under) do
    if not seen[f.id] then
      seen[f.id] = true
      if f.side == firer.side then
        umpire.cite("SK Templates", f.id .. " is a friend of the firer: not a target")
      else
        out[#out + 1] = f
      end
    end
  end
  return out
end

return TP
