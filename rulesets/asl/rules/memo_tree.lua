-- memo_tree.lua: the trees the memos of these rules are kept in (sw_malfunction's effective
-- numbers, mg_attack's dice-independent half of an attack: issues 15 and 18). No rule of the
-- rulebook: one place for what both memos do alike.
--
-- A memo's key is a path through nested tables, one level per value read (or per group of
-- values packed into one number), walked with one table look-up per level and no loop: in the
-- sandbox each Lua bytecode costs ~17 machine instructions, so reading the values is most of
-- what an answer from a memo costs. What one look-up costs depends on its key
-- (bench/per_call.sh, LuaJIT's interpreter): by a string, or by a whole number inside the
-- table's array part, ≈ 30 instructions; by any other key (a boolean, a table, a number outside
-- the array part) ≈ 110–150, as the interpreter then leaves its fast path for a C call. So a node
-- is made with an array part for the whole numbers 0..16 (FP, ranges, B#/X#, packed counts), and
-- the memos use strings and such numbers for the values of a usual attack, booleans and tables
-- (NIL-like sentinels) only for rare ones. A path must be prefix-free (the memos make its length
-- a function of its first levels): a leaf keeps its answer at [1], which is then no child's key.
local tree = {}

-- A node: an empty table with room for the keys 0..16 in its array part (LuaJIT counts slot 0).
local function node()
  return {nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}
end

-- A memo is a data cache (umpire.data_cache): the host empties it after each run, since a run may
-- have changed umpire.data (and been refused, or put it back itself), and an answer kept then may
-- have been worked out from the changed data. An emptied memo reads as full (size = infinity, through this metatable), so the check
-- each owner makes at entry, `memo.size >= its limit`, starts it again, and a memo in use pays
-- nothing for it (its own `size` is read raw; the metatable is consulted only once emptied).
local EMPTIED = {__index = {size = 1 / 0}}

--- A fresh, empty memo: {root = its first node, size = the count of its nodes}.
function tree.new()
  local memo = setmetatable(umpire.data_cache(), EMPTIED)
  memo.root, memo.size = node(), 0
  return memo
end

--- Empties `memo` in place (its owner keeps the same table, and whatever else it wrote there):
-- a memo starts again past its owner's limit, or when what its answers depend on changes.
function tree.clear(memo)
  memo.root = node()
  memo.size = 0
end

--- The child of `parent` (a node of `memo`) for a value `v` met there for the first time; a NaN,
-- which is no table key, gets a child of its own that the memo does not keep.
function tree.grow(memo, parent, v)
  local child = node()
  if v == v then
    parent[v] = child
    memo.size = memo.size + 1
  end
  return child
end

return tree
