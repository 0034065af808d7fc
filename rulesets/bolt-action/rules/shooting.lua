-- The shooting procedure the weapon special rules modify (seed 003 takes it as given: "pick a
-- target unit and roll to hit in the same way as for a normal shot", "roll to damage as normal").
--
--   1. declare: the unit's target (and any one-shot weapons' own targets, BA One-shot), the
--      kind of round (BA HE), the fire mode (BA Howitzer); check arcs (BA Fixed), who may fire
--      (BA Spotters, BA Team), minimum ranges (BA Indirect fire);
--   2. roll to hit: one die per shot, grouped by the score needed (BA core, BA special rules);
--   3. hits: HE templates (BA HE), flamethrower multiplication (BA Flamethrower);
--   4. roll to damage with the weapon's Pen added, remove casualties (BA Team);
--   5. pins, then the flamethrower's morale check and fuel roll, one-shot weapons spent.
--
-- shooting.fire(o):
--   o.shooter, o.target      units (see scenarios/*.yaml for their shape)
--   o.order                  "fire" (default) | "advance" | "ambush"
--   o.models                 ids of the models that fire (default: every armed model)
--   o.split                  {[model id] = unit}: one-shot weapons at their own targets
--   o.shot                   "he" | "ap" for weapons with both (BA HE); o.mode "direct" | "indirect"
--   o.world                  every unit on the table (other units under templates, friends)
--   o.turn                   turn number (ranging in); o.casualties {model ids} removal order
--   o.target_goes_down       the target reacts to HE by going Down (BA HE)
--   o.facing                 "front" | "side" | "rear" | "top" when the target is a vehicle
-- Returns {groups=, hits=, units={[id]={hits=, casualties=, pins=}}, destroyed={...}}.
local S = {}

local function R(name) return umpire.rules[name] end

local function find(list, id) for _, x in ipairs(list) do if x.id == id then return x end end end

-- Base-to-base distance from each firer at `target` to its nearest model still on the table
-- (`alive`, core.alive), for range, measured for all of them in one kernel call
-- (geometry.nearest_each): sets edge_of[f] for every firer f of `firers` aiming at `target`.
local function measure_firers_at(target, alive, firers, edge_of, G)
  local at, models = {}, {}
  for _, f in ipairs(firers) do
    if f.target == target then at[#at + 1] = f; models[#models + 1] = f.model end
  end
  local d = G.nearest_each(models, alive)
  for i, f in ipairs(at) do edge_of[f] = d[i] end
end

-- The base-to-base distance and the centre-of-weapon to target distance for minimum ranges
-- ("measured from the centre of the weapon itself").
local function distances(model, edge)
  local r = (model.base_mm or 25) / 25.4 / 2
  return edge, edge + r
end

function S.result_for(res, unit)
  local u = res.units[unit.id]
  if not u then
    u = { hits = 0, casualties = 0, pins = 0, he_pins = false, unit = unit }
    res.units[unit.id] = u
  end
  return u
end

-- 1. Declare: who fires, with what, at whom, needing what.
function S.declare(o)
  local W, C = R("weapons"), R("core")
  local shooter = o.shooter
  o.order = o.order or "fire"
  if o.order ~= "fire" and o.order ~= "advance" and o.order ~= "ambush" then
    error("shooting.fire: order must be fire, advance or ambush, not '" .. tostring(o.order) .. "'", 3)
  end
  if not o.target then error("shooting.fire: no target declared", 3) end
  local firers = {}
  local chosen
  if o.models then chosen = {} for _, id in ipairs(o.models) do chosen[id] = true end end
  -- (one options table for all the firers: weapons.profile only reads it)
  local profile_opts = {towed = shooter.towed}
  for _, m in ipairs(C.alive(shooter)) do
    if m.weapon and (not chosen or chosen[m.id]) and not m.spent then
      local p = W.profile(m.weapon, profile_opts)
      -- BA One-shot: "you do not have to fire all of a unit's one-shot weapons in the same
      -- turn" - they fire only when named in o.models or o.split.
      if W.has(p, "one_shot") and not chosen and not (o.split and o.split[m.id]) then
        umpire.cite("BA One-shot", m.id .. " keeps its " .. p.name .. " for a later turn")
      else
        firers[#firers + 1] = { model = m, profile = p, target = o.target }
      end
    end
  end
  if o.split then
    for id, unit in pairs(o.split) do
      local f
      for _, x in ipairs(firers) do if x.model.id == id then f = x end end
      if not f then error("shooting.fire: split fire for '" .. tostring(id) .. "', which is not firing", 3) end
      R("one_shot").declare_split(f, o)
      f.target = unit
    end
  end
  R("spotters").check_firers(shooter, firers)
  R("team").loaders_busy(shooter, firers)
  -- Firers at the same target are resolved together; order of declaration is kept.
  -- Each target's models still on the table are listed once for all its firers, and all its
  -- firers are measured to them together when the first of them is declared (nothing is removed
  -- or moved while fire is declared): a list and a kernel call per firer cost more.
  local out = {}
  local G = R("geometry")
  local alive_of, edge_of = {}, {}
  for _, f in ipairs(firers) do
    local p = f.profile
    f.mode = "direct"
    if W.has(p, "indirect_fire") then f.mode = "indirect"
    elseif W.has(p, "howitzer") then f.mode = R("indirect_fire").howitzer_mode(shooter, f, o) end
    f.he_shot = R("he").shot_type(shooter, f, o)
    if f.mode == "indirect" then R("indirect_fire").check_allowed(shooter, f, o) end
    if W.has(p, "fixed") then R("fixed").check(shooter, f, o) end
    local range, min_range = W.ranges(p, f.mode)
    local alive = alive_of[f.target]
    if not alive then
      alive = C.alive(f.target)
      alive_of[f.target] = alive
      measure_firers_at(f.target, alive, firers, edge_of, G)
    end
    f.distance, f.centre_distance = distances(f.model, edge_of[f])
    f.range = range
    if f.distance > range + 1e-9 then
      umpire.cite(C.CITE, ("%s (%s) out of range: %.2f\" > %d\""):format(f.model.id, p.name, f.distance, range))
    elseif min_range and f.mode == "indirect" and f.centre_distance < min_range then
      umpire.cite("BA Indirect fire", ("%s: target %.2f\" from the weapon's centre, inside minimum range %d\": misses automatically"):format(f.model.id, f.centre_distance, min_range))
    else
      f.shots = W.shots(p, f.model)
      out[#out + 1] = f
    end
  end
  return out
end

-- 2. The score one firer needs to hit.
function S.need(shooter, f, o)
  local W, C = R("weapons"), R("core")
  local p = f.profile
  if f.mode == "indirect" then return R("indirect_fire").need(shooter, f, o) end
  local skip = {}
  if W.has(p, "assault") then skip.moving = R("assault").no_move_penalty(f, o) end
  if W.has(p, "flamethrower") then skip.cover, skip.down = R("flamethrower").ignores_cover_and_down(f) end
  if W.has(p, "fixed") and R("fixed").replaces_move_penalty(o) then skip.moving = true end
  local m = C.to_hit_modifiers(shooter, f.model, f.target, f.distance, f.range, o.order, skip)
  if W.has(p, "fixed") then R("fixed").to_hit(m, f, o) end
  if W.has(p, "team") then R("team").to_hit(m, shooter, f) end
  return C.need(m), m
end

-- 4. Roll to damage `hits` hits of Pen `pen` on `unit`; removes casualties. Returns casualties.
-- `how` = {he=, flamethrower=, shaped_charge=, indirect=, long_range=, facing=}
function S.damage(unit, hits, pen, how, o)
  local C = R("core")
  if hits <= 0 then return 0 end
  if unit.vehicle then return S.damage_vehicle(unit, hits, pen, how, o) end
  local cr = umpire.data.core_rules.damage
  local value = C.damage_value(unit)
  local extra = 0
  if unit.in_building then
    if how.flamethrower then
      umpire.cite("BA Flamethrower", "extra protection of the building does not apply")
    else
      extra = extra + cr.extra_protection_building
      umpire.cite(C.CITE, ("extra protection (building): damage value +%d"):format(cr.extra_protection_building))
    end
  end
  if unit.gun_shield then
    if how.flamethrower then
      umpire.cite("BA Flamethrower", "the gun shield does not apply against a flamethrower")
    else
      extra = extra + cr.gun_shield
      umpire.cite(C.CITE, ("gun shield: damage value +%d"):format(cr.gun_shield))
    end
  end
  local need = value + extra - pen
  if need < 2 and cr.natural_one_fails then need = 2 end
  if need > 6 then need = 6; umpire.cite(C.CITE, "damage needs more than 6: a 6 still damages") end
  local n = umpire.dice.count(hits, 6, need)
  umpire.cite(C.CITE, ("roll to damage %s: %d hits, damage value %d%+d, Pen +%d: %d+ -> %d casualties"):format(
    unit.id, hits, value, extra, pen, need, n))
  R("team").remove_casualties(unit, n, o and o.casualties, o)
  return n
end

function S.damage_vehicle(unit, hits, pen, how, o)
  local C = R("core")
  local v = umpire.data.core_rules.vehicles
  local armour = v.armour[unit.vehicle.armour] or tonumber(unit.vehicle.armour)
  if not armour then error("vehicle '" .. unit.id .. "': unknown armour '" .. tostring(unit.vehicle.armour) .. "'", 2) end
  local m = umpire.bus.modifiers("pen")
  m:add(pen, "weapon Pen", how.he and "BA HE chart" or "BA Weapons chart")
  local facing = how.facing or (o and o.facing) or "front"
  if how.flamethrower then
    facing = "top"; umpire.cite("BA Flamethrower", "flamethrowers always hit the top armour")
  elseif how.indirect then
    facing = "top"; umpire.cite("BA Indirect fire", "indirect fire always strikes the top armour")
  end
  if facing == "side" then m:add(v.side_pen, "side armour", C.CITE)
  elseif facing == "rear" then m:add(v.rear_pen, "rear armour", C.CITE)
  elseif facing == "top" then
    -- Indirect fire states its own "+1 penetration modifier" (special_rules.indirect_fire), so a
    -- house rule can change it apart from the core top-armour value other hits use.
    if how.indirect then m:add(umpire.data.special_rules.indirect_fire.top_armour_pen, "top armour", "BA Indirect fire")
    else m:add(v.top_pen, "top armour", how.flamethrower and "BA Flamethrower" or C.CITE) end
  end
  if how.long_range then
    if how.he then umpire.cite("BA HE", "HE shells suffer no -1 Pen at long range")
    elseif how.flamethrower then umpire.cite("BA Flamethrower", "no -1 Pen at long range")
    elseif how.shaped_charge then umpire.cite("BA Shaped charge", "never suffers the -1 Pen at long range")
    else m:add(v.long_range_pen, "long range", C.CITE) end
  end
  local dmg_mod = 0
  if how.indirect and unit.vehicle.open_topped then
    local k = umpire.data.special_rules.indirect_fire.open_topped_damage_roll
    dmg_mod = dmg_mod + k
    umpire.cite("BA Indirect fire", ("open-topped vehicle hit by indirect fire: +%d on the damage results"):format(k))
  end
  if (unit.vehicle.flamethrowers or 0) > 0 then
    local k = umpire.data.special_rules.flamethrower.vehicle_damage_roll
    dmg_mod = dmg_mod + k
    umpire.cite("BA Flamethrower", ("vehicle carrying flamethrowers: +%d on the damage results"):format(k))
  end
  local results = {}
  for i = 1, hits do
    local d = umpire.dice.d6()
    local total = d + m:total()
    if total >= armour then
      local r = umpire.dice.d6() + dmg_mod
      local res = C.vehicle_result(r)
      results[#results + 1] = res
      umpire.cite(C.CITE, ("hit %d on %s: %d%+d = %d vs armour %d: penetrates, damage result %d: %s"):format(i, unit.id, d, m:total(), total, armour, r, res))
      if res == "knocked_out" then unit.destroyed = true end
    else
      umpire.cite(C.CITE, ("hit %d on %s: %d%+d = %d vs armour %d: no effect"):format(i, unit.id, d, m:total(), total, armour))
    end
  end
  unit.damage_results = results
  return #results
end

-- 3-5 for one group of firers at one target.
local function resolve(shooter, group, o, res)
  local W, C = R("weapons"), R("core")
  local f1 = group[1]
  local p, target = f1.profile, f1.target
  local shots = 0
  for _, f in ipairs(group) do shots = shots + f.shots end
  local hits = C.roll_pool(shots, group.need, ("%s %s to hit %s"):format(shooter.id, p.name, target.id))
  res.hits = res.hits + hits
  if f1.mode == "indirect" then R("indirect_fire").after_roll(shooter, f1, o, hits) end
  local how = { he = f1.he_shot, indirect = f1.mode == "indirect",
                flamethrower = W.has(p, "flamethrower"), shaped_charge = W.has(p, "shaped_charge"),
                long_range = f1.distance > f1.range / 2 }
  if hits > 0 then
    if f1.he_shot then
      R("he").resolve_hits(shooter, f1, hits, o, res)
    else
      local n = hits
      if how.flamethrower then n = R("flamethrower").hits(p, hits) end
      local u = S.result_for(res, target)
      u.hits = u.hits + n
      local pen = W.pen(p, false)
      u.casualties = u.casualties + S.damage(target, n, pen, how, o)
      if how.flamethrower then u.flamethrower = true end
      u.plain_hit = true
    end
  end
  for _, f in ipairs(group) do
    if W.has(p, "one_shot") then R("one_shot").spend(f) end
  end
end

function S.fire(o)
  local res = { hits = 0, units = {}, groups = {} }
  local firers = S.declare(o)
  R("he").react_down(o, firers)
  -- group by target, weapon, mode, and the score needed
  local groups, index = {}, {}
  for _, f in ipairs(firers) do
    if f.profile.special_set.multiple_launcher then
      R("multiple_launcher").fire(o.shooter, f, o, res)
    else
      local need = S.need(o.shooter, f, o)
      local key = table.concat({ f.target.id, f.profile.id, f.mode, tostring(f.he_shot), need,
                                 tostring(f.distance > f.range / 2),
                                 -- each mortar ranges in on its own (BA Indirect fire)
                                 f.mode == "indirect" and f.model.id or "" }, "|")
      if not index[key] then
        index[key] = { need = need }
        groups[#groups + 1] = index[key]
      end
      table.insert(index[key], f)
    end
  end
  for _, g in ipairs(groups) do
    res.groups[#res.groups + 1] = { weapon = g[1].profile.id, need = g.need, shots = 0 }
    for _, f in ipairs(g) do res.groups[#res.groups].shots = res.groups[#res.groups].shots + f.shots end
    resolve(o.shooter, g, o, res)
  end
  -- 5. pins: one per unit hit by ordinary shots; HE and flamethrowers give their own.
  for _, u in pairs(res.units) do
    if u.hits > 0 then
      if u.flamethrower then
        u.pins = u.pins + R("flamethrower").pins(u.unit)
      elseif u.plain_hit then
        local k = umpire.data.core_rules.pins.per_unit_hit
        u.pins = u.pins + k
        umpire.cite(R("core").CITE, ("%s hit: +%d pin"):format(u.unit.id, k))
      end
      u.unit.pins = (u.unit.pins or 0) + u.pins
    end
  end
  for _, u in pairs(res.units) do
    if u.flamethrower then R("flamethrower").morale(u.unit, u) end
  end
  for _, f in ipairs(firers) do
    if f.profile.special_set.flamethrower then R("flamethrower").fuel(o.shooter, f, res) end
  end
  return res
end

return S
