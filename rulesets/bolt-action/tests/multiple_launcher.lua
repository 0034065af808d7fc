-- BA Multiple launcher.
local SC, S = umpire.rules.scenario, umpire.rules.shooting

local function launcher()
  local u = SC.line("nebel", "axis", 2, nil, { type = "artillery", facing = 90 })
  u.models[1].weapon, u.models[1].role = "multiple_launcher", "firer"
  u.models[2].role = "crew"
  return u
end

test("BA Multiple launcher: every enemy unit within 6\" of the template is a target, each hit on 6", function()
  local a = SC.line("a", "allies", 3, "rifle", { y = 40 })
  local b = SC.line("b", "allies", 3, "rifle", { x = 8, y = 40 })     -- within 6" of the template
  local c = SC.line("c", "allies", 3, "rifle", { x = 30, y = 40 })    -- far away
  local n = launcher()
  -- a: 6 hit, b: 5 miss; a: pins D3 (1), damage 3 men covered? 3" template on a line of 3 at 1.5": 3 hits
  umpire.dice.fix{ 6, 5,  1,  1, 1, 1 }
  local r = S.fire{ shooter = n, target = a, world = { a, b, c, n }, turn = 1 }
  eq(r.hits, 1)
  eq(r.units.a.hits, 3)
  eq(r.units.b, nil)
  ok(umpire.journal.cited("BA Multiple launcher"))
end)

test("BA Multiple launcher: a friendly unit within 6\" of the template wastes the shot", function()
  local a = SC.line("a", "allies", 3, "rifle", { y = 40 })
  local friend = SC.line("f", "axis", 3, "rifle", { x = 5, y = 42 })
  local r = S.fire{ shooter = launcher(), target = a, world = { a, friend }, turn = 1 }
  eq(r.wasted, true)
  eq(r.hits, 0)
end)

test("BA Multiple launcher: never better than 6, turn after turn", function()
  local a = SC.line("a", "allies", 3, "rifle", { y = 40 })
  local n = launcher()
  umpire.dice.fix{ 5 }; S.fire{ shooter = n, target = a, world = { a }, turn = 1 }
  umpire.dice.fix{ 5 }; eq(S.fire{ shooter = n, target = a, world = { a }, turn = 2 }.hits, 0)
end)

test("BA Multiple launcher: targets inside the minimum range are missed", function()
  local a = SC.line("a", "allies", 3, "rifle", { y = 30 })
  local near = SC.line("near", "allies", 2, "rifle", { y = 8 })     -- within 6"? no: 22" from template
  local close = SC.line("close", "allies", 2, "rifle", { x = 0, y = 25 })
  local n = launcher()
  n.models[1].y = 14        -- the launcher 11" from `close`: inside 12"
  umpire.dice.fix{ 1 }
  S.fire{ shooter = n, target = a, world = { a, near, close }, turn = 1 }
  ok(umpire.journal.cited("BA Multiple launcher"))
end)
