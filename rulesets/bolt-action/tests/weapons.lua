-- BA Weapons chart, BA HE chart, mounts (BA Weapon special rules).
local W = umpire.rules.weapons

test("BA Weapons chart: rifle 24\" 1 shot, LMG 36\" 4 shots Team", function()
  local r, l = W.profile("rifle"), W.profile("lmg")
  eq({ r.range, r.shots, r.pen }, { 24, 1, 0 })
  eq({ l.range, l.shots }, { 36, 4 })
  ok(W.has(l, "team"))
end)

test("BA Weapons chart: light howitzer 48 (or 24-60), light mortar 12-24", function()
  local h = W.profile("light_howitzer")
  eq({ W.ranges(h, "direct") }, { 48 })
  eq({ W.ranges(h, "indirect") }, { 60, 24 })
  eq({ W.ranges(W.profile("light_mortar"), "indirect") }, { 24, 12 })
end)

test("BA Types of weapon: MG42 is an LMG until an army list changes it", function()
  eq(W.profile("mg42").shots, 4)
  eq(W.profile("mg42").range, 36)
end)

test("BA Multiple launcher: counts as a heavy mortar", function()
  local m = W.profile("multiple_launcher")
  eq({ m.range, m.min_range, m.he }, { 72, 12, 3 })
end)

test("BA Weapon special rules: a mount of two MMGs adds the shots", function()
  eq(W.shots(W.profile("mmg"), { id = "twin", mount = 2 }), 10)
  ok(umpire.journal.cited("BA Weapon special rules"))
end)

test("BA HE chart: 1\"-4\" rows and previous-edition names", function()
  eq(W.he_row(3).pen, 3)
  eq(W.he_row(4).pins, "D6")
  eq(W.he_row(2).building_hits, "D6")
  eq(W.he_row("D6").diameter, 2)
  eq(W.he_row("D2").diameter, 1)
  eq(W.he_row("D3").diameter, 1)
end)

test("BA Weapons chart: unknown weapon is a clear error", function()
  raises(function() W.profile("phaser") end, "unknown weapon 'phaser'")
end)

-- weapons.profile copies a weapon's `as` chain with a constructor compiled once per weapon (issue
-- 18): every profile must equal the copy the chain's tables give key by key (written out here),
-- on the first call and on later ones, each a table of its own.
test("BA Weapons chart: every profile is its data chain, copied afresh each time", function()
  local all = umpire.data.weapons.weapons
  local ids = {}
  for id in pairs(all) do ids[#ids + 1] = id end
  ok(#ids > 10, "the chart has its weapons")
  for _, id in ipairs(ids) do
    local chain, cur = {}, id
    while cur do table.insert(chain, 1, all[cur]); cur = all[cur].as end
    local expected = { id = id }
    for _, w in ipairs(chain) do for k, v in pairs(w) do if k ~= "as" then expected[k] = v end end end
    expected.special_set = {}
    for _, s in ipairs(expected.special or {}) do expected.special_set[s] = true end
    for round = 1, 3 do
      local p = W.profile(id)
      eq(p, expected, id .. " (call " .. round .. ")")
      p.range, p.special_set.changed = -1, true  -- a caller's change stays in its own copy
    end
  end
end)
