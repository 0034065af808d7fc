-- A9.2 Multiple ROF: the A9.2 EX (scenarios/a9_2.yaml), with fixed dice that give the outcomes the EX states.
local function setup()
  local sc = umpire.data.scenario("a9_2")
  local u = sc.units
  local s = {
    mg = umpire.rules.mg_usage.counter(u.mg.counter, {hex = "J5"}),
    crew = {name = u.crew.name, kind = "squad", fp = u.crew.fp, range = u.crew.range, morale = u.crew.morale},
    squad = {name = u.squad.name, kind = "squad", morale = u.squad.morale},
    leader = {name = u.leader.name, kind = "leader", leadership = u.leader.leadership, morale = u.leader.morale},
  }
  return s
end
local ift = function() return umpire.rules.ift end
local function shot(s, units, loc, mf, drm, dice, extra)
  umpire.dice.fix(dice)
  local spec = {label = "First Fire vs " .. loc, phase = "MPh", side = "DEFENDER", crew = {s.crew}, mgs = {s.mg}, range = 2,
    drm = drm, target = {units = units, location = loc, mf = mf}, apply = true}
  for k, v in pairs(extra or {}) do spec[k] = v end
  return umpire.rules.mg_attack.fire(spec)
end

local function play_to_first_fire(s)
  local R = umpire.rules
  -- shot 1: stack enters H6 (1 MF), -2 FFNAM-FFMO; DR 1+4 -> Final 3: 2MC; squad passes (DR 3), leader pinned (DR 6)
  local a1 = shot(s, {s.squad, s.leader}, "H6", 1, R.mg_rof.movement_drm(s.squad, {"ffnam", "ffmo"}), {1, 4, 1, 2, 3, 3})
  -- shot 2: squad enters H5 (2 MF): +2 DRM (-1 FFNAM +3 TEM); DR 1+1 -> Final 4: 1MC; squad breaks (DR 8)
  local d2 = R.mg_rof.movement_drm(s.squad, {"ffnam"})
  d2[#d2 + 1] = ift().drm_entry("tem", 3, "stone building TEM")
  local a2 = shot(s, {s.squad}, "H5", 2, d2, {1, 1, 4, 4})
  -- shot 3: still -1 FFNAM (A8.14) +3 TEM; coloured 3 > ROF 2: Multiple ROF lost, First Fire counter
  local d3 = R.mg_rof.movement_drm(s.squad, {"ffnam"})
  d3[#d3 + 1] = ift().drm_entry("tem", 3, "stone building TEM")
  local a3 = shot(s, {s.squad}, "H5", 2, d3, {3, 5})
  return a1, a2, a3
end

test("A9.2 EX: first shot (-2 FFNAM-FFMO) pins the leader; coloured dr 1 retains Multiple ROF", function()
  local s = setup()
  local a1 = play_to_first_fire(s)
  eq(a1.drm, -2); eq(a1.colored, 1); eq(a1.result, "2MC")
  eq(s.leader.pinned, true); eq(s.squad.pinned, nil)
  eq(a1.mg[s.mg.name].keeps_rof, true)
  ok(umpire.journal.cited("A9.2"))
end)

test("A9.2 EX: the MG may not fire again at the pinned leader (one MF in H6)", function()
  local s = setup()
  play_to_first_fire(s)
  eq(umpire.rules.mg_rof.may_fire_at(s.mg, s.leader, "H6", 1, {phase = "MPh"}), false)
  raises(function() shot(s, {s.leader}, "H6", 1, {}, {2, 2}) end, "A9.2")
end)

test("A9.2 EX: +2 DRM (-1 FFNAM +3 TEM) breaks the squad in H5 and retains ROF; the third shot loses ROF (First Fire counter)", function()
  local s = setup()
  local _, a2, a3 = play_to_first_fire(s)
  eq(a2.drm, 2); eq(s.squad.broken, true); eq(a2.mg[s.mg.name].keeps_rof, true)
  eq(a3.drm, 2); eq(a3.mg[s.mg.name].keeps_rof, false)
  eq(s.mg.fire_counter, "First Fire")
  ok(umpire.journal.cited("A8.14"))
end)

test("A9.2 EX: no Subsequent First Fire vs the broken squad: fired on twice, two MF expended in H5", function()
  local s = setup()
  play_to_first_fire(s)
  eq(umpire.rules.mg_rof.may_fire_at(s.mg, s.squad, "H5", 2, {phase = "MPh"}), false)
  raises(function() shot(s, {s.squad}, "H5", 2, {}, {2, 2}, {subsequent_first_fire = true}) end, "A9.2")
end)

test("A9.2 EX: another unit within two hexes may get Subsequent First Fire, which is Sustained Fire (A9.3)", function()
  local s = setup()
  play_to_first_fire(s)
  local other = {name = "German 2-3-7", kind = "hs", morale = 7}
  local a = shot(s, {other}, "I5", 1, {}, {2, 5}, {subsequent_first_fire = true})
  eq(a.fp, 2)  -- 4 FP halved as Area Fire
  eq(s.mg.fire_counter, "Final Fire")
  ok(umpire.journal.cited("A9.3"))
end)

test("A9.2 EX: the MG (not adjacent to an enemy unit) gets no Final Fire (A8.4)", function()
  local s = setup()
  play_to_first_fire(s)
  umpire.dice.fix{2, 2}
  raises(function() umpire.rules.mg_attack.fire({phase = "DFPh", side = "DEFENDER", mgs = {s.mg}, crew = {s.crew}, range = 2,
    target = {units = {s.squad}, location = "H5"}}) end, "A8.4")
end)

test("A9.2 EX: had the leader spent two MF in H6, the -2 FFNAM/FFMO would not apply to the second shot (pinned), and not after the squad leaves", function()
  local s = setup()
  play_to_first_fire(s)
  eq(#umpire.rules.mg_rof.movement_drm(s.leader, {"ffnam", "ffmo"}), 0)
  local s2 = setup()
  s2.leader.pinned = true
  eq(umpire.rules.mg_rof.may_fire_at(s2.mg, s2.leader, "H6", 2, {phase = "MPh"}), true)
  s2.leader.mph_ended = true
  eq(umpire.rules.mg_rof.may_fire_at(s2.mg, s2.leader, "H6", 2, {phase = "MPh"}), false)
end)

test("A9.2: each MG of a multiple-MG FG keeps or loses its own ROF: coloured 2 exhausts the LMG (ROF 1), not the MMG (ROF 2)", function()
  local mmg = umpire.rules.mg_usage.counter("ger_mmg")
  local lmg = umpire.rules.mg_usage.counter("ger_lmg")
  umpire.dice.fix{2, 3}
  local a = umpire.rules.mg_attack.fire({phase = "PFPh", side = "ATTACKER", mgs = {mmg, lmg}, crew = {{name = "sq", kind = "squad"}}, range = 3})
  eq(a.mg[mmg.name].keeps_rof, true); eq(a.mg[lmg.name].keeps_rof, false)
  eq(lmg.fire_counter, "Prep Fire"); eq(mmg.fire_counter, nil)
end)
