-- BA One-shot: fired once per game, then the model no longer carries it; one-shot models may
-- fire at a separate enemy unit, declared with the unit's target.
local OS = {}
local RULE = "BA One-shot"

function OS.declare_split(f, o)
  if not umpire.rules.weapons.has(f.profile, "one_shot") then
    error(("%s (%s) cannot fire at a different target from its unit: only one-shot weapons may (BA One-shot)"):format(f.model.id, f.profile.name), 0)
  end
  umpire.cite(RULE, ("%s (%s) fires at its own target, declared with the unit's target"):format(f.model.id, f.profile.name))
end

-- "Once fired replace the model with another model that does not carry the disposable weapon."
function OS.spend(f)
  local m = f.model
  m.spent_weapon = m.weapon
  m.weapon = m.other_weapon   -- what the replacement model carries (nil: nothing)
  umpire.cite(RULE, ("%s has fired its %s (once per game)"):format(m.id, f.profile.name))
end

return OS
