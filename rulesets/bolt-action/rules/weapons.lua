-- BA Weapons chart: weapon profiles from data/weapons.yaml, HE sizes from data/he.yaml.
local W = {}
-- umpire.data is fixed for the load generation that loads this module (a reload runs it again).
local data = umpire.data
local NONE = {}

-- A profile is made for every firing model of every shot: its `as` chain is walked once per
-- weapon, and the copier of the chain's tables (umpire.copier: a constructor compiled once for
-- their keys that makes the copy at its final size; the sandbox's `pairs` over each table of the
-- chain cost about 17,000 machine instructions a model, issue 18) is kept by weapon data table,
-- so a profile costs no look-up of the copier. They depend only on umpire.data, which the rules
-- only read (a reload runs this module again, with an empty cache). It is a data cache
-- (umpire.data_cache): a copier compiled while a run had removed a key of a profile would leave it
-- out once the key is back, so the host empties it after each run.
local make_copier = umpire.copier
local copier_of = umpire.data_cache()

-- The copier of weapon id's profile (the tables of its `as` chain, the one it starts from first,
-- the weapon's own last: each key from the last table that has it), made and kept on its first
-- profile.
local function copier_for(all, id)
  local seen, chain = {}, {}
  local cur = id
  while cur do
    if seen[cur] then error("data/weapons.yaml: weapon '" .. id .. "' has an `as` loop through '" .. cur .. "'", 3) end
    seen[cur] = true
    local w = all[cur]
    if not w then error("unknown weapon '" .. tostring(cur) .. "' (not in data/weapons.yaml)", 3) end
    table.insert(chain, 1, w)
    cur = w.as
  end
  local copier = make_copier(chain)
  copier_of[all[id]] = copier
  return copier
end

-- The profile of a weapon id, with `as` (start from another profile) resolved; its `id` is the
-- weapon's unless a table of its chain has one. opts.towed: the profile it counts as while towed
-- (`towed_as`; BA Multiple launcher: "When being towed, multiple launchers count as light
-- howitzers"), keeping the weapon's own id and name.
function W.profile(id, opts)
  if opts and opts.towed then
    local own = W.profile(id)
    if own.towed_as then
      local p = W.profile(own.towed_as)
      p.id, p.name, p.towed_from = id, own.name, own.towed_as
      umpire.cite(own.special_set.multiple_launcher and "BA Multiple launcher" or "BA Weapons chart",
        ("%s is being towed: it counts as a %s"):format(own.name, (p.towed_from:gsub("_", " "))))
      return p
    end
    return own
  end
  local all = data.weapons.weapons
  local head = all[id]
  local copier = head and copier_of[head] or copier_for(all, id)
  local p = copier()
  -- (`as` is cleared only where a table had it: storing nil under an absent key would add it)
  if p.as ~= nil then p.as = nil end
  if p.id == nil then p.id = id end
  local set = {}
  for _, s in ipairs(p.special or NONE) do set[s] = true end
  p.special_set = set
  return p
end

function W.has(profile, rule) return profile.special_set[rule] == true end

-- The HE chart row for a template diameter (1-4") or a previous-edition name ("D6").
function W.he_row(size)
  local he = umpire.data.he
  if type(size) == "string" then
    local d = he.legacy[size:upper()]
    if not d then error("unknown HE size '" .. size .. "' (data/he.yaml legacy)", 2) end
    umpire.cite("BA HE chart", ("previous-edition HE (%s) uses the %d\" template"):format(size, d))
    size = d
  end
  for _, row in ipairs(he.templates) do
    if row.diameter == size then return row end
  end
  error(("no HE (%s\") row in data/he.yaml"):format(tostring(size)), 2)
end

-- Pen of a shot: the chart's number, or for HE shots the HE chart's pen for the shell size.
function W.pen(profile, he_shot)
  if he_shot then
    local row = W.he_row(profile.he)
    umpire.cite("BA HE chart", ("HE (%d\") shell: Pen +%d"):format(row.diameter, row.pen))
    return row.pen
  end
  if profile.pen == "HE" then error("weapon '" .. profile.id .. "' only fires HE (Pen HE)", 2) end
  return profile.pen or 0
end

-- Shots of one firing model: the chart's Shots times the number of identical weapons on a mount
-- (BA Weapon special rules: "If a mount has two or more of the same weapon, they add their
-- number of shots together and are all fired at the same target").
function W.shots(profile, model)
  local n = model.mount or 1
  if W.has(profile, "flamethrower") then
    -- The chart's D6 / D6+1 is what one hit becomes (BA Flamethrower); one die is rolled to hit.
    return n
  end
  local shots = profile.shots
  if type(shots) ~= "number" then
    error("not implemented: variable shots '" .. tostring(shots) .. "' for " .. profile.id, 2)
  end
  if n > 1 then
    umpire.cite("BA Weapon special rules", ("mount of %d x %s: %d shots, one target"):format(n, profile.name, n * shots))
  end
  return n * shots
end

-- Range band of a shot: max range, minimum range, for the fire mode.
function W.ranges(profile, mode)
  if mode == "indirect" and profile.indirect then
    return profile.indirect.range, profile.indirect.min_range
  end
  if mode == "indirect" then return profile.range, profile.min_range end
  if W.has(profile, "howitzer") then return profile.range, nil end
  return profile.range, profile.min_range
end

return W
