-- vehicle_terrain.lua: the map a vehicle moves over and what entering a hex costs it (the part of
-- the Terrain Chart in data/terrain_vehicle.yaml; D2.14 wrecks/vehicles, D2.16 road rate, D2.3
-- VBM cost, D2.7 ALL MP). MP are counted in HALF MP (integers) so ½ stays exact; fmt prints "6½".
--
-- The map lives in umpire.state.vehicle_map as plain data (it saves and survives reloads):
--   default = "open", hexes = { [name] = {terrain=, elevation=, wrecks=, vehicles=, rubble=,
--   blaze=, smoke_mp=} }, roads = { [hexside id] = true | road type }, vbm_obstructed =
--   { ["<hex>@<hexside id>"] = true } (hexside interior not clear of that hex's obstacle, D2.3),
--   roadblocks = { [hexside id] = true }, bypass_wrecks = { [hexside id] = true }.
local T = {}

local function G() return umpire.rules.vehicle_geometry end
local function D() return umpire.data.terrain_vehicle end

--- MP (a number, possibly x.5) to half MP; an error for anything else.
function T.halves(mp, what)
  if type(mp) ~= "number" then
    error(("%s: MP must be a number, got %s"):format(what or "terrain_vehicle.yaml", tostring(mp)), 2)
  end
  local h = mp * 2
  if h ~= math.floor(h) then
    error(("%s: MP %s is not a multiple of ½"):format(what or "terrain_vehicle.yaml", tostring(mp)), 2)
  end
  return h
end

--- Half MP to the way the rules print it: 13 -> "6½", 1 -> "½", 4 -> "2".
function T.fmt(h)
  local whole, half = math.floor(h / 2), h % 2
  if half == 0 then return tostring(whole) end
  if whole == 0 then return "½" end
  return tostring(whole) .. "½"
end

--- Load a scenario's map (scenarios/*.yaml `map:`) into the game state.
function T.load_map(map)
  map = map or {}
  -- declare the boards to the kernel so that names on them (and bare names) parse
  if map.boards and type(umpire.hex.map) == "function" then
    local boards = {}
    -- an entry is a board number (placed at the origin) or {board=, column_offset=, row_offset=}
    -- (a board beside or below another: see core/hex/Map.hpp for the offsets)
    for i, b in ipairs(map.boards) do
      if type(b) == "table" then
        boards[i] = { board = b.board, column_offset = b.column_offset or 0, row_offset = b.row_offset or 0 }
      else
        boards[i] = { board = b, column_offset = 0, row_offset = 0 }
      end
    end
    umpire.hex.map({ boards = boards, default = map.default_board or boards[1].board })
  end
  local m = { default = map.default or "open", hexes = {}, roads = {}, vbm_obstructed = {},
              roadblocks = {}, bypass_wrecks = {}, terrain_types = map.terrain_types or {},
              north_africa_pre_oct41 = map.north_africa_pre_oct41 or false }
  for name, h in pairs(map.hexes or {}) do
    local rec = {}
    for k, v in pairs(h) do rec[k] = v end
    m.hexes[G().name(name)] = rec
  end
  for _, s in ipairs(map.roads or {}) do
    local a, b = G().parse_hexside(s)
    m.roads[G().hexside_id(a, b)] = true
  end
  for _, o in ipairs(map.vbm_obstructed or {}) do
    local a, b = G().parse_hexside(o.hexside)
    m.vbm_obstructed[G().name(o.hex) .. "@" .. G().hexside_id(a, b)] = true
  end
  for _, s in ipairs(map.roadblocks or {}) do
    local a, b = G().parse_hexside(s); m.roadblocks[G().hexside_id(a, b)] = true
  end
  for _, s in ipairs(map.bypass_wrecks or {}) do
    local a, b = G().parse_hexside(s); m.bypass_wrecks[G().hexside_id(a, b)] = true
  end
  umpire.state.vehicle_map = m
  return m
end

local function map() return umpire.state.vehicle_map or T.load_map({}) end

--- The map record of a hex (never nil) and its terrain type name.
function T.hex(name)
  local rec = map().hexes[G().name(name)] or {}
  return rec, rec.terrain or map().default
end

--- The Terrain Chart entry of a terrain type (the scenario may add types of its own).
function T.terrain(tname)
  local t = map().terrain_types[tname] or D().terrain[tname]
  if not t then error(("terrain_vehicle.yaml: no terrain type %q"):format(tostring(tname)), 2) end
  return t
end

function T.elevation(name) return (T.hex(name).elevation or 0) end
function T.is_obstacle(name) local _, t = T.hex(name); return T.terrain(t).obstacle == true end
function T.road_between(a, b) return map().roads[G().hexside_id(a, b)] end

--- Extra MP for climbing from one hex to another (per level, D2.24 EX / D2.3 EX).
function T.climb(from, to, parts)
  local up = T.elevation(to) - T.elevation(from)
  if up > 0 then
    local h = up * T.halves(D().higher_elevation_mp, "higher_elevation_mp")
    parts[#parts + 1] = { h = h, label = ("%s [higher elevation]"):format(T.fmt(h)) }
    return h
  end
  return 0
end

--- Wrecks/vehicles in the hex entered (D2.14): +1 MP each, doubled via a road hexside at the road
-- rate (and again for Note D roads). `mover` is excluded; motorcycles neither pay nor count.
function T.wreck_penalty(v, to, via_road, parts)
  if v.class == "motorcycle" then return 0 end
  local rec = T.hex(to)
  local n = rec.wrecks or 0
  for _, o in pairs(umpire.state.vehicles or {}) do
    if o.id ~= v.id and o.class ~= "motorcycle" and o.hex == G().name(to) and not o.removed then n = n + 1 end
  end
  n = n + (rec.vehicles or 0)
  if n == 0 then return 0 end
  local each = T.halves(D().wreck_or_vehicle_mp, "wreck_or_vehicle_mp")
  local label = "[wreck/vehicle]"
  if via_road then
    each = each * D().wreck_road_multiplier
    local rt = type(via_road) == "string" and (D().road_type_multiplier or {})[via_road]
    if rt then each = each * rt end
    label = "[wreck/vehicle, doubled on road]"
  end
  local h = n * each
  parts[#parts + 1] = { h = h, label = ("%s %s"):format(T.fmt(h), label) }
  return h
end

--- The normal (forward, outright) MP to enter hex `to` from `from` (D2.14, D2.16, Terrain Chart).
-- Returns { h = half MP or "ALL", parts = {...}, bog = {drm=} or nil, road = bool }.
function T.entry_cost(v, from, to, opts)
  opts = opts or {}
  local rec, tname = T.hex(to)
  local t = T.terrain(tname)
  local parts, h = {}, 0
  local road = T.road_between(from, to)
  local use_road = road and opts.road ~= false
  if use_road then
    -- D2.16: ½ MP across a road hexside; one MP for a BU AFV.
    local rmp = (v.afv and v.bu) and D().road.bu_afv_mp or D().road.mp
    local rh = T.halves(rmp, "road.mp")
    h = h + rh
    parts[#parts + 1] = { h = rh, label = ("%s [road%s]"):format(T.fmt(rh), (v.afv and v.bu) and ", BU AFV D2.16" or "") }
  elseif t.mp == "ALL" then
    return { h = "ALL", parts = { { label = "ALL [" .. tname .. "]" } }, terrain = tname }
  elseif t.mp == "half_allotment" then
    local hh = math.ceil(v.mp_h / 2)
    h = h + hh
    parts[#parts + 1] = { h = hh, label = ("%s [%s: half the MP allotment]"):format(T.fmt(hh), tname) }
  elseif t.mp == nil then
    error(("terrain_vehicle.yaml: no vehicle MP cost for terrain %q: add `mp:`"):format(tname), 2)
  else
    local th = T.halves(t.mp, "terrain " .. tname)
    h = h + th
    parts[#parts + 1] = { h = th, label = ("%s [%s]"):format(T.fmt(th), tname == "open" and "Open Ground" or tname) }
  end
  h = h + T.climb(from, to, parts)
  if rec.smoke_mp then
    local sh = T.halves(rec.smoke_mp, "smoke_mp"); h = h + sh
    parts[#parts + 1] = { h = sh, label = T.fmt(sh) .. " [SMOKE]" }
  end
  h = h + T.wreck_penalty(v, to, use_road and road, parts)
  local bog = (not use_road and t.bog_check) and { drm = t.bog_drm } or nil
  return { h = h, parts = parts, bog = bog, road = use_road and true or false, terrain = tname }
end

--- D2.3: the VBM cost of traversing one hexside of the obstacle hex `hex` from `from`: double the
-- hex's non-obstacle terrain cost plus any additional terrain cost in that hex (SMOKE, higher
-- elevation), all doubled. Wreck/vehicle penalties are not terrain and are added undoubled.
function T.bypass_cost(v, from, hex)
  local rec, tname = T.hex(hex)
  local t = T.terrain(tname)
  local base = T.terrain(t.base or "open")
  local parts, h = {}, 0
  local bh = T.halves(base.mp, "terrain " .. (t.base or "open"))
  h = h + bh
  parts[#parts + 1] = { h = bh, label = ("%s [%s]"):format(T.fmt(bh), (t.base or "open") == "open" and "Open Ground" or t.base) }
  h = h + T.climb(from, hex, parts)
  if rec.smoke_mp then
    local sh = T.halves(rec.smoke_mp, "smoke_mp"); h = h + sh
    parts[#parts + 1] = { h = sh, label = T.fmt(sh) .. " [SMOKE]" }
  end
  local sub = h
  local extra_parts = {}
  local w = G().same(from, hex) and 0 or T.wreck_penalty(v, hex, false, extra_parts)
  return { h = 2 * sub + w, inner = sub, parts = parts, wreck = w, extra = extra_parts }
end

--- A cost breakdown as the rules write it: "(1 [Open Ground] + 4 [higher elevation] = 5)".
function T.explain(parts, total)
  local s = {}
  for _, p in ipairs(parts) do s[#s + 1] = p.label end
  if #s == 1 then return s[1] end
  return "(" .. table.concat(s, " + ") .. " = " .. T.fmt(total) .. ")"
end

return T
