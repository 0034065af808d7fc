-- The shipped data loads and validates; validate() names the file and key of a bad entry.
local TB = umpire.rules.tables

local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end

local function data_copy()
  local d = {}
  for _, k in ipairs({ "to_hit", "hit_location", "cover", "equipment", "troops", "options" }) do d[k] = copy(umpire.data[k]) end
  return d
end

test("data: the shipped tables validate; every to-hit row is marked EXAMPLE", function()
  TB.validate(data_copy())
  for _, id in ipairs(TB.sorted_keys(umpire.data.to_hit.weapons)) do eq(umpire.data.to_hit.weapons[id].example, true, id) end
  eq(#umpire.data.cover.positions.standing_in_the_open.exposed, 6)
  eq(umpire.data.cover.positions.firing_port.exposed, { 1 })
end)

test("data: an unknown option value is named with its file", function()
  local d = data_copy()
  d.options.cover_check = "sometimes"
  raises(function() TB.validate(d) end, "data/options.yaml: cover_check")
end)

test("data: an automatic weapon needs a template size (SK Templates)", function()
  local d = data_copy()
  d.to_hit.weapons.lmg.template_in = nil
  raises(function() TB.validate(d) end, "weapons.lmg is automatic or explosive but has no template_in")
end)

test("data: range bands must grow", function()
  local d = data_copy()
  d.to_hit.weapons.rifle.bands[2].max_m = 10
  raises(function() TB.validate(d) end, "weapons.rifle.bands%[2%]")
end)

test("data: unknown weapons and equipment are errors, not silent zeros", function()
  raises(function() TB.weapon("raygun") end, "unknown weapon 'raygun'")
  raises(function() umpire.rules.figures.worn({ id = "x", equipment = { "chainmail" } }, "helmet") end, "unknown equipment 'chainmail'")
end)
