-- umpire odds --ruleset rulesets/asl scripts/asl/vehicle_reliability_odds.lua
-- D2.51 Mechanical Reliability over a move with several starts: a red-MP AFV starts, moves a hex
-- and stops, three times in one MPh. Each Starting MP calls for a DR; a 12 immobilizes it there.
-- Outcome: on which start it broke down ("start 1".."start 3") or "completed", and the MP it had
-- spent. Exact: P(completed) = (35/36)^3 = 42875/46656.
local VM = umpire.rules.vehicle_movement
local G = umpire.rules.vehicle_geometry
VM.setup("d2_misc")
local v = VM.place("red", { type = "test_red_tank", hex = "A8", heading = 0 })
VM.begin_mph("red")
for i = 1, 3 do
  VM.step("red", { kind = "start" })
  if v.immobile then return { result = "start " .. i, mp_spent = v.mp_spent_h / 2 } end
  VM.step("red", { kind = "enter", to = G.front_hexes(v.hex, v.heading)[(i % 2 == 1) and 1 or 2] })
  VM.step("red", { kind = "stop" })
end
return { result = "completed", mp_spent = v.mp_spent_h / 2 }
