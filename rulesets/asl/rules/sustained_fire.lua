-- sustained_fire.lua: A9.3 Sustained Fire.
local sf = {}
-- umpire.cite is fixed for the load generation that loads this module: kept in a local, since every
-- look-up through the read-only `umpire` view costs an attack time (issue 18).
local cite = umpire.cite
-- Whether the journal is on (an odds run turns it off): the citations an attack always makes are
-- made only then (each call of umpire.cite still cost an attack ~250 machine instructions with the
-- journal off, where it returns at once: bench/per_call.sh).
local journal_on = umpire.journal.on

--- Is this attack Sustained Fire? ctx: {phase, subsequent_first_fire, fpf}. A MG using Subsequent First
-- Fire/FPF (A8.3/A8.31), or firing in the DFPh while marked with a First Fire counter (A8.4), is using it.
function sf.applies(mg, ctx)
  local yes = ctx.subsequent_first_fire or ctx.fpf or (ctx.phase == "DFPh" and mg.fire_counter == "First Fire")
  return yes and true or false
end

local NONE = {}

--- Check the restrictions of A9.3 and cite the effects. ctx.firers: the units firing the MG.
-- Returns {area = the Area Fire reason (A7.23)}: tables of their own each time, since a caller (a
-- house rule too) may write them, and a shared one would carry the write into later checks.
function sf.check(mg, ctx)
  if mg.vehicular and not mg.main_armament then error("A9.3: Sustained Fire cannot be used by a vehicular MG (EXC: MA, A8.4)") end
  if ctx.as_ordnance then error("A9.3: Sustained Fire cannot be used when firing as ordnance") end
  local f = ctx.firers or NONE
  if #f == 1 and (f[1].kind == "leader" or f[1].kind == "smc" or f[1].kind == "hero") then
    error("A9.3: Sustained Fire cannot be used by a MG fired by a lone SMC")
  end
  if journal_on() then cite("A9.3", "%s uses Sustained Fire: B# lowered by two (A.11), FP halved as Area Fire, Final Fire counter regardless of ROF", mg.name or "MG") end
  return {area = {why = "Sustained Fire", rule = "A9.3"}}
end

-- The functions as this module writes them: mg_attack skips their work (it keeps their answers
-- while the journal is off) only while umpire.rules holds these; a house rule replacing one is
-- asked every time.
sf.applies_as_written, sf.check_as_written = sf.applies, sf.check

return sf
