-- The A9.2 EX, played: umpire run --ruleset rulesets/asl scripts/asl/a9_2_rof.lua --explain
-- The dice are fixed to the rolls the EX describes (coloured 1 on the first two shots, then a 3).
local R, ift = umpire.rules, umpire.rules.ift
local sc = umpire.data.scenario("a9_2")
local u = sc.units
umpire.state.a9_2 = {
  mg = R.mg_usage.counter(u.mg.counter, {hex = u.mg.hex}),
  crew = {name = u.crew.name, kind = "squad", fp = u.crew.fp, range = u.crew.range, morale = u.crew.morale},
  squad = {name = u.squad.name, kind = "squad", morale = u.squad.morale},
  leader = {name = u.leader.name, kind = "leader", leadership = u.leader.leadership, morale = u.leader.morale},
}
local s = umpire.state.a9_2
local function fire(units, loc, mf, drm, dice, extra)
  umpire.dice.fix(dice)
  local spec = {label = s.mg.name .. " in 1J5 vs " .. loc, phase = "MPh", side = "DEFENDER", crew = {s.crew}, mgs = {s.mg},
    range = 2, drm = drm, target = {units = units, location = loc, mf = mf}, apply = true}
  for k, v in pairs(extra or {}) do spec[k] = v end
  return R.mg_attack.fire(spec)
end

umpire.note("German MPh: the squad and leader enter 1H6 from H7 (1 MF).")
local a = fire({s.squad, s.leader}, "H6", 1, R.mg_rof.movement_drm(s.squad, {"ffnam", "ffmo"}), {1, 4, 1, 2, 3, 3})
umpire.note(string.format("Result %s: %s %s, %s %s.", a.result, s.leader.name, s.leader.pinned and "pinned" or "unaffected",
  s.squad.name, s.squad.broken and "broken" or "carries on"))
umpire.note("May the MG fire on the pinned leader again?")
umpire.note(R.mg_rof.may_fire_at(s.mg, s.leader, "H6", 1, {phase = "MPh"}) and "yes" or "no: only one MF was expended in H6")

umpire.note("The squad enters H5 (2 MF, +3 TEM).")
local d = R.mg_rof.movement_drm(s.squad, {"ffnam"}); d[#d + 1] = ift.drm_entry("tem", 3, "TEM")
a = fire({s.squad}, "H5", 2, d, {1, 1, 4, 4})
umpire.note(string.format("Result %s: %s %s.", a.result, s.squad.name, s.squad.broken and "breaks" or "holds"))
d = R.mg_rof.movement_drm(s.squad, {"ffnam"}); d[#d + 1] = ift.drm_entry("tem", 3, "TEM")
a = fire({s.squad}, "H5", 2, d, {3, 5})
umpire.note(string.format("Third shot: %s; %s is now marked with a %s counter.", a.result == "-" and "No Effect" or a.result,
  s.mg.name, tostring(s.mg.fire_counter)))
umpire.note("Subsequent First Fire vs the broken squad?")
umpire.note(R.mg_rof.may_fire_at(s.mg, s.squad, "H5", 2, {phase = "MPh"}) and "yes" or "no: it fired twice and the squad expended only two MF in H5")
umpire.note("The German MPh ends. DFPh: Final Fire vs the squad two hexes away?")
local okk, err = pcall(R.mg_attack.fire, {phase = "DFPh", side = "DEFENDER", mgs = {s.mg}, crew = {s.crew}, range = 2,
  target = {units = {s.squad}, location = "H5"}})
umpire.note(okk and "yes" or ("no: " .. tostring(err):gsub("^.-: (A8%.4)", "%1")))
return {leader_pinned = s.leader.pinned == true, squad_broken = s.squad.broken == true, mg_counter = s.mg.fire_counter}
