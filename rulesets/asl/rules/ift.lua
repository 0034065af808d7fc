-- ift.lua: the Infantry Fire Table as far as chapter A9 needs it (A7.2-A7.3, A8.2, Random Selection).
-- FP columns (next lower column, A7.31), the DRM pipeline with citations, Original DR and coloured dr,
-- Area Fire halving (A7.23), PBF/TPBF (A7.21/A7.212), long range (A7.22), Residual FP (A8.2/A8.26),
-- KIA/K/MC/PTC results and a minimal Morale/Pin Task Check so that the A9 examples can say what a
-- result did (A10 itself is outside this chapter and only as deep as the examples need).
local ift = {}
-- umpire.cite, umpire.data and umpire.rules are fixed for the load generation that loads this module: kept in a local, since every
-- look-up through the read-only `umpire` view costs an attack time (issue 18).
local cite, data, rules = umpire.cite, umpire.data, umpire.rules
-- The same for the ASL DR and the sum of a DRM list. umpire.dice is a read-only view, opened once
-- per state (bindings/api_modules.cpp) and never written after: a look-up of `dice.dr` through it
-- at each attack cost ≈ 155 machine instructions more than an upvalue (bench/per_call.sh), for
-- the same function.
local dice, total_of = umpire.dice, umpire.bus.total_of
local roll_dr = dice.dr
-- Whether the journal is on (an odds run turns it off): the hot paths below read it once and make
-- no citation call while it is off, when umpire.cite would return at once (each call still cost an
-- attack ~400 machine instructions: a vararg call and its checks).
local journal_on = umpire.journal.on
-- What a missing list reads as: one shared empty table, never written (a fresh `{}` per loop cost an
-- allocation each time an attack ran).
local NONE = {}

-- Every attack finds its column (A7.31) and its printed result (A7.3) in data/ift.yaml, which is
-- read-only once loaded, so what the look-ups need is worked out once per `data.ift` table and
-- kept (`seen.ift` is the table it was worked out for; a reload brings a new one; `seen` is a data
-- cache, umpire.data_cache, which the host empties after each run, so that nothing worked out
-- from a table a run changed outlives that run):
--   column_of: FP -> column, filled in as FPs are met;
--   index_of:  column -> its position in `columns` (a repeated column: the last one, as a scan finds);
--   result_at: column -> {Final DR row 0..15 -> printed result}, the results table turned on its side
--              so that an attack's result is two look-ups (before: the position, the row, then the
--              entry, and the `data.ift` look-ups around them, ~640 machine instructions an attack).
local seen = umpire.data_cache()
local column_of, index_of, result_at

local function ift_tables(tables)
  seen.ift, column_of, index_of, result_at = tables, {}, {}, {}
  local cols, results = tables.columns, tables.results
  for i, c in ipairs(cols) do index_of[c] = i end
  for _, c in ipairs(cols) do
    local idx, by_row = index_of[c], {}
    for row = 0, 15 do
      -- (a missing row, or table, stays nil here: the look-up then raises its error, as before)
      local res = results and (results[row] or results[tostring(row)])
      if res then by_row[row] = res[idx] end
    end
    result_at[c] = by_row
  end
end

--- The IFT column for an FP: the column itself or the next LOWER one (A7.31); 0 if below the 1 column.
local function column(fp)
  local tables = data.ift
  if tables ~= seen.ift then ift_tables(tables) end
  local best = column_of[fp]
  if best then return best end
  best = 0
  for _, c in ipairs(tables.columns) do if fp >= c then best = c end end
  if fp == fp then column_of[fp] = best end  -- (NaN is no key)
  return best
end
ift.column = column

--- The column one to the left of a column (1 -> 0: no FP left). Used by Residual FP (A8.2) and Fire Lanes (A9.22).
function ift.column_left(col, n)
  n = n or 1
  local tables = data.ift
  if tables ~= seen.ift then ift_tables(tables) end
  local cols = tables.columns
  local idx = index_of[col] or 0  -- (the column's position, as a scan of `cols` finds it)
  if col ~= 0 and idx == 0 then error("ift.column_left: " .. tostring(col) .. " is not an IFT column") end
  idx = idx - n
  if idx < 1 then return 0 end
  return cols[idx]
end

-- The printed result read from the table as written: for the look-ups `result_at` cannot answer
-- (no such column, a row missing from the data), with their errors as before. (The spec
-- rulesets/asl/tests/a9_ift.lua reads every column and row from the data itself and checks
-- ift.lookup against it.)
local function lookup_written(col, final_dr)
  local tables = data.ift
  if tables ~= seen.ift then ift_tables(tables) end
  local idx = index_of[col]
  if not idx then error("ift.lookup: no IFT column " .. tostring(col)) end
  local row = final_dr
  if row > 15 then row = 15 end
  if row < 0 then row = 0 end
  local results = tables.results
  local res = results[row] or results[tostring(row)]
  return res[idx]
end

--- The printed result for a column and a Final DR (rows 0 = "<= 0" and 15 = ">= 15").
local function lookup(col, final_dr)
  local tables = data.ift
  if tables ~= seen.ift then ift_tables(tables) end
  local by_row = result_at[col]
  local row = final_dr
  if row > 15 then row = 15 end
  if row < 0 then row = 0 end
  local res = by_row and by_row[row]
  if res == nil then return lookup_written(col, final_dr) end
  return res
end
ift.lookup = lookup

local function parse_result(res)
  if res == "-" then return {kind = "none", n = 0} end
  local n = res:match("^(%d+)KIA$"); if n then return {kind = "KIA", n = tonumber(n)} end
  n = res:match("^K/(%d+)$"); if n then return {kind = "K", n = tonumber(n)} end
  n = res:match("^(%d+)MC$"); if n then return {kind = "MC", n = tonumber(n)} end
  if res == "NMC" then return {kind = "MC", n = 0} end
  if res == "PTC" then return {kind = "PTC", n = 0} end
  error("ift.parse: unknown IFT result '" .. tostring(res) .. "'")
end

-- The few printed results are parsed once each (string patterns cost an attack more than the
-- rest of its IFT step); each call still gets a table of its own, which the caller may change.
local parsed = {}

local function parsed_once(res)
  local p = parse_result(res)
  parsed[res] = p
  return p
end

--- Parse a printed result into {kind = "KIA"|"K"|"MC"|"PTC"|"none", n = number}.
function ift.parse(res)
  local p = parsed[res] or parsed_once(res)
  return {kind = p.kind, n = p.n}
end

-- The usual call of drm_entry (a key, no value, no note) makes the same entry from the data every
-- time, so its table is made by a snapshot copier (umpire.snapshot_copier: a constructor holding the
-- entry's values as constants, one template copy; the six-field constructor that reads them cost
-- ≈ 450 machine instructions more an entry, issue 18), kept by the key with the data entry it was made
-- from (an entry put in place of another under the same key gets a copier of its own). Both are data
-- caches (umpire.data_cache), emptied by the host after each run, so a copy holds the values of the
-- run that made it (a run that changed a data value is refused); a reload runs this module again.
local snapshot_copier = umpire.snapshot_copier
local entry_copier_of, entry_data_of = umpire.data_cache(), umpire.data_cache()

--- One DRM entry from data/drm.yaml: {value, source, rule, kind, lane}; `value` overrides the data value.
function ift.drm_entry(key, value, note)
  local e = data.drm[key] or error("ift.drm_entry: no DRM source '" .. tostring(key) .. "' in data/drm.yaml")
  if value == nil and note == nil and e.value ~= nil then
    if entry_data_of[key] ~= e then
      entry_copier_of[key] = snapshot_copier({{value = e.value, source = e.text, rule = e.cite,
        kind = e.kind or key, lane = e.lane, key = key}})
      entry_data_of[key] = e
    end
    return entry_copier_of[key]()
  end
  local v = value
  if v == nil then v = e.value end
  if v == nil then error("ift.drm_entry: DRM source '" .. key .. "' needs a value") end
  return {value = v, source = note or e.text, rule = e.cite, kind = e.kind or key, lane = e.lane, key = key}
end

--- Sum a list of DRM entries through the engine's modifier pipeline (every step journaled with its citation;
-- a 0 DRM is left out). Returns the total and, when the journal is on, the pipeline (what `--explain`
-- prints); with the journal off (odds runs) the sum is made without one (umpire.bus.total_of).
function ift.drm(list, name)
  return total_of(name or "IFT DRM", list or NONE)
end

-- A firer's FP halved once for each Area Fire reason of a list (A7.23).
local function halved_by_area(fp, firer, reasons)
  local journaling = journal_on()
  for _, reason in ipairs(reasons) do
    fp = fp / 2
    if journaling then
      cite(reason.rule or "A7.23", "%s: Area Fire (%s), FP halved to %s", firer.name or "firer", reason.why, fp)
    end
  end
  return fp
end

--- The FP a firer brings to an attack (A7.2): printed FP, halved beyond Normal Range (A7.22; NA beyond
-- twice Normal Range), doubled PBF / tripled TPBF (A7.21/A7.212), halved for each Area Fire reason (A7.23).
-- firer: {name, fp, range (Normal Range)}; ctx: {range, area = {reasons...}, no_long_range_fire}.
-- Fractions are kept: a Fire Group adds them before the column is chosen.
-- (firer_fp takes the range and the attack's Area Fire reasons as arguments: `resolve` calls it for
-- every firer of every attack, and a context table for each call was an allocation per firer.)
local function firer_fp(firer, range, attack_area)
  local fp = firer.fp
  if range then
    if firer.range and range > firer.range then
      if range > 2 * firer.range then
        error(string.format("A7.22: %s cannot fire at range %d (Normal Range %d)", firer.name or "firer", range, firer.range))
      end
      fp = fp / 2
      cite("A7.22", "%s at range %d beyond Normal Range %d: FP halved to %s", firer.name or "firer", range, firer.range, fp)
    end
    if range == 0 then
      fp = fp * 3
      cite("A7.212", "%s TPBF (same Location): FP tripled to %s", firer.name or "firer", fp)
    elseif range == 1 then
      fp = fp * 2
      cite("A7.21", "%s PBF (adjacent): FP doubled to %s", firer.name or "firer", fp)
    end
  end
  -- (most firers and attacks have no Area Fire reason: no loop is entered for them)
  if firer.area then fp = halved_by_area(fp, firer, firer.area) end
  if attack_area then fp = halved_by_area(fp, firer, attack_area) end
  return fp
end

function ift.firer_fp(firer, ctx)
  return firer_fp(firer, ctx.range or firer.at_range, ctx.area)
end

--- Roll (or take) the DR of an attack. The coloured die is kept apart: it is the ROF dr (A9.2).
function ift.roll(dr)
  dr = dr or roll_dr()
  return dr
end

-- The name of an attack's DRM pipeline, "<label> DRM", made once per label: building the string
-- was an allocation per attack. A memo of a pure function of the label (nothing in it depends on
-- a roll or on the state), kept to a few hundred labels.
local drm_name_of, drm_names = {}, 0
local function drm_name(label)
  local name = drm_name_of[label]
  if name then return name end
  name = label .. " DRM"
  if drm_names < 256 then
    drm_names = drm_names + 1
    drm_name_of[label] = name
  end
  return name
end

-- An attack in two halves: its FP and column (A7.2, A7.31), which no die decides, then its DRM,
-- DR and result. A rule that knows the first half already (mg_attack keeps it for an MG attack
-- while the journal is off) calls ift.resolve_column alone; ift.resolve calls both.

-- The FP of an attack's firers (A7.2, with its citations) and its IFT column (A7.31).
local function firepower(spec)
  local fp = spec.fp
  if not fp then
    fp = 0
    local range, area = spec.range, spec.area
    for _, f in ipairs(spec.firers) do fp = fp + firer_fp(f, f.at_range or range, area) end
  end
  return fp, column(fp)
end

--- The second half of ift.resolve, for an attack of `fp` FP on column `col` (as ift.column gives
-- it): the column cited (A7.31), the DRM list `drm_list` summed, the DR (`dr`, or rolled) and the
-- printed result. Returns ift.resolve's table without `residual`. `journaling`: whether the journal
-- is on, given by a caller that has just asked umpire.journal.on (which no rule code can change
-- during a run); nil, the function asks (a call ≈ 105 machine instructions interpreted, issue 18).
function ift.resolve_column(label, drm_list, dr, fp, col, journaling)
  -- (`%s` formats a number as tostring does; the FP is passed as it is, so that no string is made
  -- unless the journal is on)
  if col == 0 then
    cite("A7.31", "%s: %s FP is below the 1 column: no attack", label, fp)
    return {fp = fp, column = 0, result = "-", effect = {kind = "none", n = 0}, drm = 0}
  end
  if journaling == nil then journaling = journal_on() end
  if journaling then cite("A7.31", "%s: %s FP uses the %d column", label, fp, col) end
  -- ift.drm and ift.roll written out (a call each an attack); the pipeline's name is read only by
  -- the journal, so it is made only for it
  local drm, pipeline = total_of(journaling and drm_name(label) or "IFT DRM", drm_list or NONE)
  dr = dr or roll_dr()
  local final = dr.total + drm
  local res = lookup(col, final)
  if journaling then
    cite("A7.3", "%s: Original DR %d (coloured %d, white %d) %s = Final DR %d on the %d column: %s",
      label, dr.total, dr.colored, dr.white, pipeline, final, col, res == "-" and "No Effect" or res)
  end
  local parsed_res = parsed[res] or parsed_once(res)  -- (ift.parse written out)
  return {fp = fp, column = col, drm = drm, drm_list = drm_list, dr = dr, original = dr.total, colored = dr.colored,
    final_dr = final, result = res, effect = {kind = parsed_res.kind, n = parsed_res.n}}
end

--- Resolve one IFT attack.
-- spec = {label, firers = {firer...}, range, area = {reasons}, drm = {entries}, dr = DR table (optional),
--         fp = number (optional, skips firer FP: e.g. Residual FP), residual_of = {firers leaving Residual FP}}
-- returns {fp, column, drm, dr, original, colored, final_dr, result, effect, residual}
function ift.resolve(spec)
  local fp, col = firepower(spec)
  -- (through umpire.rules, as mg_attack calls it: a house rule replacing the second half is seen
  -- by both)
  local out = rules.ift.resolve_column(spec.label or "attack", spec.drm, spec.dr, fp, col)
  if col ~= 0 and spec.residual_of then out.residual = ift.residual(spec.residual_of, spec, out) end
  return out
end
-- (what mg_attack checks before it skips the first half: see ift.resolve_column; and the second
-- half as written, whose attack's `original` is its DR's total)
ift.resolve_as_written, ift.resolve_column_as_written = ift.resolve, ift.resolve_column

-- The DRM kinds that shift Residual FP (options.residual_shift_kinds, A8.26) as a set, made once per
-- options table (read-only once loaded; a reload brings a new one) instead of at every attack.
local options_seen, shift_kind_set
local function shift_kinds(options)
  if options ~= options_seen then
    local set = {}
    for _, k in ipairs(options.residual_shift_kinds or NONE) do set[k] = true end
    options_seen, shift_kind_set = options, set
  end
  return shift_kind_set
end

--- Residual FP (A8.2): one column to the left of the column of the FP that leaves it, and one more column to
-- the left for each +1 DRM of the kinds in options.residual_shift_kinds (A8.26; the A9.222 EX: a 4 FP squad
-- with +1 grain and -1 leadership leaves 1 Residual FP; CX would have left 0). A MG establishing a Fire Lane
-- leaves its Residual FP as the Fire Lane instead (A9.22), so the caller passes only the other firers.
function ift.residual(firers, spec, attack)
  local fp = 0
  for _, f in ipairs(firers) do fp = fp + firer_fp(f, f.at_range or spec.range, spec.area) end
  local col = column(fp)
  local res = ift.column_left(col)
  local shift = 0
  local kinds = shift_kinds(data.options)
  for _, e in ipairs(spec.drm or NONE) do
    if kinds[e.kind] and e.value > 0 then shift = shift + e.value end
  end
  if shift > 0 then res = ift.column_left(res, shift) end
  -- A8.21: Residual FP is the column left of the one used; A8.26: each +1 Hindrance/CX DRM of the attack shifts it
  -- one more column left (the 9.222 EX cites "8.21; 8.26" for exactly this).
  if journal_on() then
    cite("A8.21", "Residual FP: %s FP (the %d column) leaves %d Residual FP%s", tostring(fp), col, res,
      shift > 0 and string.format(" (one column left, then %d more for the +%d Hindrance/CX DRM, A8.26)", shift, shift) or "")
  end
  return res
end

--- Random Selection: a dr for each candidate, the highest is selected;
-- (The seeds say only "a Random Selection dr" (A9.71 EX); "A.9" is the standard ASL section for Random
-- Selection, cited from the rulebook's numbering, not from the seed texts.)
-- ties select all tied (options.random_selection_ties = "all") or re-roll ("reroll").
function ift.random_selection(candidates, why)
  if #candidates == 0 then return {} end
  if #candidates == 1 then return {candidates[1]} end
  while true do
    local best, sel, rolls = -1, {}, {}
    for i, c in ipairs(candidates) do
      local d = umpire.dice.d6()
      rolls[#rolls + 1] = string.format("%s dr %d", c.name or ("#" .. i), d)
      if d > best then best, sel = d, {c} elseif d == best then sel[#sel + 1] = c end
    end
    if #sel == 1 or data.options.random_selection_ties ~= "reroll" then
      local names = {}
      for _, c in ipairs(sel) do names[#names + 1] = c.name or "?" end
      cite("A.9", "Random Selection%s: %s; selected %s", why and (" (" .. why .. ")") or "", table.concat(rolls, ", "), table.concat(names, " and "))
      return sel
    end
  end
end

--- Random Selection of exactly n of the candidates (an nKIA vs more than n units, A7.301): a dr for each, the
-- n highest are selected; candidates tied across the cut roll again among themselves for the places left.
-- (random_selection keeps only the highest dr, which under-counts an nKIA: 2KIA vs 3 units must eliminate two.)
-- Ties are rolled again at most MAX_REROLLS times; units still tied then are taken in the order given. This
-- bounds the dice an odds run enumerates (an unbounded re-roll is an infinite tree: `umpire odds` overflowed),
-- at a cost of (ties)^4 in probability, which the journal names when it happens.
local MAX_REROLLS = 3
function ift.random_selection_n(candidates, n, why, depth)
  depth = depth or 0
  if n >= #candidates then return candidates end
  if n <= 0 then return {} end
  if depth > MAX_REROLLS then
    local names, sel = {}, {}
    for i = 1, n do sel[i] = candidates[i]; names[i] = candidates[i].name or "?" end
    cite("A.9", "Random Selection (%s): still tied after %d re-rolls: %s taken in the order given",
      why or "", MAX_REROLLS, table.concat(names, " and "))
    return sel
  end
  local rolled, rolls = {}, {}
  for i, c in ipairs(candidates) do
    local d = umpire.dice.d6()
    rolled[#rolled + 1] = {c = c, d = d, i = i}
    rolls[#rolls + 1] = string.format("%s dr %d", c.name or ("#" .. i), d)
  end
  -- stable order: by dr, highest first, then by the given order (pairs/sort order never decides)
  table.sort(rolled, function(a, b) if a.d ~= b.d then return a.d > b.d end return a.i < b.i end)
  local cut = rolled[n].d
  local sel, tied = {}, {}
  for _, r in ipairs(rolled) do
    if r.d > cut then sel[#sel + 1] = r.c elseif r.d == cut then tied[#tied + 1] = r.c end
  end
  local names = {}
  for _, c in ipairs(sel) do names[#names + 1] = c.name or "?" end
  cite("A.9", "Random Selection (%s): %s; selected %s%s", why or "", table.concat(rolls, ", "),
    #names > 0 and table.concat(names, " and ") or "none yet",
    #sel + #tied > n and string.format("; %d tied at dr %d roll again for %d place(s)", #tied, cut, n - #sel) or "")
  if #sel + #tied > n then
    for _, c in ipairs(ift.random_selection_n(tied, n - #sel, why, depth + 1)) do sel[#sel + 1] = c end
  else
    for _, c in ipairs(tied) do sel[#sel + 1] = c end
  end
  return sel
end

--- Minimal Morale Check (outside A9; only as deep as the A9 examples need): Final DR > ML breaks the unit,
-- Final DR = ML pins it (A10.2). `n` is the +n of an nMC, `drm` the leadership DRM of a leader in the Location.
function ift.morale_check(unit, n, drm, dr)
  dr = dr or roll_dr()
  local final = dr.total + (n or 0) + (drm or 0)
  local out
  if final > unit.morale then out = "broken"; unit.broken = true
  elseif final == unit.morale then out = "pinned"; unit.pinned = true
  else out = "passed" end
  local rule = data.drm.morale.cite
  if journal_on() then
    cite(rule, "%s %dMC: DR %d %+d = %d vs morale %d: %s", unit.name, n or 0, dr.total, (n or 0) + (drm or 0), final, unit.morale, out)
  end
  return out
end

--- Minimal Pin Task Check (A7.8; outside A9): Final DR > ML pins.
function ift.pin_task_check(unit, drm, dr)
  dr = dr or roll_dr()
  local final = dr.total + (drm or 0)
  local out = final > unit.morale and "pinned" or "passed"
  if out == "pinned" then unit.pinned = true end
  local rule = data.drm.ptc.cite
  if journal_on() then
    cite(rule, "%s PTC: DR %d %+d = %d vs morale %d: %s", unit.name, dr.total, drm or 0, final, unit.morale, out)
  end
  return out
end

--- Apply an IFT result to the units of a target Location (A7.3). units: {name, morale, leader = drm or nil,
-- sw = {weapons possessed}}. Returns the list of {unit, outcome}. A Final KIA triggers Random SW
-- Destruction (A9.74) for the SW of each unit it eliminates.
function ift.apply(attack, units, opts)
  opts = opts or NONE  -- (read only, here and by random_destruction)
  local e = attack.effect
  local out = {}
  local leader_drm = 0
  for _, u in ipairs(units) do if u.leadership and not u.broken and not u.pinned then leader_drm = math.min(leader_drm, u.leadership) end end
  if e.kind == "KIA" then
    local victims = units
    if e.n < #units then victims = ift.random_selection_n(units, e.n, string.format("%dKIA", e.n)) end
    for _, u in ipairs(victims) do
      u.eliminated = true
      out[#out + 1] = {unit = u, outcome = "eliminated"}
      -- A7.301 (KIA) and A7.302 (K/#) are the standard ASL IFT-result sections; the seeds do not quote
      -- them (they mention only "Final KIA result", A9.74). Kept, flagged as not seed-supported.
      cite("A7.301", "%s: %s eliminated", attack.result, u.name)
      for _, sw in ipairs(u.sw or NONE) do rules.sw_malfunction.random_destruction(sw, attack.column, opts) end
    end
  elseif e.kind == "K" then
    local hit = ift.random_selection(units, "K/" .. e.n)[1]
    hit.reduced = true
    cite("A7.302", "%s: %s Casualty Reduced", attack.result, hit.name)
    out[#out + 1] = {unit = hit, outcome = "reduced"}
    for _, u in ipairs(units) do
      if u ~= hit then out[#out + 1] = {unit = u, outcome = ift.morale_check(u, e.n, u.leadership and 0 or leader_drm)} end
    end
  elseif e.kind == "MC" then
    for _, u in ipairs(units) do
      out[#out + 1] = {unit = u, outcome = ift.morale_check(u, e.n, u.leadership and 0 or leader_drm)}
    end
  elseif e.kind == "PTC" then
    for _, u in ipairs(units) do out[#out + 1] = {unit = u, outcome = ift.pin_task_check(u, u.leadership and 0 or leader_drm)} end
  end
  return out
end

return ift
