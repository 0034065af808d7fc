-- BA Multiple launcher: counts as a heavy mortar, hits only on 6 (no ranging in); every enemy
-- unit within 6" of the original template is a target too; a friendly unit within 6" forbids the
-- shot; targets inside minimum range are missed; one to-hit roll per target unit.
local ML = {}
local RULE = "BA Multiple launcher"
local function sr() return umpire.data.special_rules.multiple_launcher end

-- Base-to-base distance from one model (or the template as a round base) to the nearest model of
-- `models` (math.huge if there is none): geometry.nearest_each, one kernel call for the list
-- instead of one a pair.
local function nearest(G, model, models) return G.nearest_each({ model }, models)[1] end

function ML.fire(shooter, f, o, res)
  local G, C, W = umpire.rules.geometry, umpire.rules.core, umpire.rules.weapons
  umpire.rules.indirect_fire.check_allowed(shooter, f, o)
  local row = W.he_row(f.profile.he)
  local target = f.target
  local centre = G.place_template(row.diameter, C.alive(target), {})
  if not centre then error("BA Multiple launcher: no template position on " .. target.id, 0) end
  -- The template as a round "base" so distances to it are measured edge to edge.
  local template = { x = centre.x, y = centre.y, base_mm = row.diameter * 25.4 }
  if not umpire.data.options.options.launcher_radius_from_template_edge then template.base_mm = 1e-3 end
  local targets = { target }
  for _, u in ipairs(o.world or {}) do
    if u ~= target and u ~= shooter and not u.destroyed then
      local d = nearest(G, template, C.alive(u))
      if d <= sr().radius + 1e-9 then
        if u.side == shooter.side then
          umpire.cite(RULE, ("friendly unit %s is within %d\" of the template: cannot fire, the shot is wasted"):format(u.id, sr().radius))
          res.wasted = true
          return
        end
        targets[#targets + 1] = u
        umpire.cite(RULE, ("%s is within %d\" of the original template: also a target"):format(u.id, sr().radius))
      end
    end
  end
  if shooter.side ~= nil then
    local d = nearest(G, template, C.alive(shooter))
    if d <= sr().radius then
      umpire.cite(RULE, "the firing unit itself is within 6\" of the template: cannot fire, the shot is wasted")
      res.wasted = true
      return
    end
  end
  local _, min_range = W.ranges(f.profile, "indirect")
  local hit_units = {}
  for _, u in ipairs(targets) do
    local cd = nearest(G, f.model, C.alive(u)) + (f.model.base_mm or 25) / 25.4 / 2
    if min_range and cd < min_range then
      umpire.cite(RULE, ("%s is within the minimum range (%d\"): missed automatically"):format(u.id, min_range))
    else
      local need = sr().to_hit
      umpire.cite(RULE, ("roll to hit %s: %d+, never better (no ranging in)"):format(u.id, need))
      if C.roll_pool(1, need, shooter.id .. " salvo at " .. u.id) > 0 then hit_units[#hit_units + 1] = u end
    end
  end
  res.hits = res.hits + #hit_units
  -- Measured again: the templates of a hit unit can remove models of the next (HE.templates).
  for _, u in ipairs(hit_units) do
    local g = { model = f.model, profile = f.profile, target = u, mode = "indirect", he_shot = true,
                distance = nearest(G, f.model, C.alive(u)), range = f.range }
    umpire.rules.he.resolve_hits(shooter, g, 1, o, res)
  end
end

return ML
