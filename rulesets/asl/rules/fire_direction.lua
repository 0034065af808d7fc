-- fire_direction.lua: A9.4 Mandatory Fire Direction.
-- The extracted text says "at a range <= 17 hexes"; with "16 hex maximum range unless ... directing", the rule
-- is about Long Range Fire beyond 16 hexes, i.e. range >= 17. We follow that reading.
local fd = {}

--- ctx: {range, leader_directing, target = {infantry, concealed, broken, berserk, overstacked, armored, aerial}}
-- Returns {allowed, treat_concealed, no_effect} and cites.
function fd.check(mg, ctx)
  local out = {allowed = true, treat_concealed = false, no_effect = false}
  if ctx.range <= 16 then return out end
  local cmg = mg.cmg or mg.ife
  if not cmg and not ctx.leader_directing then
    umpire.cite("A9.4", "%s: range %d > 16 hexes needs an Infantry leader directing the fire", mg.name or "MG", ctx.range)
    out.allowed = false
    return out
  end
  umpire.cite("A9.4", "%s at range %d: Mandatory Fire Direction/Long Range Fire%s", mg.name or "MG", ctx.range,
    cmg and " (CMG/IFE: no leader needed)" or " directed by a leader")
  local t = ctx.target or {}
  if t.armored or t.aerial then
    out.no_effect = true
    umpire.cite("A9.4", "Long Range Fire has no effect vs aerial or armored targets")
  end
  if not cmg and t.infantry and not t.concealed and not (t.broken or t.berserk or t.overstacked) then
    out.treat_concealed = true
    umpire.cite("A9.4", "unconcealed Infantry beyond 16 hexes are treated as concealed (Area Fire)")
  end
  return out
end

return fd
