-- BA Assault.
local SC, S, A = umpire.rules.scenario, umpire.rules.shooting, umpire.rules.assault

test("BA Assault: SMGs suffer no -1 for moving and shooting, rifles do", function()
  local sq = SC.line("sq", "allies", 2, "smg")
  sq.models[2].weapon = "rifle"
  local t = SC.line("t", "axis", 2, "rifle", { y = 8 })
  umpire.dice.fix{ 1, 1,  1 }
  local r = S.fire{ shooter = sq, target = t, order = "advance" }
  eq(r.groups[1].need, 4)   -- SMG 8" of 12": long range -1, no move penalty
  eq(r.groups[2].need, 4)   -- rifle: moving -1
  ok(umpire.journal.cited("BA Assault"))
end)

test("BA Assault: assault weapon armed infantry count as tough fighters", function()
  ok(A.tough_fighter({ id = "a", weapon = "assault_rifle" }))
  ok(not A.tough_fighter({ id = "b", weapon = "rifle" }))
end)
