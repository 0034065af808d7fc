-- afv_facing.lua: AFV Covered Arcs and Target Facing (D3.1-D3.2), the Bypass VCA / Target Facing
-- / TCA of D2.32-D2.321 and the Case A To Hit DRM for TCA changes (C5.1 as D2.321 applies it).
--
-- For a vehicle in a hex, Covered Arc and Target Facing are the kernel's (umpire.hex.in_covered_arc
-- and umpire.hex.target_facing, one boundary rule for everything: centres on a bounding hexspine
-- are inside, a shot along a hexspine takes the facing least favourable to the attacker). If the
-- kernel does not offer them (or rejects the call), vehicle_geometry's exact Lua versions of the
-- same rules are used; F.backend says which. Bypass geometry is always vehicle_geometry's.
local F = {}

local function G() return umpire.rules.vehicle_geometry end

local backend_note
-- Call umpire.hex.<fn_name> if the kernel offers it; nil (and a note) if not or if it fails.
local function kernel(fn_name, ...)
  local f = umpire.hex[fn_name]
  if type(f) ~= "function" then backend_note = "lua (umpire.hex." .. fn_name .. " missing)"; return nil end
  local ok, r = pcall(f, ...)
  if ok then backend_note = "kernel"; return r end
  backend_note = ("lua (umpire.hex.%s failed: %s)"):format(fn_name, tostring(r))
  return nil
end

--- Which implementation answered the last geometric question ("kernel" or "lua (...)").
function F.backend() return backend_note end

--- Facing of a hex-bound arc: the vertex direction k of the VCA (hull) or of the TCA (turret).
local function arc_heading(v, turret)
  if turret and type(v.tca) == "number" then return v.tca end
  return v.heading
end

-- The kernel's description of a Bypass: the Bypassed hex, its hexside straddled and the CAFP, as
-- direction names of that hex (umpire.hex.bypass_facing / in_bypass_vca).
local function kernel_bypass(v)
  local hex = G().hex(v.hex)
  local other = G().same(v.bypass.a, hex) and G().hex(v.bypass.b) or G().hex(v.bypass.a)
  local f = G().bypass_frame(hex, other, v.heading)
  return hex, G().hexside_names[f.side], G().vertex_names[f.front_corner]
end

--- D3.11 / D2.32: is `target` inside the vehicle's VCA (turret=true: TCA)? In Bypass the VCA is
-- the front wedge from the CAFP (D2.32).
function F.in_ca(v, target, turret)
  if v.bypass then
    local h, side, cafp = kernel_bypass(v)
    local r = kernel("in_bypass_vca", h, side, cafp, G().hex(target))
    if r ~= nil then return r end
    local f = G().bypass_frame(v.bypass.a, v.bypass.b, v.heading)
    return G().in_wedge(f.front_hex, v.heading - 1, v.heading, target)
  end
  local k = arc_heading(v, turret)
  local r = kernel("in_covered_arc", G().hex(v.hex), G().vertex_names[k], G().hex(target))
  if r ~= nil then return r end
  return G().in_ca_lua(v.hex, k, target)
end

--- D3.2 / D2.32: the Target Facing ("front" | "side" | "rear") a shot from `firer` strikes.
-- opts.turret: a turret/upper superstructure hit (uses the TCA); opts.colored_dr: the coloured
-- dr of the To Hit DR for fire from inside the target hex; opts.weapon: "ft"/"mol"/"dc" from the
-- same hex strike the rear, even vs Bypass vehicles.
function F.target_facing(v, firer, opts)
  opts = opts or {}
  -- D2.32/D2.37: fire FROM a vehicle in Bypass (opts.firer_vehicle) is traced from its CAFP, not from a hex
  -- centre. Vs a target in a hex: the Target Facing is the hexside sector that the line from the target's
  -- centre to the CAFP point crosses, a line along a hexspine taking the facing least favourable to the
  -- attacker (D3.2). D2.36: the Bypass firer occupies the Bypassed hex, so a shot into that hex is fire from
  -- within the target hex (coloured dr, below). Vs a target that is itself in Bypass, the CAFP may separate
  -- two of its Target Facings, which C.5B resolves; C.5B is not in the seeds.
  local fv = opts.firer_vehicle
  if opts.firer_cafp then error("not implemented: C.5B (a firer on a CAFP separating two Target Facings)", 2) end
  if fv and fv.bypass and v.bypass then
    error(("not implemented: D2.37/C.5B (fire from %s in Bypass at %s, also in Bypass: CAFP to CAFP)"):format(
      fv.name or fv.id or "a vehicle", v.name or v.id or "a vehicle"), 2)
  end
  if fv and fv.bypass and not G().same(fv.hex, v.hex) then
    local f = assert(G().bypass_frame(fv.bypass.a, fv.bypass.b, fv.heading))
    local function px(h) h = G().hex(h); return 1.5 * h.q, -math.sqrt(3) * (h.r + h.q / 2) end
    -- the CAFP vertex is the centre of the triangle of the three hex centres that meet at it
    local x, y = 0, 0
    for _, n in ipairs(f.cafp.hexes) do local a, b = px(n); x, y = x + a / 3, y + b / 3 end
    local tx, ty = px(v.hex)
    local k = arc_heading(v, opts.turret)
    local rel = (math.deg(math.atan2(y - ty, x - tx)) - 60 * k) % 360
    if rel > 180 then rel = rel - 360 end
    local off, eps = math.abs(rel), 1e-7
    local facing = (off <= 60 + eps) and "front" or ((off <= 120 + eps) and "side" or "rear")
    umpire.cite("D2.37", ("fire from %s in Bypass is traced from its CAFP %s: %s Target Facing of %s"):format(
      fv.name or fv.id or "the firer", tostring(f.cafp.id), facing, v.name or v.id or "the target"))
    return facing
  end
  if fv and fv.bypass then firer = fv.hex end
  local same = G().same(firer, v.hex)
  if same and (opts.weapon == "ft" or opts.weapon == "mol" or opts.weapon == "dc") then
    umpire.cite("D3.2", "FT/MOL/DC attack from within the same hex: Rear Target Facing")
    return "rear"
  end
  if v.bypass then
    if same then
      umpire.cite("D2.32", "a shot from the hex being Bypassed strikes the side Target Facing")
      return "side"
    end
    local f, side = G().bypass_facing(v.bypass.a, v.bypass.b, v.heading, firer)
    local h, hs, cafp = kernel_bypass(v)
    local r = kernel("bypass_facing", h, hs, cafp, G().hex(firer))
    if r ~= nil and r ~= f then
      error(("D2.32: kernel and Lua disagree on the Bypass Target Facing from %s: %s vs %s"):format(G().name(firer), tostring(r), f), 2)
    end
    return f, side
  end
  if same then
    local dr = opts.colored_dr or error("D3.2: fire from inside the target hex: give the coloured dr of the To Hit DR", 2)
    local f = (dr <= 2) and "rear" or ((dr <= 4) and "side" or "front")
    umpire.cite("D3.2", ("fire from within the target hex: coloured dr %d -> %s Target Facing"):format(dr, f))
    return f
  end
  local k = arc_heading(v, opts.turret)
  local r = kernel("target_facing", G().hex(v.hex), G().vertex_names[k], G().hex(firer))
  if r ~= nil then return r end
  return G().target_facing_lua(v.hex, k, firer)
end

--- D2.321: the Bypass TCA position a target lies in: "front", "rear", "side_left" or "side_right"
-- (the two sides are the two straddled hexes' sides).
function F.bypass_tca_position(v, target)
  local f, side = G().bypass_facing(v.bypass.a, v.bypass.b, v.heading, target)
  if f == "side" then return "side_" .. side end
  return f
end

local ORDER = { front = 0, side_left = 1, rear = 2, side_right = 3 }

--- C5.1 Case A DRM for turning `n` hexspines (or Bypass Target Facings) with a turret type.
function F.case_a(turret, n)
  if n <= 0 then return 0 end
  local t = umpire.data.vehicles.case_a[turret or "T"]
  if not t then error(("vehicles.yaml case_a: no Case A DRM for turret type %q"):format(tostring(turret)), 2) end
  return t.first + (n - 1) * t.each_further
end

--- D2.321: Case A To Hit DRM for a vehicle in Bypass firing its turret weapon at `target`.
-- opts.acquired: the weapon already has Target Acquisition on this target (or, for a CMG/IFE/
-- Canister, the same Known target in the same Target Facing as last fired on). Returns the DRM,
-- the new TCA position and a list of parts; also sets v.tca_bypass when opts.commit.
-- Counted in Target Facings moved, not hexsides: +Case A for the Target Facings turned, +1 more for
-- a change to or through a side Target Facing; firing within a side TCA at a new target pays the
-- Case A of one Target Facing even without a change.
function F.bypass_case_a(v, target, opts)
  opts = opts or {}
  assert(v.bypass, "bypass_case_a: the vehicle is not in Bypass")
  local from = v.tca_bypass or "front"
  local to = F.bypass_tca_position(v, target)
  local parts, drm = {}, 0
  if from == to then
    if to:sub(1, 4) == "side" and not opts.acquired then
      drm = F.case_a(v.turret, 1)
      parts[#parts + 1] = ("+%d [%s, new target within the enlarged side CA]"):format(drm, v.turret or "T")
    end
  else
    local d = math.abs(ORDER[to] - ORDER[from])
    local n = math.min(d, 4 - d)
    local ca = F.case_a(v.turret, n)
    drm = ca
    parts[#parts + 1] = ("+%d [%s TCA change of %d Target Facing%s]"):format(ca, v.turret or "T", n, n > 1 and "s" or "")
    -- "to or through a Bypass side Target Facing": ending on a side, or turning two Target Facings
    -- (front <-> rear passes a side). A change FROM a side to the adjacent front/rear is neither.
    if to:sub(1, 4) == "side" or n == 2 then
      drm = drm + 1
      parts[#parts + 1] = "+1 [TCA change to/through a Bypass side Target Facing]"
    end
  end
  if drm > 0 then
    umpire.cite("D2.321", ("Case A To Hit DRM vs %s (TCA %s -> %s): %s = +%d"):format(G().name(target), from, to, table.concat(parts, " "), drm))
  else
    umpire.cite("D2.321", ("no Case A To Hit DRM vs %s (TCA %s)%s"):format(G().name(target), to, opts.acquired and ", target already acquired" or ""))
  end
  if opts.commit ~= false then v.tca_bypass = to end
  return drm, to, parts
end

--- D2.38: the TEM a vehicle gets in its hex. In Bypass it is in the Open Ground portion of the hex:
-- no beneficial (positive) TEM of the woods/building it Bypasses [EXC: Residual FP, A8.2: opts.residual].
function F.tem(v, hex_tem, opts)
  opts = opts or {}
  if v.bypass and hex_tem > 0 then
    if opts.residual then
      umpire.cite("D2.38", ("%s in Bypass: Residual FP (A8.2) still gets the +%d TEM"):format(v.name or v.id, hex_tem))
      return hex_tem
    end
    umpire.cite("D2.38", ("%s in Bypass is in the Open Ground portion of %s: no +%d TEM"):format(v.name or v.id, tostring(v.hex), hex_tem))
    return 0
  end
  return hex_tem
end

--- D2.36: fire vs units embarking/disembarking from a Bypass vehicle is traced to its CAFP; the LOS
-- tracer works between hex centres, so this is refused rather than traced to the wrong point.
function F.embark_fire_point(v)
  if v.bypass then error(("not implemented: D2.36 (fire vs PRC embarking/disembarking %s is traced to CAFP %s)"):format(v.name or v.id, tostring(v.bypass.cafp)), 2) end
  return v.hex
end

--- D2.35: a vehicle in Bypass may not fire bow-mounted armament outside its current VCA.
function F.bow_may_fire(v, target)
  if v.bypass and not F.in_ca(v, target) then
    return false, "D2.35: a vehicle in Bypass may not fire bow-mounted armament outside its current VCA"
  end
  return true
end

return F
