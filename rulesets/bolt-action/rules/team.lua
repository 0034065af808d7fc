-- BA Team: crews of team weapons. Three kinds (unit.type): squad-based team weapons inside a
-- squad ("squad"), support teams ("support_team") and artillery ("artillery").
-- Model roles: firer (carries/fires the team weapon), loader (squad-based), crew.
local TM = {}
local RULE = "BA Team"
local function sr() return umpire.data.special_rules.team end
local function alive(unit) return umpire.rules.core.alive(unit) end

local function is_team_weapon(model)
  if not model.weapon then return false end
  return umpire.rules.weapons.has(umpire.rules.weapons.profile(model.weapon), "team")
end

-- The men serving the team weapon carried by `firer`.
function TM.crew(unit, firer)
  local G = umpire.rules.geometry
  local n = umpire.data.options.options.firer_counts_as_crew and 1 or 0
  if unit.type == "squad" then
    for _, m in ipairs(alive(unit)) do
      if m ~= firer and m.role == "loader" and (m.loader_for == nil or m.loader_for == firer.id) then
        local d = G.edge_distance(m, firer)
        if d <= sr().loader_distance + 1e-9 then
          n = n + 1
        else
          umpire.cite(RULE .. ": squad-based", ("loader %s is %.2f\" from %s, not within %d\""):format(m.id, d, firer.id, sr().loader_distance))
        end
      end
    end
  else
    for _, m in ipairs(alive(unit)) do
      if m ~= firer then n = n + 1 end
    end
  end
  return n
end

function TM.to_hit(m, unit, f)
  local crew = TM.crew(unit, f.model)
  if crew < sr().min_full_crew then
    local rule = unit.type == "squad" and RULE .. ": squad-based" or RULE
    m:add(sr().short_crew_to_hit, ("only %d crew"):format(crew), rule,
          "a minimum of two crew is always needed to fire at full effect")
  end
end

-- "When the team weapon is fired, the loader cannot fire his own personal weapon".
function TM.loaders_busy(unit, firers)
  if unit.type ~= "squad" then return end
  local team_firing = false
  for _, f in ipairs(firers) do if umpire.rules.weapons.has(f.profile, "team") then team_firing = true end end
  if not team_firing then return end
  for i = #firers, 1, -1 do
    if firers[i].model.role == "loader" then
      umpire.cite(RULE .. ": squad-based", firers[i].model.id .. " is loading the team weapon and does not fire his own weapon")
      table.remove(firers, i)
    end
  end
end

-- Remove the whole unit (and its spotter, BA Spotters).
function TM.destroy(unit, why)
  unit.destroyed = true
  for _, m in ipairs(unit.models) do m.removed = true end
  if unit.spotter and not unit.spotter.removed then
    unit.spotter.removed = true
    umpire.cite("BA Spotters", ("%s destroyed: its spotter %s is removed as well"):format(unit.id, unit.spotter.id))
  end
  umpire.cite(RULE, unit.id .. " destroyed: " .. why)
end

-- Default casualty choice (the owner chooses; this is a sensible order): ordinary men first,
-- then loaders, crew, NCOs, and the weapon's firer last.
local RANK = { [""] = 1, loader = 2, crew = 3, nco = 4, officer = 5, firer = 6 }

function TM.remove_casualties(unit, n, order, o)
  local victims = {}
  local pool = alive(unit)
  if order then
    for _, id in ipairs(order) do
      for _, m in ipairs(pool) do if m.id == id and not m.removed then victims[#victims + 1] = m end end
    end
  end
  local rest = {}
  for _, m in ipairs(pool) do
    local chosen = false
    for _, v in ipairs(victims) do if v == m then chosen = true end end
    if not chosen then rest[#rest + 1] = m end
  end
  table.sort(rest, function(a, b)
    local ra, rb = RANK[a.role or ""] or 1, RANK[b.role or ""] or 1
    if ra ~= rb then return ra < rb end
    return tostring(a.id) < tostring(b.id)
  end)
  for _, m in ipairs(rest) do victims[#victims + 1] = m end
  for i = 1, math.min(n, #victims) do
    if unit.destroyed then break end
    TM.remove(unit, victims[i])
  end
  if #alive(unit) == 0 and not unit.destroyed then TM.destroy(unit, "no models left") end
end

function TM.remove(unit, m)
  m.removed = true
  umpire.cite(umpire.rules.core.CITE, ("%s: %s removed as a casualty"):format(unit.id, m.id))
  if m.role == "firer" and is_team_weapon(m) then
    -- "Support Team Weapons ... with the following important exception": only support teams are out of
    -- action when the firer dies; artillery keeps the generic rule (fewer than two crew: -1 to hit)
    if unit.type == "support_team" then
      umpire.cite(RULE .. ": support", ("the model firing %s's team weapon is killed: the team is out of action"):format(unit.id))
      TM.destroy(unit, "firer of the support team weapon killed")
    elseif unit.type == "squad" then
      for _, x in ipairs(alive(unit)) do
        if x.role == "loader" then
          x.role = nil
          umpire.cite(RULE .. ": squad-based", ("%s's team weapon is lost: loader %s reverts to an ordinary member"):format(unit.id, x.id))
        end
      end
    end
  end
end

return TM
