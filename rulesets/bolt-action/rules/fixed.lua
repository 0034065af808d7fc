-- BA Fixed (Diagram 8): front arc on a Fire order, rotate then fire on the move on Advance,
-- the normal 12" on Run.
local F = {}

local function sr() return umpire.data.special_rules.fixed end

-- The barrel's facing: the firing model's `facing`, else its unit's.
local function barrel(unit, model) return model.facing or unit.facing or 0 end

-- True if any model of `target` lies at least partially within the front arc.
function F.in_front_arc(unit, model, target)
  local G = umpire.rules.geometry
  local whole = umpire.data.options.options.fixed_arc_counts_base_edge
  for _, t in ipairs(umpire.rules.core.alive(target)) do
    if G.base_in_arc(model, barrel(unit, model), sr().front_arc_half_angle, t, whole) then return true end
  end
  return false
end

function F.check(unit, f, o)
  local half = sr().front_arc_half_angle
  if o.order == "fire" or o.order == "ambush" then
    if not F.in_front_arc(unit, f.model, f.target) then
      umpire.cite("BA Fixed", ("%s is outside the %d° front arc of %s: cannot be shot with a Fire order"):format(f.target.id, half, f.model.id))
      error(("BA Fixed: %s (%s) cannot target %s: outside its front arc (45° either side of the barrel); give it an Advance order to rotate"):format(f.model.id, f.profile.name, f.target.id), 0)
    end
    umpire.cite("BA Fixed", ("%s lies at least partially within the front arc of %s"):format(f.target.id, f.model.id))
  elseif o.order == "advance" then
    F.rotate(unit, f.model, f.target)
  end
end

-- Advance: "do not move from their position, but can instead be rotated on the spot".
function F.rotate(unit, model, target)
  local G = umpire.rules.geometry
  local alive = umpire.rules.core.alive(target)
  local _, nearest = G.nearest_each({ model }, alive)  -- one kernel call, not one a model
  local b = G.bearing(model, alive[nearest[1]])
  model.facing = b
  umpire.cite("BA Fixed", ("Advance: %s does not move, rotates to face %s (%.0f°)"):format(model.id, target.id, b))
  return b
end

-- True when this rule, not the core one, gives the fire-on-the-move penalty (shooting.lua then
-- skips the core modifier), so special_rules.fixed.advance_to_hit is the number that counts.
function F.replaces_move_penalty(o) return o.order == "advance" end

function F.to_hit(m, f, o)
  if o.order == "advance" then
    m:add(sr().advance_to_hit, "fire on the move (rotated on the spot)", "BA Fixed")
    umpire.cite("BA Fixed", ("%s rotated on an Advance order: fires with the normal %+d for fire on the move"):format(
      f.model.id, sr().advance_to_hit))
  end
end

-- Movement allowed for a fixed weapon under an order.
function F.move_distance(order)
  if order == "run" then
    umpire.cite("BA Fixed", ("Run: fixed weapons move the normal %d\""):format(sr().run_move))
    return sr().run_move
  elseif order == "advance" then
    umpire.cite("BA Fixed", "Advance: fixed weapons do not move, they may rotate on the spot")
    return 0
  end
  return 0
end

return F
