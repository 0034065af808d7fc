-- BA Spotters. A spotter is unit.spotter (a single model kept apart from unit.models: "treated
-- entirely separately ... as if they were two units").
local SP = {}
local RULE = "BA Spotters"

function SP.alive(unit) return unit.spotter ~= nil and not unit.spotter.removed end

-- "Spotters can never assault or fire against enemy units."
function SP.check_firers(unit, firers)
  for _, f in ipairs(firers) do
    if f.model.role == "spotter" then
      error(("BA Spotters: %s is a spotter and can never fire against enemy units"):format(f.model.id), 0)
    end
  end
end

-- "During a turn either the weapon crew can be given an order or the spotter ... never both."
function SP.give_order(unit, who, turn)
  umpire.state.bolt_action = umpire.state.bolt_action or {}
  local s = umpire.state.bolt_action
  s.orders = s.orders or {}
  local k = tostring(unit.id) .. "@" .. tostring(turn)
  if s.orders[k] and s.orders[k] ~= who then
    error(("BA Spotters: %s's %s already has the order this turn; crew and spotter never both get one"):format(unit.id, s.orders[k]), 0)
  end
  s.orders[k] = who
  umpire.cite(RULE, ("%s: the %s takes the unit's order die this turn"):format(unit.id, who))
end

-- "a spotter that does not have an order die next to it always counts as Down".
function SP.is_down(unit, has_order_die)
  if not has_order_die then
    umpire.cite(RULE, unit.spotter.id .. " has no order die: counts as Down")
    return true
  end
  return unit.spotter.down == true
end

-- Regular or veteran crews see what their spotter sees.
function SP.sees_for_crew(unit, o)
  if not SP.alive(unit) then
    umpire.cite(RULE, unit.id .. " has no living spotter to guide its aim")
    return false
  end
  if unit.experience ~= "regular" and unit.experience ~= "veteran" then
    umpire.cite(RULE, unit.id .. " is " .. tostring(unit.experience) .. ": only veteran or regular crews see what their spotter sees")
    return false
  end
  if o.spotter_can_see then
    umpire.cite(RULE, ("%s's crew shoots at what spotter %s can see"):format(unit.id, unit.spotter.id))
    return true
  end
  return false
end

return SP
