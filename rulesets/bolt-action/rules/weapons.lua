-- BA Weapons chart: weapon profiles from data/weapons.yaml, HE sizes from data/he.yaml.
local W = {}
-- umpire.data is fixed for the load generation that loads this module (a reload runs it again).
local data = umpire.data
local NONE = {}

-- A profile is made for every firing model of every shot: its `as` chain walked and each data
-- table of the chain copied with the sandbox's `pairs`, about 17,000 machine instructions a
-- model (issue 18). So the first profile of a weapon records, for its data table, a copier: a
-- table constructor naming each key of the chain (the last table of the chain that has it, as
-- the copy by `pairs` overwrote), compiled once with `load`. The copier depends only on the keys
-- of umpire.data's tables, which the rules only read once loaded (docs/lua-api.md, "What a step
-- may read": a step may read umpire.data), so it is the same for every sample and folded path; a
-- reload makes new data tables and runs this module again, with an empty cache. Values are read
-- from the data on every copy. A chain with a key that is not a string is copied by `pairs`.
local copier_of = {}

local function copy_chain_by_pairs(chain)
  return function(id)
    local p = { id = id }
    for _, w in ipairs(chain) do for k, v in pairs(w) do if k ~= "as" then p[k] = v end end end
    return p
  end
end

local function make_copier(chain)
  local source_of, keys = {}, {}
  for i, w in ipairs(chain) do
    for k in pairs(w) do
      if type(k) ~= "string" then return copy_chain_by_pairs(chain) end
      if k ~= "as" then
        if not source_of[k] then keys[#keys + 1] = k end
        source_of[k] = i
      end
    end
  end
  -- `id = id` first: a data table's own `id` field overwrote it in the copy by `pairs`
  local fields = { "id = id" }
  for _, k in ipairs(keys) do fields[#fields + 1] = string.format("[%q] = c%d[%q]", k, source_of[k], k) end
  local args = {}
  for i = 1, #chain do args[i] = "c" .. i end
  local code = "local id, " .. table.concat(args, ", ") .. " = ...\nreturn {" .. table.concat(fields, ", ") .. "}"
  local build = load(code, "=weapons.profile copier")
  if not build then return copy_chain_by_pairs(chain) end
  if #chain == 1 then return build end
  return function(id) return build(id, unpack(chain)) end
end

local function with_special_set(p)
  local set = {}
  for _, s in ipairs(p.special or NONE) do set[s] = true end
  p.special_set = set
  return p
end

-- The profile of a weapon id, with `as` (start from another profile) resolved. opts.towed: the
-- profile it counts as while towed (`towed_as`; BA Multiple launcher: "When being towed, multiple
-- launchers count as light howitzers"), keeping the weapon's own id and name.
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
  local copier = head and copier_of[head]
  if copier then return with_special_set(copier(id, head)) end
  local seen, chain = {}, {}
  local cur = id
  while cur do
    if seen[cur] then error("data/weapons.yaml: weapon '" .. id .. "' has an `as` loop through '" .. cur .. "'", 2) end
    seen[cur] = true
    local w = all[cur]
    if not w then error("unknown weapon '" .. tostring(cur) .. "' (not in data/weapons.yaml)", 2) end
    table.insert(chain, 1, w)
    cur = w.as
  end
  copier_of[head] = make_copier(chain)
  local p = { id = id }
  for _, w in ipairs(chain) do for k, v in pairs(w) do if k ~= "as" then p[k] = v end end end
  return with_special_set(p)
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
