-- BA Indirect fire and BA Howitzer: minimum range, ranging in (6, 5+, 4+, 3+, 2+), zeroing,
-- top armour, no indirect fire after Ambush, ranging kept per mortar.
--
-- Ranging state lives in umpire.state.bolt_action.ranging["<unit>/<model>"]:
--   {target=, shots=, zeroed=, turn=, area={{x=,y=,base_mm=}...}, broken=}
local IF = {}
local RULE = "BA Indirect fire"
local function sr() return umpire.data.special_rules.indirect_fire end
local function opt() return umpire.data.options.options end

local function store()
  umpire.state.bolt_action = umpire.state.bolt_action or {}
  local s = umpire.state.bolt_action
  s.ranging = s.ranging or {}
  return s.ranging
end
local function key(unit, model) return tostring(unit.id) .. "/" .. tostring(model.id) end
function IF.ranging(unit, model) return store()[key(unit, model)] end

-- Howitzers choose "over open sights" (direct) or indirect fire.
function IF.howitzer_mode(unit, f, o)
  local mode = o.mode or "direct"
  if mode ~= "direct" and mode ~= "indirect" then
    error("BA Howitzer: mode must be \"direct\" or \"indirect\", not '" .. tostring(mode) .. "'", 0)
  end
  if mode == "direct" then
    umpire.cite("BA Howitzer", f.model.id .. " fires over open sights: no minimum range")
    local st = store()[key(unit, f.model)]
    if st then
      st.broken = true
      umpire.cite("BA Howitzer", f.model.id .. " switched to direct fire: its zeroing-in sequence will be reset")
    end
  else
    umpire.cite("BA Howitzer", f.model.id .. " fires indirectly: minimum range applies")
  end
  return mode
end

function IF.check_allowed(unit, f, o)
  if o.order == "ambush" or (unit.ambush_turn ~= nil and unit.ambush_turn == o.turn) then
    error(("BA Indirect fire: %s was in Ambush this turn and cannot fire indirectly - indirect fire takes time"):format(unit.id), 0)
  end
  umpire.cite(RULE, "indirect fire: friends in the way do not block the shot")
end

-- Did the target move? "the entire unit must be at least 2" away from the area that it was
-- covering before": every model at least 2" from every model position it had. Every model is
-- measured to the area in one kernel call (geometry.nearest_each), not one call a pair.
function IF.target_moved(area, target)
  local limit = sr().target_moved_inches
  local distances = umpire.rules.geometry.nearest_each(umpire.rules.core.alive(target), area)
  for _, d in ipairs(distances) do
    if d < limit - 1e-9 then return false end
  end
  return true
end

local function snapshot(target)
  local area = {}
  for _, m in ipairs(umpire.rules.core.alive(target)) do area[#area + 1] = { x = m.x, y = m.y, base_mm = m.base_mm } end
  return area
end

-- Can the crew shoot this target at all? (BA Indirect fire, BA Spotters)
local function check_sight(unit, f, o, st)
  if o.crew_can_see ~= false then return end
  if st and st.zeroed then
    umpire.cite(RULE, "zeroed in: keeps firing on 2+ even though the target is lost from view")
    return
  end
  if umpire.rules.spotters.sees_for_crew(unit, o) then return end
  error(("BA Spotters: %s cannot see %s and has not ranged in on it - choose a different target"):format(unit.id, f.target.id), 0)
end

-- The score needed: 6, then 5+, 4+, 3+, 2+ on the same unmoved target from an unmoved weapon;
-- 2+ once zeroed. "regardless of any modifier".
function IF.need(unit, f, o)
  local k = key(unit, f.model)
  local st = store()[k]
  local continues = st ~= nil and st.target == f.target.id
  local why
  if continues and st.broken then continues, why = false, "BA Howitzer" end
  if continues and o.order ~= "fire" then continues, why = false, "the weapon did not receive a Fire order (it moved)" end
  -- a record without an area never fired (its shot was refused): nothing to have moved from
  if continues and st.area and IF.target_moved(st.area, f.target) then continues, why = false, "the target moved at least 2\"" end
  if continues and opt().ranging_needs_consecutive_turns and o.turn and st.turn and o.turn ~= st.turn + 1 then
    continues, why = false, "it did not fire at this target last turn"
  end
  if st and not continues then
    if why == "BA Howitzer" then
      umpire.cite("BA Howitzer", f.model.id .. " returned to indirect fire after direct fire: zeroing-in sequence reset")
    else
      umpire.cite(RULE, ("%s starts ranging in again: %s"):format(f.model.id, why or "new target"))
    end
  end
  if not continues then st = { target = f.target.id, shots = 0, zeroed = false } end
  -- a shot refused here ("choose a different target") starts no ranging-in sequence: the record
  -- is stored only once the crew may shoot
  check_sight(unit, f, o, st)
  store()[k] = st
  local need
  if st.zeroed then
    need = sr().zeroed
    umpire.cite(RULE, ("%s is zeroed in on %s: hits on %d+"):format(f.model.id, f.target.id, need))
  else
    local seq = sr().ranging
    need = seq[math.min(st.shots + 1, #seq)]
    umpire.cite(RULE, ("%s ranging in on %s, shot %d: hits on %d+ regardless of any modifier"):format(f.model.id, f.target.id, st.shots + 1, need))
  end
  if not opt().ranging_ignores_modifiers then
    error("not implemented: BA Indirect fire with modified ranging scores (options.ranging_ignores_modifiers = false)", 0)
  end
  f.ranging = st
  return need
end

function IF.after_roll(unit, f, o, hits)
  local st = f.ranging
  if not st then return end
  st.shots = st.shots + 1
  st.turn = o.turn
  st.area = snapshot(f.target)
  if hits > 0 and not st.zeroed then
    st.zeroed = true
    umpire.cite(RULE, ("%s hit: zeroed in on %s, further shots hit on %d+"):format(f.model.id, f.target.id, sr().zeroed))
  end
end

--- BA Indirect fire, ranging in turn after turn: fires `o` (as shooting.fire) once a turn at the
-- same target for opts.turns turns from o.turn (default 1). "In the following turn, if the shooter
-- fires at the same target unit, and if the shooter has not moved ... and if the target unit has
-- not moved" (seed 003, BA Indirect fire): neither unit moves here, so each turn continues the
-- sequence 6, 5+, 4+, 3+, 2+ (2+ once zeroed in). opts.until_hit stops after the first turn with
-- a hit (the question "when does it first hit?").
--
-- The turns are an umpire.odds.chain: a plain loop in a game; under `umpire odds` folded over the
-- distinct states, so T turns cost T times the states instead of the product of every turn's
-- dice. The chain's state is what a turn changes: both units (models removed, pins) and the
-- counts; the ranging record lives in umpire.state, which the fold tracks with it. Other units on
-- the table (o.world, which HE templates look at) would have to join that state: not implemented.
-- Returns {turn = last turn fired, first_hit = turn or false, hits = total}, and the units of
-- `o` take the end state.
function IF.fire_turns(o, opts)
  opts = opts or {}
  if o.world and next(o.world) ~= nil then
    error("not implemented: indirect_fire.fire_turns with other units on the table (o.world)", 2)
  end
  local turns = opts.turns or 1
  local first = o.turn or 1
  local state = umpire.odds.chain{
    state = { shooter = o.shooter, target = o.target, turn = first - 1, first_hit = false, hits = 0, done = false },
    step = function(s)
      s.turn = s.turn + 1
      local shot = {}
      for k, v in pairs(o) do shot[k] = v end
      shot.shooter, shot.target, shot.turn, shot.world = s.shooter, s.target, s.turn, {}
      local r = umpire.rules.shooting.fire(shot)
      s.hits = s.hits + r.hits
      if r.hits > 0 and not s.first_hit then s.first_hit = s.turn end
      s.done = (opts.until_hit and s.first_hit and true) or s.turn >= first + turns - 1
    end,
    stop = function(s) return s.done end,
    max_steps = turns,
  }
  -- Under odds the chain hands back copies: the caller's unit tables take their end state.
  umpire.odds.write_back(o.shooter, state.shooter)
  umpire.odds.write_back(o.target, state.target)
  return { turn = state.turn, first_hit = state.first_hit, hits = state.hits }
end

return IF
