-- Issue 17 (rules fidelity, round 2), item 18: the EXAMPLE mark of the invented to-hit table is per row.
local R = umpire.rules.resolution

local function journal_has(pattern)
  for _, l in ipairs(umpire.journal.lines(1)) do if l:find(pattern) then return true end end
  return false
end

test("SK Range: the EXAMPLE flag is each row's own, not the file's (a replaced row un-marks only itself)", function()
  eq(umpire.data.to_hit.example, nil)
  for _, id in ipairs(umpire.rules.tables.sorted_keys(umpire.data.to_hit.weapons)) do
    eq(umpire.data.to_hit.weapons[id].example, true, id)
  end
  local a = { id = "a", side = "blue", equipment = {} }
  R.to_hit(a, "rifle", 100)
  ok(journal_has("EXAMPLE to%-hit table"))
end)
