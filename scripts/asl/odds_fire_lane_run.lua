-- umpire odds --ruleset rulesets/asl scripts/asl/odds_fire_lane_run.lua
-- "Does a Russian squad get through a Fire Lane?" The A9.222 EX's Fire Lane: the MMG in 3X3 has placed
-- its Fire Lane Residual FP counter in BB5 (2 FP in Z4, AA5 and BB5; 4 in Y4, doubled as PBF). A Russian
-- 4-4-7 then runs (non-Assault movement, FFNAM) along it: Y4, Z4 (grain), AA5, BB5 (woods). Each Location
-- where the lane exerts Residual FP attacks it (A9.222), the result applies at once, and it stops once
-- eliminated, broken or pinned, or once the lane is removed because the MMG malfunctions on a Fire Lane
-- attack DR (A9.223). The attacks are played by fire_lane.move_through, which folds them under
-- `umpire odds`: 4 Locations of 36 attack paths and more for Morale Checks, over a few distinct states.
-- Outcomes: how the squad ends, how many Locations it entered, whether the lane was removed.
-- HEXES = n (set before the script) runs only the first n Locations of the path.
local R = umpire.rules
local sc = umpire.data.scenario("a9_222")
local map = R.map_los.map(sc.map)
local u = sc.units
local mmg = R.mg_usage.counter(u.mmg.counter, {hex = "X3"})
local squad = {name = u.squad.name, kind = "squad", fp = u.squad.fp, range = u.squad.range}
R.fire_lane.declare(mmg, {side = "DEFENDER", phase = "MPh", crew = {squad}, range = 3})
local lane = R.fire_lane.place(mmg, {mg_hex = "X3", target = "AA5", counter = "BB5", map = map, crew = {squad}})
local russian = {name = u.target.name, morale = u.target.morale}
local path = {}
for i, h in ipairs({"Y4", "Z4", "AA5", "BB5"}) do
  if i <= (HEXES or 4) then path[#path + 1] = {hex = h, movement = {"ffnam"}} end
end
local run = R.fire_lane.move_through(lane, mmg, map, russian, path)
local fate = russian.eliminated and "eliminated" or russian.broken and "broken" or russian.pinned and "pinned" or "through"
return {squad = fate, entered = run.entered, lane_removed = run.lane_removed}
