-- umpire odds --ruleset rulesets/asl scripts/asl/compare_house_mg.lua --compare rulesets/asl-house-mg
-- What the asl-house-mg house rule (German MMG B12 instead of B11) changes for a German MMG using
-- Sustained Fire (A9.3: Subsequent First Fire; FP halved as Area Fire, B# lowered by two and the
-- MG then also has an X# equal to its old B#, as the A9.71 EX shows for the HMG: B12 -> B10/X12).
-- One IFT DR (A9.7: the Original DR decides); the outcome is what happens to the MMG:
--   asl:   B9/X11  -> malfunctions on 9-10 (7/36), removed on 11-12 (3/36), fires on 26/36
--   house: B10/X12 -> malfunctions on 10-11 (5/36), removed on 12 (1/36), fires on 30/36
local R = umpire.rules
local mmg = R.mg_usage.counter("ger_mmg", { fire_counter = "First Fire" })
local squad = { name = "German 4-6-7", kind = "squad", fp = 4, range = 6 }
local a = R.mg_attack.fire({ label = "German MMG, Sustained Fire", phase = "MPh", side = "DEFENDER",
  subsequent_first_fire = true, crew = { squad }, mgs = { mmg }, range = 3,
  target = { units = {}, location = "target", mf = 1 } })
local r = a.mg[mmg.name]
if r.removed then return "removed (X#)" end
if r.malfunctioned then return "malfunctions" end
return "fires on"
