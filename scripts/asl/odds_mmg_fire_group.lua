-- umpire odds --ruleset rulesets/asl scripts/asl/odds_mmg_fire_group.lua
-- A German MMG (5 FP, ROF 2, B11) in a Fire Group with its German 4-6-7 squad, the MMG using Sustained Fire
-- (e.g. Subsequent First Fire, A9.3): the MMG's FP is halved as Area Fire and its B# lowered by two (B9, X11).
-- Target at range 3 in the open with -1 FFNAM. Joint distribution of the IFT result, "MG malfunctions" (incl.
-- removal on X#) and "MG keeps ROF". Sustained Fire always forfeits further shots (A9.3), so keeps_rof is false
-- on every branch: that is the rule, not a bug.
local R = umpire.rules
local mmg = R.mg_usage.counter("ger_mmg", {fire_counter = "First Fire"})
local squad = {name = "German 4-6-7", kind = "squad", fp = 4, range = 6}
local a = R.mg_attack.fire({label = "MMG + squad FG, Sustained Fire", phase = "MPh", side = "DEFENDER", subsequent_first_fire = true,
  crew = {squad}, units = {squad}, mgs = {mmg}, range = 3, drm = {R.ift.drm_entry("ffnam")},
  target = {units = {}, location = "target", mf = 1}})
local r = a.mg[mmg.name]
return {ift = a.result, malfunction = (r.malfunctioned or r.removed) and true or false, keeps_rof = r.keeps_rof and true or false}
