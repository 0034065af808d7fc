-- A9.6-A9.611 with the To Hit and Final Kill numbers as inputs.
local V = function() return umpire.rules.mg_vehicular_targets end
test("A9.6: armored facing -> To Hit then AFV Kill Table; unarmored -> * Vehicle line, no To Hit", function()
  local m = umpire.rules.mg_usage.counter("ger_hmg")
  eq(V().method(m, {armored = true}), "to_hit_then_kill")
  eq(V().method(m, {armored = false}), "vehicle_line")
  eq(V().vehicle_line(7), 6)
end)
test("A9.61: To Kill attack: < Final Kill Number eliminates (burning if < half), = stuns", function()
  local m = umpire.rules.mg_usage.counter("us_50cal")
  local function tk(kd) return V().to_kill({mg = m, alone = true, range = 4, predesignated = true, to_hit = 8,
    facing = {armored = true, kill = 6}, to_hit_dr = {colored = 2, white = 3, total = 5}, kill_dr = {total = kd}}) end
  eq(tk(2).result, "eliminated (burning)"); eq(tk(4).result, "eliminated"); eq(tk(6).result, "stunned"); eq(tk(7).result, "no effect")
  local miss = V().to_kill({mg = umpire.rules.mg_usage.counter("us_50cal"), alone = true, range = 4, predesignated = true, to_hit = 5,
    facing = {armored = true, kill = 6}, to_hit_dr = {colored = 2, white = 3, total = 5}})
  eq(miss.hit, false)
  raises(function() V().to_kill({mg = m, alone = false, range = 4, predesignated = true}) end, "alone")
  raises(function() V().to_kill({mg = m, alone = true, range = 13, predesignated = true}) end, "Normal Range")
  raises(function() V().to_kill({mg = m, alone = true, range = 4, halved = true, predesignated = true}) end, "halved")
  ok(umpire.journal.cited("A9.611"))
end)
test("A9.611: a normal MG IFT attack has no effect vs armor other than on Vulnerable PRC", function()
  eq(V().ift_attack({name = "m"}, 4, {armored = true}, 3), "no effect (PRC only)")
  eq(V().ift_attack({name = "m"}, 4, {armored = false}, 3), "eliminated")
end)
