-- mg_usage.lua: who may fire SW MG and at what cost (A9.11 MMC usage, A9.12 SMC usage).
-- unit.kind: "squad" | "hs" | "crew" (other MMC) | "leader" | "smc" | "hero".
local usage = {}
-- umpire.cite is fixed for the load generation that loads this module: kept in a local, since every
-- look-up through the read-only `umpire` view costs an attack time (issue 18).
local cite, data = umpire.cite, umpire.data
-- The globals a check calls, held in locals: a global is looked up through the sandbox's
-- environment on each use (≈ 180 instructions against ≈ 10 for a local, bench/per_call.sh).
local ipairs, error = ipairs, error
-- Whether the journal is on (an odds run turns it off): the citations an attack always makes are
-- made only then (each call of umpire.cite still cost an attack ~250 machine instructions with the
-- journal off, where it returns at once: bench/per_call.sh).
local journal_on = umpire.journal.on

local function is_smc(u) return u.kind == "leader" or u.kind == "smc" or u.kind == "hero" end

-- Every attack copies its MG's counter from data/sw_mg.yaml, with the copier umpire.snapshot_copier
-- makes for the counter's data table and its key: a constructor compiled once, holding the counter's
-- values as constants, that LuaJIT makes from its template in one step (a `pairs` loop growing the
-- copy key by key cost more than the rest of the MG's set-up; umpire.copier's constructor, which
-- reads each value at every copy, ~500 machine instructions more than the snapshot's: issue 18). It
-- is kept by the counter's key, with the counter table it was made for: a look-up by a string stays
-- on the interpreter's fast path, where one by a table leaves it (≈ 100 machine instructions more,
-- memo_tree.lua), and a counter table put in place of another under the same key (a write to
-- umpire.data, undone after the run) gets a copier of its own. It depends only on umpire.data,
-- which the rules only read (a reload runs this module again, with an empty cache). Both tables are
-- data caches (umpire.data_cache), emptied by the host after each run: a snapshot holds the values
-- of the run that made it, and a run that changed a data value is refused.
--
-- A counter's `owner` is its own, else its nationality (after the override). The shipped counters
-- have none, so a store of `owner` into every fresh copy added a key to it (≈ 120–200 machine
-- instructions a counter with its reads, bench/per_call.sh): the copier holds it already, as the
-- data gives it (when neither gives a value, the copy has no `owner`, as the store left it), and
-- it is worked out again only after an override of `owner` or `nationality`, by the same
-- expression over the merged copy.
local make_copier, merge = umpire.snapshot_copier, umpire.merge
local copier_of, copied_table_of = umpire.data_cache(), umpire.data_cache()

-- The copier of counter `c` under `key` (see above).
local function counter_copier(key, c)
  local owner = c.owner or c.nationality
  if owner ~= nil then return make_copier({{key = key}, c, {owner = owner}}) end
  -- (no value: the copy has no `owner` at all, as `w.owner = nil` left it; a false owner of the
  -- counter is left out. The counter's own `key` field, if it has one, wins: it comes last)
  local without = {key = key}
  for k, v in pairs(c) do if k ~= "owner" then without[k] = v end end
  return make_copier({without})
end

--- A fresh MG/SW instance from data/sw_mg.yaml (counter data), with fields overridden by `fields`.
function usage.counter(key, fields)
  local c = data.sw_mg.counters[key] or error("mg_usage.counter: no counter '" .. tostring(key) .. "' in data/sw_mg.yaml")
  local copier = copier_of[key]
  if copied_table_of[key] ~= c then
    copier = counter_copier(key, c)
    copier_of[key], copied_table_of[key] = copier, c
  end
  local w = copier()
  if fields then
    -- (umpire.merge: the pairs loop's writes, without its sorted walk for an override of string
    -- keys, ~1,600 machine instructions of an attack's set-up for one key: issue 18)
    merge(w, fields)
    -- (the copy's `owner` changes only with an override of one of the two)
    local owner = fields.owner
    if owner ~= nil or fields.nationality ~= nil then
      if owner == nil then owner = c.owner end
      w.owner = owner or w.nationality
    end
  end
  return w
end

--- How many SW the units together can fire in one phase (used by A9.72 repair, A9.73, A9.8).
function usage.capacity(units)
  local n, smc = 0, 0
  for _, u in ipairs(units) do
    if u.kind == "squad" then n = n + 2
    elseif u.kind == "hs" or u.kind == "crew" then n = n + 1
    elseif u.kind == "hero" then error("not implemented: A15.23 (Hero usage of SW)")
    elseif is_smc(u) then smc = smc + 1
    else error("mg_usage: unknown unit kind '" .. tostring(u.kind) .. "'") end
  end
  -- a single leader fires one SW MG (as Area Fire); two SMC together fire one at full FP (A9.12)
  if smc > 0 then n = n + math.max(1, math.floor(smc / 2)) end
  return n
end

--- A9.2/A9.11: several MMC in one Fire Group, each firing its own SW MG ("whether separately or as part of a
-- FG", A9.2; A9.71 is about exactly such FG). Each MG names its crew with mg.fired_by = the unit's name; without
-- it, MG i goes with MMC i when there are as many of each. Each MMC is then checked alone (A9.11).
-- Returns the usage of each unit, merged: {forfeit = {units}, user_of = {[mg] = unit}, area_fire = false}.
local function check_mmc_group(units, mgs)
  local by_name, groups = {}, {}
  for _, u in ipairs(units) do by_name[u.name] = u; groups[u] = {} end
  local out = {inherent_forfeit = false, area_fire = false, leadership_lost = false, cowering_exempt = false, forfeit = {}, user_of = {}}
  for i, mg in ipairs(mgs) do
    local u = mg.fired_by and by_name[mg.fired_by]
    if mg.fired_by and not u then error(string.format("A9.11: %s is fired by '%s', who is not one of the firing units", mg.name, mg.fired_by)) end
    if not u then
      if #mgs ~= #units then
        error("A9.11: several MMC fire SW MG in one FG: say which fires which (mg.fired_by = the unit's name)")
      end
      u = units[i]
    end
    local g = groups[u]
    g[#g + 1] = mg
    out.user_of[mg] = u
  end
  for _, u in ipairs(units) do
    if #groups[u] > 0 then
      local r = usage.check({u}, groups[u])
      if r.inherent_forfeit then out.forfeit[#out.forfeit + 1] = u end
    end
  end
  cite("A9.2", "%d MMC each fire their own SW MG as one Fire Group", #units)
  return out
end

--- A9.11/A9.12: `units` (one MMC, one or two SMC, or several MMC each firing its own MG) fire `mgs`. Returns
-- {inherent_forfeit, area_fire, leadership_lost, cowering_exempt, forfeit = {units forfeiting Inherent FP},
-- user_of = {[mg] = unit}} or raises an error naming the rule.
function usage.check(units, mgs)
  -- (several units, none of them a SMC: several MMC; one unit needs no look at its kind here)
  if #units > 1 then
    local all_mmc = true
    for _, u in ipairs(units) do if is_smc(u) then all_mmc = false end end
    if all_mmc then return check_mmc_group(units, mgs) end
  end
  -- (`forfeit = nil`: room for the key a squad firing two MG adds; the table is made at its size)
  -- (the usual single MG's map is made with its one key: an empty table grown by one costs more)
  local user_of
  if mgs[2] == nil and mgs[1] ~= nil then
    user_of = {[mgs[1]] = units[1]}
  else
    user_of = {}
    for _, mg in ipairs(mgs) do user_of[mg] = units[1] end
  end
  local out = {inherent_forfeit = false, area_fire = false, leadership_lost = false, cowering_exempt = false,
    user_of = user_of, forfeit = nil}
  if #units == 1 and not is_smc(units[1]) then
    local u = units[1]
    if u.kind == "squad" then
      if #mgs == 1 then
        if journal_on() then cite("A9.11", "%s fires one SW MG at no cost to its own Inherent FP", u.name) end
      elseif #mgs == 2 then
        out.inherent_forfeit = true
        out.forfeit = {u}
        cite("A9.11", "%s fires two SW MG at full FP, forfeiting its Inherent FP for this and any remaining fire phases of the Player Turn", u.name)
      else
        error(string.format("A9.11: a squad may fire at most two SW MG (%s: %d)", u.name, #mgs))
      end
    else
      if #mgs > 1 then error(string.format("A9.11: %s (not a squad) may fire only one SW MG", u.name)) end
      out.inherent_forfeit = true
      out.forfeit = {u}
      cite("A9.11", "%s fires one SW MG with full FP and forfeits its Inherent FP for the remaining fire phases of the Player Turn", u.name)
    end
    return out
  end
  for _, u in ipairs(units) do
    if not is_smc(u) then error("A9.11/A9.12: MMC and SMC crew a SW MG separately") end
    if u.kind == "hero" then error("not implemented: A15.23 (Hero usage of SW)") end
  end
  if #mgs ~= 1 then error("A9.12: SMC may fire only one SW MG") end
  if #units == 1 then
    out.area_fire = true
    cite("A9.12", "%s alone fires the SW MG as Area Fire", units[1].name)
  elseif #units == 2 then
    cite("A9.12", "two SMC stacked together fire the SW MG at full FP")
  else
    error("A9.12: only one or two SMC fire a SW MG")
  end
  for _, u in ipairs(units) do
    if u.kind == "leader" then
      out.leadership_lost = true
      u.leadership_lost = true
      cite("A9.12", "%s fires a SW MG: loses his leadership DRM this fire phase", u.name)
    end
  end
  out.cowering_exempt = true
  cite("A9.12", "a MG fired by SMC is exempt from Cowering")
  return out
end

-- usage.check as this module writes it: mg_attack skips its work (it keeps its answer while the
-- journal is off) only while umpire.rules holds this one; a house rule replacing it is asked every time.
usage.check_as_written = usage.check

return usage
