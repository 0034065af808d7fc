-- sw_malfunction.lua: A9.7-A9.74. Malfunction and removal (A9.7), multiple-MG malfunction by Random
-- Selection (A9.71), repair (A9.72), self-destruction (A9.73), random SW/Gun destruction on a Final KIA (A9.74).
--
-- The extracted text of A9.7 and A9.71 prints "Original IFT resolution DR ... is <= that SW's B#". That is a
-- PDF extraction error: the A9.71 EX (HMG under Sustained Fire is B10/X12; "If the Original IFT DR is a 10 or
-- 11, the HMG automatically malfunctions") and the 001 note "Roll >= X#, B# ..." only hold for ">=". We follow
-- the rule the examples show (data/options.yaml malfunction_compare: ">=").
local mal = {}
-- umpire.cite, umpire.data and umpire.rules are fixed for the load generation that loads this module: kept in a local, since every
-- look-up through the read-only `umpire` view costs an attack time (issue 18).
local cite, data, rules = umpire.cite, umpire.data, umpire.rules
-- The globals a check calls, held in locals: a global is looked up through the sandbox's
-- environment on each use (≈ 180 instructions against ≈ 10 for a local, bench/per_call.sh).
local ipairs, type, error = ipairs, type, error
-- What a missing context or user reads as: one shared empty table, never written.
local NONE_CTX = {}

--- The conditions (rows of the breakdown table) that apply to one SW in one attack.
-- mg: {captured, low_ammo, ammunition_shortage, owner, type, gun}; ctx: {sustained, intensive, user = unit,
-- leader_present, extreme_winter = true|"axis"|"russian", x_heavy_dust, non_qualified, inexperienced,
-- ammunition_shortage}. user: {side (nationality), kind = "squad"|"hs"|"crew"|"leader"..., elite, class =
-- "conscript"|"green"|..., non_qualified, inexperienced}. Every row the 001 table lists can come from ctx, and
-- the ones the 001 notes define by who fires what are derived here from the user and the weapon.
function mal.conditions(mg, ctx)
  ctx = ctx or {}
  local u = ctx.user or {}
  -- (made with its most common row, Sustained Fire, in place: one allocation less than growing it)
  local c = {sustained_fire = (ctx.sustained or mg.sustained) and true or nil}
  local name = mg.name or "SW"
  if ctx.intensive then c.intensive_fire = true end
  if mg.captured or (u.side and mg.owner and u.side ~= mg.owner) then c.captured = true end
  if ctx.non_qualified or u.non_qualified then c.non_qualified = true end
  -- A21.13 (001 note): who is Non-Qualified. "Japanese non-crew firing a Japanese MMG/HMG"; the 001 example
  -- "Japanese Squad firing an American MMG ... (Unqualified and Captured)" extends it to any MMG/HMG
  -- (options.japanese_non_crew_mg, "any" by default).
  local crew = u.kind == "crew"
  if u.side == "japanese" and not crew and (mg.type == "MMG" or mg.type == "HMG") then
    local any = data.options.japanese_non_crew_mg == "any"
    if any or mg.owner == "japanese" or mg.nationality == "japanese" then
      c.non_qualified = true
      cite("A21.13", "%s: Japanese non-crew (%s) firing a%s MMG/HMG is Non-Qualified", name, u.name or "unit",
        (mg.owner == "japanese") and " Japanese" or " captured")
    end
  end
  if mg.gun and u.kind and not crew then
    c.non_qualified = true
    cite("A21.13", "%s: non-crew (%s) firing a Gun is Non-Qualified", name, u.name or "unit")
  end
  if mg.type == "FT" and (u.kind == "squad" or u.kind == "hs" or u.kind == "crew") and not u.elite then
    c.non_qualified = true
    cite("A21.13", "%s: non-Elite MMC (%s) firing a Flamethrower is Non-Qualified", name, u.name or "unit")
  end
  -- A19.32 (001 note): Conscript regardless of Leader presence, or Green with no Leader present.
  if ctx.inexperienced or u.inexperienced then c.inexperienced = true
  elseif u.class == "conscript" then
    c.inexperienced = true
    cite("A19.32", "%s: %s is Conscript: Inexperienced regardless of Leader presence", name, u.name or "unit")
  elseif u.class == "green" and not ctx.leader_present then
    c.inexperienced = true
    cite("A19.32", "%s: %s is Green with no Leader present: Inexperienced", name, u.name or "unit")
  end
  -- E3.741: Extreme Winter, by the firer's nationality: Axis -2 (EXC: Finnish), Russian -1, others none.
  local ew = ctx.extreme_winter
  if ew == true then
    local axis = {}
    for _, n in ipairs(data.options.extreme_winter_axis or {}) do axis[n] = true end
    if u.side == "russian" then ew = "russian"
    elseif u.side == "finnish" then
      ew = nil
      cite("E3.741", "%s: Extreme Winter does not apply to Finnish MMC/SMC (the Axis row's exception)", name)
    elseif axis[u.side] then ew = "axis"
    elseif u.side == nil then error("E3.741: Extreme Winter needs the firer's nationality (ctx.user.side) to choose its row")
    else ew = nil end
  end
  if ew == "axis" then c.extreme_winter_axis = true elseif ew == "russian" then c.extreme_winter_russian = true end
  if ctx.x_heavy_dust then c.x_heavy_dust = true end
  if mg.low_ammo then c.low_ammo = true end
  if mg.ammunition_shortage or ctx.ammunition_shortage then c.ammunition_shortage = true end
  return c
end

-- The effective numbers as the rules work them out, every time (see mal.numbers).
local function numbers_worked_out(mg, ctx)
  -- (through umpire.rules: a house rule's mal.conditions lives in a module of its own)
  local cond = rules.sw_malfunction.conditions(mg, ctx)
  -- A9.8: a dm German MMG/HMG fired as a LMG breaks down on the numbers it is fired with
  local w = mg
  if mg.dismantled then w = rules.sw_dismantle.fire_numbers(mg) end
  -- (`true`: the conditions are rows mal.conditions sets, with no unknown key to look for)
  local eff = rules.breakdown.effective(w, cond, true)
  if not eff.B and not eff.X and not eff.LA then eff.B = 12 end
  return eff
end

-- The memo of the effective numbers (issues 15 and 18). Every attack works out its MG's B#/X#
-- afresh: the conditions, then the 001 table's rows, about 5,600 machine instructions of the
-- ~37,000 a Monte Carlo sample of scripts/asl/odds_mmg_fire_group.lua cost (bench/per_call.sh),
-- while the answer depends on no die and on few values, which repeat from attack to attack. So
-- while the journal is off (odds runs: no citation is made, so none is lost), the answer is kept,
-- keyed by the content of every value the computation reads, never by a table's identity (scripts
-- build their MG and units afresh for every sample):
--   the MG:    sustained, captured, gun, low_ammo, ammunition_shortage, circled (read as true or
--              false only), owner, type, nationality, B, X (as values);
--   ctx:       sustained, intensive, non_qualified, inexperienced, leader_present, x_heavy_dust,
--              ammunition_shortage (true or false), extreme_winter ("axis", "russian" or other);
--   the user:  non_qualified, elite, inexperienced (true or false), class ("conscript", "green" or
--              other), side, kind (values);
--   data:      options.japanese_non_crew_mg, options.ammo_shortage_penalty_base, and the 001 table's
--              rows (by identity: data is read-only once loaded, a reload brings new tables);
--   the rules: mal.conditions and breakdown.effective must be the functions written in this
--              ruleset (a house rule replacing either may read values this key lacks, so its
--              answers are always worked out: no memo then).
-- The values that hold for every answer (data) are checked once per call: when one changes, the
-- memo starts again empty. The rules read the fields named "true or false" only as
-- conditions, and extreme_winter and class only by comparing them with the strings named, so they
-- are packed as bits of one number; they read the other values only by comparing them with
-- strings, or (B, X) with `or`/`not`, so a false value is kept as a nil one. Names (the MG's, the
-- user's) are read only for citations. Two cases are not kept, as their answers read more than
-- these values: a dismantled MG (sw_dismantle.fire_numbers reads the LMG's counter) and Extreme
-- Winter by nationality (ctx.extreme_winter = true reads options.extreme_winter_axis). An error is
-- never kept: it is raised again, as the rules raise it, at the next call.
--
-- The key is a path through the nested tables of rules/memo_tree.lua, its first level the packed
-- bits, then one level per value that is neither false nor nil, walked with one table look-up per
-- level and no loop: in the sandbox each Lua bytecode costs ~17 machine instructions
-- (bench/per_call.sh: a loop over a list of 28 values cost ~2,900), so the walk is written out,
-- and reading the ~30 values is most of what a call from the memo costs (reading its inputs is
-- what a memo cannot save). The leaf holds the numbers, copied for each caller, who may change
-- them. The memo holds at most MEMO_LIMIT tables; past that it starts again empty. A reload
-- runs this module again, with an empty memo. The spec rulesets/asl/tests/a9_memo.lua compares
-- the memo with the computation over random MGs, conditions, users and options, each case right
-- after one that differs from it in one value only.
local journal_on = umpire.journal.on
local memo_tree = rules.memo_tree
local MEMO_LIMIT = 4096
local memo = memo_tree.new()
local grow, clear = memo_tree.grow, memo_tree.clear
-- (mal.conditions as this module defines it, and breakdown.effective as breakdown.lua does, read
-- at the first call: see numbers_path)
local conditions_as_written = mal.conditions
local effective_as_written

-- The bits of the key's first level that the context `c` gives, for a context whose
-- extreme_winter `ew` is not true (that case is not kept).
local function context_flags(c, ew)
  local flags = 0
  if c.sustained then flags = flags + 1 end
  if c.intensive then flags = flags + 128 end
  if c.non_qualified then flags = flags + 256 end
  if c.inexperienced then flags = flags + 512 end
  if c.leader_present then flags = flags + 1024 end
  if c.x_heavy_dust then flags = flags + 2048 end
  if c.ammunition_shortage then flags = flags + 4096 end
  -- (the rules compare it only with the strings below: any other value acts as none)
  if ew == "axis" then flags = flags + 65536 elseif ew == "russian" then flags = flags + 131072 end
  return flags
end

-- The node of the memo tree `m` (rules/memo_tree.lua) at the end of the levels of an MG and its
-- user (see above), the context's bits being `flags` (context_flags, for a context whose
-- extreme_winter is not true: that case is not kept); nil when the effective numbers may not be
-- kept (a dismantled MG, a replaced rule). The levels start at m's root: this memo's leaf is the
-- node itself, which holds the numbers at [1] once they were worked out; mg_attack's memo walks
-- the same levels first in its own tree, then its own (the numbers are a function of the node).
-- The data every answer depends on is checked against what `m` holds it was made with: when one
-- changes, `m` starts again empty (memo_tree.clear; the caller checks m's size).
--
-- The first level packs the conditions with, for each of the seven values after it, whether it
-- is false or nil: only the values that are not get a level of their own, so that no usual MG
-- walks a sentinel (a table key: a slow look-up, memo_tree.lua) and the path's length is a
-- function of its first level (prefix-free). The bits are chosen so that a usual attack's first
-- level is 0 or 1 (Sustained Fire): a counter has a nationality, type, B# and user kind, and
-- mostly no owner, X# or user side, so the bit of each of the first four says it is missing, of
-- the last three that it is there.
local function numbers_path(m, mg, u, flags)
  if mg.dismantled then return nil end
  -- (a replaced rule may read what the key lacks: worked out every time)
  local breakdown = rules.breakdown
  if not effective_as_written then effective_as_written = breakdown.effective_as_written end
  if rules.sw_malfunction.conditions ~= conditions_as_written or breakdown.effective ~= effective_as_written then return nil end
  -- (what holds for every answer the memo keeps: when one of these changes, it starts again empty)
  local options, rows = data.options, data.breakdown_modifiers.rows
  local japanese, penalty_base = options.japanese_non_crew_mg, options.ammo_shortage_penalty_base
  if rows ~= m.rows or japanese ~= m.japanese or penalty_base ~= m.penalty_base then
    clear(m)
    m.rows, m.japanese, m.penalty_base = rows, japanese, penalty_base
  end
  if mg.sustained then flags = flags + 2 end
  if mg.captured then flags = flags + 4 end
  if mg.gun then flags = flags + 8 end
  if mg.low_ammo then flags = flags + 16 end
  if mg.ammunition_shortage then flags = flags + 32 end
  if mg.circled then flags = flags + 64 end
  if u.non_qualified then flags = flags + 8192 end
  if u.elite then flags = flags + 16384 end
  if u.inexperienced then flags = flags + 32768 end
  local class = u.class
  if class == "conscript" then flags = flags + 262144 elseif class == "green" then flags = flags + 524288 end
  local owner, mg_type, nationality, B, X, side, kind = mg.owner, mg.type, mg.nationality, mg.B, mg.X, u.side, u.kind
  if not mg_type then flags = flags + 1048576 end
  if not nationality then flags = flags + 2097152 end
  if not B then flags = flags + 4194304 end
  if not kind then flags = flags + 8388608 end
  if owner then flags = flags + 16777216 end
  if X then flags = flags + 33554432 end
  if side then flags = flags + 67108864 end
  local root = m.root
  local node = root[flags] or grow(m, root, flags)
  if owner then node = node[owner] or grow(m, node, owner) end
  if mg_type then node = node[mg_type] or grow(m, node, mg_type) end
  if nationality then node = node[nationality] or grow(m, node, nationality) end
  if B then node = node[B] or grow(m, node, B) end
  if X then node = node[X] or grow(m, node, X) end
  if side then node = node[side] or grow(m, node, side) end
  if kind then node = node[kind] or grow(m, node, kind) end
  return node
end

--- The node of a memo tree `m` (memo_tree.new) at the end of the levels the effective numbers
-- of `mg` fired by `user` are keyed by in the memo above, in an attack whose context holds only
-- Sustained Fire (`flags` 1) or nothing (0): mg_attack's plain attack. mg_attack walks them first
-- in its own memo, then the levels of its own values: the effective numbers it keeps are a
-- function of its whole key (its `flags` bit 1 is whether the attack says Subsequent First
-- Fire, and Sustained Fire a function of that and of later levels of its key). `m` is emptied when the data they depend on changed; nil when no numbers
-- are kept for these values (a dismantled MG, a replaced rule).
mal.numbers_path = numbers_path

-- The leaf of the memo for an MG, its context `c` and its user (nil when the memo may not
-- answer: the answer is then worked out).
local function numbers_leaf(mg, c, user)
  local ew = c.extreme_winter
  if ew == true then return nil end
  if memo.size >= MEMO_LIMIT then clear(memo) end
  return numbers_path(memo, mg, user, context_flags(c, ew))
end

--- The effective numbers of one SW in one attack, as mal.numbers gives them while the journal is
-- off: from the memo described above when the same values were met before. (mal.numbers calls it
-- then; the spec tests call it directly, to compare it with the computation.)
function mal.numbers_memoized(mg, ctx)
  local c = ctx or NONE_CTX
  local leaf = numbers_leaf(mg, c, c.user or NONE_CTX)
  if not leaf then return numbers_worked_out(mg, ctx) end
  local e = leaf[1]
  if e then return {B = e.B, X = e.X, LA = e.LA} end
  -- not met before: worked out, then kept (the computation only reads the MG and its context:
  -- they still hold the values of the key)
  e = numbers_worked_out(mg, ctx)
  leaf[1] = {B = e.B, X = e.X, LA = e.LA}
  return e
end

--- Effective numbers of one SW in one attack (A9.7 + the 001 table).
function mal.numbers(mg, ctx)
  if journal_on() then return numbers_worked_out(mg, ctx) end
  return mal.numbers_memoized(mg, ctx)
end

-- What a breakdown check leaves on the SW: removed (X#), malfunctioned (B#), Low Ammo (LA#).
local function mark(mg, eliminated, malfunction, low_ammo)
  if eliminated then
    mg.removed = true
    mg.malfunctioned = false
  elseif malfunction then
    mg.malfunctioned = true
  end
  if low_ammo then mg.low_ammo = true end
end

--- A9.7: one SW that took part in an attack with this Original DR. The attack itself is still resolved.
-- Returns {malfunctioned, removed, low_ammo, eff}.
function mal.check(mg, dr, ctx)
  if mg.malfunctioned then error("A9.7: " .. (mg.name or "SW") .. " is malfunctioned: no fire until repaired") end
  -- (through umpire.rules, as mg_attack calls them: see mal.check_numbers; a house rule
  -- replacing mal.numbers is a module of its own that falls back to this one, so a call through
  -- `mal` would never reach it)
  local own = rules.sw_malfunction
  return own.check_numbers(mg, dr, own.numbers(mg, ctx))
end

--- The half of mal.check that the DR decides: what the Original DR `dr` does to a SW whose
-- effective numbers `eff` (mal.numbers) are known already (mg_attack keeps them for an MG attack
-- while the journal is off), `eff` only read. Returns mal.check's table.
function mal.check_numbers(mg, dr, eff)
  local original = type(dr) == "table" and dr.total or dr
  local r = rules.breakdown.check(eff, original, mg.name)
  mark(mg, r.eliminated, r.malfunction, r.low_ammo)
  -- (cited only with the journal on: see journal_on above)
  if not journal_on() then
  elseif r.eliminated then
    -- A9.7: an X# SW "has permanently malfunctioned and is removed": there is nothing to repair
    cite("A9.7", "the attack which caused the breakdown is still resolved; %s has permanently malfunctioned and is removed", mg.name or "the SW")
  elseif r.malfunction then
    cite("A9.7", "the attack which caused the breakdown is still resolved; no further fire from %s until repaired", mg.name or "the SW")
  end
  return {malfunctioned = r.malfunction, removed = r.eliminated, low_ammo = r.low_ammo, eff = eff}
end

-- breakdown.check as breakdown.lua writes it, and its answer as values (read at the first call:
-- this module loads first).
local breakdown_check_as_written, breakdown_outcome

--- mal.check_numbers for an Original DR `original_dr` (a number) with the journal off, as two
-- values (removed, malfunctioned) and no table: the SW is marked as check_numbers marks it.
-- mg_attack calls it for an attack from its memo, which reads nothing else of check_numbers'
-- table (two tables less an attack: this one's and breakdown.check's, ≈ 700 machine
-- instructions, bench/per_call.sh). While rules.breakdown.check is the function breakdown.lua
-- writes, its answer is breakdown.outcome_as_written's values; a house rule replacing it is asked, as
-- check_numbers asks it. (The caller checks that mal.check_numbers is as written.)
function mal.check_outcome(mg, original_dr, eff)
  local breakdown = rules.breakdown
  if not breakdown_check_as_written then
    breakdown_check_as_written, breakdown_outcome = breakdown.check_as_written, breakdown.outcome_as_written
  end
  local eliminated, malfunction, low_ammo
  if breakdown.check == breakdown_check_as_written then
    eliminated, malfunction, low_ammo = breakdown_outcome(eff, original_dr)
  else
    local r = breakdown.check(eff, original_dr, mg.name)
    eliminated, malfunction, low_ammo = r.eliminated, r.malfunction, r.low_ammo
  end
  -- (most DRs leave nothing to mark: no call then)
  if eliminated or malfunction or low_ammo then mark(mg, eliminated, malfunction, low_ammo) end
  return eliminated, malfunction
end

-- The functions as this module writes them: mg_attack skips their work (it keeps their answers
-- while the journal is off) only while umpire.rules holds these; a house rule replacing one is
-- asked every time. (mal.conditions' own is `conditions_as_written` above.)
mal.check_as_written, mal.check_numbers_as_written = mal.check, mal.check_numbers
mal.numbers_as_written, mal.conditions_as_written = mal.numbers, conditions_as_written

--- A9.71: a FG with two or more MG. entries: {{mg =, ctx =}...}. Only the MG whose B# (or X#) was rolled are
-- candidates; one candidate is affected automatically, several are chosen by Random Selection (the
-- selected ones malfunction, or are removed if the DR is >= their X#). Returns a map name -> result.
function mal.check_fg(entries, dr)
  local original = type(dr) == "table" and dr.total or dr
  local cands, res = {}, {}
  for _, e in ipairs(entries) do
    local eff = rules.sw_malfunction.numbers(e.mg, e.ctx)  -- (as in mal.check)
    local r = rules.breakdown.check(eff, original, e.mg.name)
    res[e.mg.name] = {malfunctioned = false, removed = false, low_ammo = r.low_ammo, eff = eff}
    if r.low_ammo then e.mg.low_ammo = true end
    if r.eliminated or r.malfunction then cands[#cands + 1] = {name = e.mg.name, mg = e.mg, r = r} end
  end
  if #cands == 0 then return res end
  local sel = cands
  if #cands > 1 then
    cite("A9.71", "FG Original DR %d is >= the B#/X# of %d MG: Random Selection decides which", original, #cands)
    sel = rules.ift.random_selection(cands, "A9.71 multiple MG malfunction")
  else
    cite("A9.71", "FG Original DR %d: only %s's B#/X# was rolled: it is affected automatically", original, cands[1].name)
  end
  for _, c in ipairs(sel) do
    mark(c.mg, c.r.eliminated, c.r.malfunction, c.r.low_ammo)
    res[c.name].malfunctioned = c.r.malfunction
    res[c.name].removed = c.r.eliminated
    cite("A9.71", "%s %s", c.name, c.r.eliminated and "is removed (X#)" or "malfunctions")
  end
  return res
end

--- A9.72: repair attempts during the RPh. unit: {name, good_order (default true), side, kind = "squad"|"hs"|"crew"|"leader"};
-- sws: the malfunctioned SW to try. Returns list of {sw, outcome = "repaired"|"eliminated"|"no change", dr}.
function mal.repair(unit, sws, phase)
  if phase and phase ~= "RPh" then error("A9.72: repair is attempted during the RPh, not the " .. phase) end
  if unit.broken or unit.good_order == false then error("A9.72: only a Good Order unit may attempt repair") end
  local cap = rules.mg_usage.capacity({unit})
  if #sws > cap then
    error(string.format("A9.72: %s may attempt to repair only as many SW as it can fire in one phase (%d)", unit.name, cap))
  end
  local out = {}
  for _, sw in ipairs(sws) do
    if not sw.malfunctioned then error("A9.72: " .. (sw.name or "SW") .. " is not malfunctioned") end
    if sw.gun and unit.kind ~= "crew" then error("A9.72: only a crew (not a Temporary Crew) can attempt to repair a Gun") end
    if sw.repairable == false then error("A9.7: " .. (sw.name or "SW") .. " has no repair side (no white X)") end
    if sw.owner and unit.side and sw.owner ~= unit.side then
      cite("A9.72", "%s is captured: it may never be repaired unless recaptured by its original side", sw.name or "SW")
      out[#out + 1] = {sw = sw, outcome = "not allowed"}
    else
      local d = umpire.dice.d6()
      local o
      if d == 6 then o = "eliminated"; sw.removed = true; sw.malfunctioned = false
      elseif d <= sw.R then o = "repaired"; sw.malfunctioned = false
      else o = "no change" end
      cite("A9.72", "%s repair dr %d vs R%d: %s", sw.name or "SW", d, sw.R, o)
      out[#out + 1] = {sw = sw, outcome = o, dr = d}
    end
  end
  return out
end

--- A9.73: destroy or deliberately malfunction SW instead of firing them (PFPh/DFPh, only as many as the unit
-- could fire, and only SW it could still fire). how = "destroy"|"malfunction". Counts as use of the SW.
function mal.self_destruct(unit, sws, how, phase)
  if phase ~= "PFPh" and phase ~= "DFPh" then error("A9.73: SW self-destruction only during a PFPh/DFPh") end
  local cap = rules.mg_usage.capacity({unit})
  if #sws > cap then error(string.format("A9.73: %s may malfunction/destroy only as many weapons as it could fire (%d)", unit.name, cap)) end
  for _, sw in ipairs(sws) do
    if sw.malfunctioned or sw.fire_counter then error("A9.73: " .. (sw.name or "SW") .. " could not otherwise still be fired") end
    if how == "destroy" then sw.removed = true else sw.malfunctioned = true end
    sw.used = true
    cite("A9.73", "%s %s by %s instead of firing (counts as use of a SW)", sw.name or "SW",
      how == "destroy" and "destroyed" or "deliberately malfunctioned", unit.name)
  end
end

--- A9.74: Random SW/Gun destruction after a Final KIA: a dr on the same IFT column (no DRM from the KIA;
-- -1 if the KIA was a fully-tracked AFV OVR). KIA eliminates, K malfunctions (eliminates if already malfunctioned).
function mal.random_destruction(sw, column, opts)
  opts = opts or {}
  if opts.ordnance then error("not implemented: C11.4-.52 (Gun destruction by ordnance/bomb/DC/OBA)") end
  local d = umpire.dice.d6()
  local drm = opts.tracked_ovr and -1 or 0
  local final = d + drm
  local res = rules.ift.lookup(column, final)
  local e = rules.ift.parse(res)
  local o = "no effect"
  if e.kind == "KIA" then o = "eliminated"; sw.removed = true
  elseif e.kind == "K" then
    if sw.malfunctioned then o = "eliminated"; sw.removed = true else o = "malfunctioned"; sw.malfunctioned = true end
  end
  cite("A9.74", "Random SW Destruction of %s: dr %d%s on the %d column: %s -> %s", sw.name or "SW", d,
    drm ~= 0 and string.format(" %+d (fully-tracked AFV OVR)", drm) or "", column, res, o)
  return o
end

return mal
