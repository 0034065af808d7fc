-- vehicle_geometry.lua: the hex geometry chapter D2/D3 needs beyond what docs/lua-api.md lists
-- for umpire.hex: headings, the vertex a vehicle faces, hexsides and their end vertices, the
-- two front / two rear hexes (D2.22), and the Bypass geometry of D2.32 (CAFP, the front and rear
-- wedges of a vehicle straddling a hexside). Everything is built on umpire.hex.asl / neighbours
-- / tostring and the axial fields q, r of a hex; normal Covered Arc and Target Facing go to the
-- kernel (umpire.hex.in_covered_arc / target_facing) when it offers them (see afv_facing.lua).
--
-- Directions. Hexes are flat-topped, rows numbered downwards, axial q = column, r grows south.
-- HEXSIDE direction j (0..5) points from a hex centre to its neighbour across hexside j, at
-- 30° + 60°·j anticlockwise from east: 0 NE, 1 N, 2 NW, 3 SW, 4 S, 5 SE.
-- VERTEX direction k (0..5) points from the centre to a corner at 60°·k: 0 E, 1 NE, 2 NW, 3 W,
-- 4 SW, 5 SE. Corner k lies between hexsides k-1 and k, so it is shared by h, h+s[k-1], h+s[k].
-- A vehicle "faces a vertex" (its VCA), so its heading is a vertex direction k; its two front
-- hexes are h+s[k-1] and h+s[k] (the VCA named "X-Y" in the rules), its two rear hexes
-- h+s[k+2] and h+s[k+3]. A vehicle moving straight keeps k; one VCA change turns k by ±1.
--
-- A hexside is named by the two hexes it joins ("K2-J1"). A vehicle in Bypass straddles a
-- hexside and faces along it: a hexside of a from b (b = a+s[j]) runs from corner j to corner
-- j+1 of a, i.e. in vertex direction j+2 (towards corner j+1) or j-1 (towards corner j). So a
-- Bypass state is (hexside, heading): the CAFP is the end the heading points at (D2.32).
local G = {}

local AX = { [0] = { 1, -1 }, { 0, -1 }, { -1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 0 } }
G.hexside_names = { [0] = "NE", "N", "NW", "SW", "S", "SE" }
G.vertex_names = { [0] = "E", "NE", "NW", "W", "SW", "SE" }

local function norm(k) return k % 6 end
G.norm = norm

--- A hex value from a name or a hex value.
function G.hex(h)
  if type(h) == "string" then return umpire.hex.asl(h) end
  return h
end

--- The ASL name of a hex (what tostring gives: the kernel decides whether the board is shown).
function G.name(h) return tostring(G.hex(h)) end

--- Two hexes (or names) are the same hex.
function G.same(a, b)
  a, b = G.hex(a), G.hex(b)
  return a.q == b.q and a.r == b.r
end

--- The neighbour of h across hexside j, or an error if it is off the map (D2: vehicles never
-- wrap around). The kernel's umpire.hex.neighbour(s) return off-map hexes too (a board-edge hex
-- still has six); only naming one (tostring) raises "map: hex (q,r) is off the map". So the
-- neighbour is named here, where the error can say which hex and direction were asked for.
function G.step(h, j)
  h = G.hex(h)
  local n = umpire.hex.neighbour(h, G.hexside_names[norm(j)])
  local ok, err = pcall(tostring, n)
  if ok then return n end
  error(("vehicle_geometry: no hex %s of %s (off the map: %s)"):format(G.hexside_names[norm(j)], G.name(h), tostring(err)), 2)
end

--- The hexside direction j with b = a + s[j], or nil if a and b are not adjacent.
function G.side_dir(a, b)
  a, b = G.hex(a), G.hex(b)
  local dq, dr = b.q - a.q, b.r - a.r
  for j = 0, 5 do if AX[j][1] == dq and AX[j][2] == dr then return j end end
  return nil
end

--- The two front hexes of a vehicle in h facing vertex k (the VCA "X-Y"), and the two rear hexes
-- (its rear vehicular Target Facing, D2.22).
function G.front_hexes(h, k) return { G.step(h, k - 1), G.step(h, k) } end
function G.rear_hexes(h, k) return { G.step(h, k + 2), G.step(h, k + 3) } end

--- The vertex direction k a vehicle in h faces when its VCA is named by the two hexes x, y.
function G.heading_from_vca(h, x, y)
  local jx, jy = G.side_dir(h, x), G.side_dir(h, y)
  if not jx or not jy then
    error(("VCA %s-%s: both hexes must be adjacent to %s"):format(G.name(x), G.name(y), G.name(h)), 2)
  end
  if norm(jx + 1) == jy then return jy end
  if norm(jy + 1) == jx then return jx end
  error(("VCA %s-%s: the two hexes must meet at a vertex of %s"):format(G.name(x), G.name(y), G.name(h)), 2)
end

--- A vertex as the sorted list of the names of the three hexes meeting there, and its id "A-B-C".
function G.vertex(h, k)
  h = G.hex(h)
  local names = { G.name(h), G.name(G.step(h, k - 1)), G.name(G.step(h, k)) }
  table.sort(names)
  return { hexes = names, id = table.concat(names, "-") }
end

--- A hexside id: the two hex names sorted, joined with "-".
function G.hexside_id(a, b)
  local x, y = G.name(a), G.name(b)
  if x > y then x, y = y, x end
  return x .. "-" .. y
end

--- Parse "K2-J1" into two hex values. Board prefixes ("2FF6-2EE6") are the kernel's to read.
function G.parse_hexside(s)
  if type(s) == "table" then return G.hex(s[1]), G.hex(s[2]) end
  local a, b = s:match("^%s*([^%s%-]+)%s*%-%s*([^%s%-]+)%s*$")
  if not a then error(("bad hexside %q (want e.g. \"K2-J1\")"):format(tostring(s)), 2) end
  return G.hex(a), G.hex(b)
end

--- Is a vertex (list of hex names) an end of hexside a-b?
function G.vertex_has(v, h)
  local n = G.name(h)
  for _, x in ipairs(v.hexes) do if x == n then return true end end
  return false
end

--- Bypass geometry for a vehicle straddling hexside a-b with heading k: returns
-- { cafp = vertex, rear = vertex, front_hex = hex, rear_hex = hex } or nil plus a reason when
-- the heading does not run along that hexside. The front hex is the third hex at the CAFP (the
-- base of the Bypass VCA, D2.32/D2.33), the rear hex the third hex at the other end.
function G.bypass_frame(a, b, k)
  a, b = G.hex(a), G.hex(b)
  local j = G.side_dir(a, b)
  if not j then return nil, ("%s and %s are not adjacent"):format(G.name(a), G.name(b)) end
  k = norm(k)
  local front_corner, rear_corner
  if k == norm(j + 2) then front_corner, rear_corner = j + 1, j
  elseif k == norm(j - 1) then front_corner, rear_corner = j, j + 1
  else return nil, ("heading %s does not run along hexside %s"):format(G.vertex_names[k], G.hexside_id(a, b)) end
  local cafp, rear = G.vertex(a, front_corner), G.vertex(a, rear_corner)
  local function third(v)
    for _, n in ipairs(v.hexes) do
      if n ~= G.name(a) and n ~= G.name(b) then return G.hex(n) end
    end
  end
  return { cafp = cafp, rear = rear, front_hex = third(cafp), rear_hex = third(rear), heading = k,
           front_corner = norm(front_corner), rear_corner = norm(rear_corner), side = j }
end

--- The hexsides meeting at a vertex other than a-b (the two a Bypass VCA change may turn onto,
-- D2.33), each with the heading that leads away from the vertex along it.
function G.other_hexsides_at(v, a, b)
  local out = {}
  local names = v.hexes
  for i = 1, 3 do
    for jj = i + 1, 3 do
      local x, y = names[i], names[jj]
      if G.hexside_id(x, y) ~= G.hexside_id(a, b) then
        -- the heading along x-y pointing away from v
        local j = G.side_dir(x, y)
        for _, k in ipairs({ norm(j + 2), norm(j - 1) }) do
          local f = G.bypass_frame(x, y, k)
          if f and f.rear.id == v.id then
            out[#out + 1] = { a = G.hex(x), b = G.hex(y), heading = k, id = G.hexside_id(x, y) }
          end
        end
      end
    end
  end
  return out
end

--- Axial solve: is t = apex + a·s[j1] + b·s[j2] with a, b >= 0 (the wedge of hexes between the two
-- hex rows that start at apex along j1 and j2, rows included)? j1, j2 adjacent directions.
function G.in_wedge(apex, j1, j2, t)
  apex, t = G.hex(apex), G.hex(t)
  local dq, dr = t.q - apex.q, t.r - apex.r
  local u, v = AX[norm(j1)], AX[norm(j2)]
  local det = u[1] * v[2] - u[2] * v[1]  -- ±1 for adjacent directions
  local a = (dq * v[2] - dr * v[1]) / det
  local b = (u[1] * dr - u[2] * dq) / det
  return a >= 0 and b >= 0
end

--- D2.32: Target Facing of a vehicle in Bypass by the hex the shot comes from: front if the
-- firer is in the front wedge (the hex in front of the CAFP and the two diagonal rows that
-- converge on it, and all between), rear if in the mirror wedge behind, else side. `side_hex`
-- says which of the two straddled hexes' sides ("a" or "b") a side shot comes from, for the
-- Bypass TCA (D2.321). Fire from the Bypassed hex itself strikes the side (D2.32 EX in the text).
function G.bypass_facing(a, b, k, firer)
  local f = assert(G.bypass_frame(a, b, k))
  firer = G.hex(firer)
  if G.in_wedge(f.front_hex, k - 1, k, firer) then return "front" end
  if G.in_wedge(f.rear_hex, k + 2, k + 3, firer) then return "rear" end
  -- which side: sign of the cross product of the heading with (firer - hexside midpoint)
  local function px(h) h = G.hex(h); return 1.5 * h.q, -math.sqrt(3) * (h.r + h.q / 2) end
  local ax, ay = px(a); local bx, by = px(b); local fx, fy = px(firer)
  local mx, my = (ax + bx) / 2, (ay + by) / 2
  local hx, hy = math.cos(math.rad(60 * k)), math.sin(math.rad(60 * k))
  local cross = hx * (fy - my) - hy * (fx - mx)
  return "side", (cross > 0) and "left" or "right"
end

--- Lua fallback of C3.2/D3.2 for a vehicle in h facing k (used when the kernel lacks
-- target_facing): the hexside whose sector holds the line from the target to the firer; on a
-- hexspine (two sectors) the facing least favourable to the attacker (front > side > rear).
-- Exact: in cube coordinates the sector is given by the component of least magnitude.
local CUBE = { [0] = { 1, 0, -1 }, { 0, 1, -1 }, { -1, 1, 0 }, { -1, 0, 1 }, { 0, -1, 1 }, { 1, -1, 0 } }
local function sign(x) return x > 0 and 1 or (x < 0 and -1 or 0) end
function G.sides_crossed(target, firer)
  target, firer = G.hex(target), G.hex(firer)
  local dq, dr = firer.q - target.q, firer.r - target.r
  local c = { dq, -dq - dr, dr }
  local m = math.min(math.abs(c[1]), math.abs(c[2]), math.abs(c[3]))
  local out = {}
  for i = 1, 3 do
    if math.abs(c[i]) == m then
      local d = { sign(c[1]), sign(c[2]), sign(c[3]) }
      d[i] = 0
      for j = 0, 5 do
        if CUBE[j][1] == d[1] and CUBE[j][2] == d[2] and CUBE[j][3] == d[3] then out[#out + 1] = j end
      end
    end
  end
  return out
end

function G.facing_of_side(j, k)
  local rel = norm(j - k)
  if rel == 5 or rel == 0 then return "front" end   -- hexsides k-1 and k
  if rel == 2 or rel == 3 then return "rear" end    -- hexsides k+2 and k+3
  return "side"
end

local RANK = { front = 3, side = 2, rear = 1 }
function G.target_facing_lua(target, k, firer)
  if G.same(target, firer) then error("D3.2: fire from inside the target hex uses the coloured dr", 2) end
  local best
  for _, j in ipairs(G.sides_crossed(target, firer)) do
    local f = G.facing_of_side(j, k)
    if not best or RANK[f] > RANK[best] then best = f end
  end
  return best
end

function G.in_ca_lua(origin, k, target)
  if G.same(origin, target) then return true end
  for _, j in ipairs(G.sides_crossed(origin, target)) do
    if G.facing_of_side(j, k) == "front" then return true end
  end
  return false
end

return G
