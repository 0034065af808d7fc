-- umpire odds --ruleset rulesets/asl scripts/asl/odds_mmg_rof_kia.lua --given kia=true
-- "How often does the MG malfunction in a Prep Fire Phase that kills something?" A German MMG
-- (5 FP, ROF 2, B11) and its 4-6-7 squad, directed by an 8-1 leader, Prep Fire as a Fire Group
-- (9 FP: the 8 column, A7.31; -1 leadership DRM, A10.7) at Russian squads in the open at range 3.
-- It keeps firing while it retains its ROF (A9.2: coloured dr <= ROF) and has not malfunctioned
-- (A9.7), each shot at a fresh target so a KIA does not end the phase; the squad's own fire goes
-- with the first shot only (A9.2: the extra shots are the MG's alone, 4 FP column). Outcomes: whether any
-- shot got a KIA (1KIA or better), whether the MG malfunctioned, and how many shots it fired.
--
-- A KIA needs a low DR and a malfunction an Original DR of 11-12 (B11), so they never happen on
-- the same shot; only multiple ROF links them: malfunction given a KIA is a later shot breaking
-- the MG after an earlier one killed. The shots are played by mg_multiple_rof (A9.2), which folds
-- them under `umpire odds`: there is no cap on the shots; the odds stop once the chance of still
-- firing is below 1e-9 (after 19 more shots: (1/3)^19) and report that mass as truncated.
-- --set shots=N (or SHOTS below) asks about the first N shots instead.
local R = umpire.rules
local mmg = R.mg_usage.counter("ger_mmg")
local crew = {name = "German 4-6-7", kind = "squad", fp = 4, range = 6}
local leader = R.ift.drm_entry("leadership", -1, "8-1 leader")
local tally, shots = R.mg_multiple_rof.fire({label = "MMG Prep Fire", phase = "PFPh", side = "ATTACKER",
    crew = {crew}, units = {crew}, mgs = {mmg}, range = 3, drm = {leader},
    target = {units = {}, location = "open ground"}}, {
  tally = {kia = false, malfunction = false},
  count = function(t, attack)
    local r = attack.mg[mmg.name]
    t.kia = t.kia or attack.result:find("KIA") ~= nil
    t.malfunction = t.malfunction or (r.malfunctioned or r.removed) and true or false
  end,
  max_shots = SHOTS,
})
return {kia = tally.kia, malfunction = tally.malfunction, shots = shots}
