-- geometry.nearest_each (one kernel call for a declare step) against geometry.nearest model by
-- model, over random models on a half-inch grid: touching bases and equal distances (ties) are
-- common; bases missing, numbers, or numeric strings, and facings that make geometry copy the
-- model (see as_kernel_model).
local G = umpire.rules.geometry

-- The spec API's generator: the cases are the same on every run. rand(n) is 0 .. n - 1.
local draw = seeded_random(18)
local function rand(n) return draw(n) - 1 end

local function models(n)
  local out = {}
  for i = 1, n do
    local m = { id = "m" .. i, x = rand(13) * 0.5, y = rand(13) * 0.5 }
    local b = rand(4)
    if b == 1 then m.base_mm = 50 elseif b == 2 then m.base_mm = "25" elseif b == 3 then m.facing = "90" end
    out[i] = m
  end
  return out
end

test("geometry.nearest_each: the same distances and nearest models as geometry.nearest", function()
  local ties = 0
  for _ = 1, 300 do
    local shooters, targets = models(1 + rand(9)), models(rand(9))
    local d, k = G.nearest_each(shooters, targets)
    eq(#d, #shooters)
    for s, m in ipairs(shooters) do
      local best, bm = G.nearest(m, targets)
      eq(d[s], best)
      eq(k[s] and targets[k[s]], bm)
      local at_best = 0
      for _, t in ipairs(targets) do if G.edge_distance(m, t) == best then at_best = at_best + 1 end end
      if at_best > 1 then ties = ties + 1 end
    end
  end
  ok(ties > 50, "ties exercised: " .. ties)
end)

test("geometry.nearest_each: no targets, every model at math.huge", function()
  local d, k = G.nearest_each(models(3), {})
  eq(#d, 3)
  eq(d[1], math.huge)
  eq(d[3], math.huge)
  eq(k[1], nil)
end)

test("geometry.nearest_each: one model and one target (measured without the kernel's lists) as geometry.nearest", function()
  local touching = 0
  for _ = 1, 200 do
    local a, b = models(1), models(1)
    local d, k = G.nearest_each(a, b)
    local best, bm = G.nearest(a[1], b)
    eq(#d, 1)
    eq(d[1], best)
    eq(b[k[1]], bm)
    if best == 0 then touching = touching + 1 end
  end
  ok(touching > 3, "touching bases exercised: " .. touching)
end)

-- indirect_fire.target_moved measures every model of the target to the area in one call; the
-- rule, written out here pair by pair: "the entire unit must be at least 2" away from the area
-- that it was covering before".
test("indirect_fire.target_moved: moved exactly when every model is at least 2\" from every old position", function()
  local IF = umpire.rules.indirect_fire
  local limit = umpire.data.special_rules.indirect_fire.target_moved_inches
  local moved, stayed = 0, 0
  for _ = 1, 300 do
    local area, unit = models(1 + rand(6)), { id = "u", models = models(1 + rand(6)) }
    for _, m in ipairs(unit.models) do m.x, m.y = m.x + rand(5), m.y + rand(5) end
    if rand(4) == 0 then unit.models[1].removed = true end  -- a casualty is not on the table
    local expected = true
    for _, m in ipairs(unit.models) do
      if not m.removed then
        for _, p in ipairs(area) do
          if G.edge_distance(m, p) < limit - 1e-9 then expected = false end
        end
      end
    end
    eq(IF.target_moved(area, unit), expected)
    if expected then moved = moved + 1 else stayed = stayed + 1 end
  end
  ok(moved > 30 and stayed > 30, ("both answers exercised: %d moved, %d stayed"):format(moved, stayed))
end)
