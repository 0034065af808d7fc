-- SK Casualties: what a hit does to a soldier, and what wounded soldiers may do.
-- Animals go to umpire.rules.animals (SK Animals).
local C = {}
local function F() return umpire.rules.figures end

local LADDER = { ok = "walking_wounded", walking_wounded = "litter_case", litter_case = "dead", charging = "dead", dead = "dead" }
local STATUS_OF = { death = "dead", litter_case = "litter_case", walking_wounded = "walking_wounded", charge_then_die = "charging" }

-- The status after a new wound `effect` on a figure in status `old` (options.wound_stacking:
-- the text gives one effect per hit and says nothing of a second hit).
function C.combine(old, effect)
  local sev = umpire.data.hit_location.severity
  local new = STATUS_OF[effect]
  if old == "ok" then return new end
  if sev[new] > sev[old] then return new end
  if umpire.data.options.wound_stacking == "escalate" then
    umpire.cite("SK Casualties", ("a %s hit on a figure already %s: one step worse (options.wound_stacking = escalate)"):format(effect, old))
    return LADDER[old]
  end
  umpire.cite("SK Casualties", ("a %s hit on a figure already %s: stays %s (options.wound_stacking = worst)"):format(effect, old, old))
  return old
end

-- Applies a located hit (resolution.locate) to `target`. ctx: firer, turn, by_id.
function C.apply(target, rec, ctx)
  ctx = ctx or {}
  local e = rec.effect
  if not e or e == "no_effect" or e == "stopped_by_cover" then return end
  if F().is_animal(target) then return umpire.rules.animals.apply(target, rec, ctx) end
  local old = F().status(target)
  local new = C.combine(old, e)
  target.status = new
  target.wounded_turn = target.wounded_turn or ctx.turn
  local notes = {
    dead = "dead: removed from the board at the end of this phase",
    litter_case = "a litter case: may be given assistance next turn by non-injured infantrymen",
    walking_wounded = "walking wounded: may move up to 50 m a turn, may not fire if it moves",
  }
  umpire.cite("SK Casualties", ("%s is %s"):format(target.id, notes[new] or new))
  umpire.bus.emit("sk.casualty", { figure = target, status = new, was = old, hit = rec })
end

-- SK Casualties: "Dead infantrymen are removed from the board at the end of this phase."
-- Returns the ids removed.
function C.end_of_phase(figures)
  local out = {}
  for _, f in ipairs(figures) do
    if F().status(f) == "dead" and not f.removed then
      f.removed = true
      out[#out + 1] = f.id
      umpire.cite("SK Casualties", f.id .. " is dead: removed from the board at the end of the phase")
    end
  end
  return out
end

-- How far the figure may move this turn: metres, or a pace name for animals.
function C.max_move(f)
  local s = F().status(f)
  local tr = umpire.data.troops
  if s == "dead" then return 0 end
  if F().is_animal(f) then return umpire.rules.animals.max_move(f) end
  if s == "walking_wounded" then
    umpire.cite("SK Casualties", ("%s is walking wounded: up to %d m this turn, and may not fire if it moves"):format(f.id, tr.walking_wounded_move_m))
    return tr.walking_wounded_move_m
  end
  if s == "litter_case" then
    umpire.cite("SK Casualties", f.id .. " is a litter case: it does not move on its own (it may be given assistance)")
    return 0
  end
  return nil -- unlimited by these rules (the movement rules are not in the text)
end

-- SK Casualties: "During the next turn, litter cases may be given assistance by non-injured
-- infantrymen." What assistance does is not in the text: it is recorded.
function C.assist(helper, casualty, turn)
  if F().is_animal(helper) or F().status(helper) ~= "ok" or helper.removed then
    error(("SK Casualties: %s cannot assist: only non-injured infantrymen may"):format(helper.id), 0)
  end
  if F().status(casualty) ~= "litter_case" then
    error(("SK Casualties: %s is not a litter case"):format(casualty.id), 0)
  end
  if casualty.wounded_turn and turn and turn <= casualty.wounded_turn then
    error(("SK Casualties: %s became a litter case in turn %d; assistance comes during the next turn"):format(casualty.id, casualty.wounded_turn), 0)
  end
  casualty.assisted_by = helper.id
  umpire.cite("SK Casualties", ("%s gives assistance to litter case %s"):format(helper.id, casualty.id))
  return true
end

-- SK Animals: "Use the same Medical Treatment chart for humans" - the chart is not in the text.
function C.medical_treatment()
  error("not implemented: SK Medical Treatment (the Medical Treatment chart is not in the text)", 0)
end

return C
