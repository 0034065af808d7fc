-- The memo of sw_malfunction.numbers (issues 15 and 18): while the journal is off, an MG's effective
-- B#/X#/LA# come from a memo keyed by the content of every value the computation reads. Spec tests
-- run with the journal on, where mal.numbers works the numbers out every time, so each case here
-- compares sw_malfunction.numbers_memoized (what mal.numbers answers with the journal off) with
-- mal.numbers, over random MGs, conditions, users and options drawn from small sets: cases that
-- differ in one value only meet each other in the memo, so a value missing from its key gives a
-- stale answer and fails the comparison.

-- A small generator of our own (a linear congruential one), so the cases are the same every run. It
-- answers from the state's high bits: the low bits of such a generator repeat with a short period.
local function generator(seed)
  local state = seed
  return function(n)
    state = (state * 1103515245 + 12345) % 2147483648
    return math.floor(state / 65536) % n + 1
  end
end

local mal = umpire.rules.sw_malfunction

-- One of the values of a list, or nil (drawn as often as each value).
local function one_of(pick, list)
  local i = pick(#list + 1)
  return list[i]
end

local SIDES = {"german", "russian", "japanese", "finnish", "american", false}
local TYPES = {"LMG", "MMG", "HMG", "FT"}
local KINDS = {"squad", "hs", "crew", "leader"}
local CLASSES = {"conscript", "green", "elite"}
local WINTER = {"axis", "russian", true, false}
local FLAG = {true, false}

-- A random MG: printed numbers and the fields the 001 table's notes read.
local function random_mg(pick)
  local mg = {name = "MG " .. pick(3), type = one_of(pick, TYPES), owner = one_of(pick, SIDES),
    nationality = one_of(pick, SIDES), sustained = one_of(pick, FLAG), captured = one_of(pick, FLAG),
    gun = one_of(pick, FLAG), low_ammo = one_of(pick, FLAG), ammunition_shortage = one_of(pick, FLAG),
    circled = one_of(pick, FLAG)}
  local printed = pick(4)
  if printed == 1 then mg.B = 9 + pick(3)
  elseif printed == 2 then mg.X = 8 + pick(3)
  elseif printed == 3 then mg.B, mg.X = 9 + pick(2), 11 + pick(2) end
  return mg
end

-- A random attack context, with a user or none.
local function random_ctx(pick)
  local ctx = {sustained = one_of(pick, FLAG), intensive = one_of(pick, FLAG), non_qualified = one_of(pick, FLAG),
    inexperienced = one_of(pick, FLAG), leader_present = one_of(pick, FLAG), x_heavy_dust = one_of(pick, FLAG),
    ammunition_shortage = one_of(pick, FLAG), extreme_winter = one_of(pick, WINTER)}
  if pick(4) > 1 then
    ctx.user = {name = "unit " .. pick(3), side = one_of(pick, SIDES), kind = one_of(pick, KINDS),
      class = one_of(pick, CLASSES), elite = one_of(pick, FLAG), non_qualified = one_of(pick, FLAG),
      inexperienced = one_of(pick, FLAG)}
  end
  if pick(5) == 1 then return nil end
  return ctx
end

-- A call's answer, or its error, as a value to compare.
local function outcome(f, mg, ctx)
  local fine, r = pcall(f, mg, ctx)
  if fine then return {numbers = r} end
  return {error = tostring(r)}
end

test("sw_malfunction.numbers_memoized gives mal.numbers' numbers (and errors), 3,000 random MGs, conditions, users and options", function()
  local pick = generator(20261124)
  local options = umpire.data.options
  local japanese, base = options.japanese_non_crew_mg, options.ammo_shortage_penalty_base
  local hits, kinds = 0, {}
  for case = 1, 3000 do
    options.japanese_non_crew_mg = pick(2) == 1 and "any" or "japanese"
    options.ammo_shortage_penalty_base = pick(2) == 1 and "printed" or "twelve"
    local mg, ctx = random_mg(pick), random_ctx(pick)
    local want = outcome(mal.numbers, mg, ctx)
    -- twice: the first call may fill the memo, the second reads it
    for _ = 1, 2 do
      local got = outcome(mal.numbers_memoized, mg, ctx)
      eq(got, want, string.format("case %d", case))
    end
    if want.numbers then
      local shape = (want.numbers.LA and "LA" or "") .. (want.numbers.B and "B" or "") .. (want.numbers.X and "X" or "")
      if not kinds[shape] then kinds[shape] = true hits = hits + 1 end
    end
  end
  options.japanese_non_crew_mg, options.ammo_shortage_penalty_base = japanese, base
  -- the cases reach every form of the numbers the 001 notes give: B, B/X, X, LA/B, LA/B/X, LA/X
  ok(hits >= 5, "the cases met " .. hits .. " forms of the numbers")
end)

test("sw_malfunction.numbers_memoized: the caller's copy is its own (changing it changes no later answer)", function()
  local mg = umpire.rules.mg_usage.counter("ger_mmg")
  local ctx = {sustained = true, user = {name = "German 4-6-7", kind = "squad", side = "german"}}
  local first = mal.numbers_memoized(mg, ctx)
  first.B, first.X = 2, 3
  eq(mal.numbers_memoized(mg, ctx), mal.numbers(mg, ctx))
  eq(mal.numbers(mg, ctx), {B = 9, X = 11})
end)

test("with the journal on, an attack cites as before the memo was filled", function()
  local function attack_lines()
    local from = umpire.journal.size() + 1
    local mmg = umpire.rules.mg_usage.counter("ger_mmg", {fire_counter = "First Fire"})
    local squad = {name = "German 4-6-7", kind = "squad", fp = 4, range = 6}
    umpire.dice.fix({3, 4})
    umpire.rules.mg_attack.fire({label = "MMG + squad FG, Sustained Fire", phase = "MPh", side = "DEFENDER",
      subsequent_first_fire = true, crew = {squad}, units = {squad}, mgs = {mmg}, range = 3,
      drm = {umpire.rules.ift.drm_entry("ffnam")}, target = {units = {}, location = "target", mf = 1}})
    return umpire.journal.lines(from)
  end
  local before = attack_lines()
  -- the memo filled with this very MG and context
  local squad = {name = "German 4-6-7", kind = "squad", fp = 4, range = 6}
  mal.numbers_memoized(umpire.rules.mg_usage.counter("ger_mmg", {fire_counter = "First Fire"}), {sustained = true, user = squad})
  eq(attack_lines(), before)
  -- what an attack with Sustained Fire cites (A9.3, the A9.11 usage, A.11's B#/X#, the IFT column)
  for _, rule in ipairs({"A9.11", "A9.3", "A.11", "A7.31", "A7.3"}) do ok(umpire.journal.cited(rule), rule .. " is cited") end
end)
