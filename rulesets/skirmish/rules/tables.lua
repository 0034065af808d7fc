-- Data access for the skirmish rules, and validate(data): every table the rules read is checked
-- once when the ruleset loads, so a wrong entry names its file and key instead of failing later
-- in the middle of a fire phase.
local T = {}

local function D() return umpire.data end

local function fail(file, what) error(("data/%s.yaml: %s"):format(file, what), 0) end

local CLASSES = { pistol = true, smg = true, rifle = true, mg = true, shotgun = true,
                  shrapnel = true, incendiary = true }
local EFFECTS = { death = true, litter_case = true, walking_wounded = true, charge_then_die = true }

local function sorted_keys(t)
  local ks = {}
  for k in pairs(t) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b) return tostring(a) < tostring(b) end)
  return ks
end
T.sorted_keys = sorted_keys

function T.validate(data)
  local th = data.to_hit or fail("to_hit", "missing (the ruleset lists data/to_hit.yaml)")
  for _, id in ipairs(sorted_keys(th.weapons or fail("to_hit", "no 'weapons:'"))) do
    local w = th.weapons[id]
    if not CLASSES[w.class] then fail("to_hit", ("weapons.%s.class '%s' is not one of pistol, smg, rifle, mg, shotgun, shrapnel, incendiary"):format(id, tostring(w.class))) end
    if type(w.bands) ~= "table" or #w.bands == 0 then fail("to_hit", ("weapons.%s has no range bands"):format(id)) end
    local last = 0
    for i, b in ipairs(w.bands) do
      if type(b.max_m) ~= "number" or b.max_m <= last then fail("to_hit", ("weapons.%s.bands[%d].max_m must be a number above the previous band's"):format(id, i)) end
      for _, k in ipairs({ "stationary", "moving" }) do
        if type(b[k]) ~= "number" or b[k] < 0 then fail("to_hit", ("weapons.%s.bands[%d].%s must be a percentage"):format(id, i, k)) end
      end
      last = b.max_m
    end
    if (w.automatic or w.explosive) and not (type(w.template_in) == "number" and w.template_in > 0) then
      fail("to_hit", ("weapons.%s is automatic or explosive but has no template_in (SK Templates)"):format(id))
    end
  end
  for _, kind in ipairs({ "human", "animal" }) do
    local t = data.hit_location[kind] or fail("hit_location", "no '" .. kind .. "' table")
    for roll = 1, 6 do
      local row = t[roll] or t[tostring(roll)]
      if not row then fail("hit_location", ("%s has no row %d"):format(kind, roll)) end
      if not EFFECTS[row.effect] then fail("hit_location", ("%s[%d].effect '%s' is unknown"):format(kind, roll, tostring(row.effect))) end
    end
  end
  for _, id in ipairs(sorted_keys(data.cover.positions)) do
    for _, n in ipairs(data.cover.positions[id].exposed or fail("cover", "positions." .. id .. " has no 'exposed'")) do
      if n < 1 or n > 6 then fail("cover", ("positions.%s.exposed has %s (hit locations are 1-6)"):format(id, tostring(n))) end
    end
  end
  for _, id in ipairs(sorted_keys(data.equipment.equipment)) do
    local e = data.equipment.equipment[id]
    if e.kind ~= "helmet" and e.kind ~= "body_armour" and e.kind ~= "scope" then
      fail("equipment", ("equipment.%s.kind '%s' is not helmet, body_armour or scope"):format(id, tostring(e.kind)))
    end
  end
  local o = data.options
  local allowed = {
    cover_check = { natural = true, modified = true }, modified_below_one = { clamp = true, no_effect = true },
    cover_stops = { small_arms = true, all = true }, wound_stacking = { worst = true, escalate = true },
    target_destroyed_when = { dead = true, out_of_action = true }, template_placement = { on_target = true, best = true },
    rider_injury_modifiers = { dm_only = true, all = true },
  }
  for _, k in ipairs(sorted_keys(allowed)) do
    if not allowed[k][o[k]] then
      fail("options", ("%s: '%s' is not one of %s"):format(k, tostring(o[k]), table.concat(sorted_keys(allowed[k]), ", ")))
    end
  end
  if not data.cover.positions[o.mounted_exposure] then fail("options", "mounted_exposure names no cover position") end
end

function T.weapon(id)
  local w = D().to_hit.weapons[id]
  if not w then error(("unknown weapon '%s' (data/to_hit.yaml)"):format(tostring(id)), 0) end
  return w
end

-- The band of `w` for a range in metres, or nil (out of range).
function T.band(w, range_m)
  for i, b in ipairs(w.bands) do
    if range_m <= b.max_m + 1e-9 then return b, i end
  end
  return nil
end

function T.location_row(kind, roll)
  local t = D().hit_location[kind]
  return t[roll] or t[tostring(roll)]
end

function T.cover(id)
  local c = D().cover.positions[id]
  if not c then error(("unknown cover position '%s' (data/cover.yaml)"):format(tostring(id)), 0) end
  return c
end

function T.equipment(id)
  local e = D().equipment.equipment[id]
  if not e then error(("unknown equipment '%s' (data/equipment.yaml)"):format(tostring(id)), 0) end
  return e
end

function T.options() return D().options end
function T.troops() return D().troops end

return T
