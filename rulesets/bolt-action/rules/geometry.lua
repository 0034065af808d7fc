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

-- Does the kernel read the same model from `m` as from kmodel(m)? It reads x, y, base_mm and
-- facing, and takes a missing base_mm or facing as kmodel's defaults (25 mm, 0), so a model whose
-- base_mm and facing are missing or numbers can be given as it is: no copy is made for every
-- shooter-target pair of a distance (issue 18). Anything else still goes through kmodel.
local function as_kernel_model(m)
  local base, facing = m.base_mm, m.facing
  if (base == nil or type(base) == "number") and (facing == nil or type(facing) == "number") then return m end
  return kmodel(m)
end

-- Base edge to base edge, the way Bolt Action measures between models.
local function edge_distance(a, b) return T.edge_distance(as_kernel_model(a), as_kernel_model(b)) end
G.edge_distance = edge_distance

-- Shortest base-to-base distance between a model and any model of a list.
function G.nearest(model, models)
  local best, bm = math.huge, nil
  local km = as_kernel_model(model)
  for _, m in ipairs(models) do
    local d = T.edge_distance(km, as_kernel_model(m))
    if d < best then best, bm = d, m end
  end
  return best, bm
end

-- `list` itself if the kernel reads every model of it as kmodel's copy (see as_kernel_model),
-- else a list of kernel models: no table is made in the usual case.
local function as_kernel_models(list)
  for i, m in ipairs(list) do
    if as_kernel_model(m) ~= m then
      local out = {}
      for j, x in ipairs(list) do out[j] = as_kernel_model(x) end
      return out
    end
  end
  return list
end

-- G.nearest for every model of `models` against one list `targets`, in one kernel call
-- (umpire.table.nearest_each) instead of one per pair (issue 18): returns the distances, in the
-- order of `models`, and the 1-based indices into `targets` of the nearest ones. Same numbers
-- and ties as G.nearest (the first of equally near targets); with no targets every distance is
-- math.huge, no index is given and no model is read, as G.nearest does.
-- One pair (a one-model target measured from one model, as a mortar's ranging does every turn) is
-- measured by umpire.table.edge_distance itself: the same number, without the kernel call's lists.
function G.nearest_each(models, targets)
  local n = #targets
  if n == 0 then
    local distances = {}
    for i = 1, #models do distances[i] = math.huge end
    return distances, {}
  end
  if n == 1 and #models == 1 then
    return { T.edge_distance(as_kernel_model(models[1]), as_kernel_model(targets[1])) }, { 1 }
  end
  return T.nearest_each(as_kernel_models(models), as_kernel_models(targets))
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
-- without overlapping ... a model suffers a single hit even if covered by more than one. One good
-- way of thinking about this is to imagine that the templates form one odd-shaped new template
-- that must be used along the same principles as a single larger round template" - i.e. as many
-- models of the target as possible, no friend clipped.
--
-- umpire.table.place_templates places them greedily (the first as for one hit, each further one
-- touching). That is provably short of the rule: e.g. three 1" templates on the eight models
-- {2.10,1.21} {1.27,1.16} {5.13,2.25} {5.89,0.03} {5.29,1.28} {2.37,1.95} {1.41,0.74}
-- {5.02,1.15} (x,y in inches) cover 4 greedily, 5 at best (the best first template is not part
-- of the best pair). So a Lua search runs too and the better layout wins (the kernel's on a tie):
-- the first centre at every corner of the reach-disc arrangement (see candidates above), the
-- second touching it at every angle where it starts or stops covering a model or clipping a
-- friend (exact for that first centre), further ones greedily the same way. Layouts are ranked
-- by a cheap count; the answer is counted again by umpire.table.under_template.
local function reach(m, diameter) return diameter / 2 + (m.base_mm or DEFAULT_BASE_MM) / 25.4 / 2 end

local function covered(p, m, diameter, grow)
  local dx, dy, r = p.x - m.x, p.y - m.y, reach(m, diameter) + grow
  return dx * dx + dy * dy <= r * r
end

local function clips(p, friends, diameter)
  for _, f in ipairs(friends) do if covered(p, f, diameter, EPS) then return true end end
  return false
end

-- Angles (radians) at which a template touching the one at `c` starts or stops covering (or
-- clipping) one of `models`, nudged to both sides.
local function touching_angles(c, diameter, models, out)
  for _, m in ipairs(models) do
    local dx, dy = m.x - c.x, m.y - c.y
    local d = math.sqrt(dx * dx + dy * dy)
    local r = reach(m, diameter)
    if d > 0 and d <= diameter + r and d >= math.abs(diameter - r) then
      local base = math.atan2(dy, dx)
      local off = math.acos(math.max(-1, math.min(1, (diameter * diameter + d * d - r * r) / (2 * diameter * d))))
      for _, a in ipairs({ base - off, base + off }) do
        out[#out + 1] = a - 1e-7; out[#out + 1] = a + 1e-7
      end
      out[#out + 1] = base
    end
  end
  return out
end

local function lua_templates(n, diameter, targets, friends)
  local best, best_n = nil, -1
  local function count(layout)
    local k = 0
    for _, m in ipairs(targets) do
      for _, c in ipairs(layout) do
        if covered(c, m, diameter, -EPS) then k = k + 1; break end
      end
    end
    return k
  end
  local function next_to(layout)
    local angles = {}
    for _, c in ipairs(layout) do
      local list = touching_angles(c, diameter, targets, {})
      touching_angles(c, diameter, friends, list)
      for _, a in ipairs(list) do angles[#angles + 1] = { c = c, a = a } end
    end
    local pick, pick_n = nil, -1
    for _, e in ipairs(angles) do
      local p = { x = e.c.x + diameter * math.cos(e.a), y = e.c.y + diameter * math.sin(e.a) }
      local clear = not clips(p, friends, diameter)
      for _, o in ipairs(layout) do
        local dx, dy = o.x - p.x, o.y - p.y
        if dx * dx + dy * dy < (diameter - 1e-6) ^ 2 then clear = false; break end
      end
      if clear then
        layout[#layout + 1] = p
        local k = count(layout)
        layout[#layout] = nil
        if k > pick_n then pick, pick_n = p, k end
      end
    end
    return pick
  end
  for _, first in ipairs(candidates(diameter, targets, friends)) do
    if not clips(first, friends, diameter) then
      local layout = { first }
      for _ = 2, n do
        local p = next_to(layout)
        if not p then break end
        layout[#layout + 1] = p
      end
      if #layout == n then
        local k = count(layout)
        if k > best_n then best, best_n = layout, k end
      end
    end
  end
  return best
end

-- Returns the centres and the target models under any of them.
function G.place_templates(n, diameter, targets, friends)
  friends = friends or {}
  if n <= 1 then
    local c, under = G.place_template(diameter, targets, friends)
    return { c }, under
  end
  local centres, under = T.place_templates(n, diameter, kmodels(targets), kmodels(friends))
  local cs = {}
  for i, c in ipairs(centres) do cs[i] = { x = c.x, y = c.y } end
  local hit = pick(targets, under)
  local alt = lua_templates(n, diameter, targets, friends)
  if alt and #G.union_under(alt, diameter, friends) == 0 then
    local alt_hit = G.union_under(alt, diameter, targets)
    if #alt_hit > #hit then cs, hit = alt, alt_hit end
  end
  return cs, hit
end

return G
