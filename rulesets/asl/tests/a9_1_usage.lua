-- A9.11 MMC usage and A9.12 SMC usage.
local U = function() return umpire.rules.mg_usage end
test("A9.11: a squad fires one SW MG at no cost, two at the cost of its Inherent FP", function()
  local sq = {name = "sq", kind = "squad"}
  eq(U().check({sq}, {{name = "m1"}}).inherent_forfeit, false)
  eq(U().check({sq}, {{name = "m1"}, {name = "m2"}}).inherent_forfeit, true)
  raises(function() U().check({sq}, {{}, {}, {}}) end, "A9.11")
  ok(umpire.journal.cited("A9.11"))
end)
test("A9.11: any other MMC fires only one SW MG and forfeits its Inherent FP", function()
  local hs = {name = "hs", kind = "hs"}
  eq(U().check({hs}, {{name = "m1"}}).inherent_forfeit, true)
  raises(function() U().check({hs}, {{}, {}}) end, "only one SW MG")
end)
test("A9.11: the squad's Inherent FP is not added when it fires two MG", function()
  local sq = {name = "sq", kind = "squad", fp = 4, range = 6}
  local m1, m2 = U().counter("ger_mmg"), U().counter("ger_lmg")
  umpire.dice.fix{3, 4}
  local a = umpire.rules.mg_attack.fire({phase = "PFPh", crew = {sq}, units = {sq}, mgs = {m1, m2}, range = 3})
  eq(a.fp, 8)
end)
test("A9.12: a single leader fires a SW MG as Area Fire and loses his leadership DRM; two SMC fire it at full FP; Cowering exempt", function()
  local l = {name = "8-1", kind = "leader", leadership = -1}
  local r = U().check({l}, {{name = "m"}})
  eq(r.area_fire, true); eq(r.leadership_lost, true); eq(r.cowering_exempt, true)
  local r2 = U().check({{name = "a", kind = "leader"}, {name = "b", kind = "smc"}}, {{name = "m"}})
  eq(r2.area_fire, false)
  raises(function() U().check({{name = "h", kind = "hero"}}, {{}}) end, "not implemented: A15.23")
  local m = U().counter("ger_mmg")
  umpire.dice.fix{3, 4}
  eq(umpire.rules.mg_attack.fire({phase = "PFPh", crew = {l}, mgs = {m}, range = 3}).fp, 2.5)
  ok(umpire.journal.cited("A9.12"))
end)

-- mg_usage.counter copies a counter with a constructor compiled once per data counter (issue 18):
-- every counter must equal the key-by-key copy of its data (written out here), with the fields
-- given, on the first call and on later ones, each a table of its own.
test("A9.1: every MG counter is a fresh copy of its data with the given fields", function()
  local counters = umpire.data.sw_mg.counters
  local keys = {}
  for key in pairs(counters) do keys[#keys + 1] = key end
  ok(#keys > 5, "the counters are there")
  for _, key in ipairs(keys) do
    for round = 1, 3 do
      local fields = round == 2 and {fire_counter = "First Fire", fp = 99} or nil
      local expected = {key = key}
      for k, v in pairs(counters[key]) do expected[k] = v end
      for k, v in pairs(fields or {}) do expected[k] = v end
      expected.owner = expected.owner or expected.nationality
      local c = U().counter(key, fields)
      eq(c, expected, key .. " (call " .. round .. ")")
      c.fp, c.malfunctioned = -1, true  -- a caller's change stays in its own copy
    end
  end
  raises(function() U().counter("no_such_mg") end, "no counter 'no_such_mg'")
end)

-- mg_usage.counter keeps its copier by the counter's key, with the data table it copies: a table
-- put in place of the counter's under the same key (a write to umpire.data) is copied itself,
-- not through the copier of the table it replaced.
test("A9.1: a counter whose data table was replaced under its key is a copy of the new table", function()
  local counters = umpire.data.sw_mg.counters
  local written = counters.ger_mmg
  eq(U().counter("ger_mmg").B, written.B)
  local changed = {}
  for k, v in pairs(written) do changed[k] = v end
  changed.B, changed.fp = 9, 6
  counters.ger_mmg = changed
  local fine, err = pcall(function()
    local c = U().counter("ger_mmg", {fire_counter = "First Fire"})
    eq({c.B, c.fp, c.fire_counter, c.name}, {9, 6, "First Fire", written.name})
  end)
  counters.ger_mmg = written
  ok(fine, tostring(err))
  eq(U().counter("ger_mmg").B, written.B)
end)

-- mg_usage.counter's copier holds the counter's `owner` (its own, else its nationality), worked
-- out again only after an override of `owner` or `nationality`: checked against the copy worked
-- out here as the rule reads (the counter over its key, the override written over it, then
-- `owner = owner or nationality`), for random counters put under a key (owner and nationality
-- absent, false or a side) and random overrides. (Park-Miller random numbers.)
test("A9.1: a counter's owner is its own, else its nationality, after any override (random counters)", function()
  local counters = umpire.data.sw_mg.counters
  local written = counters.ger_mmg
  local x = 4242
  local function pick(list)
    x = x * 16807 % 2147483647
    return list[x % #list + 1]
  end
  local ABSENT = {}
  local values = {ABSENT, false, "german", "russian", "finnish"}
  local function put(t, k, v) if v ~= ABSENT then t[k] = v end end
  local fine, err = pcall(function()
    for case = 1, 300 do
      local c = {}
      for k, v in pairs(written) do c[k] = v end
      c.owner, c.nationality = nil, nil
      put(c, "owner", pick(values))
      put(c, "nationality", pick(values))
      put(c, "key", pick({ABSENT, ABSENT, "other_key"}))
      counters.ger_mmg = c
      -- (a few copies of each counter, each with its own override, or none)
      for _ = 1, 3 do
        local fields = pick({ABSENT, "empty", "override"})
        if fields == ABSENT then fields = nil
        elseif fields == "empty" then fields = {}
        else
          fields = {}
          put(fields, "owner", pick(values))
          put(fields, "nationality", pick(values))
          put(fields, "fire_counter", pick({ABSENT, "First Fire"}))
        end
        local want = {key = "ger_mmg"}
        for k, v in pairs(c) do want[k] = v end
        for k, v in pairs(fields or {}) do want[k] = v end
        want.owner = want.owner or want.nationality
        local got = U().counter("ger_mmg", fields)
        eq(got, want, "case " .. case)
        -- (each call a fresh table: changing one changes no later copy)
        got.owner, got.B = "changed", 2
      end
    end
  end)
  counters.ger_mmg = written
  ok(fine, tostring(err))
end)
