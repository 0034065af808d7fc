-- D2.15 / D2.24: Minimum Move and Reverse Minimum Move.
local function VM() return umpire.rules.vehicle_movement end
local function N(x) return umpire.rules.vehicle_geometry.name(x) end

test("D2.15: a Minimum Move into a hex costing more than the allotment (building two levels up: 6 + 8 = 14 > 12)", function()
  VM().setup("d2_misc")
  local v = VM().place("t", { type = "pzkpfw_vie", hex = "F4", heading = 0 })
  VM().begin_mph("t")
  local bog
  umpire.bus.on("bog_check_required", function(ev) bog = ev.payload end)
  VM().move("t", { { kind = "start" }, { kind = "minimum_move", to = "G4" } })
  eq(N(v.hex), N("G4")); eq(v.mp_spent_h, 2 + 24, "Starting MP + the whole allotment")
  ok(bog ~= nil, "the Bog DR of normal entry")
  raises(function() VM().step("t", { kind = "vca", turn = 1 }) end, "D2%.15")
  eq(VM().end_mph("t"), "motion")
end)

test("D2.15: no Minimum Move if the entry cost fits the allotment, nor after a VCA change (state unchanged)", function()
  VM().setup("d2_misc")
  local v = VM().place("t", { type = "pzkpfw_vie", hex = "F4", heading = 0 })
  VM().begin_mph("t")
  VM().step("t", { kind = "start" })
  raises(function() VM().step("t", { kind = "minimum_move", to = "G5" }) end, "D2%.15.*exceeds")
  VM().step("t", { kind = "vca", turn = -1 })
  VM().step("t", { kind = "vca", turn = 1 })
  raises(function() VM().step("t", { kind = "minimum_move", to = "G4" }) end, "D2%.15.*VCA")
  eq(N(v.hex), N("F4")); eq(v.mp_spent_h, 6)
end)

test("D2.24: a Reverse Minimum Move into a rear hex ends in Reverse Motion", function()
  VM().setup("d2_misc")
  local v = VM().place("t", { type = "pzkpfw_vie", hex = "H4", heading = 0 })   -- G4 is behind it
  VM().begin_mph("t")
  VM().move("t", { { kind = "start", reverse = true }, { kind = "minimum_move", to = "G4", reverse = true } })
  eq(N(v.hex), N("G4"))
  eq(VM().end_mph("t"), "reverse_motion")
  ok(umpire.journal.cited("D2.24"))
end)
