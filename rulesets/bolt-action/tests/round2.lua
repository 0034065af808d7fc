-- Issue 17 (rules fidelity, round 2), seed 003: configurations no worked example reaches.
local SC, S, TM, HE, W = umpire.rules.scenario, umpire.rules.shooting, umpire.rules.team, umpire.rules.he, umpire.rules.weapons

local function journal_has(pattern)
  for _, l in ipairs(umpire.journal.lines(1)) do if l:find(pattern) then return true end end
  return false
end

test("7+ to hit (long range, hard cover, Down: 8+) with no 6 on any die: no hit, no error (item 14)", function()
  local shooter = SC.line("sq", "allies", 2, "rifle")
  local t = SC.line("t", "axis", 2, "rifle", { y = 20, cover = "hard", down = true })
  umpire.dice.fix{ 5, 5 }
  local r = S.fire{ shooter = shooter, target = t }
  eq(r.groups[1].need, 8); eq(r.hits, 0)
end)

test("BA Team: the support-team exception is not applied to artillery: its firer killed, the gun fights on (item 15)", function()
  local gun = SC.line("pak", "axis", 3, nil, { type = "artillery", facing = 90 })
  gun.models[1].weapon, gun.models[1].role = "light_at_gun", "firer"
  gun.models[2].role, gun.models[3].role = "crew", "crew"
  TM.remove_casualties(gun, 1, { "pak_1" })
  ok(not gun.destroyed); ok(not gun.models[2].removed); ok(not gun.models[3].removed)
  ok(not umpire.journal.cited("BA Team: support"))
end)

test("BA HE Ambush: a gun defined `as: medium_at_gun` under another id loads anti-tank rounds by default (item 16)", function()
  eq(W.profile("pak40").gun, "anti_tank")
  local gun = SC.line("pak", "axis", 2, nil, { type = "artillery", facing = 90 })
  gun.models[1].weapon, gun.models[1].role = "pak40", "firer"
  gun.models[2].role = "crew"
  local t = SC.line("t", "allies", 2, "rifle", { y = 20 })
  HE.ambush(gun, nil)
  umpire.dice.fix{ 1 }
  S.fire{ shooter = gun, target = t, order = "ambush" }
  ok(journal_has("loads anti%-tank rounds by default"))
  raises(function() S.fire{ shooter = gun, target = t, order = "ambush", shot = "he" } end, "cannot change")
  -- a gun that is not an anti-tank gun loads HE
  local ac = SC.line("ac", "axis", 2, nil, { type = "artillery", facing = 90 })
  ac.models[1].weapon, ac.models[1].role = "light_autocannon", "firer"
  HE.ambush(ac, nil)
  eq(HE.ambush_round(ac, W.profile("light_autocannon")), "he")
end)

test("BA Multiple launcher: when being towed it counts as a light howitzer (towed_as is read) (item 17)", function()
  local p = W.profile("multiple_launcher", { towed = true })
  eq(p.special_set.howitzer, true); eq(p.special_set.multiple_launcher, nil); eq(p.he, 2); eq(p.name, "Multiple launcher")
  ok(umpire.journal.cited("BA Multiple launcher"))
  eq(W.profile("multiple_launcher").special_set.multiple_launcher, true)
  local n = SC.line("nebel", "axis", 2, nil, { type = "artillery", facing = 90 })
  n.models[1].weapon, n.models[1].role = "multiple_launcher", "firer"
  n.models[2].role = "crew"
  n.towed = true
  local t = SC.line("t", "allies", 2, "rifle", { y = 30 })
  umpire.dice.fix{ 1 }
  local r = S.fire{ shooter = n, target = t, world = { t, n }, turn = 1 }
  eq(r.hits, 0)
  ok(journal_has("is being towed: it counts as a light howitzer"))
end)
