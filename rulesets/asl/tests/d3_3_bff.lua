-- D3.3-D3.32: Bounding First Fire.
local function VM() return umpire.rules.vehicle_movement end
local function BF() return umpire.rules.bounding_first_fire end

test("D3.3: vehicular ordnance in Bounding First Fire must use a Case C To Hit DRM; Case C4 if not stopped (D2.42)", function()
  VM().setup("d2_misc")
  VM().begin_mph("tank")
  raises(function() BF().fire("tank", { weapon = "MA", ordnance = true, case = "A" }) end, "D3%.3")
  local r = BF().fire("tank", { weapon = "MA", ordnance = true, case = "C" })
  eq(r.counter, "Bounding Fire")
  VM().step("tank", { kind = "start" })
  raises(function() BF().fire("tank", { weapon = "MA", ordnance = true, case = "C1" }) end, "D2%.42")
  eq(BF().fire("tank", { weapon = "MA", ordnance = true, case = "C4" }).case, "C4")
end)

test("D3.3/D3.32: MA that kept its Multiple ROF gets no Bounding Fire counter and may fire once more in the AFPh", function()
  VM().setup("d2_misc")
  VM().begin_mph("tank")
  local r = BF().fire("tank", { weapon = "MA", ordnance = true, case = "C", multiple_rof_kept = true })
  eq(r.counter, nil)
  local a = BF().afph("tank")
  eq(a.may_fire, true); eq(a.weapon, "MA"); eq(a.case, "C"); eq(a.fp_factor, 0.5)
end)

test("D3.31: MG Bounding First Fire is halved (and halved again as Motion Fire); then no other weapons in the AFPh", function()
  VM().setup("d2_misc")
  VM().begin_mph("tank")
  eq(BF().fire("tank", { weapon = "CMG", fp = 4 }).fp, 2)
  VM().step("tank", { kind = "start" })
  eq(BF().fire("tank", { weapon = "BMG", fp = 4 }).fp, 1)
  eq(BF().afph("tank").may_fire, false)
  eq(BF().afph("tank").rule, "D3.31")
end)
