-- geometry.nearest_each (one kernel call for a declare step) against geometry.nearest model by
-- model, over random models on a half-inch grid: touching bases and equal distances (ties) are
-- common; bases missing, numbers, or numeric strings, and facings that make geometry copy the
-- model (see as_kernel_model).
local G = umpire.rules.geometry

local seed = 18
local function rand(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end

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
