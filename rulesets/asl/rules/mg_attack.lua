-- mg_attack.lua: one IFT attack with SW MG (alone or in a Fire Group), putting A9 together:
-- usage (A9.11-.12), ROF and the per-MF limit (A9.2), field of fire (A9.21), Sustained Fire (A9.3),
-- Mandatory Fire Direction (A9.4), the IFT (A7), malfunction (A9.7/A9.71), and the IFT result.
local atk = {}
-- umpire.cite and umpire.rules are fixed for the load generation that loads this module: kept in a local, since every
-- look-up through the read-only `umpire` view costs an attack time (issue 18).
local cite, rules = umpire.cite, umpire.rules
-- The globals an attack calls, held in locals: a global is looked up through the sandbox's
-- environment on each use (≈ 180 instructions against ≈ 10 for a local, bench/per_call.sh).
local ipairs, error = ipairs, error
-- What a missing list reads as: one shared empty table, never written (a fresh `{}` per loop cost an
-- allocation each time an attack ran).
local NONE = {}
-- The usage of an attack without crew or MG (what mg_usage.check returns, with nothing forfeited):
-- one shared table, only read.
local NO_USAGE = {area_fire = false, inherent_forfeit = false, forfeit = NONE, user_of = NONE}
-- What mg_rof.after_attack is told ({phase, sustained}, which it only reads): one shared table per
-- phase and Sustained Fire, made when first needed, instead of a table per MG per attack.
local after_ctx_of = {[true] = {}, [false] = {}}
local function after_ctx(phase, sustained)
  local of = after_ctx_of[sustained]
  local c = of[phase]
  if not c then
    c = {phase = phase, sustained = sustained}
    of[phase] = c
  end
  return c
end

-- The list of one Area Fire reason (reasons are shared tables: Sustained Fire's is one per load),
-- made once per reason, since the IFT only reads an MG's list: not a table per attack. A list
-- that gets a second reason is copied first (area_with below).
local only_reason = setmetatable({}, {__mode = "k"})
local function area_of(reason)
  local list = only_reason[reason]
  if not list then
    list = {reason}
    only_reason[reason] = list
  end
  return list
end

-- `area` with one more reason: a fresh list (the one-reason lists above are shared).
local function area_with(area, reason)
  local out = {}
  for i = 1, #area do out[i] = area[i] end
  out[#out + 1] = reason
  return out
end

-- A unit adding its Inherent FP fires as it is when it has none of the fields a firer entry adds
-- or ift.resolve reads beyond name, fp and range (`area`, `at_range`, and `mg`, which marks an MG's
-- entry); otherwise as a fresh entry with only those three. The same entries for the IFT either way,
-- without a table per unit per attack.
local function unit_firer(u)
  if u.area == nil and u.at_range == nil and u.mg == nil then return u end
  return {name = u.name, fp = u.fp, range = u.range}
end

-- The breakdown rows of one attack (001 table) for one MG: what the attack carries, plus its crew.
-- Most attacks carry none: their context is built in one step, without a `pairs` loop; for the
-- attack of a single MG it is the attack's own context `ctx` (given then), whose keys (phase,
-- subsequent_first_fire, fpf, firers) are none of those sw_malfunction.conditions reads, so that
-- the attack makes one table less. Its two keys are set only now, after the rules reading `ctx` as
-- the attack's context (sustained_fire, mg_rof) have run: none of them reads them.
local function breakdown_ctx(spec, use, mg, sus, ctx)
  local user = use.user_of[mg] or (spec.crew or NONE)[1]
  local rows = spec.breakdown
  if not rows then
    if ctx then
      ctx.sustained, ctx.user = sus, user
      return ctx
    end
    return {sustained = sus, user = user}
  end
  local c = {}
  for k, v in pairs(rows) do c[k] = v end
  c.sustained = sus
  c.user = user
  return c
end

--- spec = {label, phase, side, crew = {units firing the MG(s)}, units = {units adding Inherent FP},
--   mgs = {MG tables: name, fp, range, rof, B/X, ...}, range, target = {units, location, hex, mf},
--   drm = {entries}, area = {reasons}, dr (optional), subsequent_first_fire, fpf, leader_directing, apply = bool,
--   residual = bool, lane_mgs = {MG establishing a Fire Lane: their FP leaves no normal Residual},
--   breakdown = {rows of the 001 table the attack carries: intensive, extreme_winter (true: by the firer's
--   nationality, or "axis"/"russian"), x_heavy_dust, non_qualified, inexperienced, ammunition_shortage,
--   leader_present}}. Several MMC in `crew` each fire their own MG (mg.fired_by = unit name; A9.2/A9.11).
function atk.fire(spec)
  local phase = spec.phase
  local mgs = spec.mgs or NONE
  local tgt = spec.target or NONE
  -- (the units of the target Location, visited for the per-MF limit and the shots recorded: no
  -- loop at all when there are none)
  local target_units = tgt.units
  if target_units and target_units[1] == nil then target_units = nil end
  -- (made with room for the two keys it gets as the breakdown context of a single MG: see breakdown_ctx)
  local ctx = {phase = phase, subsequent_first_fire = spec.subsequent_first_fire, fpf = spec.fpf, firers = spec.crew,
    sustained = nil, user = nil}
  local use = NO_USAGE
  if spec.crew and #mgs > 0 then use = rules.mg_usage.check(spec.crew, mgs) end
  local forfeit = use.forfeit or NONE
  local forfeits = NONE
  if forfeit[1] ~= nil then
    forfeits = {}
    for _, u in ipairs(forfeit) do forfeits[u] = true end
  end
  -- (made with room for two, the usual unit and its MG: a list grown from empty is reallocated
  -- at its first and second entries)
  local firers = {nil, nil}
  for _, u in ipairs(spec.units or NONE) do
    if not forfeits[u] and not u.inherent_forfeit then
      firers[#firers + 1] = unit_firer(u)
    end
  end
  if forfeits ~= NONE then
    for _, u in ipairs(forfeit) do u.inherent_forfeit = true end
  end
  -- Sustained Fire of each MG: in `sustained` by MG when there are several, else in `sustained_one`
  -- (no table for the usual single MG).
  local several = #mgs > 1
  local sustained, sustained_one = several and {} or NONE, false
  for _, mg in ipairs(mgs) do
    if mg.removed then error("A9.7: " .. mg.name .. " has been removed") end
    if mg.malfunctioned then error("A9.7: " .. mg.name .. " is malfunctioned: no fire until repaired") end
    local as = mg
    if mg.dismantled then as = rules.sw_dismantle.check_fire(mg) end
    -- A9.22: "may not fire again until the DFPh": in the DFPh it fires again (as Sustained Fire, its First
    -- Fire counter: A9.3, A8.4)
    if mg.fire_lane and phase ~= "DFPh" then error("A9.22: " .. mg.name .. " has established a Fire Lane and may not fire again until the DFPh (EXC: TPBF, A9.223)") end
    if mg.fire_lane and phase == "DFPh" then
      cite("A9.22", "%s established a Fire Lane this Player Turn; in the DFPh it may fire again", mg.name)
      mg.fire_lane = nil
    end
    local sus = rules.sustained_fire.applies(mg, ctx)
    -- A9.3 [EXC: FPF 8.31]: Sustained Fire forfeits further shots and places a Final Fire counter, except that a
    -- MG may keep using FPF (A8.31) while marked with it
    local fpf_again = spec.fpf and mg.fire_counter == "Final Fire" and phase == "MPh"
    if fpf_again then
      cite("A9.3", "%s is marked with a Final Fire counter but may fire again as FPF (EXC: FPF, A8.31)", mg.name)
    end
    if (mg.fire_counter == "Prep Fire" or mg.fire_counter == "Final Fire") and not fpf_again then
      error("A9.2: " .. mg.name .. " is marked with a " .. mg.fire_counter .. " counter and may not fire again this Player Turn")
    end
    -- A9.22: the First Fire counter placed on declaring a Fire Lane does not stop that declaring attack
    local lane_attack = mg.fire_lane_declared and not mg.lane_fired
    if lane_attack then mg.lane_fired = true end
    if mg.fire_counter == "First Fire" and not sus and not lane_attack then
      error("A9.2: " .. mg.name .. " has lost its Multiple ROF (First Fire counter): only Subsequent First Fire/FPF or Final Fire (Sustained Fire)")
    end
    if mg.fire_counter == "First Fire" and phase == "DFPh" and (spec.range or 99) > 1 then
      cite("A8.4", mg.name .. " is marked with a First Fire counter: Final Fire only vs an ADJACENT/same-Location unit")
      error("A8.4: " .. mg.name .. " (First Fire counter) gets no Final Fire vs a non-adjacent target")
    end
    if tgt.hex then rules.mg_field_of_fire.check_target(mg, tgt.hex) end
    if phase == "MPh" and spec.side == "DEFENDER" and target_units then
      for _, u in ipairs(target_units) do
        if not rules.mg_rof.may_fire_at(mg, u, tgt.location, tgt.mf, ctx) then
          error(string.format("A9.2: %s may not fire at %s in %s again", mg.name, u.name, tostring(tgt.location)))
        end
      end
    end
    -- the MG's Area Fire reasons: a list made only when there is one (the IFT only reads it)
    local area = NONE
    if sus then
      local s = rules.sustained_fire.check(mg, ctx)
      area = area_of(s.area)
    end
    if use.area_fire then area = area_with(area, {why = "fired by a single leader", rule = "A9.12"}) end
    if spec.range and spec.range > 16 then
      local d = rules.fire_direction.check(mg, {range = spec.range, leader_directing = spec.leader_directing, target = tgt.info})
      if not d.allowed then error("A9.4: " .. mg.name .. " may not fire beyond 16 hexes without a directing leader") end
      if d.treat_concealed then area = area_with(area, {why = "Infantry treated as concealed (A9.4)", rule = "A9.4"}) end
    end
    if several then sustained[mg] = sus else sustained_one = sus end
    firers[#firers + 1] = {name = mg.name, fp = as.fp, range = as.range, area = area, mg = mg}
  end
  local residual_of
  if spec.residual then
    residual_of = {}
    for _, f in ipairs(firers) do
      if not (f.mg and f.mg.fire_lane_declared) then residual_of[#residual_of + 1] = f end
    end
  end
  local a = rules.ift.resolve({label = spec.label, firers = firers, range = spec.range, area = spec.area,
    drm = spec.drm, dr = spec.dr, residual_of = residual_of})
  -- (the result of a single MG is made with its one key, in place of an empty table grown by one:
  -- ≈ 190 instructions less, bench/per_call.sh)
  local single = a.dr and not several and mgs[1] ~= nil
  if not single then a.mg = {} end
  if a.dr then
    -- A9.7/A9.71: malfunction by the Original DR; the attack is still resolved
    local res
    if several then
      local entries = {}
      for _, mg in ipairs(mgs) do entries[#entries + 1] = {mg = mg, ctx = breakdown_ctx(spec, use, mg, sustained[mg])} end
      res = rules.sw_malfunction.check_fg(entries, a.dr)
    end
    -- (one MG or none: its malfunction check is made in the loop, before its ROF, as a list of
    -- checks made first would)
    for _, mg in ipairs(mgs) do
      local sus = sustained_one
      if several then sus = sustained[mg] end
      local r
      if several then r = res[mg.name] else r = rules.sw_malfunction.check(mg, a.dr, breakdown_ctx(spec, use, mg, sus, ctx)) end
      local keep = false
      if not (mg.malfunctioned or mg.removed) then
        keep = rules.mg_rof.after_attack(mg, a.colored, after_ctx(phase, sus))
      end
      local result = {malfunctioned = r.malfunctioned, removed = r.removed, keeps_rof = keep, counter = mg.fire_counter}
      if single then a.mg = {[mg.name] = result} else a.mg[mg.name] = result end
      if target_units then
        for _, u in ipairs(target_units) do rules.mg_rof.record_shot(mg, u, tgt.location) end
      end
      if tgt.hex then rules.mg_field_of_fire.after_shot(mg, tgt.hex, spec.facing) end
    end
  end
  if spec.apply and tgt.units and a.effect then a.outcomes = rules.ift.apply(a, tgt.units) end
  return a
end

return atk
