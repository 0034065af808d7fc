-- D2.4-D2.42: Motion status, Motion attempts and their consequences; D2.15 Minimum Move.
local function VM() return umpire.rules.vehicle_movement end
local function Mo() return umpire.rules.vehicle_motion end

test("D2.4: a vehicle that spends its whole allotment without stopping ends in Motion", function()
  VM().setup("d2_misc")
  local v = VM().place("t", { type = "pzkpfw_vie", hex = "A5", vca = { "B4", "B5" } })   -- NE corner of A5
  VM().begin_mph("t")
  VM().move("t", { { kind = "start" }, { kind = "delay_not_allowed_placeholder" } }) 
end)
