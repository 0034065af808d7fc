-- vehicle_movement.lua: a vehicle's MPh as a sequence of MP expenditures (D2.12-D2.7) that the
-- engine validates, prices and journals, with a Defensive First Fire opportunity on the bus after
-- each one (D3.3).
--
-- A vehicle is a plain table in umpire.state.vehicles[id] (hex names and numbers only, so it
-- saves and reloads): hex, heading (the vertex direction its VCA faces, see vehicle_geometry),
-- bypass = {a=, b=, cafp=} when straddling a hexside, pending (a Bypass VCA change not yet
-- followed by its VBM, D2.33), moving / direction (started, forward or reverse), motion (the
-- Motion counter), MP in HALF MP: mp_h (printed allotment), mp_spent_h, esb_h (gained by ESB).
--
-- Every step is validated on a copy and only then written back, so an illegal step raises an
-- error naming the rule and leaves the vehicle exactly as it was; move() does the same for a
-- whole plan. Steps (tables with `kind`):
--   start {reverse=}     D2.12/D2.23 (+ D2.51 Mechanical Reliability DR for red MP)
--   stop                 D2.13 (D2.6 enemy AFV hex)
--   delay {mp=}          D2.17, only while stopped
--   vca {turn=±n | to={x,y} | hexside=}   one MP per hexspine (D2.33 EX); in Bypass D2.33
--   tca {to=k}           D3.12: free with an MP expenditure, announced with it
--   enter {to=, declared_mp=, bu=, road=}   forward into a VCA hex (or the CAFP's front hex)
--   reverse {to=}        D2.2-D2.22 into a rear Target Facing hex, x the REV multiplier
--   bypass {hex=, hexside=}   D2.3 VBM (reverse=true for a Reverse Bypass, D2.22)
--   minimum_move {to=, reverse=}   D2.15 / D2.24
--   esb {mp=}            D2.5
local VM = {}

local function G() return umpire.rules.vehicle_geometry end
local function T() return umpire.rules.vehicle_terrain end
local function R() return umpire.rules.vehicle_reverse end
local function B() return umpire.rules.vehicle_bypass end
local function E() return umpire.rules.vehicle_esb end
local function Mo() return umpire.rules.vehicle_motion end
local function TD() return umpire.data.terrain_vehicle end

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local function restore(dst, src)
  for k in pairs(dst) do dst[k] = nil end
  for k, v in pairs(src) do dst[k] = copy(v) end
end

-- Raise a rule error at the caller of step()/move() (level 0: the message already says where).
local function fail(msg) error(msg, 0) end

--- Put a scenario's map and vehicles into the game state (scenarios/*.yaml).
function VM.setup(sc)
  if type(sc) == "string" then sc = umpire.data.scenario(sc) end
  T().load_map(sc.map)
  umpire.state.vehicles = {}
  local ids = {}
  for id in pairs(sc.vehicles or {}) do ids[#ids + 1] = id end
  table.sort(ids)  -- pairs order never changes a result
  for _, id in ipairs(ids) do VM.place(id, sc.vehicles[id]) end
  return umpire.state.vehicles
end

--- Place one vehicle: spec = {type=, side=, hex=, vca={x,y} | heading=, bypass={hex=, hexside=,
-- cafp=}, motion=, reverse_motion=, bu=, towing=}.
function VM.place(id, spec)
  local c = umpire.data.vehicles.vehicles[spec.type]
  if not c then error(("vehicles.yaml: no vehicle type %q (vehicle %s)"):format(tostring(spec.type), id), 2) end
  local v = { id = id, type = spec.type, name = c.name or spec.type, side = spec.side or "ATTACKER",
              mp_h = T().halves(c.mp, "vehicles.yaml " .. spec.type .. ".mp"), red_mp = c.red_mp or false,
              class = c.class, afv = c.afv or false, rev = c.rev, manufacturer = c.manufacturer or "other",
              turret = c.turret, towing = spec.towing or false, bu = spec.bu or false,
              motion = spec.motion or false, reverse_motion = spec.reverse_motion or false,
              mp_spent_h = 0, esb_h = 0, esb_used = false, moving = false, direction = "forward",
              immobile = false, entered_new = false, began_in_motion = false }
  if spec.bypass then
    local a, b = G().parse_hexside(spec.bypass.hexside)
    v.hex = G().name(spec.bypass.hex)
    v.bypass = { a = G().name(a), b = G().name(b) }
    -- the CAFP is given as the third hex at it (the base of the Bypass VCA)
    local j = G().side_dir(a, b)
    for _, k in ipairs({ (j + 2) % 6, (j - 1) % 6 }) do
      local f = G().bypass_frame(a, b, k)
      if G().same(f.front_hex, spec.bypass.front) then v.heading = k end
    end
    if not v.heading then error(("vehicle %s: bypass.front %s is not at an end of hexside %s"):format(id, tostring(spec.bypass.front), spec.bypass.hexside), 2) end
    v.bypass.cafp = G().bypass_frame(a, b, v.heading).cafp.id
  else
    v.hex = G().name(spec.hex)
    if spec.vca then v.heading = G().heading_from_vca(spec.hex, spec.vca[1], spec.vca[2])
    else v.heading = (spec.heading or 0) % 6 end
  end
  v.tca = spec.tca or v.heading
  umpire.state.vehicles = umpire.state.vehicles or {}
  umpire.state.vehicles[id] = v
  return v
end

function VM.vehicle(id)
  local v = type(id) == "table" and id or (umpire.state.vehicles or {})[id]
  if not v then error(("no vehicle %q"):format(tostring(id)), 3) end
  return v
end

--- The VCA of a vehicle as the rules name it: "FF4-GG5" in a hex; CAFP in Bypass.
function VM.vca_name(v)
  if v.bypass then return "CAFP " .. v.bypass.cafp end
  local f = G().front_hexes(v.hex, v.heading)
  local n = { G().name(f[1]), G().name(f[2]) }
  table.sort(n)  -- the rules write "FF4-GG5", "J1-K2"
  return n[1] .. "-" .. n[2]
end

--- Start of the vehicle's MPh (D2.4: a Motion vehicle needs no Starting MP; its counter goes).
function VM.begin_mph(id)
  local v = VM.vehicle(id)
  v.mp_spent_h, v.esb_h, v.esb_used = 0, 0, false
  v.began_in_motion = v.motion and not v.immobile
  v.moving = v.began_in_motion
  v.direction = v.reverse_motion and "reverse" or "forward"
  v.motion, v.reverse_motion = false, false
  v.entered_new, v.vca_changed, v.min_move, v.all_mp, v.stalled = false, false, false, false, false
  v.other_spent_h, v.pending, v.bounding_fire = 0, nil, nil
  if v.began_in_motion then
    umpire.cite("D2.4", ("%s begins its MPh in %s: no Starting MP; a moving target"):format(v.name, v.direction == "reverse" and "Reverse Motion" or "Motion"))
  end
  return v
end

local function remaining(v) return v.mp_h + v.esb_h - v.mp_spent_h end
VM.remaining_h = remaining

local function spend(v, h, rule, text, uncapped)
  if not uncapped and h > remaining(v) then
    fail(("%s: %s needs %s MP but only %s MP remain (ESB, D2.5, may gain more)"):format(rule, v.name, T().fmt(h), T().fmt(remaining(v))))
  end
  v.mp_spent_h = v.mp_spent_h + h
  return ("%s — %s MP spent, %s MP left"):format(text, T().fmt(v.mp_spent_h), T().fmt(math.max(remaining(v), 0)))
end

--- The MP (half MP, or "ALL") to enter a hex from where the vehicle is, in its current direction
-- (used by D2.4 to judge "insufficient MP to enter the next hex").
function VM.cost_to_enter(v, to)
  local c = T().entry_cost(v, v.hex, to)
  if c.h == "ALL" then return "ALL" end
  if v.direction == "reverse" then return c.h * R().multiplier(v) end
  return c.h
end

local function not_mobile(v)
  if v.immobile then fail(("D2.5: %s is immobilized"):format(v.name)) end
end

local function no_more_after_all(v, what)
  if v.all_mp then fail(("D2.7: after an ALL-MP entry only starting/stopping MP remain: no %s"):format(what)) end
  if v.min_move then fail(("D2.15: a Minimum Move is the vehicle's only move this MPh: no %s"):format(what)) end
end

-- The per-kind handlers work on a copy `v` and return (rule, text, dff_payload_extra).
local H = {}

function H.start(v, s)
  not_mobile(v)
  if v.moving then fail(("D2.12: %s is already moving (%s): stop before starting again"):format(v.name, v.direction)) end
  if v.stalled then fail("D2.15: a vehicle that stalled may not start again this Player Turn") end
  if s.reverse then
    local why = R().prohibited(v); if why then fail(why) end
  end
  v.moving, v.direction = true, s.reverse and "reverse" or "forward"
  local text = spend(v, TD().start_mp * 2, "D2.12", ("Start%s: %s MP"):format(s.reverse and " in Reverse (D2.23)" or "", T().fmt(TD().start_mp * 2)), v.all_mp)
  umpire.cite(s.reverse and "D2.23" or "D2.12", text)
  local need, rule = E().needs_reliability_dr(v)
  if need then
    local dr = umpire.dice.dr()
    if E().reliability_fails(dr) then
      v.immobile, v.moving = true, false
      umpire.cite(rule, ("Mechanical Reliability DR %d (%d,%d): mechanical breakdown, %s is immobilized"):format(dr.total, dr.colored, dr.white, v.name))
    else
      umpire.cite(rule, ("Mechanical Reliability DR %d (%d,%d): no breakdown"):format(dr.total, dr.colored, dr.white))
    end
  end
  return "D2.12"
end

function H.stop(v, s)
  if not v.moving then fail(("D2.13: %s is not moving"):format(v.name)) end
  if v.pending then fail("D2.33: a VBM vehicle that changed its VCA must move to the next CAFP or reverse into a new hex to its rear") end
  local bar = Mo().enemy_afv_bar(v, s)
  if bar then fail(("D2.6: %s cannot voluntarily stop in enemy AFV %s's hex %s"):format(v.name, bar.id, v.hex)) end
  v.moving = false
  -- D2.4: the Stopping MP must be there (even if only through ESB); D2.7: after an ALL-MP entry it
  -- is always available.
  umpire.cite("D2.13", spend(v, TD().stop_mp * 2, "D2.13", ("Stop: %s MP"):format(T().fmt(TD().stop_mp * 2)), v.all_mp))
  return "D2.13"
end

function H.delay(v, s)
  not_mobile(v)
  if v.moving then fail("D2.17: Delay (MP spent without moving) is allowed only while the vehicle is stopped") end
  local h = T().halves(s.mp or 1, "delay mp")
  umpire.cite("D2.17", spend(v, h, "D2.17", ("Delay: %s MP while stopped"):format(T().fmt(h))))
  v.other_spent_h = v.other_spent_h + h
  return "D2.17"
end

function H.tca(v, s)
  -- D3.12: a TCA change coincides with an MP expenditure; alone it is spent as Delay MP (D2.17 names
  -- "to change its TCA" as a use of Delay), doubled to 2 MP in a woods/building obstacle (not
  -- Bypassing it, not on a road) or rubble hex (C5.11).
  local to = s.to or s.tca
  if to == nil then fail("D3.12: a tca step names the new TCA: tca {to = k}") end
  if not v.turret or v.turret == "NT" then fail(("D3.12: %s has no turret: no TCA to change"):format(v.name)) end
  local rec, tname = T().hex(v.hex)
  local in_obstacle = (not v.bypass) and (T().terrain(tname).obstacle or rec.rubble) and not s.road
  local mp = math.max(s.mp or 1, in_obstacle and 2 or 1)
  H.delay(v, { mp = mp })
  v.tca = to % 6
  umpire.cite("D3.12", ("TCA changed to hexspine %d%s"):format(v.tca,
    in_obstacle and (" in a woods/building obstacle or rubble hex (" .. tostring(tname) .. "): MP doubled to " .. mp) or ""))
  return "D3.12"
end

function H.vca(v, s)
  not_mobile(v); no_more_after_all(v, "VCA change")
  if not v.moving then fail("D2.12: a stopped vehicle must spend a Starting MP before changing its VCA") end
  if v.min_move_declared then fail("D2.15: no VCA change in a MPh in which the vehicle attempts a Minimum Move") end
  local cost = TD().vca_change_mp * 2
  if v.bypass then
    -- D2.33: only onto a connecting hexside of the CAFP (one hexspine), then VBM along it.
    if v.stationary_bypass_shot then fail("D2.33: a vehicle in stationary Bypass cannot change its VCA to take a shot") end
    if v.pending then fail("D2.33: one VCA change at a CAFP; now move along the new hexside") end
    local f = G().bypass_frame(v.bypass.a, v.bypass.b, v.heading)
    local opts = G().other_hexsides_at(f.cafp, v.bypass.a, v.bypass.b)
    local pick
    if s.hexside then
      local a, b = G().parse_hexside(s.hexside)
      for _, o in ipairs(opts) do if o.id == G().hexside_id(a, b) then pick = o end end
      if not pick then
        local ids = {}
        for _, o in ipairs(opts) do ids[#ids + 1] = o.id end
        fail(("D2.33: at CAFP %s the VCA may only change to hexside %s, not %s"):format(f.cafp.id, table.concat(ids, " or "), G().hexside_id(a, b)))
      end
    else
      local want = (v.heading + (s.turn or 0)) % 6
      for _, o in ipairs(opts) do if o.heading == want then pick = o end end
      if not pick then fail("D2.33: a Bypass VCA change turns one hexspine onto a connecting hexside of the CAFP (give hexside=)") end
    end
    v.pending = { a = G().name(pick.a), b = G().name(pick.b), heading = pick.heading }
    v.vca_changed = true
    umpire.cite("D2.33", spend(v, cost, "D2.33", ("VCA change at CAFP %s to hexside %s: %s MP"):format(f.cafp.id, pick.id, T().fmt(cost))))
    return "D2.33"
  end
  local from = VM.vca_name(v)
  local n, new
  if s.to then
    new = G().heading_from_vca(v.hex, s.to[1], s.to[2])
    local d = (new - v.heading) % 6
    n = math.min(d, 6 - d)
  else
    n = math.abs(s.turn or 1)
    new = (v.heading + (s.turn or 1)) % 6
  end
  if n == 0 then fail("D2.11: that is the current VCA") end
  v.heading, v.vca_changed = new, true
  v.tca = s.tca or v.tca
  umpire.cite("D2.11", spend(v, n * cost, "D2.11", ("VCA change %s -> %s: %d hexspine%s, %s MP"):format(from, VM.vca_name(v), n, n > 1 and "s" or "", T().fmt(n * cost))))
  return "D2.11"
end

local function check_enter_direction(v, reverse)
  if not v.moving then fail(("D2.12: %s must spend a Starting MP first%s"):format(v.name, reverse and " (specifying Reverse, D2.23)" or "")) end
  if reverse and v.direction ~= "reverse" then
    fail("D2.23: switching from forward to Reverse Movement costs one MP to stop and another to start again (stop, then start{reverse=true})")
  end
  if not reverse and v.direction == "reverse" then
    fail("D2.23: switching from Reverse to forward movement costs one MP to stop and another to start again")
  end
  if reverse then local why = R().prohibited(v); if why then fail(why) end end
end

local function bog_event(v, cost, to)
  if cost.bog then
    umpire.cite("D8.21", ("Bog Check required on entering %s%s"):format(G().name(to), cost.bog.drm and (" with a +" .. cost.bog.drm .. " DRM") or ""))
    umpire.bus.emit("bog_check_required", { vehicle = v.id, hex = G().name(to), drm = cost.bog.drm, rule = "D8.21" })
  end
end

-- Outright entry (forward or reverse) of hex `to`.
local function enter(v, s, reverse)
  not_mobile(v); no_more_after_all(v, "further movement")
  check_enter_direction(v, reverse)
  local to = G().hex(s.to or fail("enter: give to="))
  if v.pending then fail("D2.33: after a VCA change in Bypass the vehicle must move to the next CAFP or reverse into a new hex to its rear") end
  if G().same(to, v.hex) then
    fail(("D2.33: a vehicle may not enter the obstacle of the hex it is Bypassing (%s): leave and re-enter"):format(v.hex))
  end
  local allowed, rule
  if reverse then
    allowed, rule = R().rear_hexes(v), "D2.22"
  elseif v.bypass then
    allowed, rule = { G().bypass_frame(v.bypass.a, v.bypass.b, v.heading).front_hex }, "D2.33"
  else
    allowed, rule = G().front_hexes(v.hex, v.heading), "D2.11"
  end
  local ok = false
  for _, h in ipairs(allowed) do if G().same(h, to) then ok = true end end
  if not ok then
    local names = {}
    for _, h in ipairs(allowed) do names[#names + 1] = G().name(h) end
    if reverse then
      fail(("D2.22: a hex entered by Reverse Movement must be one of the two rear Target Facing hexes %s, not %s"):format(table.concat(names, "/"), G().name(to)))
    end
    fail(("%s: %s may only enter %s from here (VCA %s), not %s"):format(rule, v.name, table.concat(names, " or "), VM.vca_name(v), G().name(to)))
  end
  if s.bu ~= nil then v.bu = s.bu end
  local c = T().entry_cost(v, v.hex, to, s)
  local text, h, cite
  if c.h == "ALL" then
    -- D2.7: all of the remaining movement capability; starting/stopping MP stay available.
    h = remaining(v)
    v.all_mp = true
    cite = "D2.7"
    text = ("Enter %s (ALL MP, %s): %s MP"):format(G().name(to), c.terrain, T().fmt(h))
  else
    h = c.h
    local formula = T().explain(c.parts, c.h)
    if reverse then
      local m, label = R().multiplier(v)
      h = m * c.h
      formula = ("%d [%s] x %s = %s"):format(m, label, formula, T().fmt(h))
      cite = "D2.21"
    else
      cite = c.road and "D2.16" or "D2.1"
    end
    if s.declared_mp then
      local d = T().halves(s.declared_mp, "declared_mp")
      if d < h then fail(("D2.18: may declare more than the minimum %s MP, not less (%s)"):format(T().fmt(h), T().fmt(d))) end
      if d > h then formula = formula .. (", declared %s (D2.18)"):format(T().fmt(d)) end
      h = d
    end
    text = ("%s %s%s: %s MP"):format(reverse and "Reverse into" or "Enter", G().name(to), c.road and " along the road" or "", formula)
  end
  text = spend(v, h, cite, text)
  if v.bypass then text = text .. (" (leaves CAFP %s)"):format(v.bypass.cafp) end
  v.hex, v.bypass, v.entered_new = G().name(to), nil, true
  v.other_spent_h = v.other_spent_h + h
  umpire.cite(cite, text)
  bog_event(v, c, to)
  return cite
end

function H.enter(v, s) return enter(v, s, v.direction == "reverse" and s.reverse ~= false) end
function H.reverse(v, s) return enter(v, s, true) end

function H.bypass(v, s)
  not_mobile(v); no_more_after_all(v, "further movement")
  local reverse = s.reverse or false
  if not reverse and v.direction == "reverse" and v.moving then reverse = true end
  check_enter_direction(v, reverse)
  local a, b, heading = B().route(v, reverse, s.hexside)
  local hex
  if s.hex then hex = G().hex(s.hex)
  else
    local cands = {}
    for _, h in ipairs({ a, b }) do if T().is_obstacle(h) then cands[#cands + 1] = h end end
    if #cands ~= 1 then fail(("D2.3: say which hex's obstacle to Bypass along %s (hex=)"):format(G().hexside_id(a, b))) end
    hex = cands[1]
  end
  local why = B().restriction(v, hex, a, b)
  if why then fail(why) end
  local c = T().bypass_cost(v, v.hex, hex)
  local h = c.h
  local formula = ("(%s) x 2 [VBM]"):format(T().explain(c.parts, c.inner))
  if #c.parts == 1 then formula = ("%s x 2 [VBM]"):format(c.parts[1].label) end
  if c.wreck > 0 then formula = formula .. " + " .. T().explain(c.extra, c.wreck) end
  formula = formula .. " = " .. T().fmt(h)
  local cite = "D2.3"
  if reverse then
    local m, label = R().multiplier(v)
    h = m * h
    formula = ("%d [%s] x %s = %s"):format(m, label, formula, T().fmt(h))
    cite = "D2.21"
  end
  if s.declared_mp then
    local d = T().halves(s.declared_mp, "declared_mp")
    if d < h then fail(("D2.18: may declare more than the minimum %s MP, not less"):format(T().fmt(h))) end
    h = d
  end
  local side = G().hexside_id(a, b)
  -- D2.3: the hexside clearance is measured only now, after the VBM and its MP are announced:
  -- if the hexside is obstructed the MP are spent where the vehicle is, plus one MP to stop.
  if not B().clear(hex, a, b) then
    local text = spend(v, h, cite, ("VBM of %s along %s announced: %s MP"):format(G().name(hex), side, formula))
    umpire.cite(cite, text)
    v.pending = nil
    v.moving = false
    umpire.cite("D2.3", spend(v, TD().stop_mp * 2, "D2.3", ("hexside %s is too close to the obstacle in %s: VBM not allowed; %s stops where it is: %s MP"):format(
      side, G().name(hex), v.name, T().fmt(TD().stop_mp * 2)), true))
    v.vbm_refused = side
    return "D2.3"
  end
  local text = spend(v, h, cite, ("VBM %sinto %s along hexside %s: %s MP"):format(reverse and "in Reverse " or "", G().name(hex), side, formula))
  v.hex = G().name(hex)
  v.bypass = { a = G().name(a), b = G().name(b) }
  v.heading = heading
  v.bypass.cafp = G().bypass_frame(a, b, heading).cafp.id
  v.pending, v.entered_new = nil, true
  v.other_spent_h = v.other_spent_h + h
  text = text .. ("; CAFP %s"):format(v.bypass.cafp)
  umpire.cite(cite, text)
  if reverse then umpire.cite("D2.22", ("Reverse Bypass only along the hexside joining the rear Target Facing hexes: %s"):format(side)) end
  return cite
end

function H.minimum_move(v, s)
  not_mobile(v)
  if v.stalled then fail("D2.15: a vehicle that stalled while attempting to start may not claim a Minimum Move") end
  if v.vca_changed then fail("D2.15: VCA change is prohibited in a MPh in which the vehicle attempts a Minimum Move") end
  if v.other_spent_h > 0 or v.entered_new then fail("D2.15: a Minimum Move is one hex per MPh, made instead of other movement") end
  local reverse = s.reverse or v.direction == "reverse"
  check_enter_direction(v, reverse)
  local to = G().hex(s.to)
  local allowed = reverse and R().rear_hexes(v) or (v.bypass and { G().bypass_frame(v.bypass.a, v.bypass.b, v.heading).front_hex } or G().front_hexes(v.hex, v.heading))
  local ok = false
  for _, h in ipairs(allowed) do if G().same(h, to) then ok = true end end
  if not ok then fail(reverse and "D2.22: a Reverse Minimum Move must enter a rear Target Facing hex" or "D2.15: a Minimum Move enters a hex of the vehicle's VCA") end
  local c = T().entry_cost(v, v.hex, to, s)
  local h = c.h
  if h == "ALL" then fail("D2.7: a Minimum Move is into permissible terrain with an MP cost") end
  if reverse then h = h * R().multiplier(v) end
  if h <= v.mp_h then
    fail(("D2.15: a Minimum Move is allowed only if the entry cost (%s MP) exceeds the printed MP allotment (%s)"):format(T().fmt(h), T().fmt(v.mp_h)))
  end
  -- all of the allotment, over and above any Starting MP already spent in the hex being exited
  local start_spent = v.mp_spent_h
  v.mp_spent_h = start_spent + v.mp_h
  v.hex, v.bypass, v.entered_new, v.min_move = G().name(to), nil, true, true
  umpire.cite(reverse and "D2.24" or "D2.15", ("%sMinimum Move into %s (entry cost %s MP > allotment %s): expends its whole %s MP allotment%s; it will end the MPh in %sMotion"):format(
    reverse and "Reverse " or "", G().name(to), T().fmt(h), T().fmt(v.mp_h), T().fmt(v.mp_h),
    start_spent > 0 and (" after " .. T().fmt(start_spent) .. " Starting MP") or "", reverse and "Reverse " or ""))
  bog_event(v, c, to)
  return "D2.15"
end

function H.esb(v, s)
  local sought = T().halves(s.mp or fail("esb: give mp="), "esb mp")
  local why = E().prohibited(v, sought)
  if why then fail(why) end
  local bar = Mo().enemy_afv_bar(v, s)
  if bar then fail(("D2.6: a vehicle barred from remaining in enemy AFV %s's hex may not attempt ESB there"):format(bar.id)) end
  local dr = umpire.dice.dr()
  local r = E().resolve(v, sought, dr)
  v.esb_used = true
  local parts = {}
  for _, p in ipairs(r.parts) do parts[#parts + 1] = p.label end
  if r.success then
    v.esb_h = v.esb_h + sought
    umpire.cite("D2.5", ("ESB for %s MP: DR %d %s = %d <= 11: gains %s MP (%s MP left)"):format(
      T().fmt(sought), dr.total, table.concat(parts, " "), r.final, T().fmt(sought), T().fmt(remaining(v))))
  else
    v.immobile, v.moving = true, false
    umpire.cite("D2.5", ("ESB for %s MP: DR %d %s = %d >= 12: %s is immobilized in %s%s"):format(
      T().fmt(sought), dr.total, table.concat(parts, " "), r.final, v.name, v.hex, v.bypass and (" on hexside " .. v.bypass.a .. "-" .. v.bypass.b) or ""))
  end
  return "D2.5", r
end

-- Position reported to the DEFENDER: during a pending Bypass VCA change the vehicle counts as at
-- the CAFP and Target Facing it occupied before the change (D2.33).
local function position(v)
  return { hex = v.hex, heading = v.heading, vca = VM.vca_name(v), cafp = v.bypass and v.bypass.cafp or nil,
           bypass = v.bypass and (v.bypass.a .. "-" .. v.bypass.b) or nil }
end

--- One MP expenditure (or ESB attempt). Validated on a copy; the vehicle is only changed if the
-- step is legal. Emits "defensive_first_fire_opportunity" after each step that spent MP (D3.3);
-- a handler may set payload.immobilized = true (e.g. a DFF result), which immobilizes it.
function VM.step(id, s)
  local v = VM.vehicle(id)
  local handler = H[s.kind]
  if not handler then error(("vehicle_movement: unknown step kind %q"):format(tostring(s.kind)), 2) end
  local w = copy(v)
  local before = w.mp_spent_h
  local ok, rule, extra = pcall(handler, w, s)
  if not ok then error(rule, 2) end
  if s.tca ~= nil and s.kind ~= "tca" then
    -- D3.12: a TCA change rides on the MP just spent; doubled in a woods/building obstacle or
    -- rubble hex (not Bypassing, not on a road): it then needs two MP.
    local spent = w.mp_spent_h - before
    local rec, tname = T().hex(w.hex)
    local in_obstacle = (not w.bypass) and (T().terrain(tname).obstacle or rec.rubble) and not (extra and extra.road)
    if in_obstacle and spent < 4 then
      error(("D3.12: a TCA change in a woods/building obstacle or rubble hex needs double the MP (2), %s spent"):format(T().fmt(spent)), 2)
    end
    w.tca = s.tca
  end
  restore(v, w)
  local spent = v.mp_spent_h - before
  if spent > 0 or s.kind == "esb" then
    local p = position(v)
    p.vehicle, p.step, p.rule = v.id, s.kind, rule
    p.mp = spent / 2
    p.mp_spent, p.mp_remaining = v.mp_spent_h / 2, remaining(v) / 2
    p.moving_target = Mo().is_moving_target(v)
    local ev = umpire.bus.emit("defensive_first_fire_opportunity", p)
    if ev and ev.payload and ev.payload.immobilized then
      v.immobile, v.moving = true, false
      umpire.cite("D3.3", ("%s immobilized by Defensive First Fire after its %s"):format(v.name, s.kind))
    end
  end
  return extra or rule
end

--- A whole move: all steps or none (the vehicle's state is restored if any step is illegal).
function VM.move(id, steps)
  local v = VM.vehicle(id)
  local snap = copy(v)
  local results = {}
  for i, s in ipairs(steps) do
    local ok, r = pcall(VM.step, id, s)
    if not ok then
      restore(v, snap)
      error(("step %d (%s): %s"):format(i, tostring(s.kind), tostring(r)), 2)
    end
    results[i] = r
    if v.immobile then break end
  end
  return results
end

--- End the MPh (D2.4): Motion, Reverse Motion, stopped or immobile. State unchanged on error.
function VM.end_mph(id, opts)
  local v = VM.vehicle(id)
  local w = copy(v)
  local ok, r = pcall(Mo().end_mph, w, opts)
  if not ok then error(r, 2) end
  restore(v, w)
  return r
end

VM.fmt = function(h) return T().fmt(h) end

--- `umpire draw SCENARIO --path`: each vehicle's `path` (a list of steps as VM.step takes them)
-- played by these rules from the scenario's set-up: an arrow for every hex entered, labelled with
-- what that step cost, and in each hex the MP spent when the vehicle last stood there (D2.1), so
-- VCA changes and other steps that stay in a hex show in its total.
umpire.hooks.on("draw", function(scenario, overlay)
  if not overlay.path or not scenario.vehicles then return end
  local ids = {}
  for id, spec in pairs(scenario.vehicles) do if spec.path then ids[#ids + 1] = id end end
  if #ids == 0 then return end
  table.sort(ids)
  VM.setup(scenario)
  for _, id in ipairs(ids) do
    local v = VM.begin_mph(id)
    local order, total = {}, {}
    for _, s in ipairs(scenario.vehicles[id].path) do
      local from, before = G().name(v.hex), v.mp_spent_h
      VM.step(id, s)
      local here = G().name(v.hex)
      if here ~= from then
        overlay.arrows[#overlay.arrows + 1] = {from = from, to = here, text = "+" .. VM.fmt(v.mp_spent_h - before) .. " MP"}
      end
      if not total[here] then order[#order + 1] = here end
      total[here] = VM.fmt(v.mp_spent_h)
    end
    for _, h in ipairs(order) do overlay.notes[#overlay.notes + 1] = {hex = h, text = total[h] .. " MP", colour = "#1f3b73"} end
  end
end)

return VM
