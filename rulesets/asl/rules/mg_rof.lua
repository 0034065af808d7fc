-- mg_rof.lua: A9.2 Multiple ROF. State lives on the MG table (which scripts keep in umpire.state):
-- mg.fire_counter (nil | "Prep Fire" | "First Fire" | "Final Fire"), mg.shots[unit@Location] = attacks made.
local rof = {}
-- umpire.cite is fixed for the load generation that loads this module: kept in a local, since every
-- look-up through the read-only `umpire` view costs an attack time (issue 18).
local cite = umpire.cite
-- Whether the journal is on (an odds run turns it off): the citations an attack always makes are
-- made only then (each call of umpire.cite still cost an attack ~250 machine instructions with the
-- journal off, where it returns at once: bench/per_call.sh).
local journal_on = umpire.journal.on

--- The fire counter a MG gets when it loses Multiple ROF in a phase (A9.2).
function rof.counter_for(phase)
  if phase == "PFPh" then return "Prep Fire" end
  if phase == "MPh" then return "First Fire" end
  if phase == "DFPh" then return "Final Fire" end
  return nil -- AFPh: the phase ends the MG's fire anyway
end

--- After an attack: does the MG keep its Multiple ROF? colored = Original coloured dr of the (FG) IFT/To Hit DR.
-- Each MG of a multiple-MG FG keeps or loses its own ROF from the same coloured dr. `journaling`:
-- whether the journal is on, from a caller that has just asked (nil: asked here, see ift.resolve_column).
function rof.after_attack(mg, colored, ctx, journaling)
  if journaling == nil then journaling = journal_on() end
  if ctx.sustained then
    mg.fire_counter = "Final Fire"
    mg.rof_kept = false
    if journaling then
      cite("A9.3", "%s: Sustained Fire forfeits any additional shots; Final Fire counter placed regardless of ROF and coloured dr", mg.name or "MG")
    end
    return false
  end
  if mg.fire_lane_declared then
    mg.rof_kept = false
    return false -- A9.22: the First Fire counter is already placed
  end
  -- A9.8: a dm German MMG/HMG fired as a LMG has the LMG's ROF
  local rof_n = mg.rof or 0
  if mg.dismantled then rof_n = umpire.rules.sw_dismantle.fire_numbers(mg).rof or 0 end
  local keep = colored <= rof_n
  mg.rof_kept = keep
  -- (cited only with the journal on, as above: umpire.cite with constant strings returns at once
  -- with it off, but its call and arguments still cost every attack more than this check)
  if keep then
    if journaling then
      cite("A9.2", "%s: Original coloured dr %d <= ROF %d: retains Multiple ROF and may fire again this phase", mg.name or "MG", colored, rof_n)
    end
  else
    local counter = rof.counter_for(ctx.phase) or mg.fire_counter
    mg.fire_counter = counter
    -- (the counter's words are given as pieces of the pattern, not joined here: a string built for
    -- a citation would be built in every attack, journal on or off)
    if journaling then
      cite("A9.2", "%s: Original coloured dr %d > ROF %d: loses Multiple ROF%s%s%s", mg.name or "MG", colored, rof_n,
        counter and ", marked with a " or "", counter or "", counter and " counter" or "")
    end
  end
  return keep
end

local function key(unit, loc) return (unit.name or "?") .. "@" .. tostring(loc) end

--- A9.2: during the MPh a DEFENDER MG cannot fire at the same unit in the same Location more times than the
-- MF/MP it expended there (minimum once per hex). unit.mph_ended: a pinned unit whose stack has moved on is no
-- longer subject to First Fire (A9.2 EX).
function rof.may_fire_at(mg, unit, loc, mf, ctx)
  ctx = ctx or {}
  if ctx.phase ~= "MPh" then return true end
  if unit.mph_ended then
    cite("A9.2", "%s's MPh has ended: no longer subject to First Fire", unit.name)
    return false
  end
  local n = (mg.shots or {})[key(unit, loc)] or 0
  local limit = math.max(1, mf or 1)
  if n >= limit then
    local times = ({ "once", "twice" })[n] or (n .. " times")
    local mfs = (({ "one", "two", "three", "four" })[mf or 1] or tostring(mf)) .. " MF"
    cite("A9.2", "%s has already fired %s at %s in %s, which expended only %s there: no further First Fire at it",
      mg.name or "MG", times, unit.name, tostring(loc), mfs)
    return false
  end
  return true
end

function rof.record_shot(mg, unit, loc)
  mg.shots = mg.shots or {}
  local k = key(unit, loc)
  mg.shots[k] = (mg.shots[k] or 0) + 1
end

--- FFNAM/FFMO for a moving target: none for a unit pinned by a previous shot, whose MPh has ended (A9.2 EX);
-- a broken unit keeps the DRM of the MF it expended (A8.14, as cited by the A9.2 EX).
function rof.movement_drm(unit, keys)
  local out = {}
  if unit.pinned then
    cite("A9.2", "%s is pinned: FFNAM/FFMO no longer apply to it", unit.name)
    return out
  end
  for _, k in ipairs(keys) do out[#out + 1] = umpire.rules.ift.drm_entry(k) end
  if unit.broken and #keys > 0 then cite("A8.14", "%s broke in this Location but still receives the movement DRM", unit.name) end
  return out
end

--- Reset per-phase ROF state (end of a phase). Fire counters are removed at the end of the Player Turn.
function rof.end_phase(mg) mg.rof_kept = nil end
function rof.end_player_turn(mg) mg.fire_counter = nil; mg.shots = {}; mg.rof_kept = nil; mg.fire_lane_declared = nil; mg.lane_fired = nil; mg.fire_lane = nil end

return rof
