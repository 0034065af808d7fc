-- House rule over asl's A9.72: a repair dr of 6 eliminates only a captured SW; any other SW stays malfunctioned.
-- Everything else is asl's module, reached through umpire.base (nothing is copied).
local base = umpire.base("sw_malfunction")
local house = setmetatable({}, {__index = base})

function house.repair(unit, sws, phase)
  local out = base.repair(unit, sws, phase)
  for _, r in ipairs(out) do
    if r.outcome == "eliminated" and not r.sw.captured then
      r.sw.removed = nil
      r.sw.malfunctioned = true
      r.outcome = "no change"
      umpire.cite("HOUSE-A9.72", (r.sw.name or "SW") .. ": repair dr 6 eliminates only a captured SW; it stays malfunctioned")
    end
  end
  return out
end

return house
