-- umpire odds --ruleset rulesets/asl scripts/asl/vehicle_esb_odds.lua
-- D2.5 Excessive Speed Breakdown: one ESB DR, read for every manufacturer nationality of the ESB
-- DRM Table and MP sought 1, 1½, 2, 3, 4, 5, for a black and for a red MP allotment (+1 per MP
-- FRD vs FRU: they differ only for 1½; the ¼ cap is not applied: pick what your vehicle may seek). Each field is "gains" (Final DR <= 11) or
-- "immobilized" (>= 12); the marginal of a field is that case's odds, e.g. a Russian tank seeking
-- 3 MP (DRM +4) succeeds on DR <= 7: 21/36.
local E = umpire.rules.vehicle_esb
local data = umpire.data.esb
local dr = umpire.dice.dr()
local nats = {}
for k in pairs(data.nationality_drm) do nats[#nats + 1] = k end
table.sort(nats)                                -- pairs order never changes a result
local out = {}
for _, nat in ipairs(nats) do
  for _, h in ipairs({ 2, 3, 4, 6, 8, 10 }) do   -- half MP
    for _, red in ipairs({ false, true }) do
      local v = { class = "tracked", mp_h = 48, red_mp = red, manufacturer = nat }
      local r = E.resolve(v, h, dr)
      out[("%s_%sMP%s"):format(nat, umpire.rules.vehicle_terrain.fmt(h), red and "_red" or "")] = r.success and "gains" or "immobilized"
    end
  end
end
return out
