-- umpire odds --ruleset rulesets/asl scripts/asl/vehicle_reliability_odds.lua
-- D2.51 Mechanical Reliability over a move with several starts: a red-MP AFV starts, moves a hex
-- and stops, three times in one MPh. Each Starting MP calls for a DR; a 12 immobilizes it there.
-- Outcome: on which start it broke down ("start 1".."start 3") or "completed", and the MP it had
-- spent. Exact: P(completed) = (35/36)^3 = 42875/46656.
-- The starts are an umpire.odds.chain: the vehicle lives in umpire.state, which the fold tracks,
-- so the odds run each start's DR once per distinct vehicle state (not 36^3 paths).
local VM = umpire.rules.vehicle_movement
local G = umpire.rules.vehicle_geometry
VM.setup("d2_misc")
VM.place("red", { type = "test_red_tank", hex = "A8", heading = 0 })
VM.begin_mph("red")
local function vehicle() return umpire.state.vehicles.red end
local s = umpire.odds.chain{
  state = { start = 0 },
  step = function(s)
    s.start = s.start + 1
    VM.step("red", { kind = "start" })
    local v = vehicle()
    if v.immobile then s.broke = s.start return end
    VM.step("red", { kind = "enter", to = G.front_hexes(v.hex, v.heading)[(s.start % 2 == 1) and 1 or 2] })
    VM.step("red", { kind = "stop" })
  end,
  stop = function(s) return s.broke ~= nil or s.start == 3 end,
}
return { result = s.broke and ("start " .. s.broke) or "completed", mp_spent = vehicle().mp_spent_h / 2 }
