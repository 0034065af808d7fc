-- Tabletop geometry for Bolt Action, over umpire.table (docs/lua-api.md).
--
-- The ruleset's models are plain tables from scenarios and game state:
--   {id=, x=, y=, base_mm=, facing=, weapon=, role=}   (inches; base_mm defaults to 25: "imagine
--   that each model has an individual 25mm round base", BA HE)
-- umpire.table takes {x=, y=, base_mm=, facing=} and answers template questions with 1-based
-- indices into the list it was given; this module turns those indices back into our models.
local G = {}
local T = umpire.table

local DEFAULT_BASE_MM = 25

-- The kernel's view of a model: position, base and facing only.
local function kmodel(m)
  return { x = m.x, y = m.y, base_mm = m.base_mm or DEFAULT_BASE_MM, facing = m.facing or 0 }
end
G.kmodel = kmodel

local function kmodels(list)
  local out = {}
  for i, m in ipairs(list or {}) do out[i] = kmodel(m) end
  return out
end

-- The models of `list` at the kernel's 1-based `indices`.
local function pick(list, indices)
  local out = {}
  for i, k in ipairs(indices) do out[i] = list[k] end
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

-- True if `m` lies within `half` degrees of `facing` seen from `origin`: any part of its base if
-- `whole_base` (umpire.table.in_arc with a base), else its centre only.
function G.base_in_arc(origin, facing, half, m, whole_base)
  local target = whole_base and kmodel(m) or G.point(m)
  return T.in_arc(G.point(origin), facing, half, target)
end

function G.bearing(from, to) return T.bearing(G.point(from), G.point(to)) end

function G.under_template(centre, diameter, models)
  return pick(models, T.under_template(T.point(centre.x, centre.y), diameter, kmodels(models)))
end

-- Models of `models` under any of the templates at `centres`; a model covered twice counts once.
function G.union_under(centres, diameter, models)
  local seen, idx = {}, {}
  local km = kmodels(models)
  for _, c in ipairs(centres) do
    for _, i in ipairs(T.under_template(T.point(c.x, c.y), diameter, km)) do
      if not seen[i] then seen[i] = true; idx[#idx + 1] = i end
    end
  end
  table.sort(idx)
  return pick(models, idx)
end

-- Candidate centres for "cover most targets, clip no friend, then clip most other enemies": a
-- centre covers a model iff it lies in the model's reach disc (radius: template radius + base
-- radius, touching counts); every region of centres covering one set of models and no friend is
-- bounded by arcs of those discs, so one of its corners (two circles crossing) or, for a region
-- with no corner, a disc's centre or a point of its rim is a best centre. Covering discs are
-- shrunk and friends' discs grown by EPS so that a corner lies on the safe side of both.
local EPS = 1e-6
local function candidates(diameter, covering, friends)
  local circles = {}
  local function add(list, grow)
    for _, m in ipairs(list) do
      local r = diameter / 2 + (m.base_mm or DEFAULT_BASE_MM) / 25.4 / 2 + grow
      circles[#circles + 1] = { x = m.x, y = m.y, r = r, cover = grow < 0 }
    end
  end
  add(covering, -EPS)
  add(friends, EPS)
  local out = {}
  for i, a in ipairs(circles) do
    if a.cover then
      out[#out + 1] = { x = a.x, y = a.y }
      for k = 0, 7 do
        local t = k * math.pi / 4
        out[#out + 1] = { x = a.x + a.r * math.cos(t), y = a.y + a.r * math.sin(t) }
      end
    end
    for j = i + 1, #circles do
      local b = circles[j]
      local dx, dy = b.x - a.x, b.y - a.y
      local d = math.sqrt(dx * dx + dy * dy)
      if d > 0 and d <= a.r + b.r and d >= math.abs(a.r - b.r) then
        local l = (a.r * a.r - b.r * b.r + d * d) / (2 * d)
        local h = math.sqrt(math.max(0, a.r * a.r - l * l))
        local mx, my = a.x + l * dx / d, a.y + l * dy / d
        out[#out + 1] = { x = mx - h * dy / d, y = my + h * dx / d }
        out[#out + 1] = { x = mx + h * dy / d, y = my - h * dx / d }
      end
    end
  end
  return out
end

-- One template (BA HE): the kernel places it on most models of the target without clipping a
-- friend. `others` (optional): models of other enemy units. BA HE: "you are trying to hit as
-- many models as possible in the target unit and you cannot clip any friendly models - once
-- these two conditions are met, however, other enemy units nearby are fair game". The kernel
-- knows only targets and friends, so its centre is one of the best for the target but not
-- necessarily the best for the firer when another enemy unit is near: then the candidate
-- centres above are searched (counted by umpire.table.under_template) for most targets (the
-- kernel's number), then most other enemies; the kernel's centre is kept on a tie.
-- Returns the centre (or nil) and the target models under it.
function G.place_template(diameter, targets, friends, others)
  local kt, kf = kmodels(targets), kmodels(friends)
  local centre, under = T.place_template(diameter, kt, kf)
  if centre == nil then return nil, {} end
  if others and #others > 0 then
    local ko = kmodels(others)
    local best, best_t = centre, under
    local best_o = #T.under_template(centre, diameter, ko)
    local all = {}
    for _, m in ipairs(targets) do all[#all + 1] = m end
    for _, m in ipairs(others) do all[#all + 1] = m end
    for _, p in ipairs(candidates(diameter, all, friends)) do
      local c = T.point(p.x, p.y)
      if #T.under_template(c, diameter, kf) == 0 then
        local ut = T.under_template(c, diameter, kt)
        local n = #T.under_template(c, diameter, ko)
        if #ut > #best_t or (#ut == #best_t and n > best_o) then best, best_t, best_o = c, ut, n end
      end
    end
    if #best_t > #under then
      -- should not happen: the kernel's placement is the most targets
      umpire.note(("umpire.table.place_template covered %d models of the target; %d fit at (%.3f, %.3f)")
        :format(#under, #best_t, best.x, best.y))
    end
    centre, under = best, best_t
  end
  return { x = centre.x, y = centre.y }, pick(targets, under)
end

-- Several templates (BA Multiple HE hits): "placed so that they are in contact with each other
-- without overlapping ... a model suffers a single hit even if covered by more than one".
-- umpire.table.place_templates: the first as for one hit, each further one touching (greedy).
-- Returns the centres and the target models under any of them.
function G.place_templates(n, diameter, targets, friends)
  if n <= 1 then
    local c, under = G.place_template(diameter, targets, friends)
    return { c }, under
  end
  local centres, under = T.place_templates(n, diameter, kmodels(targets), kmodels(friends))
  local cs = {}
  for i, c in ipairs(centres) do cs[i] = { x = c.x, y = c.y } end
  return cs, pick(targets, under)
end

return G
