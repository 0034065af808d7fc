-- umpire sweep --ruleset rulesets/asl scripts/asl/sweep_mmg.lua --grid range=1..12 --grid cover=0,1,2
-- A German MMG (5 FP, ROF 2, B11, normal range 12) firing alone at a target `range` hexes away in
-- terrain of TEM `cover` (+0 open, +1 wooden building, +2 stone building): the IFT result, whether
-- it kills (a KIA or K result), and whether the MMG malfunctions. Parameters (umpire.args, from
-- --set or a sweep's --grid): range (default 3), cover (default 0). Under a house rule that changes
-- the MMG's B# (rulesets/asl-house-mg), only `malfunction` changes.
local R = umpire.rules
local range = umpire.args.range or 3
local cover = umpire.args.cover or 0
local mmg = R.mg_usage.counter("ger_mmg")
local crew = {name = "German 4-6-7", kind = "squad", fp = 4, range = 6}
local drm = {}
if cover ~= 0 then drm[#drm + 1] = R.ift.drm_entry("tem", cover) end
local a = R.mg_attack.fire({label = "MMG", phase = "PFPh", side = "ATTACKER", crew = {crew}, mgs = {mmg},
  range = range, drm = drm, target = {units = {}, location = "target"}})
local r = a.mg[mmg.name]
local kill = a.result:find("KIA") ~= nil or a.result:find("^K/") ~= nil
return {ift = a.result, kill = kill, malfunction = (r.malfunctioned or r.removed) and true or false}
