-- umpire odds --ruleset rulesets/asl scripts/asl/vehicle_esb_odds.lua
-- D2.5 Excessive Speed Breakdown: one ESB DR, read for three tracked vehicles of data/vehicles.yaml
-- each seeking the most it may (one-fourth of its printed MP allotment, FRD):
--   German PzKpfw VIE (12 MP, black): 3 MP, +3 [MP sought] +2 [German] = +5: gains on DR <= 6 (15/36)
--   Russian BT-7 M37 (23 MP, black): 5 MP, +5 [MP sought] +1 [Russian] = +6: gains on DR <= 5 (10/36)
--   the red-MP French test tank (14 MP): 3 MP, +3 (FRU) +3 [French] = +6: gains on DR <= 5 (10/36)
-- Each field is "gains N MP" (Final DR <= 11) or "immobilized" (Final DR >= 12). Change `cases` to
-- ask about other vehicles or amounts (half MP: 3 = 1½ MP, which is where FRD and FRU differ).
local E = umpire.rules.vehicle_esb
local types = umpire.data.vehicles.vehicles
local fmt = umpire.rules.vehicle_terrain.fmt
local cases = { german_pzkpfw_vie = "pzkpfw_vie", russian_bt7_m37 = "bt7_m37", french_red_mp = "test_red_tank" }
local dr = umpire.dice.dr()
local out = {}
for field, key in pairs(cases) do       -- pairs order does not matter: every case reads the same DR
  local t = assert(types[key], "no vehicle type " .. key)
  local v = { name = t.name, class = t.class, mp_h = t.mp * 2, red_mp = t.red_mp, manufacturer = t.manufacturer }
  local why = E.prohibited(v, E.max_gain_h(v))
  if why then error(why) end
  local sought = E.max_gain_h(v)
  local r = E.resolve(v, sought, dr)
  out[field] = r.success and ("gains " .. fmt(sought) .. " MP") or "immobilized"
end
return out
