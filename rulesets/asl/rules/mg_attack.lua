-- mg_attack.lua: one IFT attack with SW MG (alone or in a Fire Group), putting A9 together:
-- usage (A9.11-.12), ROF and the per-MF limit (A9.2), field of fire (A9.21), Sustained Fire (A9.3),
-- Mandatory Fire Direction (A9.4), the IFT (A7), malfunction (A9.7/A9.71), and the IFT result.
local atk = {}
-- umpire.cite and umpire.rules are fixed for the load generation that loads this module: kept in a local, since every
-- look-up through the read-only `umpire` view costs an attack time (issue 18).
local cite, rules = umpire.cite, umpire.rules
-- The globals an attack calls, held in locals: a global is looked up through the sandbox's
-- environment on each use (≈ 180 instructions against ≈ 10 for a local, bench/per_call.sh).
local ipairs, error, type, pcall = ipairs, error, type, pcall
local data = umpire.data
-- Whether the journal is on (an odds run turns it off): see the memo below.
local journal_on = umpire.journal.on
-- What a missing list reads as: one shared empty table, never written (a fresh `{}` per loop cost an
-- allocation each time an attack ran).
local NONE = {}
-- The usage of an attack without crew or MG (what mg_usage.check returns, with nothing forfeited):
-- one shared table, only read.
local NO_USAGE = {area_fire = false, inherent_forfeit = false, forfeit = NONE, user_of = NONE}
-- What mg_rof.after_attack is told ({phase, sustained}, which it only reads): one shared table per
-- phase and Sustained Fire, made when first needed, instead of a table per MG per attack.
-- (two tables, not one keyed by the boolean: a look-up by a boolean key leaves the interpreter's
-- fast path, memo_tree.lua; a value other than true or false raises here, as it did there)
local after_ctx_sustained, after_ctx_not = {}, {}
local function after_ctx(phase, sustained)
  local of
  if sustained == true then of = after_ctx_sustained elseif sustained == false then of = after_ctx_not end
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

-- One MG's result after the attack's DR: its malfunction check (A9.7: `malfunctioned`, `removed`),
-- then whether it keeps its ROF (A9.2; a Sustained Fire MG never does, A9.3) from the coloured dr.
-- `kept`: the memo's record of an attack (see the memo below), which keeps the ROF context once
-- made: its phase and Sustained Fire are values of the memo's key, so every attack it answers has
-- the same context (made only when needed, as the attack worked out makes it: for a nil phase
-- after_ctx raises, and an attack whose MG malfunctioned never asks for it). `one`: the result is
-- returned as the results of an attack of this MG alone, by its name: made with its one key, in
-- place of an empty table grown by one (≈ 190 instructions less, bench/per_call.sh), here for
-- both ways of making an attack, so that a bad name raises the same error. `journaling`: false
-- when the caller knows the journal is off (an attack from the memo), else nil (asked).
local function mg_result(mg, malfunctioned, removed, colored, phase, sus, kept, one, journaling)
  local keep = false
  if not (mg.malfunctioned or mg.removed) then
    local c = kept and kept.rof_ctx
    if not c then
      c = after_ctx(phase, sus)
      if kept then kept.rof_ctx = c end
    end
    keep = rules.mg_rof.after_attack(mg, colored, c, journaling)
  end
  local result = {malfunctioned = malfunctioned, removed = removed, keeps_rof = keep, counter = mg.fire_counter}
  if one then return {[mg.name] = result} end
  return result
end

-- One IFT attack, every part worked out (mg_attack.fire; `leaf`: a leaf of the memo below, which
-- then gets what no die decided).
--- spec = {label, phase, side, crew = {units firing the MG(s)}, units = {units adding Inherent FP},
--   mgs = {MG tables: name, fp, range, rof, B/X, ...}, range, target = {units, location, hex, mf},
--   drm = {entries}, area = {reasons}, dr (optional), subsequent_first_fire, fpf, leader_directing, apply = bool,
--   residual = bool, lane_mgs = {MG establishing a Fire Lane: their FP leaves no normal Residual},
--   breakdown = {rows of the 001 table the attack carries: intensive, extreme_winter (true: by the firer's
--   nationality, or "axis"/"russian"), x_heavy_dust, non_qualified, inexperienced, ammunition_shortage,
--   leader_present}}. Several MMC in `crew` each fire their own MG (mg.fired_by = unit name; A9.2/A9.11).
local function fire_worked_out(spec, leaf)
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
  local eff  -- (the MG's effective numbers, kept when `leaf` is given: see the memo below)
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
      if leaf then eff = r.eff end
      if single then
        a.mg = mg_result(mg, r.malfunctioned, r.removed, a.colored, phase, sus, nil, true)
      else
        -- (the name read after the result is made, as ever: a house rule's ROF may change it)
        local result = mg_result(mg, r.malfunctioned, r.removed, a.colored, phase, sus)
        a.mg[mg.name] = result
      end
      if target_units then
        for _, u in ipairs(target_units) do rules.mg_rof.record_shot(mg, u, tgt.location) end
      end
      if tgt.hex then rules.mg_field_of_fire.after_shot(mg, tgt.hex, spec.facing) end
    end
  end
  -- (an attack the memo below keeps: what no die decided, for the next attack with its values)
  if leaf then leaf[1] = {fp = a.fp, column = a.column, sustained = sustained_one, eff = eff} end
  if spec.apply and tgt.units and a.effect then a.outcomes = rules.ift.apply(a, tgt.units) end
  return a
end

-- The memo of an attack's dice-independent half (issues 15 and 18). Every attack works out its
-- usage (A9.11), its firers and their FP (A7.2), its IFT column (A7.31), its MG's Sustained Fire
-- (A9.3) and its MG's effective B#/X# (A9.7, the 001 table) afresh: about half of the machine
-- instructions of scripts/asl/odds_mmg_fire_group.lua's attack, which `umpire odds` runs once per
-- dice path, though no die decides any of it. So while the journal is off (odds runs: no citation
-- is made, so none is lost), those answers are kept, keyed by the content of every value they
-- read, never by a table's identity (scripts build their MG and units afresh for every path).
--
-- Only the plain attack is kept: one MG (`mgs`) fired by one squad (`crew`), neither removed,
-- malfunctioned, vehicular, nor in a Fire Lane; no Residual FP, no 001 rows of the attack
-- (`breakdown`), no target hex, no target units, range at most 16 (or none). Its first half then
-- changes nothing (no Inherent FP forfeited, no Fire Lane or shot recorded) and reads only:
--   the MG's effective numbers: what sw_malfunction's memo reads for them (the MG, the squad,
--              Sustained Fire, two options, the 001 rows), as the levels that memo walks for
--              those values (sw_malfunction.numbers_path, walked in this memo: it empties it
--              when the options or rows change; none for a dismantled MG);
--   the spec:  fpf and subsequent_first_fire (true or false: with the phase and the MG's fire
--              counter they decide Sustained Fire, A9.3), phase, range, and the number of the
--              attack's Area Fire reasons (`area`: each halves every firer's FP, A7.23);
--   the MG:    fire_counter, fp, range;
--   each unit of `units`, in order: whether it has forfeited its Inherent FP, else its fp and
--              range (a unit fires as {name, fp, range}: its other fields change no number);
--   data:      data.ift (when it changes, the memo starts again empty);
--   the rules: the functions whose work is skipped must be the ones this ruleset writes (a house
--              rule replacing one may read values the key lacks: its attacks are worked out).
-- Names and labels are read only for citations and errors. The DRM list is not in the key: its
-- total is made at every attack, with the dice (ift.resolve_column). What is kept is the FP, the
-- column, Sustained Fire and the effective numbers; an attack from the memo then makes only its
-- dice half: DRM, DR, result, the malfunction check (sw_malfunction.check_outcome: check_numbers without its table) and ROF, as
-- the attack worked out makes them, and returns a fresh table. An attack that raises an error is
-- never kept (the next one raises it again, worked out), and reading a key that raises (a spec of
-- the wrong shape) works the attack out, so that its error is the rules' own. The key is a path
-- through the nested tables of rules/memo_tree.lua, one level per value (nil stands as NIL), the
-- counts and FPF packed into one: as in sw_malfunction's memo, reading the values is most of what
-- an attack from the memo costs (each Lua bytecode ≈ 17 machine instructions in the sandbox). At most MEMO_LIMIT tables; past that it starts again empty; a reload runs this module
-- again, with an empty memo. Spec rulesets/asl/tests/a9_attack_memo.lua compares the memo with
-- the attack worked out over random attacks, each right after one differing in one value only.
local NIL, FORFEITED = {}, {}
local MEMO_LIMIT = 4096
local memo_tree = rules.memo_tree
local memo = memo_tree.new()
local grow, clear = memo_tree.grow, memo_tree.clear
-- (the levels of the MG's effective numbers: sw_malfunction.lua loads first)
local numbers_path = rules.sw_malfunction.numbers_path
local memo_ift

-- The functions whose work an attack from the memo skips, as their modules write them (those of
-- the effective numbers, sw_malfunction.conditions and breakdown.effective, are checked by
-- sw_malfunction.numbers_path): read once, at the first attack of the load generation (this
-- module loads before sustained_fire), so that each attack compares each function once.
local usage_check, sf_applies, sf_check, ift_resolve, mal_check, mal_check_numbers, mal_numbers
-- (and ift.resolve_column as ift.lua writes it, which fire_kept compares: see there)
local resolve_column_as_written

-- The levels of one unit of `units` (see above), from `node`.
local function unit_levels(node, u)
  if u.inherent_forfeit then return node[FORFEITED] or grow(memo, node, FORFEITED) end
  local v = u.fp or NIL; node = node[v] or grow(memo, node, v)
  v = u.range or NIL
  return node[v] or grow(memo, node, v)
end

-- The leaf of the memo for an attack (a table holding what was kept at [1]), or nil when the
-- attack is not one the memo keeps (see above), or the rules it skips are not as written.
local function memo_leaf(spec)
  local usage, sf, ift, mal = rules.mg_usage, rules.sustained_fire, rules.ift, rules.sw_malfunction
  if not usage_check then
    usage_check, sf_applies, sf_check = usage.check_as_written, sf.applies_as_written, sf.check_as_written
    ift_resolve, mal_check = ift.resolve_as_written, mal.check_as_written
    resolve_column_as_written = ift.resolve_column_as_written
    mal_check_numbers, mal_numbers = mal.check_numbers_as_written, mal.numbers_as_written
  end
  if usage.check ~= usage_check or sf.applies ~= sf_applies or sf.check ~= sf_check or ift.resolve ~= ift_resolve
    or mal.check ~= mal_check or mal.check_numbers ~= mal_check_numbers or mal.numbers ~= mal_numbers then
    return nil
  end
  local mgs, crew = spec.mgs, spec.crew
  if #mgs ~= 1 or #crew ~= 1 then return nil end
  local mg, user = mgs[1], crew[1]
  if user.kind ~= "squad" or mg.removed or mg.malfunctioned or mg.fire_lane or mg.fire_lane_declared
    or mg.vehicular or spec.residual or spec.breakdown then return nil end
  local tgt = spec.target or NONE
  local target_units = tgt.units
  if tgt.hex or (target_units and target_units[1] ~= nil) then return nil end
  local range = spec.range
  if range and range > 16 then return nil end
  -- (a list that is no table raises an error in the rules, but a string would read here as an
  -- empty list, and any other value raises here too; a list whose first entry is there is no
  -- string, so its type is asked only when it has none: ≈ 80 instructions an attack less)
  local area, units = spec.area, spec.units
  if area == nil then area = NONE elseif type(area) ~= "table" then return nil end
  if units == nil then units = NONE end
  local u1 = units[1]
  if u1 == nil and type(units) ~= "table" then return nil end
  -- (the IFT's columns: when they change, the memo starts again empty)
  local ift_tables = data.ift
  if memo.size >= MEMO_LIMIT or ift_tables ~= memo_ift then
    clear(memo)
    memo_ift = ift_tables
  end
  -- The MG's effective numbers depend on what sw_malfunction's memo reads (the MG, the squad,
  -- Sustained Fire, options, the 001 rows): the key starts with that memo's levels for those
  -- values, walked in this memo (nil: it keeps none, e.g. for a dismantled MG). In place of
  -- Sustained Fire, its bit of the first level is whether the spec says Subsequent First Fire:
  -- sustained_fire.applies as written (checked above) reads that, FPF, the phase and the MG's
  -- fire counter (A9.3), and the last three are levels of the key below, so the key still
  -- decides Sustained Fire, without a call of the function at each attack.
  local node = numbers_path(memo, mg, user, spec.subsequent_first_fire and 1 or 0)
  if not node then return nil end
  -- The next level packs the number of units (at most 15 kept), FPF and the number of Area
  -- Fire reasons (as ipairs walks them) into one whole number, 0..16 for a usual attack (a fast
  -- look-up, memo_tree.lua); the number of units makes the path's length known from its first
  -- levels, so that it is prefix-free. (The counts of a usual attack, none or one, are read
  -- without a loop: a loop in a function's trace stops LuaJIT's recording of it.)
  local n_units, n_area = 0, 0
  if u1 ~= nil then
    n_units = 1
    if units[2] ~= nil then
      n_units = 2
      while units[n_units + 1] ~= nil do n_units = n_units + 1 end
      if n_units > 15 then return nil end
    end
  end
  if area[1] ~= nil then
    n_area = 1
    while area[n_area + 1] ~= nil do n_area = n_area + 1 end
  end
  local shape = n_units + (spec.fpf and 16 or 0) + 32 * n_area
  node = node[shape] or grow(memo, node, shape)
  local v = spec.phase or NIL; node = node[v] or grow(memo, node, v)
  v = range or NIL; node = node[v] or grow(memo, node, v)
  v = mg.fire_counter or NIL; node = node[v] or grow(memo, node, v)
  v = mg.fp or NIL; node = node[v] or grow(memo, node, v)
  v = mg.range or NIL; node = node[v] or grow(memo, node, v)
  if n_units == 1 then return unit_levels(node, u1) end
  for i = 1, n_units do node = unit_levels(node, units[i]) end
  return node
end

-- An attack whose dice-independent half is `kept` (see above): its dice half only. `journaling`:
-- false when the caller has just found the journal off (mg_attack.fire), so that the functions
-- called need not ask again (a call ≈ 105 machine instructions each, issue 18); nil, they ask.
local function fire_kept(spec, mg, kept, journaling)
  local resolve_column = rules.ift.resolve_column
  local a = resolve_column(spec.label or "attack", spec.drm, spec.dr, kept.fp, kept.column, journaling)
  local dr = a.dr
  if dr then
    -- (check_numbers' work without its table: memo_leaf checked that it is as written). The
    -- Original DR is read from a.dr as check_numbers reads it, not from a.original: a house rule
    -- replacing ift.resolve_column (which the memo does not skip) may change the DR or leave out
    -- `original`, and the attack worked out checks a.dr. The DR of the function as written is a
    -- table (its `dr.total + drm` raises for any other value), so its total is read without a
    -- call of `type` (≈ 80 instructions, bench/per_call.sh).
    local original
    if resolve_column == resolve_column_as_written then original = dr.total
    else original = type(dr) == "table" and dr.total or dr end
    local removed, malfunctioned = rules.sw_malfunction.check_outcome(mg, original, kept.eff)
    a.mg = mg_result(mg, malfunctioned, removed, a.colored, spec.phase, kept.sustained, kept, true, journaling)
  else
    a.mg = {}
  end
  -- (the target is read only for an attack that applies its result: one read less an attack)
  if spec.apply then
    local tgt = spec.target or NONE
    if tgt.units and a.effect then a.outcomes = rules.ift.apply(a, tgt.units) end
  end
  return a
end

--- mg_attack.fire as it runs while the journal is off: an attack the memo above keeps makes only
-- its dice half when its values were met before. (mg_attack.fire calls it then; the spec tests
-- call it directly, to compare it with the attack worked out; `journaling` false: the caller has
-- just found the journal off, see fire_kept.)
local function fire_memoized(spec, journaling)
  local fine, leaf = pcall(memo_leaf, spec)
  if not (fine and leaf) then return fire_worked_out(spec) end
  local kept = leaf[1]
  if kept then return fire_kept(spec, spec.mgs[1], kept, journaling) end
  return fire_worked_out(spec, leaf)
end
atk.fire_memoized = fire_memoized

--- Whether the memo above holds the dice-independent half of this attack (the spec tests ask it,
-- to count the attacks they compare that came from the memo).
function atk.memo_holds(spec)
  local fine, leaf = pcall(memo_leaf, spec)
  return fine and leaf ~= nil and leaf[1] ~= nil
end

--- One IFT attack with SW MG: see the spec above fire_worked_out.
function atk.fire(spec)
  if journal_on() then return fire_worked_out(spec) end
  return fire_memoized(spec, false)
end

return atk
