-- BA Team, BA Team: support, BA Team: squad-based.
local SC, S, TM = umpire.rules.scenario, umpire.rules.shooting, umpire.rules.team

local function mmg(n)
  local u = SC.line("mmg", "allies", n or 3, nil, { type = "support_team", facing = 90 })
  u.models[1].weapon, u.models[1].role = "mmg", "firer"
  for i = 2, #u.models do u.models[i].role = "crew" end
  return u
end

test("BA Team: with only one man left the weapon fires at -1", function()
  local t = SC.line("t", "axis", 3, "rifle", { y = 10 })
  umpire.dice.fix{ 1, 1, 1, 1, 1 }
  eq(S.fire{ shooter = mmg(1), target = t }.groups[1].need, 4)
  umpire.dice.fix{ 1, 1, 1, 1, 1 }
  eq(S.fire{ shooter = mmg(2), target = t }.groups[1].need, 3)
  ok(umpire.journal.cited("BA Team"))
end)

test("BA Team: support team destroyed when its firer is killed", function()
  local u = mmg(3)
  TM.remove_casualties(u, 1, { "mmg_1" })
  ok(u.destroyed)
  for _, m in ipairs(u.models) do ok(m.removed) end
  ok(umpire.journal.cited("BA Team: support"))
end)

test("BA Team: by default the owner loses the crew first", function()
  local u = mmg(3)
  TM.remove_casualties(u, 1)
  ok(not u.destroyed)
  ok(not u.models[1].removed)
end)

local function squad()
  local u = SC.line("sec", "allies", 4, "rifle", { spacing = 1.2 })
  u.models[1].weapon, u.models[1].role = "lmg", "firer"
  u.models[2].role = "loader"
  u.models[4].role = "nco"
  return u
end

test("BA Team: squad-based - the loader does not fire his own weapon", function()
  local t = SC.line("t", "axis", 3, "rifle", { y = 10 })
  umpire.dice.fix{ 1, 1, 1, 1,  1, 1 }
  local r = S.fire{ shooter = squad(), target = t }
  eq(r.groups[1].shots, 4)    -- LMG
  eq(r.groups[2].shots, 2)    -- rifles of sec_3 and the NCO, not the loader
  ok(umpire.journal.cited("BA Team: squad-based"))
end)

test("BA Team: squad-based - loader more than 1\" away: -1", function()
  local u = squad()
  u.models[2].x = 4
  local t = SC.line("t", "axis", 3, "rifle", { y = 10 })
  umpire.dice.fix{ 1, 1, 1, 1,  1, 1 }
  eq(S.fire{ shooter = u, target = t }.groups[1].need, 4)
end)

test("BA Team: squad-based - the LMG gunner killed, the loader reverts to a rifleman", function()
  local u = squad()
  TM.remove_casualties(u, 1, { "sec_1" })
  ok(not u.destroyed)
  eq(u.models[2].role, nil)
end)
