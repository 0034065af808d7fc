-- BA Assault: "This weapon suffers no penalty 'to hit' when moving and shooting. In addition,
-- infantry models armed with an assault weapon count as tough fighters."
local A = {}

-- Returns true (skip the fire-on-the-move penalty) and cites the rule when it matters.
function A.no_move_penalty(f, o)
  if o.order == "advance" then
    umpire.cite("BA Assault", f.model.id .. " (" .. f.profile.name .. "): no -1 to hit for moving and shooting")
  end
  return true
end

-- Close quarters is not part of this text; the rule only says who counts as a tough fighter.
function A.tough_fighter(model)
  if not model.weapon then return false end
  local p = umpire.rules.weapons.profile(model.weapon)
  if umpire.rules.weapons.has(p, "assault") then
    umpire.cite("BA Assault", model.id .. " (" .. p.name .. ") counts as a tough fighter")
    return true
  end
  return false
end

return A
