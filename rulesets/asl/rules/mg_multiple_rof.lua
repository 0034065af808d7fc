-- mg_multiple_rof.lua: A9.2 Multiple ROF played out: an MG attack (mg_attack.fire) repeated while
-- every MG keeps its Multiple ROF (Original coloured dr <= ROF) and none has malfunctioned or been
-- removed (A9.7). A9.2: the additional shots are the MG's alone, so units adding Inherent FP
-- (spec.units) fire with the first shot only.
--
-- The shots are an umpire.odds.chain: in a game a plain loop, under `umpire odds` folded over
-- distinct states, so n shots cost n times the distinct states instead of 36^n paths.
-- The chain's state is everything a shot reads and changes: the attack spec with its MG and crew
-- tables, and the caller's tally. The first shot is the chain's `first` step: its spec may share
-- unit tables between `crew` and `units` (mg_attack compares them by identity), which plain-data
-- state cannot carry, so it fires a copy of the caller's spec (sharing kept) and puts the later
-- shots' spec in the state; from the second shot on `units` is empty. Being the chain's first step
-- rather than a shot before the chain, it is enumerated once with the chain instead of the script
-- being re-run for every end state of the chain on each of its 36 paths; max_shots and epsilon
-- count from the second shot, as they did when the first shot came before the chain.
local mr = {}
-- (umpire.rules is looked up at each call, not held in an upvalue: under `umpire odds` the chain's
-- steps are fingerprinted with their upvalues, functions' upvalues included, and the rules' table
-- as one costs more than the look-ups it saves: an exact run of odds_mmg_rof_kia.lua took 1.7
-- times the instructions with it)
local function R() return umpire.rules end

-- Whether every MG of the attack may fire again (A9.2 ROF kept, A9.7 not malfunctioned/removed).
-- attack.mg holds one result by name for each MG of `mgs` that fired (none when the attack had no
-- DR): they are visited through `mgs`, in its order, without the sandbox's ordered `pairs` (≈ 1,500
-- instructions a shot); the answer does not depend on the order.
local function again(attack, mgs)
  local any = false
  local results = attack.mg
  for i = 1, #mgs do
    local r = results[mgs[i].name]
    if r then
      any = true
      if not r.keeps_rof or r.malfunctioned or r.removed then return false end
    end
  end
  return any
end

-- A copy of a table (`value`) of plain data and rule tables: tables without a metatable are copied,
-- and a table met twice is copied once, so the copy shares what the original shares; tables with a
-- metatable (hexes, the rules' read-only data) are kept.
-- (the globals it calls are held in locals, and a key or value that is not a table is kept without
-- a call: a spec with its MG counter holds about a hundred of them, and each global look-up through
-- the sandbox's environment costs ≈ 180 instructions; the copy cost ≈ 95,000 a chain before)
local type, getmetatable, pairs, ipairs = type, getmetatable, pairs, ipairs
-- A shallow copy made by the engine (umpire.copy, fixed for the load generation like umpire.rules):
-- the same table as a `pairs` loop copying each key, without the sandbox's ordered walk (≈ 800
-- instructions a key; umpire.copy makes a copy of ten keys in ≈ 3,000).
local shallow_copy = umpire.copy
local function copy(value, copies)
  if getmetatable(value) ~= nil then return value end
  local c = copies[value]
  if c then return c end
  c = {}
  copies[value] = c
  for k, v in pairs(value) do
    if type(k) == "table" then k = copy(k, copies) end
    if type(v) == "table" then v = copy(v, copies) end
    c[k] = v
  end
  return c
end

--- Fires `spec` (as mg_attack.fire) and again while the MG(s) keep Multiple ROF (A9.2).
-- opts.tally = {plain data}: what the caller counts, starting values; opts.count(tally, attack, shot)
-- adds one attack to it. opts.max_shots caps the shots (the question asked, not a rule of A9.2);
-- without it a game fires until ROF is lost, and `umpire odds` stops once the probability of
-- still firing after the first shot is below opts.epsilon (default 1e-9) and reports that mass as
-- truncated. The MG, crew and target unit tables of spec end as the last shot left them.
-- Returns tally, shots, truncated.
function mr.fire(spec, opts)
  opts = opts or {}
  local count = opts.count or function() end
  local max_shots = opts.max_shots or 1000
  if max_shots <= 1 then  -- one shot: nothing to chain
    local tally = opts.tally or {}
    count(tally, R().mg_attack.fire(spec), 1)
    return tally, 1, false
  end
  local label = spec.label or "MG attack"
  local state, cut = umpire.odds.chain{
    state = {tally = opts.tally or {}},
    first = function(s)
      local fired = copy(spec, {})
      local attack = R().mg_attack.fire(fired)
      count(s.tally, attack, 1)
      local later = shallow_copy(fired)
      later.units = {}
      later.target = fired.target and shallow_copy(fired.target) or {}
      return {spec = later, tally = s.tally, shots = 1, again = again(attack, fired.mgs or {})}
    end,
    step = function(s)
      s.shots = s.shots + 1
      s.spec.label = label .. ", shot " .. s.shots
      local attack = R().mg_attack.fire(s.spec)
      count(s.tally, attack, s.shots)
      s.again = again(attack, s.spec.mgs or {}) and s.shots < max_shots
    end,
    stop = function(s) return not s.again end,
    max_steps = max_shots - 1,
    epsilon = opts.epsilon or 1e-9,
  }
  -- The chain fired copies: the caller's MG, crew and target unit tables take its end state.
  for i, mg in ipairs(spec.mgs or {}) do umpire.odds.write_back(mg, state.spec.mgs[i]) end
  for i, u in ipairs(spec.crew or {}) do umpire.odds.write_back(u, state.spec.crew[i]) end
  for i, u in ipairs((spec.target or {}).units or {}) do umpire.odds.write_back(u, state.spec.target.units[i]) end
  return state.tally, state.shots, cut
end

return mr
