-- The short ways the MG attack takes for speed (issue 18) give what the rules give, checked against the
-- rules' numbers written out here: mg_attack.fire for one MG passes its own attack context as the
-- breakdown context (sw_malfunction.conditions must see only the MG's crew and Sustained Fire in it),
-- and mg_multiple_rof reads whether the MGs fire again through the attack's MG list, not `pairs`.

local COUNTERS = {"ger_lmg", "ger_mmg", "ger_hmg", "rus_lmg", "rus_mmg", "us_lmg"}
local KINDS = {"squad", "hs", "crew"}

-- The 001 table's rows these cases can hold (A9.3 Sustained Fire -2, A21.11 Captured -2, A19.32 a
-- Conscript firer is Inexperienced, -1) and A.11: with any of them, the printed B# becomes the X#.
local function expected(counter, sustained, captured, conscript, colored, white)
  local penalty = (sustained and 2 or 0) + (captured and 2 or 0) + (conscript and 1 or 0)
  local B, X = counter.B, nil
  if penalty > 0 then B, X = counter.B - penalty, counter.B end
  local dr = colored + white
  local removed = X ~= nil and dr >= X
  local malfunctioned = not removed and dr >= B
  -- A9.3: Sustained Fire forfeits further shots; A9.2: otherwise coloured dr <= ROF keeps it
  local keeps = not sustained and not removed and not malfunctioned and colored <= counter.rof
  return {malfunctioned = malfunctioned, removed = removed, keeps_rof = keeps}
end

test("mg_attack.fire, one MG: malfunction, removal and ROF as A9.2/A9.3/A9.7 and the 001 table give them, 300 random attacks", function()
  local pick = seeded_random(20261124)
  local seen = {malfunctioned = 0, removed = 0, keeps_rof = 0}
  for case = 1, 300 do
    local key = COUNTERS[pick(#COUNTERS)]
    local counter = umpire.data.sw_mg.counters[key]
    local sustained, captured, conscript = pick(2) == 1, pick(3) == 1, pick(3) == 1
    local crew = {name = "firer", kind = KINDS[pick(#KINDS)], fp = 2, range = 4,
      side = captured and (counter.nationality == "german" and "russian" or "german") or counter.nationality,
      class = conscript and "conscript" or nil}
    local mg = umpire.rules.mg_usage.counter(key, sustained and {fire_counter = "First Fire"} or nil)
    local colored, white = pick(6), pick(6)
    umpire.dice.fix({colored, white})
    local a = umpire.rules.mg_attack.fire({label = "case " .. case, phase = sustained and "MPh" or "PFPh",
      side = sustained and "DEFENDER" or "ATTACKER", subsequent_first_fire = sustained or nil,
      crew = {crew}, units = {}, mgs = {mg}, range = 2, target = {units = {}, location = "target", mf = 1}})
    local r = a.mg[mg.name]
    local want = expected(counter, sustained, captured, conscript, colored, white)
    eq({malfunctioned = r.malfunctioned, removed = r.removed, keeps_rof = r.keeps_rof}, want,
      string.format("case %d: %s, sustained %s, captured %s, conscript %s, DR %d+%d", case, key,
        tostring(sustained), tostring(captured), tostring(conscript), colored, white))
    for k in pairs(seen) do if want[k] then seen[k] = seen[k] + 1 end end
  end
  ok(seen.malfunctioned > 0 and seen.removed > 0 and seen.keeps_rof > 0,
    string.format("every outcome was met (%d malfunctioned, %d removed, %d kept ROF)", seen.malfunctioned, seen.removed, seen.keeps_rof))
end)

test("mg_multiple_rof.fire: shots go on while the coloured dr <= ROF and the MG does not malfunction (A9.2, A9.7), 100 random dice sequences", function()
  local pick = seeded_random(7)
  for case = 1, 100 do
    local max_shots = 1 + pick(5)
    local dice, shots, malfunctioned = {}, 0, false
    -- the rules' answer, shot by shot: a German MMG (ROF 2, B11) in the PFPh, no Sustained Fire
    repeat
      local colored, white = pick(6), pick(6)
      dice[#dice + 1], dice[#dice + 2] = colored, white
      shots = shots + 1
      malfunctioned = colored + white >= 11
      local again = colored <= 2 and not malfunctioned
    until not again or shots == max_shots
    umpire.dice.fix(dice)
    local mg = umpire.rules.mg_usage.counter("ger_mmg")
    local crew = {name = "German 4-6-7", kind = "squad", fp = 4, range = 6}
    local tally, fired = umpire.rules.mg_multiple_rof.fire({label = "case " .. case, phase = "PFPh", side = "ATTACKER",
      crew = {crew}, units = {crew}, mgs = {mg}, range = 3, target = {units = {}, location = "open ground"}}, {
      tally = {malfunction = false},
      count = function(t, attack) t.malfunction = t.malfunction or attack.mg[mg.name].malfunctioned end,
      max_shots = max_shots,
    })
    eq(fired, shots, "case " .. case .. ": shots")
    eq(tally.malfunction, malfunctioned, "case " .. case .. ": malfunction")
    eq(mg.malfunctioned or false, malfunctioned, "case " .. case .. ": the MG's own state")
  end
end)
