-- Issue 17 (rules fidelity, round 2), seeds 000 (A9) and 001 (breakdown table): configurations no worked
-- example reaches, each answer taken from the text.
local R = function() return umpire.rules end
local C = function(k, f) return umpire.rules.mg_usage.counter(k, f) end

local function journal_has(pattern)
  for _, l in ipairs(umpire.journal.lines(1)) do if l:find(pattern) then return true end end
  return false
end

-- one MG fired by one squad in the PFPh at range 3 with the given dice
local function prep_fire(mg, squad, dice, extra)
  umpire.dice.fix(dice)
  local spec = {phase = "PFPh", crew = {squad}, mgs = {mg}, range = 3}
  for k, v in pairs(extra or {}) do spec[k] = v end
  return R().mg_attack.fire(spec)
end

describe("001 breakdown conditions derived in an attack (item 1)", function()
  test("001 EX: a Japanese squad firing an American MMG is X12/B8 (Unqualified and Captured): DR 8 malfunctions", function()
    local sq = {name = "Japanese 4-4-7", kind = "squad", side = "japanese"}
    eq(R().sw_malfunction.numbers(C("us_mmg"), {user = sq}), {B = 8, X = 12})
    local mg = C("us_mmg")
    local a = prep_fire(mg, sq, {4, 4})
    eq(a.original, 8); eq(a.mg[mg.name].malfunctioned, true)
    ok(umpire.journal.cited("A21.13")); ok(umpire.journal.cited("A21"))
  end)
  test("001 note A21.13: a Japanese squad (non-crew) firing a Japanese MMG is Non-Qualified: B10/X12; a crew is not", function()
    local sq = {name = "Japanese 4-4-7", kind = "squad", side = "japanese"}
    local mg = C("jap_mmg")
    local a = prep_fire(mg, sq, {5, 5})
    eq(a.mg[mg.name].malfunctioned, true)
    eq(R().sw_malfunction.numbers(C("jap_mmg"), {user = {name = "crew", kind = "crew", side = "japanese"}}), {B = 12})
    eq(R().sw_malfunction.numbers(C("jap_lmg"), {user = sq}), {B = 12})
  end)
  test("E3.741 carried by an attack: Extreme Winter, Axis B-2 (German MMG B11 -> B9/X11); Finnish exempt; Russian -1", function()
    local ger = {name = "German 4-6-7", kind = "squad", side = "german"}
    local mg = C("ger_mmg")
    local a = prep_fire(mg, ger, {4, 5}, {breakdown = {extreme_winter = true}})
    eq(a.original, 9); eq(a.mg[mg.name].malfunctioned, true)
    ok(umpire.journal.cited("E3.741"))
    local fin = {name = "Finnish 6-4-8", kind = "squad", side = "finnish"}
    eq(R().sw_malfunction.numbers(C("ger_mmg", {owner = "finnish"}), {user = fin, extreme_winter = true}), {B = 11})
    local rus = {name = "Russian 4-4-7", kind = "squad", side = "russian"}
    eq(R().sw_malfunction.numbers(C("rus_mmg"), {user = rus, extreme_winter = true}), {B = 10, X = 11})
  end)
  test("Intensive Fire, X-Heavy Dust, Non-Qualified and Inexperienced reach mg_attack.fire", function()
    local ger = {name = "German 4-6-7", kind = "squad", side = "german"}
    local mg = C("ger_lmg") -- B12
    local a = prep_fire(mg, ger, {4, 5}, {breakdown = {intensive = true, x_heavy_dust = true}}) -- B9/X12
    eq(a.mg[mg.name].malfunctioned, true)
    ok(umpire.journal.cited("C.6")); ok(umpire.journal.cited("F11.732"))
    local m2 = C("ger_lmg")
    a = prep_fire(m2, ger, {5, 5}, {breakdown = {non_qualified = true}}) -- B10/X12
    eq(a.mg[m2.name].malfunctioned, true)
    local green = {name = "German 4-4-7", kind = "squad", side = "german", class = "green"}
    eq(R().sw_malfunction.numbers(C("ger_lmg"), {user = green}), {B = 11, X = 12})
    eq(R().sw_malfunction.numbers(C("ger_lmg"), {user = green, leader_present = true}), {B = 12})
    eq(R().sw_malfunction.numbers(C("ger_lmg"), {user = {name = "c", kind = "squad", side = "german", class = "conscript"}, leader_present = true}), {B = 11, X = 12})
  end)
end)

describe("A9.8: a dm German MMG fired as a German LMG (item 2)", function()
  test("uses the LMG's ROF 1: a coloured dr 2 loses Multiple ROF", function()
    local sq = {name = "German 4-6-7", kind = "squad", side = "german"}
    local mg = C("ger_mmg", {dismantled = true})
    local a = prep_fire(mg, sq, {2, 3})
    eq(a.fp, 3); eq(a.mg[mg.name].keeps_rof, false); eq(mg.fire_counter, "Prep Fire")
  end)
  test("uses the LMG's B12 (options.dm_fire_as_breakdown = lmg): Original DR 11 does not malfunction", function()
    local sq = {name = "German 4-6-7", kind = "squad", side = "german"}
    local mg = C("ger_mmg", {dismantled = true}) -- the MMG itself is B11
    local a = prep_fire(mg, sq, {5, 6})
    eq(a.original, 11); eq(a.mg[mg.name].malfunctioned, false)
  end)
end)

describe("A7.301 nKIA vs more units than n (item 3)", function()
  local function kia(n, units, dice)
    umpire.dice.fix(dice)
    return R().ift.apply({effect = {kind = "KIA", n = n}, result = n .. "KIA", column = 8}, units)
  end
  test("2KIA vs 3 units eliminates exactly two (Random Selection drs 6, 2, 1)", function()
    local u = {{name = "a", morale = 7}, {name = "b", morale = 7}, {name = "c", morale = 7}}
    local out = kia(2, u, {6, 2, 1})
    eq(#out, 2); eq(u[1].eliminated, true); eq(u[2].eliminated, true); eq(u[3].eliminated, nil)
  end)
  test("2KIA vs 3 units: a tie across the cut rolls again for the place left", function()
    local u = {{name = "a", morale = 7}, {name = "b", morale = 7}, {name = "c", morale = 7}}
    local out = kia(2, u, {6, 3, 3, 2, 5})
    eq(#out, 2); eq(u[1].eliminated, true); eq(u[2].eliminated, nil); eq(u[3].eliminated, true)
  end)
  test("2KIA vs 3 units: still tied after three re-rolls, the units are taken in the order given (bounded for odds)", function()
    local u = {{name = "a", morale = 7}, {name = "b", morale = 7}, {name = "c", morale = 7}}
    local out = kia(2, u, {4, 4, 4, 2, 2, 2, 5, 5, 5, 1, 1, 1})
    eq(#out, 2); eq(u[1].eliminated, true); eq(u[2].eliminated, true); eq(u[3].eliminated, nil)
    ok(journal_has("still tied after 3 re%-rolls"))
  end)
  test("A9.74: each unit eliminated by the KIA checks its SW", function()
    local s1, s2 = C("ger_lmg"), C("ger_lmg", {name = "LMG 2"})
    local u = {{name = "a", morale = 7, sw = {s1}}, {name = "b", morale = 7, sw = {s2}}, {name = "c", morale = 7}}
    -- selection 6, 5, 1; then a destruction dr for each SW: 1 on the 8 column = KIA
    kia(2, u, {6, 5, 1, 1, 1})
    eq(s1.removed, true); eq(s2.removed, true)
  end)
end)

describe("A9.5/A9.7: a spraying SW MG is checked for malfunction and ROF (item 4)", function()
  local function spray(lmg, dice)
    local sc = umpire.data.scenario("a9_5")
    umpire.dice.fix(dice)
    return R().spraying_fire.fire({firer_hex = "G4", targets = {"H3", "I4"}, map = R().map_los.map(sc.map), phase = "PFPh",
      firers = {{name = "German 5-4-8", fp = 5, range = 4}, {mg = lmg, user = {name = "German 5-4-8", kind = "squad", side = "german"}}}})
  end
  test("Original DR 12 malfunctions the LMG (B12); both attacks are still resolved with its FP", function()
    local lmg = C("ger_lmg")
    local r = spray(lmg, {6, 6})
    eq(r.attacks[1].fp, 8); eq(r.mg[lmg.name].malfunctioned, true); eq(lmg.malfunctioned, true)
    ok(umpire.journal.cited("A9.7"))
  end)
  test("Sustained Fire while spraying: B# -2 (B10/X12: DR 10 malfunctions), FP halved again, Final Fire counter", function()
    local sc = umpire.data.scenario("a9_5")
    local lmg = C("ger_lmg")
    umpire.dice.fix{4, 6}
    local r = R().spraying_fire.fire({firer_hex = "G4", targets = {"H3", "I4"}, map = R().map_los.map(sc.map), phase = "DFPh", sustained = true,
      firers = {{mg = lmg, user = {name = "German 5-4-8", kind = "squad", side = "german"}}}})
    eq(r.attacks[2].fp, 0.75); eq(r.mg[lmg.name].malfunctioned, true)
  end)
  test("coloured dr 2 > ROF 1: the LMG loses Multiple ROF (Prep Fire counter)", function()
    local lmg = C("ger_lmg")
    local r = spray(lmg, {2, 3})
    eq(r.mg[lmg.name].keeps_rof, false); eq(lmg.fire_counter, "Prep Fire")
  end)
end)

describe("A9.3 [EXC: FPF 8.31] (item 5)", function()
  test("a MG marked Final Fire after a FPF shot may fire FPF again", function()
    local sq = {name = "German 4-6-7", kind = "squad", side = "german", fp = 4, range = 6}
    local mg = C("ger_mmg", {fire_counter = "First Fire"})
    local function fpf(dice, who)
      umpire.dice.fix(dice)
      return R().mg_attack.fire({phase = "MPh", side = "DEFENDER", fpf = true, crew = {sq}, mgs = {mg}, range = 1,
        target = {units = {{name = who}}, location = "K5", mf = 1}})
    end
    fpf({2, 3}, "a")
    eq(mg.fire_counter, "Final Fire")
    local a = fpf({2, 3}, "b")
    eq(a.column, 4) -- 5 FP PBF 10, halved as Sustained Fire (Area Fire)
    ok(umpire.journal.cited("A9.3"))
    raises(function() umpire.dice.fix{2, 3}; R().mg_attack.fire({phase = "MPh", side = "DEFENDER", crew = {sq}, mgs = {mg}, range = 1,
      target = {units = {{name = "c"}}, location = "K5", mf = 1}}) end, "Final Fire")
  end)
end)

describe("A9.22: after the MPh a Fire Lane MG fires again in the DFPh (item 6)", function()
  test("refused in the MPh, allowed in the DFPh (Sustained Fire: First Fire counter, adjacent target)", function()
    local sq = {name = "German 4-6-7", kind = "squad", side = "german", fp = 4, range = 6}
    local mg = C("ger_mmg", {fire_counter = "First Fire"})
    mg.fire_lane = {active = true, crew = {sq}}
    raises(function() umpire.dice.fix{2, 3}; R().mg_attack.fire({phase = "MPh", side = "DEFENDER", crew = {sq}, mgs = {mg}, range = 3,
      target = {units = {{name = "x"}}, location = "K5", mf = 1}}) end, "until the DFPh")
    R().fire_lane.on_event(mg.fire_lane, mg, {kind = "end_mph"})
    umpire.dice.fix{2, 3}
    local a = R().mg_attack.fire({phase = "DFPh", crew = {sq}, mgs = {mg}, range = 1})
    eq(a.column, 4); eq(mg.fire_counter, "Final Fire")
  end)
end)

describe("A9.2/A9.71: two squads, each firing its own MG, as one Fire Group (item 7)", function()
  test("allowed: each squad fires one MG at no cost to its Inherent FP", function()
    local s1 = {name = "German 4-6-7 a", kind = "squad", side = "german", fp = 4, range = 6}
    local s2 = {name = "German 4-6-7 b", kind = "squad", side = "german", fp = 4, range = 6}
    local m1, m2 = C("ger_mmg", {name = "MMG a", fired_by = s1.name}), C("ger_mmg", {name = "MMG b", fired_by = s2.name})
    umpire.dice.fix{3, 4}
    local a = R().mg_attack.fire({phase = "PFPh", crew = {s1, s2}, units = {s1, s2}, mgs = {m1, m2}, range = 3})
    eq(a.fp, 18); eq(a.column, 16)
    ok(umpire.journal.cited("A9.11"))
  end)
  test("A9.71 with two crews: DR 12 breaks both B11 MMG candidates by Random Selection", function()
    local s1 = {name = "a", kind = "squad", side = "german", fp = 4, range = 6}
    local s2 = {name = "b", kind = "squad", side = "german", fp = 4, range = 6}
    local m1, m2 = C("ger_mmg", {name = "MMG a"}), C("ger_mmg", {name = "MMG b"})
    umpire.dice.fix{6, 6, 5, 2}
    local a = R().mg_attack.fire({phase = "PFPh", crew = {s1, s2}, units = {s1, s2}, mgs = {m1, m2}, range = 3})
    eq(a.mg["MMG a"].malfunctioned, true); eq(a.mg["MMG b"].malfunctioned, false)
  end)
end)

describe("journal lines (item 8)", function()
  test("A9.7: a MG removed on its X# is not logged as awaiting repair", function()
    local sq = {name = "German 4-6-7", kind = "squad", side = "german", fp = 4, range = 6}
    local mg = C("ger_hmg", {fire_counter = "First Fire"}) -- Sustained Fire in the DFPh: B10/X12
    umpire.dice.fix{6, 6}
    local a = R().mg_attack.fire({phase = "DFPh", crew = {sq}, mgs = {mg}, range = 1})
    eq(a.mg[mg.name].removed, true)
    ok(not journal_has("until repaired"), "an X# removal is not repaired")
    ok(journal_has("permanently malfunctioned and is removed"))
  end)
  test("A.11: a circled B# under a penalty gets X12 with its line", function()
    local g = C("gun_b11c")
    eq(R().sw_malfunction.numbers(g, {sustained = true}), {LA = 11, B = 10, X = 12})
    ok(journal_has("%[A.11%].*X12"))
  end)
  test("A4.6: a Fire Lane attack in a Location with TEM > 0 says why FFMO is dropped", function()
    -- a lane along column K with woods in K5 and nothing between: TEM +1, no Hindrance to cancel FFMO
    local map = R().map_los.map({hexes = {K5 = "woods"}})
    local lane = {mg_hex = umpire.hex.asl("K2")}
    local list = R().fire_lane.drm(lane, map, "K5", {name = "mover"}, {"ffmo"})
    ok(#list >= 1, "the woods TEM")
    for _, e in ipairs(list) do ok(e.key ~= "ffmo", "no FFMO in woods") end
    ok(journal_has("%[A4.6%] FFMO does not apply in K5"))
  end)
end)
