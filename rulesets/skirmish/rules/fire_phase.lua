-- The infantry fire phase, as a bus procedure.
--
--   sk.phase_start   {turn, figures}
--   sk.designate     {side, designations, earlier, figures, turn}   once per side, in designation
--                    order; a handler (a player, an AI script) appends designations
--                    {firer=, target=, weapon=, under=, red_zone=} to payload.designations and
--                    sees the other side's in payload.earlier
--   sk.can_see       {firer, target, seen}   a line-of-sight module may set seen = false
--   sk.designated    {designations}          all locked: only now are ranges measured
--   sk.measure       {designation, firer, target, range_m}   a handler may supply range_m
--   sk.fire_step     {step = "elite_first" | "main", designations}
--   sk.shot          {designation, firer, target, weapon, step}   cancel() to stop a shot; the
--                    engine's own handler (priority -100) resolves it, so a house rule at a
--                    higher priority runs first
--   sk.casualty      {figure, status, was, hit}
--   sk.phase_end     {turn, figures, removed}
--
-- fire_phase.run(o):
--   o.figures       list of figures (rules/figures.lua)
--   o.moved_first   the side that moved first this turn (it designates second)
--   o.designations  {[side] = {designation, ...}}: what each side designates (more may come from
--                   sk.designate handlers)
--   o.turn          turn number
-- Returns {order = {side, side}, designations = {...}, shots = {...}, removed = {ids}}.
local P = {}
local function F() return umpire.rules.figures end
local function T() return umpire.rules.tables end

-- ---------------------------------------------------------------- designation (SK Designation)

local function sides_of(figures)
  local sides, seen = {}, {}
  for _, f in ipairs(figures) do
    if f.side == nil then error(("figure '%s' has no side"):format(tostring(f.id)), 0) end
    if not seen[f.side] then seen[f.side] = true; sides[#sides + 1] = f.side end
  end
  return sides
end

-- "The side that moves first will designate fire second. The side that moves second will
-- designate fire first."
function P.designation_order(figures, moved_first)
  local sides = sides_of(figures)
  if #sides ~= 2 then
    error(("not implemented: SK Designation with %d sides (the text orders two: who moved first and who moved second)"):format(#sides), 0)
  end
  if moved_first ~= sides[1] and moved_first ~= sides[2] then
    error(("SK Designation: moved_first '%s' is not a side (%s, %s)"):format(tostring(moved_first), sides[1], sides[2]), 0)
  end
  local second = moved_first == sides[1] and sides[2] or sides[1]
  umpire.cite("SK Designation", ("%s moved second and designates first; %s moved first and designates second"):format(second, moved_first))
  return { second, moved_first }
end

local function check(d, side, by_id, used)
  local firer = by_id[d.firer] or error(("SK Designation: no figure '%s'"):format(tostring(d.firer)), 0)
  local target = by_id[d.target] or error(("SK Designation: no target figure '%s'"):format(tostring(d.target)), 0)
  if firer.side ~= side then error(("SK Designation: %s is not on side %s"):format(firer.id, side), 0) end
  if target.side == side then error(("SK Designation: %s fires at its own side's %s"):format(firer.id, target.id), 0) end
  if target.removed then error(("SK Designation: %s is no longer on the board"):format(target.id), 0) end
  local why = F().cannot_fire(firer)
  if why then error(("SK Designation: %s may not fire: it %s"):format(firer.id, why), 0) end
  local wid = d.weapon or (firer.weapons and firer.weapons[1])
  if not wid then error(("SK Designation: %s has no weapon"):format(firer.id), 0) end
  if firer.weapons then
    local carried = false
    for _, x in ipairs(firer.weapons) do if x == wid then carried = true end end
    if not carried then error(("SK Designation: %s does not carry a %s"):format(firer.id, wid), 0) end
  end
  T().weapon(wid)
  local key = umpire.data.options.one_weapon_per_figure and firer.id or (firer.id .. "/" .. wid)
  if used[key] then
    error(("SK Designation: %s already designated a target this phase (options.one_weapon_per_figure)"):format(firer.id), 0)
  end
  used[key] = true
  local ev = umpire.bus.emit("sk.can_see", { firer = firer, target = target, seen = not target.hidden })
  if not ev.payload.seen or ev.cancelled then
    error(("SK Designation: %s cannot see %s: infantry weapons may only be fired at targets that can be seen"):format(firer.id, target.id), 0)
  end
  return { firer = firer, target = target, weapon = wid, side = side, under = d.under,
           red_zone = d.red_zone, firer_above = d.firer_above, from_front = d.from_front, range_m = d.range_m }
end

function P.designate(o, by_id)
  local order = P.designation_order(o.figures, o.moved_first)
  local all, used = {}, {}
  for _, side in ipairs(order) do
    local list = {}
    for _, d in ipairs((o.designations or {})[side] or {}) do list[#list + 1] = d end
    local earlier = {}
    for i, d in ipairs(all) do earlier[i] = { firer = d.firer.id, target = d.target.id, weapon = d.weapon } end
    local ev = umpire.bus.emit("sk.designate", { side = side, designations = list, earlier = earlier, figures = o.figures, turn = o.turn })
    for _, d in ipairs(ev.payload.designations) do
      local c = check(d, side, by_id, used)
      c.seq = #all + 1
      all[#all + 1] = c
    end
    umpire.cite("SK Designation", ("%s designates %d target(s) at the beginning of the phase, before any range is measured"):format(side, #ev.payload.designations))
  end
  umpire.bus.emit("sk.designated", { designations = all })
  return all, order
end

-- ---------------------------------------------------------------- range (SK Range)

local function has_pos(f) return type(f.x) == "number" and type(f.y) == "number" end

-- "Measure the distance from the top of the head of the firer to the top of the head of the
-- target." Positions are table inches (options.metres_per_inch), heights metres.
function P.range(firer, target, d)
  local ev = umpire.bus.emit("sk.measure", { designation = d, firer = firer, target = target, range_m = nil })
  local r = ev.payload.range_m
  if r == nil and has_pos(firer) and has_pos(target) then
    local flat = umpire.table.distance(umpire.table.point(firer.x, firer.y), umpire.table.point(target.x, target.y))
      * umpire.data.options.metres_per_inch
    local dz = F().head_m(firer) - F().head_m(target)
    r = math.sqrt(flat * flat + dz * dz)
    umpire.cite("SK Range", ("%s to %s measured head to head after designation: %.1f m"):format(firer.id, target.id, r))
  elseif r == nil and d and d.range_m then
    r = d.range_m
    umpire.cite("SK Range", ("%s to %s measured after designation: %.1f m (given)"):format(firer.id, target.id, r))
  end
  if r == nil then
    error(("SK Range: no range from %s to %s: give both figures x, y or the designation a measured range_m"):format(firer.id, target.id), 0)
  end
  return r
end

-- ---------------------------------------------------------------- firing

function P.destroyed(f)
  local s = F().status(f)
  if s == "dead" or f.removed then return true end
  return s == "litter_case" and umpire.data.options.target_destroyed_when == "out_of_action"
end

local function from_front(firer, target, d)
  if d.from_front ~= nil then return d.from_front end
  if type(target.facing) == "number" and has_pos(firer) and has_pos(target) then
    return umpire.table.in_arc(umpire.table.point(target.x, target.y), target.facing,
      umpire.data.options.direct_front_half_angle, umpire.table.point(firer.x, firer.y))
  end
  return false
end

local function red_zone_for(d, t)
  local rz = d.red_zone
  if type(rz) == "table" then
    for _, id in ipairs(rz) do if id == t.id then return true end end
    return false
  end
  return rz and true or false
end

local function firer_above(firer, target, d)
  if d.firer_above ~= nil then return d.firer_above end
  return (firer.level_m or 0) > (target.level_m or 0)
end

-- One weapon's fire at its designated target (and, with a template, at the others under it).
local function fire_designation(d, step, o, by_id)
  local w = T().weapon(d.weapon)
  local rec = { firer = d.firer.id, target = d.target.id, weapon = d.weapon, step = step, results = {} }
  local target = d.target
  if P.destroyed(target) then
    umpire.cite("SK Designation", ("%s's %s was directed at %s, already destroyed: it is considered to have fired at it, with no additional effect"):format(d.firer.id, w.name, target.id))
    rec.wasted = true
    return rec
  end
  local targets = { target }
  if umpire.rules.templates.uses_template(w) then
    targets = umpire.rules.templates.targets(d, d.firer, target, w, o.figures, by_id)
  end
  for _, t in ipairs(targets) do
    if t ~= target and P.destroyed(t) then
      umpire.cite("SK Templates", t.id .. " under the template is already destroyed")
    else
      -- without positions, every figure under the template is at the measured range of the designation
      local range = P.range(d.firer, t, d)
      local ctx = { firer = d.firer, turn = o.turn, by_id = by_id, red_zone = red_zone_for(d, t),
                    firer_above = firer_above(d.firer, t, d), from_front = from_front(d.firer, t, d) }
      local r = umpire.rules.resolution.shot(d.firer, t, d.weapon, range, ctx)
      r.target, r.range_m = t.id, range
      rec.results[#rec.results + 1] = r
    end
  end
  return rec
end

-- The engine's resolution of sk.shot, at a low priority so that house rules run first.
-- The phase being run (its order and figure index), for the handler: kept out of the event
-- payload so that payloads stay plain data for the journal.
local current = nil

local function on_shot(ev)
  local p = ev.payload
  if ev.cancelled or p.record or not current then return end -- cancelled, or already resolved (a second copy after a reload)
  p.record = fire_designation(p.designation, p.step, current.o, current.by_id)
end

-- (a local, not a field of P: a module's table is fixed once its ruleset has loaded, host/ModuleGuard.hpp)
local installed = false
function P.install()
  if installed then return end
  installed = true
  umpire.bus.on("sk.shot", on_shot, { priority = -100 })
end

-- SK Elite: "Elite troops that are three levels above the 'target' troops fire first. Only the
-- survivors may return fire."
function P.fires_first(d)
  local margin = F().level(d.firer) - F().level(d.target)
  return margin >= umpire.data.troops.fire_first_margin, margin
end

local function run_step(step, list, o, by_id, shots, able)
  umpire.bus.emit("sk.fire_step", { step = step, designations = list })
  for _, d in ipairs(list) do
    local why = able and able[d.firer.id]
    if why then
      umpire.cite("SK Elite", ("%s %s after the elite fire: only the survivors may return fire"):format(d.firer.id, why))
      shots[#shots + 1] = { firer = d.firer.id, target = d.target.id, weapon = d.weapon, step = step, did_not_fire = why }
    else
      local ev = umpire.bus.emit("sk.shot", { designation = d, firer = d.firer, target = d.target, weapon = d.weapon,
                                              step = step })
      if ev.cancelled then
        umpire.note(("%s's shot at %s was cancelled by a handler"):format(d.firer.id, d.target.id))
      else
        local rec = ev.payload.record
        -- The handler is gone if the host cleared the bus after install() (a new game, a test):
        -- resolve here, the same way.
        if not rec then rec = fire_designation(d, step, o, by_id) end
        shots[#shots + 1] = rec
      end
    end
  end
end

function P.run(o)
  P.install()
  if type(o) ~= "table" or type(o.figures) ~= "table" then error("fire_phase.run: give {figures = {...}, moved_first = side}", 2) end
  local by_id = F().index(o.figures)
  umpire.bus.emit("sk.phase_start", { turn = o.turn, figures = o.figures })
  local designations, order = P.designate(o, by_id)
  current = { o = o, by_id = by_id }
  for _, d in ipairs(designations) do
    if d.range_m then umpire.note(("%s's range to %s is read only now, after designation"):format(d.firer.id, d.target.id)) end
  end
  local first, rest = {}, {}
  for _, d in ipairs(designations) do
    local yes, margin = P.fires_first(d)
    if yes then
      umpire.cite("SK Elite", ("%s is %d levels above %s: fires first"):format(d.firer.id, margin, d.target.id))
      first[#first + 1] = d
    else
      rest[#rest + 1] = d
    end
  end
  local shots = {}
  if #first > 0 then
    local okay, err = pcall(run_step, "elite_first", first, o, by_id, shots, nil)
    if not okay then current = nil; error(err, 0) end
  end
  -- Everyone else fires together: who may fire is settled before the main step, so a figure hit
  -- in it still fires (the dead are removed only at the end of the phase).
  local able = {}
  if #first > 0 then
    for _, d in ipairs(rest) do
      local why = F().cannot_fire(d.firer)
      if why then able[d.firer.id] = why end
    end
  end
  local okay, err = pcall(run_step, "main", rest, o, by_id, shots, able)
  current = nil
  if not okay then error(err, 0) end
  local removed = umpire.rules.casualties.end_of_phase(o.figures)
  umpire.bus.emit("sk.phase_end", { turn = o.turn, figures = o.figures, removed = removed })
  return { order = order, designations = designations, shots = shots, removed = removed }
end

-- SK Target Choice: "Infantry will usually shoot at the nearest appropriate target. This would be
-- targets that are in the open or targets that pose the greatest threat personally." A hint for
-- scripts that play a side: the nearest enemy in the open, else the nearest enemy (needs x, y).
function P.suggest_target(firer, figures)
  local best, best_open
  local bd, bo = math.huge, math.huge
  for _, f in ipairs(figures) do
    if f.side ~= firer.side and not f.removed and F().status(f) ~= "dead" and not f.hidden and has_pos(f) and has_pos(firer) then
      local dist = umpire.table.distance(umpire.table.point(firer.x, firer.y), umpire.table.point(f.x, f.y))
      if dist < bd then bd, best = dist, f end
      local open = (not f.cover or f.cover == "open")
      if open and dist < bo then bo, best_open = dist, f end
    end
  end
  local pick = best_open or best
  if pick then
    umpire.cite("SK Target Choice", ("%s: nearest appropriate target %s%s"):format(firer.id, pick.id, best_open and " (in the open)" or ""))
  end
  return pick
end

return P
