-- The core shooting numbers the weapon rules modify. They are NOT in seed 003 (see
-- data/core_rules.yaml); every use cites "BA core (not in seed)".
local C = {}
local CORE = "BA core (not in seed)"
C.CITE = CORE

local function cr() return umpire.data.core_rules end

function C.alive(unit)
  local out = {}
  for _, m in ipairs(unit.models) do if not m.removed then out[#out + 1] = m end end
  return out
end

-- Roll `n` dice needing `need`+ on a d6, with the 7+ rule (a 6, then a second die). Returns hits.
-- The dice go through umpire.dice.count so the odds engine folds them (n+1 branches).
function C.roll_pool(n, need, what)
  if n <= 0 then return 0 end
  local natural_one = cr().to_hit.natural_one_misses
  if need < 2 and natural_one then need = 2 end
  if need < 1 then need = 1 end
  if need <= 6 then
    local hits = umpire.dice.count(n, 6, need)
    umpire.cite(CORE, ("%s: %d dice needing %d+: %d"):format(what, n, need, hits))
    return hits
  end
  -- quoted keys in data/core_rules.yaml: strings
  local second = cr().to_hit.beyond_six[tostring(need)]
  if not second then
    umpire.cite(CORE, ("%s: needs %d+, impossible"):format(what, need))
    return 0
  end
  local sixes = umpire.dice.count(n, 6, 6)
  -- no 6, no second die (issue 17 item 14): umpire.dice.count(0, ...) is 0 since the kernel fix, so
  -- the guard only keeps an empty roll out of the journal
  local hits = sixes > 0 and umpire.dice.count(sixes, 6, second) or 0
  umpire.cite(CORE, ("%s: needs %d+ = a 6 (%d of %d) then %d+: %d"):format(what, need, sixes, n, second, hits))
  return hits
end

-- Base to-hit pipeline for one firing model: returns the modifier pipeline (caller adds the
-- special-rule modifiers) and a function giving the score needed.
function C.to_hit_modifiers(shooter, firer, target, distance, range, order, skip)
  skip = skip or {}
  local t = cr().to_hit
  local m = umpire.bus.modifiers("to hit")
  if distance <= t.point_blank_range then m:add(t.point_blank, "point blank", CORE) end
  if distance > range / 2 then m:add(t.long_range, "long range", CORE) end
  if order == "advance" and not skip.moving then m:add(t.moving, "fire on the move", CORE) end
  if (shooter.pins or 0) > 0 then m:add(t.per_pin * shooter.pins, shooter.pins .. " pins", CORE) end
  if shooter.experience == "inexperienced" then m:add(t.inexperienced, "inexperienced", CORE) end
  if not skip.cover then
    if target.cover == "soft" then m:add(t.soft_cover, "soft cover", CORE)
    elseif target.cover == "hard" then m:add(t.hard_cover, "hard cover", CORE) end
  end
  if target.down and not skip.down then m:add(t.target_down, "target Down", CORE) end
  return m
end

function C.need(m) return cr().to_hit.base - m:total() end

function C.damage_value(unit)
  local v = cr().damage[unit.experience or "regular"]
  if not v then error("unit '" .. tostring(unit.id) .. "': unknown experience '" .. tostring(unit.experience) .. "'", 2) end
  return v
end

function C.morale_check(unit, why)
  local base = cr().morale[unit.experience or "regular"]
  local value = base + cr().morale.per_pin * (unit.pins or 0)
  local roll = umpire.dice.roll("2d6")
  local passed = roll <= value
  umpire.cite(CORE, ("%s morale check: 2D6 %d vs %d (%d - %d pins): %s"):format(
    why, roll, value, base, unit.pins or 0, passed and "passed" or "failed"))
  return passed, roll
end

-- Vehicle damage results row for a total.
function C.vehicle_result(total)
  local rows = cr().vehicles.damage_results
  local last = rows[#rows]
  for _, r in ipairs(rows) do if r.roll == total then return r.result end end
  if total > last.roll then return last.result end
  return rows[1].result
end

return C
