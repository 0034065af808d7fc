-- BA Spotters.
local SC, S, SP, TM = umpire.rules.scenario, umpire.rules.shooting, umpire.rules.spotters, umpire.rules.team

local function battery(exp)
  local u = SC.line("battery", "allies", 3, nil, { type = "artillery", facing = 90, experience = exp })
  u.models[1].weapon, u.models[1].role = "medium_howitzer", "firer"
  u.models[2].role, u.models[3].role = "crew", "crew"
  u.spotter = { id = "fo", x = 0, y = 30, role = "spotter" }
  return u
end
local function target() return SC.line("t", "axis", 3, "rifle", { y = 50 }) end

test("BA Spotters: a regular crew shoots at what its spotter sees", function()
  umpire.dice.fix{ 1 }
  local r = S.fire{ shooter = battery("regular"), target = target(), mode = "indirect", turn = 1,
                    crew_can_see = false, spotter_can_see = true }
  eq(r.groups[1].need, 6)
  ok(umpire.journal.cited("BA Spotters"))
end)

test("BA Spotters: an inexperienced crew cannot use its spotter's eyes", function()
  raises(function()
    S.fire{ shooter = battery("inexperienced"), target = target(), mode = "indirect", turn = 1,
            crew_can_see = false, spotter_can_see = true }
  end, "cannot see")
end)

test("BA Spotters: spotter killed after ranging in: still 2+; before: choose another target", function()
  local b, t = battery("regular"), target()
  umpire.dice.fix{ 6, 1, 1, 1, 1 }
  S.fire{ shooter = b, target = t, mode = "indirect", turn = 1, crew_can_see = false, spotter_can_see = true, world = {} }
  b.spotter.removed = true
  umpire.dice.fix{ 1 }
  eq(S.fire{ shooter = b, target = t, mode = "indirect", turn = 2, crew_can_see = false }.groups[1].need, 2)
  local b2 = battery("regular"); b2.spotter.removed = true
  raises(function() S.fire{ shooter = b2, target = target(), mode = "indirect", turn = 1, crew_can_see = false } end,
         "choose a different target")
end)

test("BA Spotters: the spotter is removed with its destroyed team, and never fires", function()
  local b = battery("regular")
  -- artillery is destroyed when its crew is gone (only support teams go with their firer, BA Team)
  TM.remove_casualties(b, 3)
  ok(b.destroyed); ok(b.spotter.removed)
  ok(umpire.journal.cited("BA Spotters"))
end)

test("BA Spotters: crew or spotter takes the order, never both; no order die = Down", function()
  local b = battery("regular")
  SP.give_order(b, "crew", 1)
  raises(function() SP.give_order(b, "spotter", 1) end, "never both")
  SP.give_order(b, "spotter", 2)
  ok(SP.is_down(b, false))
end)
