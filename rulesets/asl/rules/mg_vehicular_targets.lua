-- mg_vehicular_targets.lua: A9.6 vehicular targets, A9.61 AFV To Kill attacks, A9.611 effect vs Personnel.
-- To Hit and Kill numbers are inputs (the To Hit Table and AFV Kill Table are outside A9).
local vt = {}
local function R() return umpire.rules end

--- A9.6: how a MG attack on a vehicle is resolved. facing = {armored = bool}.
function vt.method(mg, facing)
  if facing.armored then
    umpire.cite("A9.6", "armored Target Facing: resolved on the AFV Kill Table after a hit on the To Hit Table")
    if not mg.captured then umpire.cite("A9.6", "a non-captured MG To Hit DR uses the black To Hit numbers regardless of nationality") end
    return "to_hit_then_kill"
  end
  umpire.cite("A9.6", "unarmored Target Facing: resolved on the * Vehicle line of the IFT; no To Hit DR")
  return "vehicle_line"
end

--- The * Vehicle line number for an FP (one per IFT column).
function vt.vehicle_line(fp)
  local col = R().ift.column(fp)
  local cols = umpire.data.ift.columns
  for i, c in ipairs(cols) do if c == col then return umpire.data.ift.vehicle_line[i] end end
  error("A9.6: " .. tostring(fp) .. " FP is below the 1 column")
end

local function kill_result(dr_total, kill, label)
  local r
  if dr_total < kill then
    r = dr_total < kill / 2 and "eliminated (burning)" or "eliminated"
  elseif dr_total == kill then
    r = "stunned"
  else
    r = "no effect"
  end
  umpire.cite("A9.61", "%s: To Kill DR %d vs Final Kill Number %s: %s", label, dr_total, tostring(kill), r)
  return r
end

--- A9.61: a MG/IFE AFV To Kill attack. spec = {mg, alone = bool, range, halved = bool, predesignated = bool,
-- to_hit = number (Final To Hit number), facing = {armored, kill = Final Kill Number}, to_hit_dr, kill_dr}
function vt.to_kill(spec)
  local mg = spec.mg
  if not spec.alone then error("A9.61: a MG To Kill attack is made alone, not as part of a FG") end
  if spec.range > mg.range then error("A9.61: a MG To Kill attack must be within the MG's Normal Range") end
  if spec.halved then error("A9.61: a MG To Kill attack cannot have any form of halved FP penalty") end
  if not spec.predesignated then error("A9.61: a MG To Kill attack must be predesignated vs a specific AFV") end
  umpire.cite("A9.61", mg.name .. " makes an AFV To Kill attack (Vehicle Target Type)")
  local thd = spec.to_hit_dr or umpire.dice.dr()
  local out = {to_hit_dr = thd}
  -- A9.7: a SW malfunctions on its To Hit DR when firing as ordnance
  out.malfunction = R().sw_malfunction.check(mg, thd, {})
  if thd.total >= spec.to_hit then
    -- a hit needs a Final To Hit DR below the To Hit number (C3)
    umpire.cite("C3", "To Hit DR %d vs To Hit number %d: miss", thd.total, spec.to_hit)
    out.hit = false
    return out
  end
  umpire.cite("C3", "To Hit DR %d < To Hit number %d: hit", thd.total, spec.to_hit)
  out.hit = true
  local kill = spec.facing.kill
  if not spec.facing.armored then
    kill = vt.vehicle_line(mg.fp)
    umpire.cite("A9.61", "hit in an unarmored Target Facing: attacked on the * Vehicle line of the IFT (" .. kill .. ")")
  end
  local kd = spec.kill_dr or umpire.dice.dr()
  out.kill_dr = kd
  out.result = kill_result(kd.total, kill, mg.name)
  umpire.cite("A9.611", "a MG To Kill attack may also affect the AFV's Vulnerable PRC Collaterally (A.14A)")
  return out
end

--- A9.6/A9.611: a normal MG IFT attack on a vehicle. Armored facing: no effect except on Vulnerable PRC.
-- Unarmored: the * Vehicle line number is used as the Final Kill Number (options.vehicle_line_as_kill_number).
function vt.ift_attack(mg, fp, facing, final_dr)
  if facing.armored then
    umpire.cite("A9.611", "a normal MG IFT attack has no effect vs armor other than on Vulnerable PRC")
    return "no effect (PRC only)"
  end
  if not umpire.data.options.vehicle_line_as_kill_number then error("not implemented: A9.6 (* Vehicle line effect)") end
  return kill_result(final_dr, vt.vehicle_line(fp), (mg.name or "MG") .. " vs unarmored vehicle")
end

return vt
