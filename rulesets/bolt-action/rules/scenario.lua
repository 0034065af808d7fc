-- Scenario helpers for tests and scripts: units from scenarios/*.yaml, and unit builders.
local SC = {}

local function copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = copy(x) end
  return t
end
SC.copy = copy

-- Returns units by id and the list of all units (the "world" HE templates look at).
function SC.load(name)
  local s = copy(umpire.data.scenario(name))
  local by_id, world = {}, {}
  for _, u in ipairs(s.units or {}) do
    u.pins = u.pins or 0
    by_id[u.id] = u
    world[#world + 1] = u
  end
  return by_id, world, s
end

-- A unit of `n` models in a line 1.5" apart, each with `weapon` (quick setups for tests).
function SC.line(id, side, n, weapon, opts)
  opts = opts or {}
  local u = { id = id, side = side, type = opts.type or "squad", experience = opts.experience or "regular",
              pins = opts.pins or 0, cover = opts.cover, down = opts.down, facing = opts.facing, models = {} }
  for i = 1, n do
    u.models[i] = { id = id .. "_" .. i, x = (opts.x or 0) + (i - 1) * (opts.spacing or 1.5), y = opts.y or 0,
                    weapon = weapon }
  end
  return u
end

return SC
