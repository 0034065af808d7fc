-- BA Shaped charge: "never suffer the -1 penetration modifier for firing at long range".
-- Applied in shooting.damage_vehicle (which cites "BA Shaped charge"); this module states it.
local SC = {}
function SC.long_range_pen_penalty(profile)
  if umpire.rules.weapons.has(profile, "shaped_charge") then
    umpire.cite("BA Shaped charge", profile.name .. ": no -1 Pen at long range")
    return 0
  end
  return umpire.data.core_rules.vehicles.long_range_pen
end
return SC
