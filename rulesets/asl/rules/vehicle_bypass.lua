-- vehicle_bypass.lua: Vehicular Bypass Movement (D2.3-D2.38): which hexside a move would
-- traverse, whether VBM is allowed there (D2.31, D2.22), and whether the hexside interior is
-- clear of the obstacle (D2.3: measured only AFTER the move and its MP are announced).
local B = {}

local function G() return umpire.rules.vehicle_geometry end
local function T() return umpire.rules.vehicle_terrain end

--- The hexside (a, b) and heading a Bypass step would use, or an error citing the rule.
--   forward from a hex: the hexside joining the two front hexes, straight on from the VCA vertex;
--   reverse from a hex: only the hexside joining the two rear hexes (D2.22);
--   from a CAFP: only after a VCA change onto a connecting hexside (D2.33).
function B.route(v, reverse, want)
  local a, b, heading
  if v.bypass then
    if reverse then
      error("D2.33: a Bypassing vehicle reverses into the hex to its rear, not along another hexside", 3)
    end
    if not v.pending then
      error(("D2.33: at CAFP %s a vehicle must pay one MP to change its VCA onto a connecting hexside before continuing VBM (or enter %s)"):format(
        v.bypass.cafp, G().name(G().bypass_frame(v.bypass.a, v.bypass.b, v.heading).front_hex)), 3)
    end
    a, b, heading = G().hex(v.pending.a), G().hex(v.pending.b), v.pending.heading
  elseif reverse then
    local r = G().rear_hexes(v.hex, v.heading)
    a, b, heading = r[1], r[2], v.heading
  else
    local f = G().front_hexes(v.hex, v.heading)
    a, b, heading = f[1], f[2], v.heading
  end
  if want then
    local wa, wb = G().parse_hexside(want)
    if G().hexside_id(wa, wb) ~= G().hexside_id(a, b) then
      if reverse then
        error(("D2.22: the only hexside this Reverse Move may Bypass is %s (joining the two rear Target Facing hexes), not %s"):format(
          G().hexside_id(a, b), G().hexside_id(wa, wb)), 3)
      end
      error(("D2.33: VBM from here can only run along hexside %s, not %s"):format(G().hexside_id(a, b), G().hexside_id(wa, wb)), 3)
    end
  end
  return a, b, heading
end

--- Do hexsides a-b and c-d meet at a vertex?
function B.share_vertex(a, b, c, d)
  local seen, list = {}, {}
  for _, h in ipairs({ a, b, c, d }) do
    local n = G().name(h)
    if not seen[n] then seen[n] = true; list[#list + 1] = h end
  end
  if #list ~= 3 then return false end
  return (G().side_dir(list[1], list[2]) and G().side_dir(list[2], list[3]) and G().side_dir(list[1], list[3])) ~= nil
end

--- D2.31 and D2.3 second EX: may VBM bypass the obstacle in `hex` along hexside a-b? Returns
-- nil or the reason (an error to raise before anything is spent).
function B.restriction(v, hex, a, b)
  local name = G().name(hex)
  if name ~= G().name(a) and name ~= G().name(b) then
    return ("D2.3: %s is not on hexside %s"):format(name, G().hexside_id(a, b))
  end
  local rec, tname = T().hex(hex)
  if rec.rubble or tname == "rubble" then return ("D2.31: VBM is not allowed in rubble hex %s"):format(name) end
  if rec.blaze then return ("D2.31: VBM is not allowed in %s, which holds a ground-level Blaze"):format(name) end
  if not T().is_obstacle(hex) then
    return ("D2.31: VBM is allowed only in woods/building hexes; %s is %s"):format(name, tname)
  end
  local id = G().hexside_id(a, b)
  local m = umpire.state.vehicle_map
  -- a hexside connected directly to a roadblock hexside (B29.4): one sharing an end vertex with
  -- it, i.e. the two hexsides together touch exactly three mutually adjacent hexes.
  for rb in pairs(m.roadblocks) do
    local ra, rbb = G().parse_hexside(rb)
    if rb == id or B.share_vertex(a, b, ra, rbb) then
      return ("D2.31: VBM is not allowed across hexside %s, connected directly to roadblock hexside %s"):format(id, rb)
    end
  end
  if m.bypass_wrecks[id] then return ("D2.31: hexside %s already holds a Bypass wreck"):format(id) end
  for _, o in pairs(umpire.state.vehicles or {}) do
    if o.id ~= v.id and o.bypass and G().hexside_id(o.bypass.a, o.bypass.b) == id and not o.removed then
      return ("D2.31: hexside %s already holds Bypass vehicle %s"):format(id, o.id)
    end
  end
  return nil
end

--- D2.3: is the interior of hexside a-b clear of the obstacle depiction of `hex` (scenario data
-- `vbm_obstructed`)? Only measurable once the VBM and its MP are announced.
function B.clear(hex, a, b)
  return not umpire.state.vehicle_map.vbm_obstructed[G().name(hex) .. "@" .. G().hexside_id(a, b)]
end

--- Can the vehicle Bypass `hex` along hexside a-b from where it is (for planners and the
-- D2.33 EX "cannot attempt VBM in J2 along the J2-K2 hexside")? true, or false and the reason.
function B.can(v, hex, a, b)
  local why = B.restriction(v, hex, a, b)
  if why then return false, why end
  if not B.clear(hex, a, b) then
    return false, ("D2.3: hexside %s is too close to the obstacle depiction in %s"):format(G().hexside_id(a, b), G().name(hex))
  end
  return true
end

--- D2.32: the CAFP of a vehicle in Bypass (vertex id), and the Bypassed hex it occupies (D2.36).
function B.cafp(v)
  if not v.bypass then return nil end
  return G().bypass_frame(v.bypass.a, v.bypass.b, v.heading).cafp.id
end

return B
