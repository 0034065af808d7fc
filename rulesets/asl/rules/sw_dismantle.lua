-- sw_dismantle.lua: A9.8 dismantled (dm) SW.
local dm = {}
local function R() return umpire.rules end

--- May this weapon be dismantled? Light mortar <= 4 PP, 76-82mm mortar, or non-Russian HMG/MMG [EXC: Russian .50 cal].
function dm.eligible(w)
  if w.type == "MORTAR" then return (w.light and (w.pp or 99) <= 4) or (w.caliber_mm and w.caliber_mm >= 76 and w.caliber_mm <= 82) or false end
  if w.type == "MMG" or w.type == "HMG" then
    if w.nationality == "russian" then return w.caliber == ".50" end
    return true
  end
  return false
end

--- PP of a dm weapon: halved, fractions rounded up (FRU).
function dm.pp(w)
  if w.type == "MORTAR" and w.caliber_mm and w.caliber_mm >= 76 then return 5 end
  return w.dm_pp or math.ceil(w.pp / 2)
end

--- Convert to/from dm (PFPh/DFPh; not if marked with a Prep/First/Final Fire counter; counts as use of the SW incl.
-- all its ROF; only as many weapons as the unit could fire).
function dm.convert(unit, weapons, to_dm, phase)
  if phase ~= "PFPh" and phase ~= "DFPh" then error("A9.8: dm conversion only during a PFPh/DFPh") end
  if #weapons > R().mg_usage.capacity({unit}) then error("A9.8: a unit may assemble/disassemble only as many weapons as it could fire") end
  for _, w in ipairs(weapons) do
    if not dm.eligible(w) then error("A9.8: " .. w.name .. " cannot be dismantled") end
    if w.fire_counter then error("A9.8: " .. w.name .. " is marked with a " .. w.fire_counter .. " counter") end
    w.dismantled = to_dm
    w.used = true
    w.fire_counter = R().mg_rof.counter_for(phase)
    umpire.cite("A9.8", "%s %s by %s (counts as use of the SW incl. all ROF)%s", w.name,
      to_dm and "dismantled" or "assembled", unit.name, to_dm and string.format("; PP %d", dm.pp(w)) or "")
  end
end

--- A dm SW may not be fired until reassembled [EXC: a German dm HMG/MMG fires as a German LMG].
-- Returns the counter data the weapon fires as.
function dm.check_fire(w)
  if not w.dismantled then return w end
  if w.nationality == "german" and (w.type == "HMG" or w.type == "MMG") then
    local n = dm.fire_numbers(w)
    umpire.cite("A9.8", "%s is dm: fired as a German LMG (%d-%d, ROF %d, %s); if it malfunctions it gets a MG Malfunction counter",
      w.name, n.fp, n.range, n.rof or 0, n.B and ("B" .. n.B) or ("X" .. tostring(n.X)))
    return n
  end
  error("A9.8: " .. w.name .. " is dismantled and may not be fired until reassembled")
end

--- A9.8: the numbers a dm German HMG/MMG fires with "as a German LMG": the LMG counter's FP, range and ROF
-- (its ROF 1, not the MMG's), and its B# (options.dm_fire_as_breakdown = "lmg": the weapon is fired as that
-- counter, so it breaks down as that counter; "own_b" keeps the MG's printed B#/X#). Captured/owner/low ammo
-- stay the MG's own. Returns a table for breakdown.effective and mg_rof (name, fp, range, rof, B, X).
function dm.fire_numbers(w)
  if not w.dismantled then return w end
  local key = umpire.data.sw_mg.dm_fire_as[w.nationality]
  if not key or not (w.type == "HMG" or w.type == "MMG") then
    error("A9.8: " .. w.name .. " is dismantled and may not be fired until reassembled")
  end
  local lmg = umpire.data.sw_mg.counters[key]
  local out = {name = w.name, fp = lmg.fp, range = lmg.range, rof = lmg.rof, B = lmg.B, X = lmg.X, circled = lmg.circled}
  if umpire.data.options.dm_fire_as_breakdown == "own_b" then out.B, out.X, out.circled = w.B, w.X, w.circled end
  return out
end

return dm
