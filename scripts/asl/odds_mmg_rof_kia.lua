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
-- the MG after an earlier one killed. The enumeration stops at MAX_SHOTS (a shot past the third
-- happens with probability (1/3)^3 = 1/27, and its path count grows twelvefold per shot); that
-- cap is the question asked ("in its first three shots"), not a rule of A9.2.
local MAX_SHOTS = 3
local R = umpire.rules
local mmg = R.mg_usage.counter("ger_mmg")
local crew = {name = "German 4-6-7", kind = "squad", fp = 4, range = 6}
local leader = R.ift.drm_entry("leadership", -1, "8-1 leader")
local kia, malfunction, shots = false, false, 0
repeat
  shots = shots + 1
  local a = R.mg_attack.fire({label = "MMG Prep Fire, shot " .. shots, phase = "PFPh", side = "ATTACKER",
    crew = {crew}, units = shots == 1 and {crew} or {}, mgs = {mmg}, range = 3, drm = {leader},
    target = {units = {}, location = "open ground"}})
  local r = a.mg[mmg.name]
  kia = kia or a.result:find("KIA") ~= nil
  malfunction = malfunction or (r.malfunctioned or r.removed) and true or false
  local again = r.keeps_rof and not (r.malfunctioned or r.removed)
until not again or shots == MAX_SHOTS
return {kia = kia, malfunction = malfunction, shots = shots}
