-- SK Cover (the exposure table) and SK Posture.
local R, TB, FG = umpire.rules.resolution, umpire.rules.tables, umpire.rules.figures

local function soldier(t)
  t.side = t.side or "red"
  t.equipment = t.equipment or { "steel_helmet" }
  return t
end
local function rifle() return { weapon = TB.weapon("rifle") } end
local function with_option(k, v, fn)
  local o = umpire.data.options
  local old = o[k]
  o[k] = v
  local okay, err = pcall(fn)
  o[k] = old
  if not okay then error(err, 0) end
end

-- the effect of each location die 1..6 on a figure
local function column(make, wctx)
  local out = {}
  for roll = 1, 6 do out[roll] = R.locate(make(roll), roll, wctx or rifle()).effect end
  return out
end

test("SK Cover: prone in the open leaves 1 and 2 exposed", function()
  eq(column(function(i) return soldier{ id = "p" .. i, posture = "prone" } end),
     { "death", "death", "stopped_by_cover", "stopped_by_cover", "stopped_by_cover", "stopped_by_cover" })
  ok(umpire.journal.cited("SK Cover"))
end)

test("SK Cover: kneeling in the open leaves 1-4 exposed; standing leaves everything", function()
  eq(column(function(i) return soldier{ id = "k" .. i, posture = "kneeling" } end),
     { "death", "death", "litter_case", "litter_case", "stopped_by_cover", "stopped_by_cover" })
  eq(column(function(i) return soldier{ id = "s" .. i } end),
     { "death", "death", "litter_case", "litter_case", "walking_wounded", "walking_wounded" })
end)

test("SK Cover: a firing port leaves only 1 exposed", function()
  eq(column(function(i) return soldier{ id = "f" .. i, cover = "firing_port" } end),
     { "death", "stopped_by_cover", "stopped_by_cover", "stopped_by_cover", "stopped_by_cover", "stopped_by_cover" })
end)

test("SK Posture: a standing figure behind a low wall is kneeling behind it (1, 2, 3 exposed)", function()
  eq(column(function(i) return soldier{ id = "w" .. i, cover = "low_wall", posture = "standing" } end),
     { "death", "death", "litter_case", "stopped_by_cover", "stopped_by_cover", "stopped_by_cover" })
  ok(umpire.journal.cited("SK Posture"))
end)

test("SK Posture: hard cover is used whatever the pose (prone behind a window is the window row)", function()
  eq(FG.exposure(soldier{ id = "x", cover = "window", posture = "prone" }), "window")
end)

test("SK Posture: a kneeling figure that moved at crawling speed is prone", function()
  eq(FG.exposure(soldier{ id = "c", posture = "kneeling", moved = "crawl" }), "prone_in_the_open")
  eq(R.locate(soldier{ id = "c2", posture = "kneeling", moved = "crawl" }, 3, rifle()).effect, "stopped_by_cover")
  eq(FG.exposure(soldier{ id = "d", posture = "kneeling", moved = "walk" }), "kneeling_in_the_open")
end)

test("SK Cover: around a corner, right 2/4/6 and left 1/3/5", function()
  eq(column(function(i) return soldier{ id = "r" .. i, cover = "corner_right" } end),
     { "stopped_by_cover", "death", "stopped_by_cover", "litter_case", "stopped_by_cover", "walking_wounded" })
  eq(column(function(i) return soldier{ id = "l" .. i, cover = "corner_left" } end),
     { "death", "stopped_by_cover", "litter_case", "stopped_by_cover", "walking_wounded", "stopped_by_cover" })
end)

test("SK Cover: the other rows as printed", function()
  for id, exposed in pairs({ over_high_wall = { 1, 2 }, prepared_foxhole = { 1, 2 }, hasty_foxhole = { 1, 2, 3 }, window = { 1, 2, 3 } }) do
    eq(TB.cover(id).exposed, exposed, id)
  end
  raises(function() FG.exposure(soldier{ id = "z", cover = "haystack" }) end, "unknown cover position 'haystack'")
end)

test("SK Cover: cover protects from small arms fire; not from a grenade unless options.cover_stops = all", function()
  local g = { weapon = TB.weapon("hand_grenade") }
  eq(R.locate(soldier{ id = "a", posture = "prone" }, 5, g).effect, "walking_wounded")
  with_option("cover_stops", "all", function()
    eq(R.locate(soldier{ id = "b", posture = "prone" }, 5, g).effect, "stopped_by_cover")
  end)
end)

test("SK Cover (options.cover_check): natural roll by default; the modified roll when switched", function()
  local function kit(id) return soldier{ id = id, posture = "prone", equipment = { "ballistic_helmet", "hard_body_armour" } } end
  -- natural 1 is exposed; +2 makes it a 3, chest: litter case
  local r = R.locate(kit("a"), 1, rifle())
  eq(r.modified, 3)
  eq(r.effect, "litter_case")
  with_option("cover_check", "modified", function()
    eq(R.locate(kit("b"), 1, rifle()).effect, "stopped_by_cover")
    -- a natural 3 (covered) without a helmet becomes an exposed 2: shoulders
    eq(R.locate(soldier{ id = "c", posture = "prone", equipment = {} }, 3, rifle()).effect, "death")
  end)
  eq(R.locate(soldier{ id = "d", posture = "prone", equipment = {} }, 3, rifle()).effect, "stopped_by_cover")
end)

test("SK Cover: a mounted rider uses options.mounted_exposure (standing in the open)", function()
  local rider = soldier{ id = "rider", mount = "horse" }
  eq(FG.exposure(rider), "standing_in_the_open")
  rider.dismounted = true
  rider.posture = "prone"
  eq(FG.exposure(rider), "prone_in_the_open")
end)
