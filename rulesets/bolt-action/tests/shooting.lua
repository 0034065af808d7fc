-- The shooting procedure (BA core, not in the seed) with an LMG and rifles.
local SC, S = umpire.rules.scenario, umpire.rules.shooting

local function lmg_team(opts)
  local u = SC.line("bren", "allies", 2, nil, opts)
  u.type = "support_team"
  u.models[1].weapon, u.models[1].role = "lmg", "firer"
  u.models[2].role = "crew"
  return u
end

test("LMG at regulars in soft cover at long range: 5+ to hit, 5+ to damage, 1 pin", function()
  local bren = lmg_team()
  local target = SC.line("grens", "axis", 5, "rifle", { y = 20, cover = "soft" })
  umpire.dice.fix{ 5, 6, 2, 1,  5, 4 }
  local r = S.fire{ shooter = bren, target = target }
  eq(r.groups[1].need, 5)
  eq(r.hits, 2)
  eq(r.units.grens.casualties, 1)
  eq(target.pins, 1)
  ok(umpire.journal.cited("BA core (not in seed)"))
end)

test("BA core: 7+ needs a 6 then a 4+", function()
  local bren = lmg_team({ pins = 2 })
  local target = SC.line("grens", "axis", 5, "rifle", { y = 20, cover = "hard" })
  -- 3 +1 (long -1, hard -2, pins -2) = 8+: a 6 then 5+
  umpire.dice.fix{ 6, 6, 6, 1,  5, 4, 6,  6, 6 }
  local r = S.fire{ shooter = bren, target = target }
  eq(r.groups[1].need, 8)
  eq(r.hits, 2)
end)

test("BA core: models out of range do not fire", function()
  local sq = SC.line("sq", "allies", 2, "pistol")
  local target = SC.line("t", "axis", 1, "rifle", { y = 10 })
  local r = S.fire{ shooter = sq, target = target }
  eq(r.hits, 0)
  eq(#r.groups, 0)
end)

test("BA core: point blank +1 (2+), a natural 1 still misses", function()
  local sq = SC.line("sq", "allies", 1, "rifle")
  local target = SC.line("t", "axis", 1, "rifle", { y = 3 })
  umpire.dice.fix{ 2, 5 }
  local r = S.fire{ shooter = sq, target = target }
  eq(r.groups[1].need, 2)
  eq(r.hits, 1)
end)
