-- map_los.lua: a small map model and LOS check, enough for the Fire Lane examples of A9 (not full ASL LOS).
--
-- Geometry: flat-topped hexes of side 1, centre of axial (q, r) at x = 1.5 q, y = sqrt(3) (r + q/2) (y grows
-- downwards, like the board). A hexside between adjacent hexes a and b is the segment of length 1 centred on
-- the midpoint of their centres, perpendicular to the line joining them; its ends are the vertices.
-- A line from centre dot to centre dot is BLOCKED if
--   * it passes closer than terrain.block_radius to the centre of an obstacle hex other than the firer's and
--     the target's (a stand-in for the printed woods/building artwork), or
--   * it runs along a hexside between two obstacle hexes, or
--   * it crosses or touches a wall/hedge hexside (its vertices included) that is not a hexside of the firer's
--     or the target's hex (B9.1: the K6-J6-K7 wall vertex of the A9.221 EX).
-- A Hindrance applies when the line passes through the interior of a Hindrance hex (not merely along one of its
-- hexsides: the A9.222 EX, D9.4) other than the target's; SMOKE in the firer's own hex applies too.
-- A wall/hedge that is a hexside of the target hex and is crossed by the line gives its TEM (B9.3).
-- Levels: every hex is Level 0 unless the scenario gives `level`; different levels are not modelled (an error).
local los = {}
local SQ3 = math.sqrt(3)
local EPS = 1e-6

local function D() return umpire.data end
local function hx(h) if type(h) == "string" then return umpire.hex.asl(h) end return h end
local function same(a, b) return a.q == b.q and a.r == b.r end

function los.centre(h) h = hx(h); return 1.5 * h.q, SQ3 * (h.r + h.q / 2) end

local function seg_point_dist(ax, ay, bx, by, px, py)
  local dx, dy = bx - ax, by - ay
  local l2 = dx * dx + dy * dy
  local t = l2 == 0 and 0 or ((px - ax) * dx + (py - ay) * dy) / l2
  t = math.max(0, math.min(1, t))
  local cx, cy = ax + t * dx, ay + t * dy
  return math.sqrt((px - cx) ^ 2 + (py - cy) ^ 2)
end

local function cross(ax, ay, bx, by) return ax * by - ay * bx end
-- do segments p1p2 and p3p4 intersect or touch?
local function seg_touch(x1, y1, x2, y2, x3, y3, x4, y4)
  if seg_point_dist(x1, y1, x2, y2, x3, y3) < EPS or seg_point_dist(x1, y1, x2, y2, x4, y4) < EPS
    or seg_point_dist(x3, y3, x4, y4, x1, y1) < EPS or seg_point_dist(x3, y3, x4, y4, x2, y2) < EPS then return true end
  local d1 = cross(x4 - x3, y4 - y3, x1 - x3, y1 - y3)
  local d2 = cross(x4 - x3, y4 - y3, x2 - x3, y2 - y3)
  local d3 = cross(x2 - x1, y2 - y1, x3 - x1, y3 - y1)
  local d4 = cross(x2 - x1, y2 - y1, x4 - x1, y4 - y1)
  return ((d1 > 0 and d2 < 0) or (d1 < 0 and d2 > 0)) and ((d3 > 0 and d4 < 0) or (d3 < 0 and d4 > 0))
end

--- The two vertices of the hexside between adjacent hexes a and b.
function los.hexside_ends(a, b)
  local ax, ay = los.centre(a)
  local bx, by = los.centre(b)
  local mx, my = (ax + bx) / 2, (ay + by) / 2
  local dx, dy = bx - ax, by - ay
  local l = math.sqrt(dx * dx + dy * dy)
  local ux, uy = -dy / l, dx / l
  return mx + 0.5 * ux, my + 0.5 * uy, mx - 0.5 * ux, my - 0.5 * uy
end

--- Build the map model from a scenario's `map`: {hexes = {K6 = "open" | {terrain =, level =}}, hexsides = {{"K6","J6", kind = "wall"}}}.
function los.map(m)
  local out = {hexes = {}, hexsides = {}}
  for name, v in pairs(m.hexes or {}) do
    local t = type(v) == "string" and {terrain = v} or v
    local ty = D().terrain.types[t.terrain]
    if not ty then error("map: unknown terrain '" .. tostring(t.terrain) .. "' in hex " .. name .. " (data/terrain.yaml)") end
    local h = hx(name)
    out.hexes[tostring(h)] = {hex = h, terrain = t.terrain, level = t.level or 0, type = ty}
  end
  for _, s in ipairs(m.hexsides or {}) do
    local a, b = hx(s.a or s[1]), hx(s.b or s[2])
    if umpire.hex.distance(a, b) ~= 1 then error("map: hexside " .. tostring(a) .. "-" .. tostring(b) .. " joins hexes that are not adjacent") end
    local ty = D().terrain.hexsides[s.kind]
    if not ty then error("map: unknown hexside kind '" .. tostring(s.kind) .. "' (data/terrain.yaml)") end
    out.hexsides[#out.hexsides + 1] = {a = a, b = b, kind = s.kind, type = ty}
  end
  return out
end

function los.hex_info(map, h)
  h = hx(h)
  return map.hexes[tostring(h)] or {hex = h, terrain = "open", level = 0, type = D().terrain.types.open}
end

--- Trace the line from the centre dot of `from` to the centre dot of `to`.
-- Returns {clear, blocked_by, hindrances = {{hex, terrain, value, lane}}, wall = hexside crossed into the target}.
function los.trace(map, from, to)
  from, to = hx(from), hx(to)
  local ax, ay = los.centre(from)
  local bx, by = los.centre(to)
  local br = D().terrain.block_radius or 0.6
  local out = {clear = true, hindrances = {}}
  local lf, lt = los.hex_info(map, from).level, los.hex_info(map, to).level
  if lf ~= lt then error("not implemented: LOS between different levels (A6; the A9 map model is same-level only)") end
  for _, info in pairs(map.hexes) do
    local h = info.hex
    if not same(h, from) and not same(h, to) then
      local cx, cy = los.centre(h)
      local d = seg_point_dist(ax, ay, bx, by, cx, cy)
      if info.type.blocks and d < br then
        out.clear = false
        out.blocked_by = tostring(h) .. " (" .. info.terrain .. ")"
        return out
      end
      if info.type.hindrance and d < SQ3 / 2 - EPS then
        out.hindrances[#out.hindrances + 1] = {hex = h, terrain = info.terrain, value = info.type.hindrance, lane = info.type.lane}
      end
    elseif same(h, from) and not same(h, to) and info.type.hindrance and info.terrain == "smoke" then
      out.hindrances[#out.hindrances + 1] = {hex = h, terrain = info.terrain, value = info.type.hindrance, lane = info.type.lane}
    end
  end
  -- along a hexside between two obstacle hexes
  for _, i1 in pairs(map.hexes) do
    if i1.type.blocks then
      for _, n in ipairs(umpire.hex.neighbours(i1.hex)) do
        local i2 = map.hexes[tostring(n)]
        if i2 and i2.type.blocks then
          local x1, y1, x2, y2 = los.hexside_ends(i1.hex, n)
          if seg_point_dist(ax, ay, bx, by, (x1 + x2) / 2, (y1 + y2) / 2) < EPS and
             seg_point_dist(ax, ay, bx, by, x1, y1) < EPS and seg_point_dist(ax, ay, bx, by, x2, y2) < EPS then
            out.clear = false
            out.blocked_by = "hexside " .. tostring(i1.hex) .. "-" .. tostring(n)
            return out
          end
        end
      end
    end
  end
  for _, s in ipairs(map.hexsides) do
    local x1, y1, x2, y2 = los.hexside_ends(s.a, s.b)
    local touches = seg_touch(ax, ay, bx, by, x1, y1, x2, y2)
    local of_target = same(s.a, to) or same(s.b, to)
    local of_firer = same(s.a, from) or same(s.b, from)
    if touches and not of_target and not of_firer and s.type.blocks then
      out.clear = false
      out.blocked_by = string.format("%s on hexside %s-%s", s.kind, tostring(s.a), tostring(s.b))
      return out
    end
    if touches and of_target and not of_firer then out.wall = s end
  end
  return out
end

--- Hexside TEM of a unit crossing hexside a-b (A8.15 Snap Shot at a wall/hedge).
function los.hexside_kind(map, a, b)
  a, b = hx(a), hx(b)
  for _, s in ipairs(map.hexsides) do
    if (same(s.a, a) and same(s.b, b)) or (same(s.a, b) and same(s.b, a)) then return s end
  end
  return nil
end

--- The TEM of a target in `to` fired on from `from`: the hex's terrain TEM or a wall/hedge crossed into it (not cumulative).
function los.tem(map, from, to, trace)
  trace = trace or los.trace(map, from, to)
  local info = los.hex_info(map, to)
  local tem, why = info.type.tem or 0, info.terrain
  if trace.wall and trace.wall.type.tem > tem then tem, why = trace.wall.type.tem, trace.wall.kind end
  return tem, why
end

--- Does hexside a-b lie along the line from the centre of p to the centre of q?
function los.hexside_on_line(a, b, p, q)
  local x1, y1, x2, y2 = los.hexside_ends(a, b)
  local ax, ay = los.centre(p)
  local bx, by = los.centre(q)
  return seg_point_dist(ax, ay, bx, by, x1, y1) < EPS and seg_point_dist(ax, ay, bx, by, x2, y2) < EPS
end

return los
