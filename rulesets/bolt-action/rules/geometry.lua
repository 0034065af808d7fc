-- Tabletop geometry for Bolt Action, over umpire.table (docs/lua-api.md).
--
-- The ruleset's models are plain tables from scenarios and game state:
--   {id=, x=, y=, base_mm=, weapon=, role=}   (inches; base_mm defaults to 25, "imagine that
--   each model has an individual 25mm round base", BA HE)
-- This module is the one place that turns them into what umpire.table takes and maps the
-- kernel's answers back to the ruleset's own model tables.
local G = {}
local T = umpire.table

local DEFAULT_BASE_MM = 25

-- The kernel's view of a model: position and base only (its unit/side are ints in C++, ours
-- are names, and the rules here never need them).
local function kmodel(m)
  return { x = m.x, y = m.y, base_mm = m.base_mm or DEFAULT_BASE_MM, facing = m.facing or 0 }
end
G.kmodel = kmodel

local function kmodels(list)
  local out, back = {}, {}
  for i, m in ipairs(list) do
    local k = kmodel(m); out[i] = k; back[k] = m
  end
  return out, back
end

-- Map the kernel's "models under it" back to ours: by identity, by index, or by position.
local function map_back(under, klist, back, list)
  local out = {}
  for _, u in ipairs(under or {}) do
    local m = back[u]
    if m == nil and type(u) == "number" then m = list[u] end
    if m == nil and type(u) == "table" then
      for i, k in ipairs(klist) do
        if k.x == u.x and k.y == u.y then m = list[i]; break end
      end
    end
    if m == nil then error("umpire.table returned a model the ruleset did not pass", 2) end
    out[#out + 1] = m
  end
  return out
end

function G.point(m) return T.point(m.x, m.y) end

-- Base edge to base edge, the way Bolt Action measures between models.
function G.edge_distance(a, b) return T.edge_distance(kmodel(a), kmodel(b)) end

-- Shortest base-to-base distance between a model and any model of a list.
function G.nearest(model, models)
  local best, bm = math.huge, nil
  for _, m in ipairs(models) do
    local d = G.edge_distance(model, m)
    if d < best then best, bm = d, m end
  end
  return best, bm
end

-- True if any part of `m`'s base lies within `half` degrees of `facing`, seen from `origin`.
-- Whole-base test: the base is inside the wedge iff its centre or one of its two tangent points
-- (the base's angular extremes as seen from the origin) is.
function G.base_in_arc(origin, facing, half, m, whole_base)
  local o = G.point(origin)
  if T.in_arc(o, facing, half, G.point(m)) then return true end
  if not whole_base then return false end
  local r = (m.base_mm or DEFAULT_BASE_MM) / 25.4 / 2
  local d = T.distance(o, G.point(m))
  if d <= r then return true end
  local bearing = math.deg(math.atan2(m.y - origin.y, m.x - origin.x))
  local off, reach = math.deg(math.asin(r / d)), math.sqrt(d * d - r * r)
  for _, s in ipairs({ -1, 1 }) do
    local a = math.rad(bearing + s * off)
    local p = T.point(origin.x + reach * math.cos(a), origin.y + reach * math.sin(a))
    if T.in_arc(o, facing, half, p) then return true end
  end
  return false
end

function G.bearing(from, to) return math.deg(math.atan2(to.y - from.y, to.x - from.x)) % 360 end

-- One template: the kernel places it (BA HE: most models of the target, no friend clipped).
function G.place_template(diameter, targets, friends)
  local kt, bt = kmodels(targets)
  local kf = kmodels(friends or {})
  local centre, under = T.place_template(diameter, kt, kf)
  if centre == nil then return nil, {} end
  return { x = centre.x, y = centre.y }, map_back(under, kt, bt, targets)
end

function G.under_template(centre, diameter, models)
  local km, bm = kmodels(models)
  return map_back(T.under_template(T.point(centre.x, centre.y), diameter, km), km, bm, models)
end

-- Several templates (BA Multiple HE hits): "placed so that they are in contact with each other
-- without overlapping ... a model suffers a single hit even if covered by more than one".
--
-- umpire.table places one template; for n > 1 this is a search. The first template's centre is
-- tried on a 0.1" grid over the target unit (plus the kernel's single best centre); each further
-- template touches one already placed (centres exactly one diameter apart, so they touch and do
-- not overlap) at 10° steps and towards every target model. The cheap count below only ranks
-- candidates; the best few are then counted again by umpire.table.under_template, whose answer
-- (and friend check) is final. For three or more templates each further one is added greedily.
local function quick_count(centres, diameter, models, need_all)
  local R, n = diameter / 2, 0
  for _, m in ipairs(models) do
    -- touching counts as under (and as clipping a friend), as in umpire.table
    local reach = R + (m.base_mm or DEFAULT_BASE_MM) / 25.4 / 2 + 1e-9
    for _, c in ipairs(centres) do
      local dx, dy = m.x - c.x, m.y - c.y
      if dx * dx + dy * dy <= reach * reach then n = n + 1; break end
    end
  end
  return n
end

local function clear_of(centres, c, diameter)
  for _, o in ipairs(centres) do
    local dx, dy = o.x - c.x, o.y - c.y
    if dx * dx + dy * dy < (diameter - 1e-9) ^ 2 then return false end
  end
  return true
end

function G.union_under(centres, diameter, models)
  local seen, out = {}, {}
  for _, c in ipairs(centres) do
    for _, m in ipairs(G.under_template(c, diameter, models)) do
      if not seen[m] then seen[m] = true; out[#out + 1] = m end
    end
  end
  return out
end

function G.place_templates(n, diameter, targets, friends)
  friends = friends or {}
  if n <= 1 then
    local c, under = G.place_template(diameter, targets, friends)
    return { c }, under
  end
  if T.place_templates then
    -- The kernel's procedure: the first template as for one hit, each further one touching
    -- (greedy, "as a player performs it").
    local kt, bt = kmodels(targets)
    local centres, under = T.place_templates(n, diameter, kt, kmodels(friends))
    local cs = {}
    for i, c in ipairs(centres or {}) do
      local p = c.centre or c
      cs[i] = { x = p.x, y = p.y }
    end
    return cs, map_back(under, kt, bt, targets)
  end
  local first, _ = G.place_template(diameter, targets, friends)
  local minx, maxx, miny, maxy = math.huge, -math.huge, math.huge, -math.huge
  for _, m in ipairs(targets) do
    minx, maxx = math.min(minx, m.x), math.max(maxx, m.x)
    miny, maxy = math.min(miny, m.y), math.max(maxy, m.y)
  end
  local pad = diameter / 2
  local starts = {}
  if first then starts[1] = first end
  for x = minx - pad, maxx + pad + 1e-9, 0.1 do
    for y = miny - pad, maxy + pad + 1e-9, 0.1 do starts[#starts + 1] = { x = x, y = y } end
  end
  local function neighbours(centres)
    local out = {}
    for _, c in ipairs(centres) do
      local angles = {}
      for a = 0, 350, 10 do angles[#angles + 1] = a end
      for _, m in ipairs(targets) do angles[#angles + 1] = G.bearing(c, m) end
      for _, a in ipairs(angles) do
        local r = math.rad(a)
        local p = { x = c.x + diameter * math.cos(r), y = c.y + diameter * math.sin(r) }
        if clear_of(centres, p, diameter) then out[#out + 1] = p end
      end
    end
    return out
  end
  -- Rank two-template layouts cheaply, keep the best 40.
  local ranked = {}
  for _, s in ipairs(starts) do
    if quick_count({ s }, diameter, friends) == 0 then
      for _, p in ipairs(neighbours({ s })) do
        if quick_count({ p }, diameter, friends) == 0 then
          ranked[#ranked + 1] = { s, p, score = quick_count({ s, p }, diameter, targets) }
        end
      end
    end
  end
  table.sort(ranked, function(a, b) return a.score > b.score end)
  local best, best_n = nil, -1
  for i = 1, math.min(40, #ranked) do
    local layout = { ranked[i][1], ranked[i][2] }
    -- greedy for the third and later templates
    for _ = 3, n do
      local pick, pick_n = nil, -1
      for _, p in ipairs(neighbours(layout)) do
        if quick_count({ p }, diameter, friends) == 0 then
          local layout2 = {}
          for j, c in ipairs(layout) do layout2[j] = c end
          layout2[#layout2 + 1] = p
          local c = quick_count(layout2, diameter, targets)
          if c > pick_n then pick, pick_n = p, c end
        end
      end
      if not pick then break end
      layout[#layout + 1] = pick
    end
    if #G.union_under(layout, diameter, friends) == 0 then
      local c = #G.union_under(layout, diameter, targets)
      if c > best_n then best, best_n = layout, c end
    end
  end
  if not best then return {}, {} end
  return best, G.union_under(best, diameter, targets)
end

return G
