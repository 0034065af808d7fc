-- The odds of the A9.222 EX's first attack (docs/tour.md): 3X3 (a 4-6-7, an 8-1 leader and a German
-- MMG) declares a Fire Lane and First Fires at an Assault-Moving unit in AA5 through the grain in Z4.
-- Every die is a branch: the IFT result and whether the MMG breaks down (B11; a house rule made by
-- `umpire new house-rule ... --extends asl` makes it B12).
--   umpire odds --ruleset asl scripts/tour/a9_222_first_fire_odds.lua --svg odds.svg
local R, ift = umpire.rules, umpire.rules.ift
local sc = umpire.data.scenario("a9_222")
local map = R.map_los.map(sc.map)
local u = sc.units
local mmg = R.mg_usage.counter(u.mmg.counter, {hex = "X3"})
local squad = {name = u.squad.name, kind = "squad", fp = u.squad.fp, range = u.squad.range}
R.fire_lane.declare(mmg, {side = "DEFENDER", phase = "MPh", crew = {squad}, range = 3})
local drm = {}
for _, h in ipairs(R.map_los.trace(map, "X3", "AA5").hindrances) do
  drm[#drm + 1] = ift.drm_entry("hindrance", h.value, h.terrain .. " Hindrance")
end
drm[#drm + 1] = ift.drm_entry("leadership", u.leader.leadership, "leadership")
local a = R.mg_attack.fire({label = "First Fire vs AA5", phase = "MPh", side = "DEFENDER", crew = {squad},
  units = {squad}, mgs = {mmg}, range = 3, drm = drm, residual = true, target = {units = {}, location = "AA5", mf = 1}})
local r = a.mg[mmg.name]
return {ift = a.result, mmg_breaks = (r.malfunctioned or r.removed) and true or false}
