-- The IFT as far as A9 uses it: columns, lookup, DRM pipeline, Area Fire, PBF/TPBF, Residual FP, Random Selection.
local ift = function() return umpire.rules.ift end

test("A7.31: FP between columns uses the next lower column", function()
  eq(ift().column(3), 2); eq(ift().column(7), 6); eq(ift().column(40), 36); eq(ift().column(9), 8); eq(ift().column(0.5), 0)
end)

test("A8.2: Residual FP is one column to the left; A9.22 Fire Lane FP is the column left of the MG's FP column", function()
  eq(ift().column_left(4), 2); eq(ift().column_left(1), 0); eq(ift().column_left(12), 8)
  eq(ift().column_left(ift().column(7)), 4)  -- German HMG 7 FP: 4 FP Fire Lane (A9.222 EX)
end)

test("IFT lookup and result parsing", function()
  eq(ift().lookup(4, 3), "2MC"); eq(ift().lookup(8, 0), "3KIA"); eq(ift().lookup(2, -3), "2KIA"); eq(ift().lookup(36, 20), "PTC")
  eq(ift().parse("K/2"), {kind = "K", n = 2}); eq(ift().parse("NMC"), {kind = "MC", n = 0}); eq(ift().parse("-"), {kind = "none", n = 0})
end)

test("DRM pipeline reads like the rulebook: +2 DRM (-1 FFNAM +3 TEM)", function()
  local total, m = ift().drm({ift().drm_entry("ffnam"), ift().drm_entry("tem", 3, "TEM")})
  eq(total, 2)
  ok(tostring(m):find("+2", 1, true))
  ok(umpire.journal.cited("A4.6"))
end)

test("A7.21/A7.212/A7.22/A7.23: PBF doubles, TPBF triples, long range and Area Fire halve", function()
  eq(ift().firer_fp({name = "sq", fp = 4, range = 6}, {range = 1}), 8)
  eq(ift().firer_fp({name = "sq", fp = 4, range = 6}, {range = 0}), 12)
  eq(ift().firer_fp({name = "sq", fp = 4, range = 6}, {range = 8}), 2)
  eq(ift().firer_fp({name = "sq", fp = 4, range = 6}, {range = 3, area = {{why = "test"}}}), 2)
  raises(function() ift().firer_fp({name = "sq", fp = 4, range = 6}, {range = 13}) end, "A7.22")
end)

test("IFT attack: Original DR and coloured dr are kept apart", function()
  umpire.dice.fix{2, 5}
  local a = ift().resolve({label = "t", fp = 8, drm = {ift().drm_entry("tem", 1, "woods TEM")}})
  eq(a.original, 7); eq(a.colored, 2); eq(a.final_dr, 8); eq(a.result, "NMC")
  ok(umpire.journal.cited("A7.3"))
end)

test("Random Selection: highest dr selected, ties select all", function()
  umpire.dice.fix{2, 5, 1}
  local s = ift().random_selection({{name = "a"}, {name = "b"}, {name = "c"}})
  eq(#s, 1); eq(s[1].name, "b")
  umpire.dice.fix{4, 4}
  eq(#ift().random_selection({{name = "a"}, {name = "b"}}), 2)
end)

test("IFT results: KIA eliminates, K/n reduces one and nMC the others, PTC pins", function()
  local u1, u2 = {name = "a", morale = 7}, {name = "b", morale = 7}
  umpire.dice.fix{3, 6, 1, 1}  -- RS: b; a takes 2MC with DR 2 (+2 = 4): passes
  ift().apply({effect = {kind = "K", n = 2}, result = "K/2", column = 4}, {u1, u2})
  eq(u2.reduced, true); eq(u1.broken, nil)
  local u3 = {name = "c", morale = 7}
  umpire.dice.fix{4, 4}
  ift().apply({effect = {kind = "PTC", n = 0}, result = "PTC", column = 4}, {u3})
  eq(u3.pinned, true)
end)

-- ift.lookup reads a copy of the results kept per load (turned on its side: column -> row -> result)
-- and ift.column a memo of the FPs met: both are checked against data/ift.yaml as written, read here.
test("A7.3: ift.lookup agrees with data/ift.yaml as written, every column and Final DR", function()
  local t = umpire.data.ift
  local checked = 0
  for idx, col in ipairs(t.columns) do
    for final = -4, 19 do
      local row = final  -- row 0 stands for <= 0 and row 15 for >= 15
      if row < 0 then row = 0 elseif row > 15 then row = 15 end
      eq(ift().lookup(col, final), t.results[row][idx], "column " .. col .. ", Final DR " .. final)
      checked = checked + 1
    end
  end
  eq(checked, 11 * 24)
  raises(function() ift().lookup(3, 7) end, "no IFT column 3")
  raises(function() ift().lookup(0, 7) end, "no IFT column 0")
end)

test("A7.31: ift.column is the highest column at or below the FP, every FP from -1 to 40 by halves, twice", function()
  local cols = umpire.data.ift.columns
  for _ = 1, 2 do  -- the second pass answers from the memo
    for twice = -2, 80 do
      local fp = twice / 2
      local want = 0
      for _, c in ipairs(cols) do if c <= fp and c > want then want = c end end
      eq(ift().column(fp), want, "FP " .. fp)
    end
  end
  eq(ift().column(0 / 0), 0)
end)

test("A8.2/A9.22: ift.column_left, every column and shift 0..4, against the columns as written", function()
  local cols = umpire.data.ift.columns
  for i, col in ipairs(cols) do
    for n = 0, 4 do
      local want = 0
      if i - n >= 1 then want = cols[i - n] end
      eq(ift().column_left(col, n), want, "column " .. col .. ", " .. n .. " to the left")
    end
  end
  eq(ift().column_left(0), 0)
  raises(function() ift().column_left(3) end, "3 is not an IFT column")
end)
